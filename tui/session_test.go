package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
)

func testSession(t *testing.T, w, h int) *model {
	t.Helper()
	m := testModel(t, w, h)
	m.session = true
	m.alerts = Alerts{Bell: true, Title: true, Notify: true}
	send(m, teaSize(w, h))
	return m
}

func report(m *model, agent string, kind interaction.ActivityKind, text string) {
	send(m, activityMsg{activity: interaction.Activity{Agent: interaction.Agent{ID: agent}, Kind: kind, Text: text}})
}

func tool(m *model, agent, name, args, result string) {
	send(m, activityMsg{activity: interaction.Activity{Agent: interaction.Agent{ID: agent}, Kind: interaction.ActivityToolCall, Tool: name, Args: args, CallID: "1"}})
	send(m, activityMsg{activity: interaction.Activity{Agent: interaction.Agent{ID: agent}, Kind: interaction.ActivityToolResult, Text: result, CallID: "1"}})
}

func askFrom(t *testing.T, m *model, agent string, qs ...interaction.Question) pending {
	t.Helper()
	return ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: agent}, Questions: qs})
}

// busySession is a session with three agents at work and two questions
// waiting.
func busySession(t *testing.T, w, h int) (*model, pending, pending) {
	m := testSession(t, w, h)
	report(m, "claude-code", interaction.ActivityConnected, "")
	report(m, "claude-code", interaction.ActivityMessage, "I'll migrate the **events** table first.")
	tool(m, "claude-code", "bash", `{"cmd": "go vet && go test ./..."}`, "ok  \tgithub.com/acme/events\t1.2s")
	report(m, "codex", interaction.ActivityConnected, "")
	tool(m, "codex", "grep", `{"pattern":"TODO"}`, strings.Repeat("internal/store/events.go:12: TODO remove\n", 9))
	report(m, "gemini", interaction.ActivityThinking, "Reading the docs")
	a := askFrom(t, m, "claude-code", deployQuestion())
	b := askFrom(t, m, "codex", interaction.Question{ID: "db", Header: "Database", Question: "Which database?", Options: opts("Postgres", "SQLite")})
	return m, a, b
}

func TestSessionGolden(t *testing.T) {
	cases := []struct {
		name string
		keys []string
		then func(*model, pending, pending)
	}{
		{name: "inbox"},
		{name: "switched", keys: []string{"ctrl+n"}},
		{name: "withdrawn", then: func(m *model, a, _ pending) {
			send(m, withdrawMsg{id: a.id, err: interaction.Errorf(interaction.CodeAborted, "gone")})
		}},
		{name: "activity", keys: []string{"ctrl+t"}},
	}
	for _, c := range cases {
		for _, size := range [][2]int{{140, 40}, {100, 30}, {60, 20}} {
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, size[0], size[1]), func(t *testing.T) {
				m, a, b := busySession(t, size[0], size[1])
				press(m, c.keys...)
				if c.then != nil {
					c.then(m, a, b)
				}
				s := screen(m)
				mustFit(t, s, size[0], size[1])
				golden.RequireEqual(t, s)
			})
		}
	}
}

func TestInboxAnswersInAnyOrderAndKeepsDrafts(t *testing.T) {
	m, a, b := busySession(t, 140, 40)
	s := screen(m)
	mustContain(t, s, `{"cmd":"go vet && go test ./..."}`, "Inbox · 2 waiting", "claude-code", "codex", "Deploy", "Database", "3 agents connected", "2 questions waiting")
	press(m, "down")   // claude-code's draft: cursor on "No"
	press(m, "ctrl+n") // to codex
	mustContain(t, screen(m), "Which database?")
	press(m, "2") // answer codex first
	rb := result(t, b)
	if rb.err != nil || rb.answer.Answers[0].Selected[0] != "SQLite" {
		t.Fatalf("codex got %+v %v", rb.answer, rb.err)
	}
	noResult(t, a)
	if m.requests[0].questions[0].choice.Cursor != 1 {
		t.Fatal("claude-code's draft was lost while answering codex")
	}
	press(m, "enter")
	if ra := result(t, a); ra.answer.Answers[0].Selected[0] != "No" {
		t.Fatalf("claude-code got %+v", ra.answer)
	}
	mustContain(t, screen(m), "answered: SQLite", "answered: No")
}

func TestWithdrawnShowsInActivity(t *testing.T) {
	m, a, _ := busySession(t, 100, 30)
	send(m, withdrawMsg{id: a.id, err: interaction.Errorf(interaction.CodeAborted, "gone")})
	mustContain(t, screen(m), "withdrawn by claude-code", "Which database?")
}

func TestActivityFocusScrolls(t *testing.T) {
	m, _, _ := busySession(t, 60, 20)
	for i := range 40 {
		report(m, "codex", interaction.ActivityMessage, fmt.Sprintf("line %02d", i))
	}
	press(m, "ctrl+t")
	mustContain(t, screen(m), "line 39")
	press(m, "pgup", "pgup")
	s := screen(m)
	mustNotContain(t, s, "line 39")
	mustContain(t, s, "newer lines")
	press(m, "end")
	mustContain(t, screen(m), "line 39")
	press(m, "ctrl+t")
	mustContain(t, screen(m), "Deploy the release")
}

func TestArrivalAlerts(t *testing.T) {
	m := testSession(t, 100, 30)
	_, cmd := m.Update(askMsg{id: 999, ctx: t.Context(), req: single(deployQuestion()), reply: make(chan askResult, 1), arrived: fixedNow})
	var raw string
	var collect func(tea.Cmd)
	collect = func(c tea.Cmd) {
		if c == nil {
			return
		}
		done := make(chan tea.Msg, 1)
		go func() { done <- c() }()
		select {
		case <-time.After(time.Second):
		case msg := <-done:
			switch msg := msg.(type) {
			case tea.BatchMsg:
				for _, c := range msg {
					collect(c)
				}
			case tea.RawMsg:
				raw += fmt.Sprint(msg.Msg)
			}
		}
	}
	collect(cmd)
	for _, want := range []string{"\a", "\x1b]9;", "\x1b]777;notify;"} {
		if !strings.Contains(raw, want) {
			t.Fatalf("alerts lack %q: %q", want, raw)
		}
	}
	if got := m.View().WindowTitle; got != "asktui (1 waiting)" {
		t.Fatalf("window title %q", got)
	}
}

func TestFocusHoldsScriptedKeysUntilTheAgentsRequestArrives(t *testing.T) {
	m := testSession(t, 100, 30)
	a := askFrom(t, m, "claude-code", deployQuestion())
	send(m, focusMsg{agentID: "codex"})
	for _, k := range keyMsgs("2") {
		send(m, pressMsg{key: k})
	}
	noResult(t, a) // held: codex has not asked yet
	b := askFrom(t, m, "codex", interaction.Question{ID: "db", Question: "Which database?", Options: opts("Postgres", "SQLite")})
	if r := result(t, b); r.answer.Answers[0].Selected[0] != "SQLite" {
		t.Fatalf("codex got %+v", r.answer)
	}
	noResult(t, a)
}

func TestRequestWithdrawnBeforeShownIsLogged(t *testing.T) {
	m := testSession(t, 100, 30)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	askCtx(t, m, ctx, interaction.Request{Agent: &interaction.Agent{ID: "gemini"}, Questions: []interaction.Question{{ID: "q", Question: "Too late?"}}}, time.Time{})
	mustContain(t, screen(m), "withdrawn by gemini before it was shown: Too late?")
}

// TestPanelShrinksWhenTheInboxAppears: a second request adds the inbox
// above the panel; the option list must be re-fitted, keeping its scroll
// indicator on screen rather than being cut off.
func TestPanelShrinksWhenTheInboxAppears(t *testing.T) {
	m := testSession(t, 60, 20)
	q := interaction.Question{ID: "c", Header: "Callers", Question: "services/legacy-checkout still calls the old Charge API in 3 places. How should I handle them?",
		Options: []interaction.Option{
			{Label: "Keep a deprecated wrapper (Recommended)", Description: "Charge() calls PaymentIntent underneath; remove it next quarter"},
			{Label: "Migrate the callers now", Description: "Touches code the checkout team owns"},
			{Label: "Leave them broken", Description: "legacy-checkout stops building until someone migrates it"},
		}}
	askFrom(t, m, "claude-code", q)
	mustNotContain(t, screen(m), "more\n")
	askFrom(t, m, "codex", interaction.Question{ID: "x", Question: "Later?"})
	mustContain(t, screen(m), "Inbox · 2 waiting", "↓ 2 more")
}

func TestPastAnswersCanBeCopied(t *testing.T) {
	m, a, b := busySession(t, 60, 20)
	press(m, "enter") // claude-code: Yes (Recommended)
	result(t, a)
	press(m, "2") // codex: SQLite
	result(t, b)
	press(m, "ctrl+o")
	s := screen(m)
	mustContain(t, s, "Past answers · 2", "Yes (Recommended)", "SQLite", "enter copies")
	press(m, "up")
	_, cmd := m.Update(keyMsgs("enter")[0])
	var copied string
	for _, c := range flatten(cmd) {
		if msg := c(); msg != nil && fmt.Sprintf("%T", msg) == "tea.setClipboardMsg" {
			copied = fmt.Sprint(msg)
		}
	}
	if !strings.Contains(copied, `"selected":["Yes (Recommended)"]`) {
		t.Fatalf("copied %q, want claude-code's answer JSON", copied)
	}
	press(m, "esc")
	mustNotContain(t, screen(m), "Past answers")
}

// flatten returns the commands of a batch (and cmd itself otherwise),
// leaving timers unrun.
func flatten(cmd tea.Cmd) []tea.Cmd {
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case msg := <-done:
		if batch, ok := msg.(tea.BatchMsg); ok {
			var out []tea.Cmd
			for _, c := range batch {
				out = append(out, flatten(c)...)
			}
			return out
		}
		return []tea.Cmd{func() tea.Msg { return msg }}
	case <-time.After(100 * time.Millisecond):
		return nil
	}
}

func TestActivityLogCapKeepsLinesInStep(t *testing.T) {
	st := styles.For(styles.ThemeDark, true)
	l := newActivityLog()
	for i := range maxEntries + 50 {
		if i == 1 {
			l.view(60, 10, st) // lay out at 60 columns, as the screen would
		}
		text := fmt.Sprintf("entry %d", i)
		if i%7 == 0 {
			text += "\nsecond line"
		}
		l.add(entry{kind: entryMessage, agent: "codex", text: text}, st)
	}
	if len(l.entries) != maxEntries {
		t.Fatalf("%d entries kept, want %d", len(l.entries), maxEntries)
	}
	incremental := append([]string(nil), l.lines...)
	l.restyle()
	l.layout(60, st)
	if !slices.Equal(incremental, l.lines) {
		t.Fatalf("the capped log's lines differ from a fresh layout: %d vs %d lines", len(incremental), len(l.lines))
	}
	if got := ansi.Strip(l.view(60, 1, st)); !strings.Contains(got, fmt.Sprintf("entry %d", maxEntries+49)) {
		t.Errorf("newest line = %q, want the last entry", got)
	}
}

func TestRendersAtMostOncePerFrame(t *testing.T) {
	m := testSession(t, 120, 40)
	wall := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	m.wall = func() time.Time { return wall }
	ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: "codex"}, Questions: []interaction.Question{{ID: "q", Question: "First?"}}})
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "First?") {
		t.Fatalf("the first request is not drawn:\n%s", v)
	}

	// A second request within the same frame: the screen waits for the
	// frame's end, which a redraw is scheduled for.
	wall = wall.Add(frameInterval / 2)
	_, cmd := m.Update(askMsg{id: 99, ctx: context.Background(), reply: make(chan askResult, 1), arrived: fixedNow,
		req: interaction.Request{Agent: &interaction.Agent{ID: "gemini"}, Questions: []interaction.Question{{ID: "q", Question: "Second?"}}}})
	if v := ansi.Strip(m.View().Content); strings.Contains(v, "2 questions waiting") {
		t.Fatalf("redrawn within the frame:\n%s", v)
	}
	if !m.redrawing || cmd == nil {
		t.Fatal("no redraw was scheduled")
	}
	if got := m.View().WindowTitle; got != "asktui (2 waiting)" {
		t.Errorf("window title %q, want it current", got)
	}
	m.Update(redrawMsg{})
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "2 questions waiting") {
		t.Fatalf("the redraw did not draw the second request:\n%s", v)
	}

	// After a quiet spell a message is drawn at once.
	wall = wall.Add(time.Second)
	press(m, "ctrl+n")
	if m.redrawing {
		t.Error("a key after a quiet spell waited for a redraw")
	}
}
