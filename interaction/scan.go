package interaction

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// scanOptions decodes a JSON array of options in its common form, objects
// whose keys are exactly "label", "description" or "preview" with string
// values, as encoding/json would, and reports false for anything else
// (another key or value, a key spelt in another case, invalid JSON), which
// the caller then leaves to encoding/json.
//
// It exists for the long lists that reach encoding/json (an MCP call's
// arguments, or a request [scanRequest] does not take): encoding/json
// decodes an option through reflection and allocates each string on its
// own, about 0.4 µs and one allocation per option. Here the strings
// without escapes are slices of one copy of data, so the whole list costs
// two allocations.
func scanOptions(data []byte) ([]Option, bool) {
	s := scanner{src: string(data)}
	opts, ok := s.options()
	return opts, ok && s.end()
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

// scanRequest decodes a request in its common form as decodeFast would:
// an object whose keys are exactly "questions" and "agent", questions
// whose keys are those of [wireQuestion] with string, boolean and option
// values, options as [scanOptions] takes them, and an agent with string
// "id" and "name". It reports false for anything else (another key, a
// null, options as plain strings, too many questions, invalid JSON), which
// the caller then leaves to encoding/json.
//
// src is the whole request, and the strings without escapes are slices of
// it: for a long list of options, reading the request as one string and
// decoding it without encoding/json's validating pass, reflection or a
// copy is most of what `asktui ask` does before its first frame.
func scanRequest(src string) (req Request, ok bool) {
	s := scanner{src: src}
	if !s.byte('{') {
		return Request{}, false
	}
	if s.byte('}') {
		return req, s.end()
	}
	for {
		key, ok := s.key()
		if !ok {
			return Request{}, false
		}
		// A key given twice is left to encoding/json, which decodes the
		// second value into the first.
		switch key {
		case "questions":
			qs, ok := s.questions()
			if !ok || req.Questions != nil {
				return Request{}, false
			}
			req.Questions = qs
		case "agent":
			a, ok := s.agent()
			if !ok || req.Agent != nil {
				return Request{}, false
			}
			req.Agent = a
		default:
			return Request{}, false
		}
		if s.byte('}') {
			return req, s.end()
		}
		if !s.byte(',') {
			return Request{}, false
		}
	}
}

// key reads an object's key and the colon after it, leaving the position
// at the value.
func (s *scanner) key() (string, bool) {
	s.space()
	key, ok := s.string()
	if !ok || !s.byte(':') {
		return "", false
	}
	s.space()
	return key, true
}

// questions decodes the array of questions, no more than [MaxQuestions].
func (s *scanner) questions() ([]Question, bool) {
	if !s.byte('[') {
		return nil, false
	}
	qs := []Question{}
	if s.byte(']') {
		return qs, true
	}
	for {
		if len(qs) == MaxQuestions {
			return nil, false // encoding/json's path says so
		}
		w, ok := s.question()
		if !ok {
			return nil, false
		}
		qs = append(qs, w.question())
		if s.byte(']') {
			return qs, true
		}
		if !s.byte(',') {
			return nil, false
		}
	}
}

// question decodes one question object.
func (s *scanner) question() (w wireQuestion, ok bool) {
	if !s.byte('{') {
		return w, false
	}
	if s.byte('}') {
		return w, true
	}
	for {
		key, ok := s.key()
		if !ok {
			return w, false
		}
		switch key {
		case "id":
			w.ID, ok = s.string()
		case "question":
			w.Question, ok = s.string()
		case "header":
			w.Header, ok = s.string()
		case "detail":
			w.Detail, ok = s.string()
		case "options":
			w.Options, ok = s.options()
		case "multiSelect":
			w.MultiSelect, ok = s.bool()
		case "multi_select":
			w.MultiSelectSnake, ok = s.bool()
		case "multiple":
			w.Multiple, ok = s.bool()
		case "noOther":
			w.NoOther, ok = s.bool()
		default:
			ok = false
		}
		if !ok {
			return w, false
		}
		if s.byte('}') {
			return w, true
		}
		if !s.byte(',') {
			return w, false
		}
	}
}

// agent decodes the agent object.
func (s *scanner) agent() (*Agent, bool) {
	if !s.byte('{') {
		return nil, false
	}
	a := new(Agent)
	if s.byte('}') {
		return a, true
	}
	for {
		key, ok := s.key()
		if !ok {
			return nil, false
		}
		switch key {
		case "id":
			a.ID, ok = s.string()
		case "name":
			a.Name, ok = s.string()
		default:
			ok = false
		}
		if !ok {
			return nil, false
		}
		if s.byte('}') {
			return a, true
		}
		if !s.byte(',') {
			return nil, false
		}
	}
}

// bool decodes true or false.
func (s *scanner) bool() (bool, bool) {
	switch rest := s.src[s.pos:]; {
	case strings.HasPrefix(rest, "true"):
		s.pos += len("true")
		return true, s.delimited()
	case strings.HasPrefix(rest, "false"):
		s.pos += len("false")
		return false, s.delimited()
	}
	return false, false
}

// delimited reports whether a literal ends where it should: at the end of
// the input or at a byte that may follow a value ("truex" is not true).
func (s *scanner) delimited() bool {
	if s.pos == len(s.src) {
		return true
	}
	switch s.src[s.pos] {
	case ' ', '\t', '\n', '\r', ',', '}', ']':
		return true
	}
	return false
}

// options decodes an array of options in the common form, allocating the
// list once: its length is counted first.
func (s *scanner) options() ([]Option, bool) {
	if !s.byte('[') {
		return nil, false
	}
	opts := make([]Option, 0, min(arrayLen(s.src[s.pos:]), MaxOptions+1))
	if s.byte(']') {
		return opts, true
	}
	for {
		var o Option
		if !s.object(&o) {
			return nil, false
		}
		opts = append(opts, o)
		if s.byte(']') {
			return opts, true
		}
		if !s.byte(',') {
			return nil, false
		}
	}
}

// arrayLen counts the elements of the JSON array whose contents start src
// (just past its '['), stopping at its closing bracket. The count is a
// capacity to allocate: on invalid JSON it may be wrong, never more than
// the bytes of src.
func arrayLen(src string) int {
	n, depth, empty := 0, 0, true
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			// Skip the string: to the next quote not escaped.
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			empty = false
		case '[', '{':
			depth++
			empty = false
		case ']', '}':
			if depth == 0 {
				if empty {
					return 0
				}
				return n + 1
			}
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		case ' ', '\t', '\n', '\r':
		default:
			empty = false
		}
	}
	return n + 1
}
