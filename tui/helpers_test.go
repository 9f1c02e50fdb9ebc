package tui

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
)

// fixedNow is the clock of every test: screens never show wall-clock time.
var fixedNow = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

// testModel builds a root model of the given size with the dark theme and
// a fixed clock.
func testModel(t *testing.T, w, h int) *model {
	t.Helper()
	m := newModel(styles.ThemeDark, true, true, func() time.Time { return fixedNow })
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// pending is a request delivered to a model, with its reply channel.
type pending struct {
	id    uint64
	reply chan askResult
}

var nextTestID uint64

// ask delivers req to m as the provider would and runs the commands that
// setting up the form returns (huh focuses its field through them).
func ask(t *testing.T, m *model, req interaction.Request) pending {
	t.Helper()
	return askCtx(t, m, context.Background(), req, time.Time{})
}

func askCtx(t *testing.T, m *model, ctx context.Context, req interaction.Request, deadline time.Time) pending {
	t.Helper()
	if err := req.Validate(); err != nil {
		t.Fatalf("test request is invalid: %v", err)
	}
	nextTestID++
	p := pending{id: nextTestID, reply: make(chan askResult, 1)}
	send(m, askMsg{id: p.id, ctx: ctx, req: req, reply: p.reply, deadline: deadline, arrived: fixedNow})
	return p
}

// send delivers msg and then every message its commands produce at once
// (ticks and other timers excluded), like the event loop would.
func send(m *model, msg tea.Msg) {
	_, cmd := m.Update(msg)
	drain(m, cmd, 0)
}

func drain(m *model, cmd tea.Cmd, depth int) {
	if cmd == nil || depth > 8 {
		return
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(50 * time.Millisecond):
		return // a timer (tick, blink, notice): not part of this step
	}
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			drain(m, c, depth+1)
		}
	case tickMsg, clearNoticeMsg:
	default:
		if isSequence(msg) {
			for _, c := range sequenceCmds(msg) {
				drain(m, c, depth+1)
			}
			return
		}
		_, next := m.Update(msg)
		drain(m, next, depth+1)
	}
}

// isSequence reports whether msg is bubbletea's internal sequence message
// (a slice of commands to run in order).
func isSequence(msg tea.Msg) bool {
	v := reflect.ValueOf(msg)
	return v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeFor[tea.Cmd]()
}

func sequenceCmds(msg tea.Msg) []tea.Cmd {
	v := reflect.ValueOf(msg)
	out := make([]tea.Cmd, v.Len())
	for i := range out {
		out[i], _ = v.Index(i).Interface().(tea.Cmd)
	}
	return out
}

// press sends key presses: names like "enter", "shift+tab", "down",
// "space", "esc", or any other string typed rune by rune.
func press(m *model, keys ...string) {
	for _, k := range keys {
		for _, msg := range keyMsgs(k) {
			send(m, msg)
		}
	}
}

func keyMsgs(k string) []tea.KeyPressMsg {
	msgs, err := parseKeys(k)
	if err != nil {
		panic(err)
	}
	return msgs
}

// screen is the model's view without styling.
func screen(m *model) string {
	return ansi.Strip(m.render())
}

// result returns the reply the request got, failing if it got none.
func result(t *testing.T, p pending) askResult {
	t.Helper()
	select {
	case r := <-p.reply:
		return r
	default:
		t.Fatalf("request %d got no reply", p.id)
		return askResult{}
	}
}

func noResult(t *testing.T, p pending) {
	t.Helper()
	select {
	case r := <-p.reply:
		t.Fatalf("request %d got an unexpected reply: %+v", p.id, r)
	default:
	}
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

func teaSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

func ansiWidth(s string) int { return ansi.StringWidth(s) }

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
