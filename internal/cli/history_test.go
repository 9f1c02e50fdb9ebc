package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/history"
)

// TestHistoryFreshInstall: before serve has asked anything there is no
// file, which is no failure.
func TestHistoryFreshInstall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none", "history.jsonl")
	o := runCLI(t, context.Background(), strings.NewReader(""), mustNotOpenTTY(t), "history", "--history", path)
	if o.code != 0 || !strings.Contains(o.stdout, "No history yet") || !strings.Contains(o.stdout, path) || o.stderr != "" {
		t.Errorf("history on a fresh install: exit %d, stdout %q, stderr %q; want 0 and a line saying there is no history yet", o.code, o.stdout, o.stderr)
	}
	o = runCLI(t, context.Background(), strings.NewReader(""), mustNotOpenTTY(t), "history", "--json", "--history", path)
	if o.code != 0 || o.stdout != "" || o.stderr != "" {
		t.Errorf("history --json on a fresh install: exit %d, stdout %q, stderr %q; want 0 and no output", o.code, o.stdout, o.stderr)
	}
}

// TestHistoryJSONPrintsEveryRecord: -n's default of 20 is for people
// reading; a program reading --json gets every record unless it asks for
// fewer.
func TestHistoryJSONPrintsEveryRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	l, err := history.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for range 25 {
		if err := l.Append(history.Record{Outcome: interaction.OutcomeAnswered}); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"--json"}, 25},
		{[]string{"--json", "-n", "3"}, 3},
		{[]string{"--json", "-n", "0"}, 25},
	} {
		o := runCLI(t, context.Background(), strings.NewReader(""), mustNotOpenTTY(t), append([]string{"history", "--history", path}, c.args...)...)
		if got := strings.Count(o.stdout, "\n"); o.code != 0 || got != c.want {
			t.Errorf("history %s: exit %d, %d lines; want 0 and %d (stderr %q)", strings.Join(c.args, " "), o.code, got, c.want, o.stderr)
		}
	}
	o := runCLI(t, context.Background(), strings.NewReader(""), mustNotOpenTTY(t), "history", "--history", path)
	if got := strings.Count(o.stdout, "answered"); o.code != 0 || got != 20 {
		t.Errorf("history: exit %d, %d records; want 0 and the last 20", o.code, got)
	}
}
