package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
)

// waitSpill waits until the spill has done what was queued.
func waitSpill(s *spill) {
	s.mu.Lock()
	idle := s.idle
	s.mu.Unlock()
	if idle != nil {
		<-idle
	}
}

// withSpill gives m a spill in a directory of the test's.
func withSpill(t *testing.T, m *Model) *spill {
	t.Helper()
	sp := newSpill(t.TempDir())
	t.Cleanup(func() { _ = sp.close() })
	m.spill = sp
	for _, c := range m.convs {
		c.spill = sp
	}
	return sp
}

// lastItem is the newest item of the conversation shown.
func lastItem(m *Model) *convItem {
	c := m.conv()
	return c.items[len(c.items)-1]
}

// A block that never ends (a paragraph without a blank line, a code
// fence never closed, a line without a break) is cut into pieces as it
// streams: the open block, the only part rendered again as chunks come,
// never holds more than a few KiB, whatever came before it.
func TestOpenBlockStaysSmall(t *testing.T) {
	for name, unit := range map[string]string{
		"paragraph": "The refund rounds down where **Charge** rounded half away from zero.\n",
		"fence":     "\treturn int(math.Round(float64(c) / 2)) // cents\n",
		"one line":  "word ",
	} {
		t.Run(name, func(t *testing.T) {
			run(t, func(t *testing.T) {
				m, f := testRun(t, 100, 30)
				send(m, convStartedMsg{agent: "gemini", conv: f})
				first := ""
				if name == "fence" {
					first = "```go\n"
				}
				events(m, f.info.ID, msgChunk(first))
				chunk := strings.Repeat(unit, 40<<10/len(unit))
				for range 50 { // 2 MiB
					events(m, f.info.ID, msgChunk(chunk))
					it := lastItem(m)
					if open := it.text.Len() - it.text.committed; open > 2*maxBlock {
						t.Fatalf("the open block holds %d bytes, over %d", open, 2*maxBlock)
					}
					for _, b := range it.text.blocks {
						if b.end-b.start > 2*maxBlock+int64(len(unit)) {
							t.Fatalf("a block of %d bytes", b.end-b.start)
						}
					}
				}
				mustContain(t, stripped(strings.Join(lastItem(m).trimLine(100, m.Styles), " ")), "came; the last")
				s := screen(m)
				if name == "paragraph" {
					mustContain(t, s, "Charge")
					mustNotContain(t, s, "**")
				}
			})
		})
	}
}

// A message longer than the transcript shows keeps its end on screen,
// with a line saying how much came and where all of it is: a spill file
// that holds the whole text, byte for byte.
func TestLongMessageShowsItsEndAndKeepsTheWhole(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		sp := withSpill(t, m)
		var whole strings.Builder
		for i := range 400 {
			var chunk strings.Builder
			for j := range 100 {
				fmt.Fprintf(&chunk, "Line %d of the reply, with some **bold** words.\n\n", i*100+j)
			}
			whole.WriteString(chunk.String())
			events(m, f.info.ID, msgChunk(chunk.String()))
		}
		events(m, f.info.ID, conversation.Event{Kind: conversation.EventTurnEnded, Stop: conversation.StopEndTurn})
		it := lastItem(m)
		if it.text.kept() > maxShownText+trimSlack {
			t.Fatalf("the item holds %d bytes, over %d", it.text.kept(), maxShownText+trimSlack)
		}
		if it.text.Len() != int64(whole.Len()) {
			t.Fatalf("length %d, want %d", it.text.Len(), whole.Len())
		}
		mustContain(t, screen(m), "Line 39999 of the reply")
		// The line on top says what came and where it is.
		top := stripped(strings.Join(it.trimLine(100, m.Styles), " "))
		mustContain(t, top, sizeText(int64(whole.Len()))+" came; the last", sp.dir)
		press(m, "ctrl+t", "pgup", "pgup")
		mustContain(t, screen(m), "of the reply, with some bold words.")
		waitSpill(sp)
		data, err := os.ReadFile(sp.path(it.text.file))
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != whole.String() {
			t.Fatalf("the spill file holds %d bytes, the message was %d", len(data), whole.Len())
		}
		if err := sp.close(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(sp.dir); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("the spill directory is still there: %v", err)
		}
	})
}

// A transcript holds at most its budget: its oldest items go to the
// spill file, one line stands for them, and enter on that line shows
// them again.
func TestTranscriptKeepsToItsBudget(t *testing.T) {
	defer func(text int64, items int) { maxResidentText, maxResidentItems = text, items }(maxResidentText, maxResidentItems)
	maxResidentText, maxResidentItems = 256<<10, 400
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		sp := withSpill(t, m)
		var loads []spillLoad
		sp.deliver = func(l spillLoad) { loads = append(loads, l) }
		for i := range 2000 {
			events(m, f.info.ID,
				conversation.Event{Kind: conversation.EventToolCall, Tool: &conversation.ToolCall{ID: fmt.Sprint(i), Title: fmt.Sprintf("read file %d", i), Status: conversation.ToolCompleted}},
				msgChunk(fmt.Sprintf("Reply %d: %s", i, strings.Repeat("text ", 100))))
		}
		c := m.conv()
		if len(c.items) > maxResidentItems || c.resident > maxResidentText {
			t.Fatalf("%d items, %d bytes held; the budget is %d and %d", len(c.items), c.resident, maxResidentItems, maxResidentText)
		}
		if c.items[0].kind != itemSpilled || c.items[0].spilled.count < 3000 {
			t.Fatalf("the first item is %+v, want the spilled ones", c.items[0])
		}
		mustContain(t, screen(m), "Reply 1999")
		// Reach the first line with the transcript's keys, and show it.
		press(m, "ctrl+t")
		for range len(c.items) {
			press(m, "up")
		}
		mustContain(t, stripped(strings.Join(c.items[0].spilledLines(200, &c.view, m.Styles), " ")), "earlier entries", sp.dir, "enter shows them")
		press(m, "enter")
		waitSpill(sp)
		if len(loads) != 1 {
			t.Fatalf("%d loads", len(loads))
		}
		m.takeEvents(nil, loads)
		shown, _ := c.items[0].lines(98, 40, &c.view, m.Styles, m.Markdown)
		mustContain(t, stripped(strings.Join(shown, "\n")), "(completed)", ": text text")
	})
}

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
		if v := m.conv().editor.value(); v != "" {
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
		e := &m.conv().editor
		if v := e.value(); v != "a" {
			t.Fatalf("the ended agent's editor holds %q, want the %q typed before", v, "a")
		}
		if e.ta.Focused() {
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

// The rendered blocks a transcript keeps are bounded too: those of its
// oldest messages go first, and come back when they are drawn again.
func TestRenderedBlocksKeepToTheirBudget(t *testing.T) {
	defer func(n int64) { maxRendered = n }(maxRendered)
	maxRendered = 16 << 10
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		rendered := func() (n int64) {
			for _, it := range m.conv().items {
				n += it.text.rendered
			}
			return n
		}
		for i := range 4 {
			var b strings.Builder
			for j := range 50 {
				fmt.Fprintf(&b, "Message %d, paragraph %d, with **bold** words.\n\n", i, j)
			}
			events(m, f.info.ID, msgChunk(b.String()), conversation.Event{Kind: conversation.EventToolCall, Tool: &conversation.ToolCall{ID: fmt.Sprint(i), Title: "read"}})
			// Draw all of it, as scrolling through it would.
			drawTranscript(m, 100, 1<<20)
			events(m, f.info.ID)
			if n := rendered(); n > maxRendered {
				t.Fatalf("%d bytes of rendered blocks kept, over %d", n, maxRendered)
			}
		}
		all := stripped(drawTranscript(m, 100, 1<<20))
		mustContain(t, all, "Message 0, paragraph 0, with bold words.", "Message 3, paragraph 49")
	})
}

// drawTranscript draws the transcript shown at width×height, unfocused,
// as a screen that size would.
func drawTranscript(m *Model, width, height int) string {
	v := &m.conv().view
	v.SetSize(width, height)
	return v.View()
}
