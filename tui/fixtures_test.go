package tui

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/dlclark/regexp2"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/tui/internal/app"
	"github.com/asktui/asktui/tui/internal/keys"
)

// The fixtures of package tui's tests, as tui/internal/app's tests have
// them: the same questions, the same clock, the same key names.

// fixedNow is the clock of every screen: ages and countdowns never show
// wall-clock time.
var fixedNow = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

// run runs a model test in a synctest bubble. The timers its commands
// left waiting fire when it ends: time in a bubble is fake, so letting an
// hour pass takes no time, and every command goroutine then returns.
func run(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		defer func() {
			time.Sleep(time.Hour) // fake time: fires the pending timers at once
			synctest.Wait()

		}()
		f(t)
	})
}

// runCmd runs c and returns its message, or nil when c is still waiting
// once the bubble is idle (a timer's: it fires when the bubble ends).
func runCmd(c tea.Cmd) tea.Msg {
	ch := make(chan tea.Msg, 1)
	go func() { ch <- c() }()
	synctest.Wait()
	select {
	case msg := <-ch:
		return msg
	default:
		return nil
	}
}

// keyMsgs are the presses key name k stands for.
func keyMsgs(k string) []tea.KeyPressMsg {
	msgs, err := keys.Parse(k)
	if err != nil {
		panic(err)
	}
	return msgs
}

func mustContain(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Fatalf("screen lacks %q:\n%s", sub, s)
		}
	}
}

func mustNotContain(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			t.Fatalf("screen unexpectedly contains %q:\n%s", sub, s)
		}
	}
}

// mustFit fails when screen s has more rows or columns than w×h.
func mustFit(t *testing.T, s string, w, h int) {
	t.Helper()
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		t.Errorf("screen has %d rows, more than %d", len(lines), h)
	}
	for _, l := range lines {
		if n := ansiWidth(l); n > w {
			t.Errorf("row is %d columns wide, more than %d: %q", n, w, l)
		}
	}
}

func opts(labels ...string) []interaction.Option {
	o := make([]interaction.Option, len(labels))
	for i, l := range labels {
		o[i] = interaction.Option{Label: l}
	}
	return o
}

func single(q interaction.Question) interaction.Request {
	return interaction.Request{Questions: []interaction.Question{q}, Agent: &interaction.Agent{ID: "claude", Name: "claude-code"}}
}

func deployQuestion() interaction.Question {
	return interaction.Question{
		ID: "deploy", Header: "Deploy", Question: "Deploy the release to production now?",
		Options: []interaction.Option{
			{Label: "Yes (Recommended)", Description: "All checks passed on main."},
			{Label: "No", Description: "Keep the release staged."},
			{Label: "Only canary"},
		},
	}
}

func setupRequest() interaction.Request {
	return interaction.Request{
		Agent: &interaction.Agent{ID: "codex"},
		Questions: []interaction.Question{
			{ID: "env", Header: "Environment", Question: "Where should it run?", Options: opts("Staging", "Production")},
			{ID: "db", Header: "Database", Question: "Which database?", Options: opts("Postgres (Recommended)", "SQLite")},
			{ID: "extras", Header: "Extras", Question: "Which extras?", MultiSelect: true, Options: opts("Metrics", "Tracing", "Logs")},
			{ID: "notes", Question: "Anything else?"},
		},
	}
}

// flatten runs cmd and the batches it returns, collecting their messages;
// commands still waiting (timers) are left.
func flatten(cmd tea.Cmd) []tea.Msg {
	var out []tea.Msg
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := runCmd(c)
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

// screen is the model's screen as last drawn, unstyled.
func screen(m *app.Model) string { return m.Screen() }

// ansiWidth is the cells s takes.
func ansiWidth(s string) int { return ansi.StringWidth(s) }

// keepRegexpClock starts the timeout clock of regexp2 (chroma's regexp
// engine: code highlighting matches with a 250 ms timeout) outside every
// synctest bubble, and keeps it running for the life of the test binary.
// regexp2 stops its clock a second after the last match and starts it
// again on the next; started inside a bubble, the clock reads the
// bubble's fake time against a real start, never reaches its end, and
// the bubble panics on exit with its goroutine still asleep.
func keepRegexpClock() {
	re := regexp2.MustCompile("x", regexp2.None)
	re.MatchTimeout = 365 * 24 * time.Hour
	_, _ = re.MatchString("x")
}
