package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/tui/internal/activity"
)

func testSession(t *testing.T, w, h int) *Model {
	t.Helper()
	m := testModel(t, w, h)
	m.kind = kindSession
	m.alerts = Alerts{Bell: true, Title: true, Notify: true}
	send(m, teaSize(w, h))
	return m
}

func report(m *Model, agent string, kind interaction.ActivityKind, text string) {
	send(m, activityMsg{activity: interaction.Activity{Agent: interaction.Agent{ID: agent}, Kind: kind, Text: text}})
}

func tool(m *Model, agent, name, args, result string) {
	send(m, activityMsg{activity: interaction.Activity{Agent: interaction.Agent{ID: agent}, Kind: interaction.ActivityToolCall, Tool: name, Args: args, CallID: "1"}})
	send(m, activityMsg{activity: interaction.Activity{Agent: interaction.Agent{ID: agent}, Kind: interaction.ActivityToolResult, Text: result, CallID: "1"}})
}

func askFrom(t *testing.T, m *Model, agent string, qs ...interaction.Question) pending {
	t.Helper()
	return ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: agent}, Questions: qs})
}

// busySession is a session with three agents at work and two questions
// waiting.
func busySession(t *testing.T, w, h int) (*Model, pending, pending) {
	m := testSession(t, w, h)
	report(m, "claude-code", interaction.ActivityConnected, "")
	report(m, "claude-code", interaction.ActivityMessage, "I'll migrate the **events** table first.")
	tool(m, "claude-code", "bash", `{"cmd": "go vet && go test ./..."}`, "ok  \tgithub.com/acme/events\t1.2s")
	report(m, "codex", interaction.ActivityConnected, "")
	tool(m, "codex", "grep", `{"pattern":"TODO","path":"internal/store"}`, strings.Repeat("internal/store/events.go:12: TODO remove\n", 9))
	report(m, "gemini", interaction.ActivityThinking, "Reading the docs")
	a := askFrom(t, m, "claude-code", deployQuestion())
	b := askFrom(t, m, "codex", interaction.Question{ID: "db", Header: "Database", Question: "Which database?", Options: opts("Postgres", "SQLite")})
	return m, a, b
}

func TestSessionGolden(t *testing.T) {
	cases := []struct {
		name string
		keys []string
		then func(*Model, pending, pending)
	}{
		{name: "inbox"},
		{name: "switched", keys: []string{"ctrl+n"}},
		{name: "withdrawn", then: func(m *Model, a, _ pending) {
			withdraw(a, interaction.Errorf(interaction.CodeAborted, "gone"))
		}},
		{name: "activity", keys: []string{"ctrl+t"}},
		{name: "inboxfocus", keys: []string{"ctrl+g", "down"}},
		{name: "past", then: func(m *Model, _, _ pending) {
			press(m, "1", "ctrl+o")
		}},
	}
	for _, c := range cases {
		for _, size := range [][2]int{{200, 60}, {140, 40}, {100, 30}, {60, 20}, {40, 12}} {
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, size[0], size[1]), func(t *testing.T) {
				run(t, func(t *testing.T) {
					m, a, b := busySession(t, size[0], size[1])
					glance(m)
					press(m, c.keys...)
					if c.then != nil {
						c.then(m, a, b)
					}
					s := screen(m)
					mustFit(t, s, size[0], size[1])
					golden.RequireEqual(t, s)
				})
			})
		}
	}
}

func TestInboxAnswersInAnyOrderAndKeepsDrafts(t *testing.T) {
	run(t, func(t *testing.T) {
		m, a, b := busySession(t, 140, 40)
		s := screen(m)
		mustContain(t, s, "bash go vet && go test ./...", "Inbox · 2 requests", "claude-code", "codex", "Deploy", "Database", "3 agents connected", "2 questions waiting")
		press(m, "down")   // claude-code's draft: cursor on "No"
		press(m, "ctrl+n") // to codex
		mustContain(t, screen(m), "Which database?")
		press(m, "2") // answer codex first
		rb := result(t, b)
		if rb.Err != nil || rb.Answer.Answers[0].Selected[0] != "SQLite" {
			t.Fatalf("codex got %+v %v", rb.Answer, rb.Err)
		}
		noResult(t, a)
		if m.requests[0].Questions[0].Draft.Cursor != 1 {
			t.Fatal("claude-code's draft was lost while answering codex")
		}
		// claude-code's question was seen and left: it waits in the inbox
		// list until the human opens it.
		if m.mode() != modeInbox {
			t.Fatalf("mode %v, want the inbox list", m.mode())
		}
		press(m, "enter", "enter")
		if ra := result(t, a); ra.Answer.Answers[0].Selected[0] != "No" {
			t.Fatalf("claude-code got %+v", ra.Answer)
		}
		mustContain(t, screen(m), "answered: SQLite", "answered: No")
	})
}

// Inbox rows keep the header apart from the count, the header counts
// questions as the rows do, and a long inbox says what it cut.
func TestInboxRowsCountsAndCuts(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		for i := range 15 {
			askFrom(t, m, fmt.Sprintf("agent-%02d", i), interaction.Question{ID: "c", Header: "Callers", Question: "How?", Options: opts("A", "B")})
		}
		askFrom(t, m, "big", interaction.Question{ID: "a", Question: "One?"}, interaction.Question{ID: "b", Question: "Two?"})
		s := screen(m)
		mustContain(t, s, "agent-00 · Callers · 1 question", "17 questions waiting", "Inbox · 16 requests", "↓ +13 more")
	})
}

func TestInboxFocusOpensTheChosenRequest(t *testing.T) {
	run(t, func(t *testing.T) {
		m, _, b := busySession(t, 100, 30)
		press(m, "ctrl+g")
		if m.mode() != modeInbox {
			t.Fatalf("mode %v, want inbox", m.mode())
		}
		mustContain(t, screen(m), "enter open request")
		press(m, "down", "enter")
		if m.mode() != modeQuestion || m.activeRequest().ID != b.id {
			t.Fatalf("enter in the inbox did not open codex's request")
		}
		press(m, "ctrl+g", "esc")
		if m.mode() != modeQuestion || m.activeRequest().ID != b.id {
			t.Fatal("esc in the inbox switched the request")
		}
	})
}

func TestWithdrawnShowsInActivity(t *testing.T) {
	run(t, func(t *testing.T) {
		m, a, _ := busySession(t, 100, 30)
		withdraw(a, interaction.Errorf(interaction.CodeAborted, "gone"))
		mustContain(t, screen(m), "claude-code withdrew: Deploy", "Which database?")
	})
}

func TestAnsweredOnAnotherViewShowsWhere(t *testing.T) {
	run(t, func(t *testing.T) {
		m, a, _ := busySession(t, 140, 40)
		fake(m).ended[a.id] = settled("ssh bob@laptop")
		send(m, settledMsg{id: a.id, s: settled("ssh bob@laptop")})
		mustContain(t, screen(m), "answered from ssh bob@laptop", "Which database?")
	})
}

func TestActivityFocusScrollsAndLeavingFollowsAgain(t *testing.T) {
	run(t, func(t *testing.T) {
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
		press(m, "esc")
		mustContain(t, screen(m), "Deploy the release")
		if m.log.Scrolled() != 0 {
			t.Fatal("leaving the activity did not follow the newest entry again")
		}
	})
}

// alertsOf runs cmd and returns what its tea.Raw messages write.
func alertsOf(cmd tea.Cmd) string {
	var raw string
	for _, msg := range flatten(cmd) {
		if r, ok := msg.(tea.RawMsg); ok {
			raw += fmt.Sprint(r.Msg)
		}
	}
	return raw
}

func TestArrivalAlerts(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		raw := alertsOf(m.add(askReq(1, single(deployQuestion()))))
		for _, want := range []string{"\a", "\x1b]9;", "\x1b]777;notify;"} {
			if !strings.Contains(raw, want) {
				t.Fatalf("alerts lack %q: %q", want, raw)
			}
		}
		if got := m.View().WindowTitle; got != "asktui (1 waiting)" {
			t.Fatalf("window title %q", got)
		}
	})
}

// A burst of arrivals alerts about once a second: one alert at once, one
// for the rest when the second is up.
func TestAlertsOfABurstAreCoalesced(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		var raw string
		for i := range 200 {
			advance(m, time.Millisecond)
			raw += alertsOf(m.add(askReq(uint64(i+1), single(deployQuestion()))))
		}
		if n := strings.Count(raw, "\x1b]9;"); n != 1 {
			t.Fatalf("%d notifications during the burst, want 1", n)
		}
		advance(m, time.Second)
		flushed := alertsOf(m.flushAlerts())
		if strings.Count(flushed, "\x1b]9;") != 1 || !strings.Contains(flushed, "199 new requests") {
			t.Fatalf("the held alerts went out as %q, want one notification counting 199", flushed)
		}
		// Each notification ends its two OSC strings with BEL too.
		all := raw + flushed
		if bells := strings.Count(all, "\a") - 2*strings.Count(all, "\x1b]9;"); bells != 2 {
			t.Fatalf("bell rang %d times, want 2", bells)
		}
	})
}

func askReq(id uint64, req interaction.Request) *inboxRequest {
	return &inboxRequest{ID: id, Request: req, Arrived: fixedNow}
}

// A scripted key aimed at a request no longer on screen is dropped, never
// pressed into another one.
func TestAimedKeysNeverReachAnotherRequest(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		a := askFrom(t, m, "claude-code", deployQuestion())
		b := askFrom(t, m, "codex", interaction.Question{ID: "db", Question: "Which database?", Options: opts("Postgres", "SQLite")})
		send(m, focusMsg{id: b.id})
		withdraw(b, interaction.Errorf(interaction.CodeAborted, "gone"))
		send(m, pressMsg{key: keyMsgs("2")[0], target: b.id})
		noResult(t, a)
		send(m, focusMsg{id: a.id})
		send(m, pressMsg{key: keyMsgs("2")[0]})
		if r := result(t, a); r.Answer.Answers[0].Selected[0] != "No" {
			t.Fatalf("an unaimed key answered %+v, want No", r.Answer)
		}
	})
}

// TestPanelShrinksWhenTheInboxAppears: a second request adds the inbox
// above the panel; the option list must be re-fitted, keeping its scroll
// indicator on screen rather than being cut off.
func TestPanelShrinksWhenTheInboxAppears(t *testing.T) {
	run(t, func(t *testing.T) {
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
		s := screen(m)
		mustFit(t, s, 60, 20)
		mustContain(t, s, "Inbox · 2 requests", "1. ○ Keep", "more")
	})
}

func TestPastAnswersShowQuestionTimeAndCopy(t *testing.T) {
	run(t, func(t *testing.T) {
		m, a, b := busySession(t, 60, 20)
		press(m, "enter") // claude-code: Yes (Recommended)
		result(t, a)
		press(m, "2") // codex: SQLite
		result(t, b)
		press(m, "ctrl+o")
		s := screen(m)
		mustContain(t, s, "Past answers · 2 answers", "12:00", "Deploy", "→ Yes (Recommended)", "Database", "→ SQLite", "enter copy JSON")
		press(m, "up")
		_, cmd := m.Update(keyMsgs("enter")[0])
		var copied string
		for _, msg := range flatten(cmd) {
			if s := fmt.Sprint(msg); strings.Contains(s, `"answers"`) {
				copied = s
			}
		}
		if !strings.Contains(copied, `"selected":["Yes (Recommended)"]`) {
			t.Fatalf("copied %q, want claude-code's answer JSON", copied)
		}
		press(m, "esc")
		mustNotContain(t, screen(m), "Past answers")
	})
}

// The side-by-side layout gives the question panel a readable width and
// the activity the rest; with nothing waiting the activity takes the
// screen; tool calls read like commands.
func TestLayoutProportions(t *testing.T) {
	run(t, func(t *testing.T) {
		for _, w := range []int{120, 140, 200} {
			m, _, _ := busySession(t, w, 40)
			f := m.lay.frame
			if !f.wide || f.panelW > maxPanelW || f.sideW < minSideW || f.sideW+3+f.panelW != m.contentWidth() {
				t.Fatalf("at %d columns: %+v", w, f)
			}
		}
		m := testSession(t, 200, 40)
		tool(m, "codex", "read_file", `{"path":"payments/charge.go"}`, "package payments")
		s := screen(m)
		mustContain(t, s, "read_file payments/charge.go")
		if f := m.lay.frame; f.wide || f.panelW != m.contentWidth() {
			t.Fatalf("with nothing waiting the activity does not take the width: %+v", f)
		}
	})
}

// Names that terminals measure differently (a ZWJ emoji, combining marks)
// are reduced to what every terminal draws alike, so one agent's name
// never shifts another's column.
func TestNamesMeasureTheSameInEveryTerminal(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 140, 30)
		for _, name := range []string{"👩‍💻 dev", "cafe\u0301 bot", "👍🏽 ok", "plain"} {
			send(m, activityMsg{activity: interaction.Activity{Agent: interaction.Agent{ID: name, Name: name}, Kind: interaction.ActivityMessage, Text: "hello"}})
			ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: name, Name: name}, Questions: []interaction.Question{{ID: "q", Header: name, Question: "Go?"}}})
		}
		for _, line := range strings.Split(screen(m), "\n") {
			if g, wc := ansi.StringWidth(line), ansi.StringWidthWc(line); g != wc {
				t.Errorf("line measures %d cells by graphemes and %d by wcwidth: %q", g, wc, line)
			}
		}
	})
}

// Agents that left, with nothing on screen or in the log, are forgotten:
// a long-running inbox does not keep every session it ever saw.
func TestAgentsThatLeftAreForgotten(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		for i := range 60 {
			id := fmt.Sprintf("session-%d", i)
			report(m, id, interaction.ActivityConnected, "")
			report(m, id, interaction.ActivityDisconnected, "")
		}
		if n := m.log.AgentCount(); n != 60 {
			t.Fatalf("%d agents while their entries are in the log, want 60", n)
		}
		for i := range activity.MaxEntries {
			report(m, "worker", interaction.ActivityMessage, fmt.Sprint(i))
		}
		if n := m.log.AgentCount(); n != 1 {
			t.Fatalf("%d agents kept after their entries left the log, want 1 (the worker)", n)
		}
		if n := m.log.Connected(); n != 0 {
			t.Fatalf("%d agents connected, want 0", n)
		}
	})
}

// Two sessions of one client are two agents, and one leaving does not
// disconnect the other.
func TestAgentsAreCountedBySession(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		send(m, activityMsg{activity: interaction.Activity{Agent: interaction.Agent{ID: "s1", Name: "claude"}, Kind: interaction.ActivityConnected}})
		send(m, activityMsg{activity: interaction.Activity{Agent: interaction.Agent{ID: "s2", Name: "claude"}, Kind: interaction.ActivityConnected}})
		mustContain(t, screen(m), "2 agents connected")
		send(m, activityMsg{activity: interaction.Activity{Agent: interaction.Agent{ID: "s1", Name: "claude"}, Kind: interaction.ActivityDisconnected}})
		mustContain(t, screen(m), "1 agent connected")
	})
}

// An agent known only by its questions (a socket client, an MCP
// sub-agent) counts as connected while one waits, and no longer.
func TestAgentsKnownByTheirQuestionsLeave(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		report(m, "mcp:s1", interaction.ActivityConnected, "")
		sub := ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: "mcp:s1/reviewer", Name: "claude › reviewer"}, Questions: []interaction.Question{{ID: "q", Question: "Go?"}}})
		script := ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: "socket", Name: "script"}, Questions: []interaction.Question{{ID: "q", Question: "Go?"}}})
		if n := m.log.Connected(); n != 3 {
			t.Fatalf("%d agents connected, want 3", n)
		}
		withdraw(sub, interaction.Errorf(interaction.CodeAborted, "gone"))
		withdraw(script, interaction.Errorf(interaction.CodeAborted, "gone"))
		if n := m.log.Connected(); n != 1 {
			t.Fatalf("%d agents connected after the askers left, want 1 (the session)", n)
		}
	})
}

func TestRendersAtMostOncePerFrame(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 120, 40)
		wall := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
		m.wall = func() time.Time { return wall }
		ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: "codex"}, Questions: []interaction.Question{{ID: "q", Question: "First?"}}})
		if v := ansi.Strip(m.View().Content); !strings.Contains(v, "First?") {
			t.Fatalf("the first request is not drawn:\n%s", v)
		}

		// A second request within the same frame: the screen waits for
		// the frame's end, which a redraw is scheduled for.
		wall = wall.Add(frameInterval / 2)
		_, cmd := m.Update(askMsg{req: askReq(99, interaction.Request{Agent: &interaction.Agent{ID: "gemini"}, Questions: []interaction.Question{{ID: "q", Question: "Second?"}}})})
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
	})
}

// The idle session says once where requests come from: in the body, not
// the title bar too.
func TestIdleSessionShowsTheAddressOnce(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {60, 20}, {200, 60}} {
		run(t, func(t *testing.T) {
			m := testSession(t, size[0], size[1])
			send(m, statusMsg{text: "MCP: http://127.0.0.1:7341/mcp"})
			if n := strings.Count(screen(m), "127.0.0.1:7341"); n != 1 {
				t.Fatalf("%dx%d: the address shows %d times:\n%s", size[0], size[1], n, screen(m))
			}
		})
	}
}

// Inline Markdown in what a request asks is drawn, not shown as marks: in
// the inbox's rows, and plain in the log and notices.
func TestInboxRowsDrawInlineMarkdown(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 120, 30)
		askFrom(t, m, "claude", interaction.Question{ID: "a", Question: "Run `make release` on **main**?", Options: opts("Yes", "No")})
		askFrom(t, m, "codex", interaction.Question{ID: "b", Question: "Bump `go.mod`?", Options: opts("Yes", "No")})
		glance(m)
		s := screen(m)
		mustContain(t, s, "Run make release on main?", "Bump go.mod?")
		mustNotContain(t, s, "`", "**")
	})
}
