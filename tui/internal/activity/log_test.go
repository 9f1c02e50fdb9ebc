package activity

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/keys"
)

func TestToolLineReadsLikeACommand(t *testing.T) {
	for args, want := range map[string]string{ //nolint:gosec // tool inputs for the test, no credential
		`{"path":"payments/charge.go"}`:                 "read_file payments/charge.go",
		`{"command":"go test ./...","timeout":60}`:      `read_file go test ./... timeout=60`,
		`{"pattern":"TODO","path":"internal"}`:          "read_file internal pattern=TODO",
		`{"a":"one two","b":true}`:                      `read_file a="one two" b=true`,
		`not json`:                                      "read_file not json",
		`{}`:                                            "read_file",
		`{"text":"first line\nsecond line"}`:            "read_file first line …",
		"{\"path\":\"x\\u001b]0;pwned\\u0007\"}":        "read_file x␛",
		`{"query":"a","url":"https://example.com/a b"}`: `read_file a url="https://example.com/a b"`,
		`{"path":"x","where":{"q":"a<b && c>d"}}`:       `read_file x where={"q":"a<b && c>d"}`,
	} {
		if got := toolLine("read_file", args); got != want {
			t.Errorf("toolLine(%s) = %q, want %q", args, got, want)
		}
	}
}

func TestActivityLogCapKeepsLinesInStep(t *testing.T) {
	st := styles.For(styles.ThemeDark, true)
	l := NewLog()
	l.agent("codex", "codex")
	for i := range MaxEntries + 50 {
		if i == 1 {
			l.view(60, 10, st, keys.Default().Activity.End) // lay out at 60 and 100 columns, as the screen would
			l.view(100, 10, st, keys.Default().Activity.End)
		}
		text := fmt.Sprintf("entry %d", i)
		if i%7 == 0 {
			text += "\nsecond line"
		}
		l.Add(Entry{Kind: EntryMessage, Agent: "codex", Text: text}, st)
	}
	if len(l.entries) != MaxEntries {
		t.Fatalf("%d entries kept, want %d", len(l.entries), MaxEntries)
	}
	incremental := append([]string(nil), l.layout(60, st).lines...)
	l.Restyle()
	if fresh := l.layout(60, st).lines; !slices.Equal(incremental, fresh) {
		t.Fatalf("the capped log's lines differ from a fresh layout: %d vs %d lines", len(incremental), len(fresh))
	}
	if got := ansi.Strip(l.view(60, 1, st, keys.Default().Activity.End)); !strings.Contains(got, fmt.Sprintf("entry %d", MaxEntries+49)) {
		t.Errorf("newest line = %q, want the last entry", got)
	}
	// The other width was kept up to date too.
	kept := append([]string(nil), l.layout(100, st).lines...)
	l.Restyle()
	if fresh := l.layout(100, st).lines; !slices.Equal(kept, fresh) {
		t.Fatalf("the second layout drifted from a fresh one: %d vs %d lines", len(kept), len(fresh))
	}
}
