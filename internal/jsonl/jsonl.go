// Package jsonl writes JSON the way asktui speaks it everywhere: one value
// per line, and no HTML escaping, because the values carry people's and
// models' text ("a < b" stays "a < b", not "a \u003c b"). The history file,
// the socket protocol, the answers on standard output, the error envelopes
// and the recordings all go through it.
//
// A line never holds a raw newline: encoding/json escapes control
// characters in strings and compacts the output of MarshalJSON methods.
// Nor does it hold a raw character that a terminal or a reader would act
// on where encoding/json leaves it as is: C1 controls (U+0080–U+009F,
// which some terminals read as the start of an escape sequence) and the
// bidirectional formatting controls (which make text read differently from
// what it is) are written as \u escapes, so a line printed on a terminal
// is inert and the strings decode to the same values.
//
// The package imports only the standard library and internal/sanitize,
// which defines those characters.
package jsonl

import (
	"bytes"
	"encoding/json"
	"io"
	"unicode/utf8"

	"github.com/asktui/asktui/internal/sanitize"
)

// MarshalLine returns v as one line of JSON, ending in "\n".
func MarshalLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return escapeInert(b.Bytes()), nil
}

// escapeInert returns the JSON text b with every C1 and bidirectional
// control written as a \u escape. Outside strings JSON text is ASCII, so
// every such character found is inside a string, where the escape stands
// for the same character. b comes back as is when it holds none, which is
// the common case: all of them are encoded starting with 0xC2, 0xD8 or
// 0xE2.
func escapeInert(b []byte) []byte {
	if bytes.IndexByte(b, 0xc2) < 0 && bytes.IndexByte(b, 0xd8) < 0 && bytes.IndexByte(b, 0xe2) < 0 {
		return b
	}
	var out []byte
	last := 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if sanitize.IsC1(r) || sanitize.IsBidiControl(r) {
			if out == nil {
				out = make([]byte, 0, len(b)+16)
			}
			out = append(out, b[last:i]...)
			out = append(out, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
			last = i + size
		}
		i += size
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

const hex = "0123456789abcdef"

// Marshal returns v as JSON on one line, without the final "\n": for
// MarshalJSON methods and values embedded in other text.
func Marshal(v any) ([]byte, error) {
	b, err := MarshalLine(v)
	if err != nil {
		return nil, err
	}
	return b[:len(b)-1], nil
}

// MarshalIndent returns v as JSON for people to read (the configuration
// asktui prints and writes): indented by two spaces, ending in "\n", and
// as inert as a line.
func MarshalIndent(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return escapeInert(b.Bytes()), nil
}

// Write writes v to w as one line of JSON, in a single Write call.
func Write(w io.Writer, v any) error {
	b, err := MarshalLine(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// AppendString appends s to dst as a JSON string, quotes included. Invalid
// UTF-8 is written as \ufffd, so the result is always valid JSON.
func AppendString(dst []byte, s string) []byte {
	b, _ := Marshal(s) // a string always encodes
	return append(dst, b...)
}
