package interaction

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// scanOptions decodes a JSON array of options in its common form, objects
// whose keys are exactly "label", "description" or "preview" with string
// values, as encoding/json would, and reports false for anything else
// (another key or value, a key spelt in another case, invalid JSON), which
// the caller then leaves to encoding/json.
//
// It exists for the long lists: encoding/json decodes an option through
// reflection and allocates each string on its own, about 0.4 µs and one
// allocation per option, which for 100,000 options was most of the time
// before `asktui ask` drew its first frame. Here the strings without
// escapes are slices of one copy of data, so the whole list costs two
// allocations.
func scanOptions(data []byte) ([]Option, bool) {
	s := scanner{src: string(data)}
	if !s.byte('[') {
		return nil, false
	}
	// Each option object has one '{', and counting bytes is much faster
	// than counting elements: the count is exact unless strings hold
	// braces, and bounded by the limit the request is checked against.
	opts := make([]Option, 0, min(bytes.Count(data, []byte{'{'}), MaxOptions+1))
	if s.byte(']') {
		return opts, s.end()
	}
	for {
		var o Option
		if !s.object(&o) {
			return nil, false
		}
		opts = append(opts, o)
		if s.byte(']') {
			return opts, s.end()
		}
		if !s.byte(',') {
			return nil, false
		}
	}
}

// scanner reads JSON from src, one token at a time.
type scanner struct {
	src string
	pos int
}

// space skips JSON whitespace.
func (s *scanner) space() {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// byte consumes c, after whitespace, when it comes next.
func (s *scanner) byte(c byte) bool {
	s.space()
	if s.pos < len(s.src) && s.src[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

// end reports whether nothing but whitespace is left.
func (s *scanner) end() bool {
	s.space()
	return s.pos == len(s.src)
}

// object decodes one option object into o.
func (s *scanner) object(o *Option) bool {
	if !s.byte('{') {
		return false
	}
	if s.byte('}') {
		return true
	}
	for {
		s.space()
		key, ok := s.string()
		if !ok || !s.byte(':') {
			return false
		}
		s.space()
		val, ok := s.string()
		if !ok {
			return false
		}
		switch key {
		case "label":
			o.Label = val
		case "description":
			o.Description = val
		case "preview":
			o.Preview = val
		default:
			return false
		}
		if s.byte('}') {
			return true
		}
		if !s.byte(',') {
			return false
		}
	}
}

// string decodes the JSON string at the current position. One without
// escapes, in valid UTF-8, is a slice of src; one with escapes is decoded
// by encoding/json, which also decides what invalid UTF-8 becomes.
func (s *scanner) string() (string, bool) {
	if s.pos >= len(s.src) || s.src[s.pos] != '"' {
		return "", false
	}
	start := s.pos + 1
	plain := true
	i := start
	for ; i < len(s.src); i++ {
		c := s.src[i]
		switch {
		case c == '"':
			lit := s.src[start:i]
			s.pos = i + 1
			if plain && utf8.ValidString(lit) {
				return lit, true
			}
			var v string
			if json.Unmarshal([]byte(s.src[start-1:i+1]), &v) != nil {
				return "", false
			}
			return v, true
		case c == '\\':
			plain = false
			i++ // the escaped byte cannot end the string
		case c < ' ':
			return "", false // invalid JSON: encoding/json says where
		}
	}
	return "", false
}
