package cast

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestReadAcceptsOtherToolsRecordings(t *testing.T) {
	// As asciinema itself writes them: extra header fields, a trailing
	// newline, and a blank line that is skipped.
	rec := `{"version": 2, "width": 80, "height": 24, "timestamp": 1504467315, "idle_time_limit": 2.0, "env": {"SHELL": "/bin/zsh", "TERM": "xterm-256color"}, "theme": {"fg": "#fff"}}
[0.248848, "o", "\u001b[1;31mHello \u001b[32mWorld!\u001b[0m\n"]

[1.001376, "i", "x"]
[1.5, "r", "90x30"]
[2, "m", ""]
`
	h, events, err := Read(strings.NewReader(rec))
	if err != nil {
		t.Fatal(err)
	}
	wantH := Header{Version: 2, Width: 80, Height: 24, Timestamp: 1504467315, Env: map[string]string{"SHELL": "/bin/zsh", "TERM": "xterm-256color"}}
	if !reflect.DeepEqual(h, wantH) {
		t.Errorf("header = %+v, want %+v", h, wantH)
	}
	want := []Event{
		{0.248848, "o", "\x1b[1;31mHello \x1b[32mWorld!\x1b[0m\n"},
		{1.001376, "i", "x"},
		{1.5, "r", "90x30"},
		{2, "m", ""},
	}
	if !reflect.DeepEqual(events, want) {
		t.Errorf("events\n got %#v\nwant %#v", events, want)
	}
}

func TestReadErrors(t *testing.T) {
	const hdr = `{"version":2,"width":80,"height":24}` + "\n"
	for _, tc := range []struct {
		name, rec string
		line      int // 0: not a LineError
		want      string
	}{
		{"empty", "", 0, "empty recording"},
		{"only blank lines", "\n\n", 0, "empty recording"},
		{"header not JSON", "{version 2}\n", 1, "header"},
		{"header is an event", `[0, "o", "x"]` + "\n", 1, "want a JSON object"},
		{"version 1", `{"version":1,"width":80,"height":24}`, 1, "version is 1"},
		{"version 3", `{"version":3,"term":{"cols":80,"rows":24}}`, 1, "version is 3"},
		{"no size", `{"version":2}`, 1, "terminal size 0x0"},
		{"event not JSON", hdr + `[0.1, "o", "a"]` + "\n" + `[0.2, "o", "b"` + "\n", 3, "JSON array"},
		{"event an object", hdr + `{"time":1}`, 2, "JSON array"},
		{"event too short", hdr + `[0.1, "o"]`, 2, "has 2 elements"},
		{"time a string", hdr + `["0.1", "o", "a"]`, 2, "not a number"},
		{"data a number", hdr + `[0.1, "o", 5]`, 2, "not a string"},
		{"negative time", hdr + `[-1, "o", "a"]`, 2, "negative"},
		{"unknown type", hdr + `[0.1, "x", "a"]`, 2, `type "x" is unknown`},
		{"not monotonic", hdr + `[0.5, "o", "a"]` + "\n\n" + `[0.25, "o", "b"]`, 4, "before the previous event's 0.500000"},
		{"bad resize", hdr + `[0.5, "r", "80 by 24"]`, 2, "not WIDTHxHEIGHT"},
		{"zero resize", hdr + `[0.5, "r", "0x24"]`, 2, "not WIDTHxHEIGHT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Read(strings.NewReader(tc.rec))
			if err == nil {
				t.Fatal("Read succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
			var le *LineError
			switch {
			case tc.line == 0 && errors.As(err, &le):
				t.Errorf("error %q names a line", err)
			case tc.line != 0 && (!errors.As(err, &le) || le.Line != tc.line):
				t.Errorf("error %q: want a LineError for line %d", err, tc.line)
			}
		})
	}
}
