package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

type rawMarshaler struct{}

// MarshalJSON returns indented JSON, which the line must not keep.
func (rawMarshaler) MarshalJSON() ([]byte, error) { return []byte("{\n  \"a\": \"<b>\"\n}"), nil }

func TestMarshalLine(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"html stays", map[string]string{"text": "a < b && c > d"}, `{"text":"a < b && c > d"}`},
		{"controls escaped", "line\nbreak\t\x1b", `"line\nbreak\t\u001b"`},
		{"invalid UTF-8", "bad\xff", `"bad\ufffd"`},
		{"a MarshalJSON's newlines", rawMarshaler{}, `{"a":"<b>"}`},
		{"line and paragraph separators", "\u2028\u2029", `"\u2028\u2029"`},
		{"C1 controls escaped", "a\u009b31mb\u0085", `"a\u009b31mb\u0085"`},
		{"bidi controls escaped", "\u202eevil\u202c \u2066x\u2069 \u200e\u200f\u061c", `"\u202eevil\u202c \u2066x\u2069 \u200e\u200f\u061c"`},
		{"other non-ASCII kept", "é ü ✓ 😀 \u00a0 \u2030", "\"é ü ✓ 😀 \u00a0 \u2030\""},
		{"in keys too", map[string]int{"\u202e": 1}, `{"\u202e":1}`},
	}
	for _, tt := range tests {
		line, err := MarshalLine(tt.v)
		if err != nil || string(line) != tt.want+"\n" {
			t.Errorf("%s: MarshalLine = %q, %v; want %q", tt.name, line, err, tt.want+"\n")
		}
		b, err := Marshal(tt.v)
		if err != nil || string(b) != tt.want {
			t.Errorf("%s: Marshal = %q, %v; want %q", tt.name, b, err, tt.want)
		}
		if strings.Count(string(line), "\n") != 1 || !json.Valid(line) {
			t.Errorf("%s: %q is not one line of valid JSON", tt.name, line)
		}
	}
	if _, err := Marshal(math.Inf(1)); err == nil {
		t.Error("Marshal(+Inf) succeeded")
	}
}

// oneWrite fails a second Write, and records the first.
type oneWrite struct{ got []byte }

func (w *oneWrite) Write(p []byte) (int, error) {
	if w.got != nil {
		return 0, errors.New("a second write")
	}
	w.got = bytes.Clone(p)
	return len(p), nil
}

func TestWrite(t *testing.T) {
	var w oneWrite
	if err := Write(&w, map[string]any{"id": 1, "q": "<?>"}); err != nil {
		t.Fatal(err)
	}
	if string(w.got) != `{"id":1,"q":"<?>"}`+"\n" {
		t.Errorf("wrote %q", w.got)
	}
	if err := Write(&oneWrite{}, math.NaN()); err == nil {
		t.Error("Write(NaN) succeeded")
	}
}

func TestAppendString(t *testing.T) {
	got := AppendString([]byte("x="), "a <b> \"c\"\n\xff")
	if want := `x="a <b> \"c\"\n\ufffd"`; string(got) != want {
		t.Errorf("AppendString = %q, want %q", got, want)
	}
}

// TestEscapesKeepTheValues: the escapes decode to the very strings that
// were encoded.
func TestEscapesKeepTheValues(t *testing.T) {
	for _, s := range []string{"\u0080\u009f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069", "x\u009b[2J\u001b]52;c;AAAA\u0007 ok", "é\u200e"} {
		b, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range string(b) {
			if r >= 0x80 && r <= 0x9f || r == 0x202e {
				t.Errorf("%q holds the raw character %U", b, r)
			}
		}
		var back string
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Errorf("%q decodes to %q, %v; want %q", b, back, err, s)
		}
	}
}

func BenchmarkMarshalLine(b *testing.B) {
	v := map[string]any{"id": 1, "answer": map[string]any{"answers": []map[string]any{{"id": "db", "selected": []string{"Postgres — the usual", "SQLite"}}}}}
	for b.Loop() {
		if _, err := MarshalLine(v); err != nil {
			b.Fatal(err)
		}
	}
}

// The configuration asktui prints is indented by two spaces, keeps HTML
// characters, and is as inert as a line.
func TestMarshalIndent(t *testing.T) {
	b, err := MarshalIndent(map[string]any{"a": []string{"<b> && c", "\u202eevil"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"a\": [\n    \"<b> && c\",\n    \"\\u202eevil\"\n  ]\n}\n"
	if string(b) != want {
		t.Fatalf("got %q, want %q", b, want)
	}
	if _, err := MarshalIndent(math.NaN()); err == nil {
		t.Fatal("NaN encoded")
	}
}
