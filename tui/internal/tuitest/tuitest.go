// Package tuitest is what the tests of package tui and of its program
// (tui/internal/app) share: the clock of every screen, the questions they
// ask, key names as presses, commands run inside a synctest bubble, and
// the checks of a screen. It is imported by tests only.
package tuitest

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/dlclark/regexp2"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/ui"
)

// FixedNow is the clock of every screen: ages and countdowns never show
// wall-clock time.
var FixedNow = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

// KeepRegexpClock starts the timeout clock of regexp2 (chroma's regexp
// engine: code highlighting matches with a 250 ms timeout) outside every
// synctest bubble, and keeps it running for the life of the test binary;
// call it first in TestMain. regexp2 stops its clock a second after the
// last match and starts it again on the next; started inside a bubble,
// the clock reads the bubble's fake time against a real start, never
// reaches its end, and the bubble panics on exit with its goroutine still
// asleep.
func KeepRegexpClock() {
	re := regexp2.MustCompile("x", regexp2.None)
	re.MatchTimeout = 365 * 24 * time.Hour
	_, _ = re.MatchString("x")
}

// KeyMsgs are the presses key name k stands for (keys.Parse); it panics
// on a name keys.Parse refuses.
func KeyMsgs(k string) []tea.KeyPressMsg {
	msgs, err := keys.Parse(k)
	if err != nil {
		panic(err)
	}
	return msgs
}

// RunCmd runs c and returns its message, or, when c is still waiting once
// the bubble is idle, the channel its message will come on. It must run
// inside a synctest bubble.
func RunCmd(c tea.Cmd) (tea.Msg, chan tea.Msg) {
	ch := make(chan tea.Msg, 1)
	go func() { ch <- c() }()
	synctest.Wait()
	select {
	case msg := <-ch:
		return msg, nil
	default:
		return nil, ch
	}
}

// Flatten runs cmd and the batches it returns, collecting their messages;
// commands still waiting (timers) are left. It must run inside a synctest
// bubble.
func Flatten(cmd tea.Cmd) []tea.Msg {
	var out []tea.Msg
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg, _ := RunCmd(c)
		switch msg := msg.(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			out = append(out, msg)
		}
	}
	return out
}

// MustContain fails unless screen s contains every one of subs.
func MustContain(t testing.TB, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Fatalf("screen lacks %q:\n%s", sub, s)
		}
	}
}

// MustNotContain fails when screen s contains any of subs.
func MustNotContain(t testing.TB, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			t.Fatalf("screen unexpectedly contains %q:\n%s", sub, s)
		}
	}
}

// MustFit fails when screen s has more rows or columns than w×h.
func MustFit(t testing.TB, s string, w, h int) {
	t.Helper()
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		t.Errorf("screen has %d rows, more than %d", len(lines), h)
	}
	for _, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("row is %d columns wide, more than %d: %q", n, w, l)
		}
	}
}

// Opts are options with these labels.
func Opts(labels ...string) []interaction.Option {
	o := make([]interaction.Option, len(labels))
	for i, l := range labels {
		o[i] = interaction.Option{Label: l}
	}
	return o
}

// Single is a request of q alone, from claude-code.
func Single(q interaction.Question) interaction.Request {
	return interaction.Request{Questions: []interaction.Question{q}, Agent: &interaction.Agent{ID: "claude", Name: "claude-code"}}
}

// DeployQuestion is a single-select question with a recommended option.
func DeployQuestion() interaction.Question {
	return interaction.Question{
		ID: "deploy", Header: "Deploy", Question: "Deploy the release to production now?",
		Options: []interaction.Option{
			{Label: "Yes (Recommended)", Description: "All checks passed on main."},
			{Label: "No", Description: "Keep the release staged."},
			{Label: "Only canary"},
		},
	}
}

// SetupRequest is a batch of four questions: two single-select, a
// multi-select and a free-text one.
func SetupRequest() interaction.Request {
	return interaction.Request{
		Agent: &interaction.Agent{ID: "codex"},
		Questions: []interaction.Question{
			{ID: "env", Header: "Environment", Question: "Where should it run?", Options: Opts("Staging", "Production")},
			{ID: "db", Header: "Database", Question: "Which database?", Options: Opts("Postgres (Recommended)", "SQLite")},
			{ID: "extras", Header: "Extras", Question: "Which extras?", MultiSelect: true, Options: Opts("Metrics", "Tracing", "Logs")},
			{ID: "notes", Question: "Anything else?"},
		},
	}
}

// Common is what a pane shares with the program, as a test's program
// gives it: the dark look, the key table, and FixedNow for a clock.
func Common() *ui.Common {
	st := styles.For(styles.ThemeDark, true)
	return &ui.Common{Styles: st, Markdown: cell.NewMarkdown(st), Keys: keys.Default(), Now: func() time.Time { return FixedNow }}
}

// Press hands pane p the presses key name k stands for, as the program's
// dispatch does: the first of its acting actions that matches runs, and a
// key no action takes goes to its text input, if it has one. The
// program's own keys and its hold are not in play.
func Press(t testing.TB, p ui.Pane, k string) {
	t.Helper()
	msgs, err := keys.Parse(k)
	if err != nil {
		t.Fatal(err)
	}
next:
	for _, msg := range msgs {
		for _, a := range ui.Acting(p) {
			if key.Matches(msg, a.Key) {
				a.Do(msg)
				continue next
			}
		}
		if typist := p.Typist(); typist != nil {
			typist(msg)
		}
	}
}
