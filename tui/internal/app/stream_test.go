package app

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
)

// The link coalesces what waits for the model: the chunks of one message
// become one event, a tool call's states and the usage the last, in the
// place of the first.
func TestLinkCoalescesEvents(t *testing.T) {
	l := NewLink(nil, make(chan struct{}))
	l.started.Do(func() {}) // no dispatcher: the test takes the events
	for i := range 1000 {
		l.ConversationEvent(conversation.Event{Conversation: "a", Kind: conversation.EventMessageChunk, Text: "x"})
		l.ConversationEvent(conversation.Event{Conversation: "a", Kind: conversation.EventToolCall, Tool: &conversation.ToolCall{ID: "t", Title: fmt.Sprint(i)}})
		l.ConversationEvent(conversation.Event{Conversation: "a", Kind: conversation.EventUsage, Usage: &conversation.Usage{Used: i}})
	}
	l.ConversationEvent(conversation.Event{Conversation: "b", Kind: conversation.EventMessageChunk, Text: "y"})
	l.ConversationEvent(conversation.Event{Conversation: "b", Kind: conversation.EventMessageChunk, Text: "z"})
	events, _ := l.takeConv()
	var got []string
	for _, e := range events {
		switch e.Kind {
		case conversation.EventMessageChunk:
			got = append(got, e.Conversation+":"+fmt.Sprint(len(e.Text)))
		case conversation.EventToolCall:
			got = append(got, "tool "+e.Tool.Title)
		case conversation.EventUsage:
			got = append(got, fmt.Sprint("usage ", e.Usage.Used))
		}
	}
	// Once the tool call and the usage are replaced where they wait, the
	// chunks after them are consecutive.
	if want := "[a:1 tool 999 usage 999 a:999 b:2]"; fmt.Sprint(got) != want {
		t.Fatalf("took %v, want %s", got, want)
	}
}

// While more waits for the model than the link's bounds, Pace holds the
// conversation (and so its agent) until the model takes them.
func TestPaceWaitsForTheModel(t *testing.T) {
	l := NewLink(nil, make(chan struct{}))
	l.started.Do(func() {})
	l.Pace(context.Background()) // nothing waits: at once
	for range paceEvents + 1 {
		l.ConversationEvent(conversation.Event{Conversation: "a", Kind: conversation.EventPlan})
	}
	paced := make(chan struct{})
	go func() {
		l.Pace(context.Background())
		close(paced)
	}()
	select {
	case <-paced:
		t.Fatal("Pace returned while the model had not taken the events")
	default:
	}
	l.takeConv()
	<-paced
	// And a huge chunk is over the bounds alone.
	l.ConversationEvent(conversation.Event{Conversation: "a", Kind: conversation.EventMessageChunk, Text: strings.Repeat("x", paceBytes)})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	l.Pace(ctx) // returns: its context ended
	if len(l.conv) != 1 {
		t.Fatalf("%d events wait", len(l.conv))
	}
}

// One Esc prints "turn cancelled" once, whether the conversation's own
// end of the turn or Prompt's return reaches the model first.
func TestTurnEndsOnce(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		l := NewLink(nil, make(chan struct{}))
		l.started.Do(func() {})
		m.sink = l
		press(m, "hi", "enter")
		// The conversation reports the end of the turn (into the link,
		// not taken yet), then Prompt returns.
		l.ConversationEvent(conversation.Event{Conversation: f.info.ID, Kind: conversation.EventMessageChunk, Text: "Last words."})
		l.ConversationEvent(conversation.Event{Conversation: f.info.ID, Kind: conversation.EventTurnEnded, Stop: conversation.StopCancelled})
		f.stop <- conversation.StopCancelled
		send(m, clearNoticeMsg{seq: -1}) // Prompt's return comes in
		send(m, convBatchMsg{link: l})
		s := screen(m)
		if n := strings.Count(s, "turn cancelled"); n != 1 {
			t.Fatalf("%d times \"turn cancelled\":\n%s", n, s)
		}
		if strings.Index(s, "Last words.") > strings.Index(s, "turn cancelled") {
			t.Fatalf("the turn ended before its last words:\n%s", s)
		}
	})
}

// An agent that dies mid-turn says why once, not for the turn and again
// for the conversation.
func TestAgentEndSaidOnce(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		press(m, "hi", "enter")
		err := interaction.Errorf(interaction.CodeAgentExited, "gemini exited: exit status 3; it said: panic: out of cheese")
		events(m, f.info.ID,
			conversation.Event{Kind: conversation.EventTurnEnded, Err: err},
			conversation.Event{Kind: conversation.EventEnded, Err: err})
		f.stop <- ""
		send(m, clearNoticeMsg{seq: -1}) // Prompt's return comes in
		if n := strings.Count(screen(m), "out of cheese"); n != 1 {
			t.Fatalf("%d times the reason:\n%s", n, screen(m))
		}
	})
}

// An agent that fails to start leaves a transcript saying why, with what
// it said on its standard error, and the status line says it did not
// start.
func TestFailedStartStaysInTheTranscript(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testRunEmpty(t, 100, 30)
		err := interaction.Errorf(interaction.CodeAgentExited, "claude exited: exit status 1; it said: Error: not signed in\n\nThe end of its standard error:\nloading config\nError: not signed in")
		send(m, convStartedMsg{agent: "claude", err: err})
		s := screen(m)
		mustContain(t, s, "claude exited: exit status 1", "The end of its standard error:", "loading config", "claude did not start")
		mustNotContain(t, s, "No agent is running")
		// Its editor reads nothing: letters are not typed into a prompt
		// that no agent would get, and the help offers what still acts.
		press(m, "hi")
		if v := m.conv().Prompt().Value(); v != "" {
			t.Fatalf("the failed agent's editor took %q", v)
		}
		s = screen(m)
		mustContain(t, s, "ctrl+l agents")
		mustNotContain(t, s, "alt+enter new line", "@ mention")
	})
}

// An agent that ends mid-run leaves its editor unfocused and deaf, as one
// that never started does.
func TestEndedAgentReadsNothing(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		press(m, "a")
		events(m, f.info.ID, conversation.Event{Kind: conversation.EventEnded})
		press(m, "bc")
		e := m.conv().Prompt()
		if v := e.Value(); v != "a" {
			t.Fatalf("the ended agent's editor holds %q, want the %q typed before", v, "a")
		}
		if e.HasCursor() {
			t.Fatal("the ended agent's editor still has the cursor")
		}
		mustContain(t, screen(m), "has ended · ctrl+l starts an agent")
	})
}

// The "starting …" notice goes when the agent has started: the status
// line says what it does from then on.
func TestStartingNoticeEndsWithTheStart(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testRunEmpty(t, 100, 30)
		m.startAgent("gemini", "", true)
		mustContain(t, screen(m), "starting gemini…")
		send(m, convStartedMsg{agent: "gemini", conv: newFakeConv("conv-1", "gemini"), chosen: true})
		mustNotContain(t, screen(m), "starting gemini…")
		mustContain(t, screen(m), "enter sends")
	})
}

// Inline Markdown is rendered where agents write it: thoughts, tool
// titles, a message still streaming, a resumed session's history (which
// no turn finishes).
func TestInlineMarkdownRendered(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		// History replayed outside a turn.
		events(m, f.info.ID, msgChunk("# Earlier\n\nThe **last** replayed message."))
		s := screen(m)
		mustContain(t, s, "The last replayed message.")
		mustNotContain(t, s, "**", "# Earlier")
		press(m, "go", "enter")
		events(m, f.info.ID,
			conversation.Event{Kind: conversation.EventThoughtChunk, Text: "**Planning the answer**\n\nFirst the tests."},
			conversation.Event{Kind: conversation.EventThoughtChunk, Text: "****"},
			conversation.Event{Kind: conversation.EventToolCall, Tool: &conversation.ToolCall{ID: "t1", Title: "**codex**: run `go test`", Kind: conversation.ToolExecute, Status: conversation.ToolCompleted}},
			msgChunk("**gemini**: The guide is ready"))
		s = screen(m)
		mustContain(t, s, "∴ Planning the answer", "codex: run go test", "gemini: The guide is ready")
		mustNotContain(t, s, "**", "`")
		f.stop <- conversation.StopEndTurn
		send(m, clearNoticeMsg{seq: -1})
	})
}

// drawTranscript draws the transcript shown at width×height, unfocused,
// as a screen that size would.
func drawTranscript(m *Model, width, height int) string {
	v := m.conv().Transcript()
	v.SetSize(width, height)
	return v.View()
}
