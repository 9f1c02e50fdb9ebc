package interaction

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// countElements counts what encoding/json decodes from an array, and 0
// for anything else.
func FuzzCountElements(f *testing.F) {
	for _, s := range []string{`[]`, ` [ ] `, `[1]`, `[{"label":"a,b"},{"label":"[c]"}]`, `["x\"],", {"a":[1,2,[3]]}, null]`, `{"a":1}`, `"s"`, `[[],[[]],{}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var v any
		if json.Unmarshal([]byte(in), &v) != nil {
			return // only what encoding/json found well formed reaches it
		}
		want := 0
		if a, ok := v.([]any); ok {
			want = len(a)
		}
		if got := countElements([]byte(in)); got != want {
			t.Fatalf("countElements(%q) = %d, want %d", in, got, want)
		}
	})
}

// short says it holds fewer bytes than it does, as a file that grew.
type short struct {
	*bytes.Reader
	n int
}

func (s short) Len() int { return s.n }

func TestReadString(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 300_000)
	path := filepath.Join(t.TempDir(), "request.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path) //nolint:gosec // a path the test made, or its testdata
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for name, tc := range map[string]struct {
		r     io.Reader
		limit int
		want  []byte
	}{
		"file":                             {f, len(data) + 1, data},
		"bytes":                            {bytes.NewReader(data), len(data) + 1, data},
		"stream":                           {io.MultiReader(bytes.NewReader(data)), len(data) + 1, data},
		"longer than said":                 {short{bytes.NewReader(data), 10}, len(data) + 1, data},
		"over the limit":                   {bytes.NewReader(data), 1000, data[:1000]},
		"says it is short, over the limit": {short{bytes.NewReader(data), 10}, 1000, data[:1000]},
	} {
		got, err := readString(tc.r, tc.limit)
		if err != nil || got != string(tc.want) {
			t.Errorf("%s: %d bytes (%v), want %d", name, len(got), err, len(tc.want))
		}
	}
	// A reader that says its length is read into one buffer.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := readString(bytes.NewReader(data), len(data)+1); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(len(data))+64<<10 {
		t.Errorf("reading %d bytes allocated %d", len(data), got)
	}
	// A small one (an MCP call's arguments) costs its own size, not a
	// copy buffer of 32 KiB besides.
	small := data[:2000]
	if got := testing.AllocsPerRun(10, func() { _, _ = readString(bytes.NewReader(small), 1<<20) }); got > 3 {
		t.Errorf("reading %d bytes took %v allocations, want at most 3 (the reader, the builder and its text)", len(small), got)
	}
	runtime.ReadMemStats(&before)
	for range 10 {
		if _, err := readString(bytes.NewReader(small), 1<<20); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if got := (after.TotalAlloc - before.TotalAlloc) / 10; got > 4<<10 {
		t.Errorf("reading %d bytes allocated %d bytes, want about the size of the text", len(small), got)
	}
}
