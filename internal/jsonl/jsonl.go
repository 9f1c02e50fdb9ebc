// Package jsonl writes JSON the way asktui speaks it everywhere: one value
// per line, and no HTML escaping, because the values carry people's and
// models' text ("a < b" stays "a < b", not "a \u003c b"). The history file,
// the socket protocol, the answers on standard output, the error envelopes
// and the recordings all go through it.
//
// A line never holds a raw newline: encoding/json escapes control
// characters in strings and compacts the output of MarshalJSON methods.
// The package imports only the standard library.
package jsonl

import (
	"bytes"
	"encoding/json"
	"io"
)

// MarshalLine returns v as one line of JSON, ending in "\n".
func MarshalLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Marshal returns v as JSON on one line, without the final "\n": for
// MarshalJSON methods and values embedded in other text.
func Marshal(v any) ([]byte, error) {
	b, err := MarshalLine(v)
	if err != nil {
		return nil, err
	}
	return b[:len(b)-1], nil
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
