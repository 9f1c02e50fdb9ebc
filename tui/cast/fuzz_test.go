package cast

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/asktui/asktui/internal/jsonl"
)

// FuzzRead feeds recordings to Read: it must never panic, fail only with
// a *LineError or an empty-recording error, accept only what it promises
// (a version 2 header with a positive size, known event types, times that
// never go backwards, well-formed resizes), and read back what writing an
// accepted recording gives.
func FuzzRead(f *testing.F) {
	if docs, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.cast")); len(docs) > 0 {
		// The committed demo recordings, cut short: the fuzzer mutates
		// small inputs best.
		data, err := os.ReadFile(docs[0])
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 2048)])
	}
	const hdr = `{"version":2,"width":80,"height":24}` + "\n"
	for _, s := range []string{
		`{"version": 2, "width": 80, "height": 24, "timestamp": 1504467315, "env": {"SHELL": "/bin/zsh", "TERM": "xterm-256color"}, "title": "t"}` + "\n" +
			`[0.248848, "o", "\u001b[1;31mHello \u001b[32mWorld!\u001b[0m\n"]` + "\n\n" + `[1.001376, "i", "x"]` + "\n" + `[1.5, "r", "90x30"]` + "\n" + `[2, "m", ""]` + "\n",
		"",
		"\n\n",
		"{version 2}\n",
		hdr + `[0.1, "o", "a"]` + "\n" + `[0.2, "o", "b"`,
		hdr + `[0.5, "o", "a"]` + "\n\n" + `[0.25, "o", "b"]`,
		hdr + `[0.5, "r", "0x24"]`,
		hdr + `[1e308, "o", "\ud800"]` + "\r\n" + `[1e308, "m", "\xff"]`,
		hdr + `[-0, "o", "a", 1]`,
		`{"version":2,"width":1,"height":-1}`,
	} {
		f.Add([]byte(s))
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		h, events, err := Read(bytes.NewReader(data))
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) && !strings.Contains(err.Error(), "empty recording") {
				t.Fatalf("error %v is a %T, want a *LineError or an empty recording", err, err)
			}
			if le != nil && le.Line < 1 {
				t.Fatalf("LineError on line %d", le.Line)
			}
			return
		}
		if err := validateHeader(h); err != nil {
			t.Fatalf("accepted a header that validateHeader rejects: %v", err)
		}
		prev := 0.0
		for i, ev := range events {
			if err := validateEvent(ev, prev); err != nil {
				t.Fatalf("accepted event %d %+v: %v", i, ev, err)
			}
			prev = ev.Time
		}

		// Written again, the recording reads back the same, up to the
		// six decimals times are written with.
		hb, err := jsonl.MarshalLine(h)
		if err != nil {
			t.Fatalf("MarshalLine(header): %v", err)
		}
		out := hb
		for _, ev := range events {
			if out, err = appendEvent(out, ev); err != nil {
				t.Fatalf("appendEvent(%+v): %v", ev, err)
			}
			out = append(out, '\n')
		}
		h2, events2, err := Read(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("reading the written recording:\n%s\n%v", out, err)
		}
		if len(h.Env) == 0 {
			h.Env = nil // omitted when empty
		}
		if !reflect.DeepEqual(h2, h) {
			t.Fatalf("header %+v read back as %+v", h, h2)
		}
		if len(events2) != len(events) {
			t.Fatalf("%d events read back as %d", len(events), len(events2))
		}
		for i, ev := range events {
			got := events2[i]
			if got.Type != ev.Type || got.Data != ev.Data || math.Abs(got.Time-ev.Time) > 5e-7*math.Max(1, ev.Time) {
				t.Fatalf("event %d %+v read back as %+v", i, ev, got)
			}
		}
	})
}
