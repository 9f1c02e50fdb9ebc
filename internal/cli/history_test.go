package cli

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

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
	l.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"--json"}, 25},
		{[]string{"--json", "-n", "3"}, 3},
		{[]string{"--json", "-n", "0"}, 25},
		{[]string{"--json", "--limit", "2"}, 2},
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

// TestHistoryHelpNamesTheLimit: the help lists -n with a long name that
// reads (issue 35: it listed "-n --n").
func TestHistoryHelpNamesTheLimit(t *testing.T) {
	o := runCLI(t, context.Background(), strings.NewReader(""), mustNotOpenTTY(t), "history", "--help")
	if o.code != 0 || !strings.Contains(o.stdout, "-n --limit") || strings.Contains(o.stdout, "--n ") {
		t.Errorf("history --help: exit %d, stdout:\n%s\nwant -n --limit and no --n", o.code, o.stdout)
	}
}

// TestHistoryRefusesNegativeN: -n -1 was taken as "all" without a word
// (issue 18).
func TestHistoryRefusesNegativeN(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	for _, args := range [][]string{{"-n", "-1"}, {"--json", "-n", "-3"}} {
		o := runCLI(t, context.Background(), strings.NewReader(""), mustNotOpenTTY(t), append([]string{"history", "--history", path}, args...)...)
		e := envelope(t, o.stderr)
		if o.code != exitUsage || e.Code != interaction.CodeInvalidRequest || !strings.Contains(e.Message, "-n") || o.stdout != "" {
			t.Errorf("history %s: exit %d, %+v, stdout %q; want exit %d, INVALID_REQUEST about -n", strings.Join(args, " "), o.code, e, o.stdout, exitUsage)
		}
	}
}

// TestHistoryInTheOrderOfItsTimes: the records come in the order they
// ended, so each is stamped with when it ended (issue 18: they were
// stamped with their arrival, out of order when an early question was
// answered late).
func TestHistoryInTheOrderOfItsTimes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	l, err := history.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2025, 6, 1, 10, 0, 0, 0, time.Local)
	for _, r := range []history.Record{
		{ID: "a", Time: t0, Outcome: history.Asked},
		{ID: "b", Time: t0.Add(time.Minute), Outcome: history.Asked},
		{ID: "b", Time: t0.Add(time.Minute), Outcome: interaction.OutcomeAnswered, Waited: history.Duration(time.Minute)},
		{ID: "a", Time: t0, Outcome: interaction.OutcomeWithdrawn, Waited: history.Duration(5 * time.Minute)},
		{ID: "c", Time: t0.Add(6 * time.Minute), Outcome: history.Asked},
	} {
		if err := l.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	l.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	o := runCLI(t, context.Background(), strings.NewReader(""), mustNotOpenTTY(t), "history", "--history", path)
	stamps := regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d`).FindAllString(o.stdout, -1)
	want := []string{"2025-06-01 10:02:00", "2025-06-01 10:05:00", "2025-06-01 10:06:00"}
	if o.code != 0 || !slices.Equal(stamps, want) {
		t.Errorf("history: exit %d, stamps %q, want %q:\n%s", o.code, stamps, want, o.stdout)
	}
	if !strings.Contains(o.stdout, "withdrawn  asked 10:00:00, waited 5m0s") {
		t.Errorf("history does not say when the withdrawn question was asked:\n%s", o.stdout)
	}
}
