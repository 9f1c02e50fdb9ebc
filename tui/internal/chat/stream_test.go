package chat

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/tui/internal/request"
)

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
			c := testChat(t, nil)
			first := ""
			if name == "fence" {
				first = "```go\n"
			}
			events(c, msgChunk(first))
			chunk := strings.Repeat(unit, 40<<10/len(unit))
			for range 50 { // 2 MiB
				events(c, msgChunk(chunk))
				it := lastItem(c)
				if open := it.text.Len() - it.text.committed; open > 2*maxBlock {
					t.Fatalf("the open block holds %d bytes, over %d", open, 2*maxBlock)
				}
				for _, b := range it.text.blocks {
					if b.end-b.start > 2*maxBlock+int64(len(unit)) {
						t.Fatalf("a block of %d bytes", b.end-b.start)
					}
				}
			}
			mustContain(t, stripped(strings.Join(lastItem(c).trimLine(100, c.view.com.Styles), " ")), "came; the last")
			s := screen(c)
			if name == "paragraph" {
				mustContain(t, s, "Charge")
				mustNotContain(t, s, "**")
			}
		})
	}
}

// A message longer than the transcript shows keeps its end on screen,
// with a line saying how much came and where all of it is: a spill file
// that holds the whole text, byte for byte.
func TestLongMessageShowsItsEndAndKeepsTheWhole(t *testing.T) {
	sp := withSpill(t)
	c := testChat(t, sp)
	var whole strings.Builder
	for i := range 400 {
		var chunk strings.Builder
		for j := range 100 {
			fmt.Fprintf(&chunk, "Line %d of the reply, with some **bold** words.\n\n", i*100+j)
		}
		whole.WriteString(chunk.String())
		events(c, msgChunk(chunk.String()))
	}
	events(c, conversation.Event{Kind: conversation.EventTurnEnded, Stop: conversation.StopEndTurn})
	it := lastItem(c)
	if it.text.kept() > maxShownText+trimSlack {
		t.Fatalf("the item holds %d bytes, over %d", it.text.kept(), maxShownText+trimSlack)
	}
	if it.text.Len() != int64(whole.Len()) {
		t.Fatalf("length %d, want %d", it.text.Len(), whole.Len())
	}
	mustContain(t, screen(c), "Line 39999 of the reply")
	// The line on top says what came and where it is.
	top := stripped(strings.Join(it.trimLine(100, c.view.com.Styles), " "))
	mustContain(t, top, sizeText(int64(whole.Len()))+" came; the last", sp.dir)
	tr := c.Transcript()
	tr.CursorLast()
	tr.Focus()
	press(t, tr, "pgup", "pgup")
	mustContain(t, screen(c), "of the reply, with some bold words.")
	waitSpill(sp)
	data, err := os.ReadFile(sp.path(it.text.file))
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != whole.String() {
		t.Fatalf("the spill file holds %d bytes, the message was %d", len(data), whole.Len())
	}
	if err := sp.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(sp.dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the spill directory is still there: %v", err)
	}
}

// A transcript holds at most its budget: its oldest items go to the
// spill file, one line stands for them, and enter on that line shows
// them again.
func TestTranscriptKeepsToItsBudget(t *testing.T) {
	defer func(text int64, items int) { maxResidentText, maxResidentItems = text, items }(maxResidentText, maxResidentItems)
	maxResidentText, maxResidentItems = 256<<10, 400
	var loads []Load
	sp := NewSpill(t.TempDir(), func(l Load) { loads = append(loads, l) })
	t.Cleanup(func() { _ = sp.Close() })
	c := testChat(t, sp)
	for i := range 2000 {
		events(c,
			conversation.Event{Kind: conversation.EventToolCall, Tool: &conversation.ToolCall{ID: fmt.Sprint(i), Title: fmt.Sprintf("read file %d", i), Status: conversation.ToolCompleted}},
			msgChunk(fmt.Sprintf("Reply %d: %s", i, strings.Repeat("text ", 100))))
	}
	if len(c.items) > maxResidentItems || c.resident > maxResidentText {
		t.Fatalf("%d items, %d bytes held; the budget is %d and %d", len(c.items), c.resident, maxResidentItems, maxResidentText)
	}
	if c.items[0].kind != itemSpilled || c.items[0].spilled.count < 3000 {
		t.Fatalf("the first item is %+v, want the spilled ones", c.items[0])
	}
	mustContain(t, screen(c), "Reply 1999")
	// Reach the first line with the transcript's keys, and show it.
	tr := c.Transcript()
	tr.CursorLast()
	tr.Focus()
	for range len(c.items) {
		press(t, tr, "up")
	}
	mustContain(t, stripped(strings.Join(c.items[0].spilledLines(200, &c.view, c.view.com.Styles), " ")), "earlier entries", sp.dir, "enter shows them")
	press(t, tr, "enter")
	waitSpill(sp)
	if len(loads) != 1 {
		t.Fatalf("%d loads", len(loads))
	}
	c.ApplyLoad(loads[0])
	c.EnforceBudget()
	shown, _ := c.items[0].lines(98, 40, &c.view, c.view.com.Styles, c.view.com.Markdown)
	mustContain(t, stripped(strings.Join(shown, "\n")), "(completed)", ": text text")
}

// The rendered blocks a transcript keeps are bounded too: those of its
// oldest messages go first, and come back when they are drawn again.
func TestRenderedBlocksKeepToTheirBudget(t *testing.T) {
	defer func(n int64) { maxRendered = n }(maxRendered)
	maxRendered = 16 << 10
	c := testChat(t, nil)
	rendered := func() (n int64) {
		for _, it := range c.items {
			n += it.text.rendered
		}
		return n
	}
	for i := range 4 {
		var b strings.Builder
		for j := range 50 {
			fmt.Fprintf(&b, "Message %d, paragraph %d, with **bold** words.\n\n", i, j)
		}
		events(c, msgChunk(b.String()), conversation.Event{Kind: conversation.EventToolCall, Tool: &conversation.ToolCall{ID: fmt.Sprint(i), Title: "read"}})
		// Draw all of it, as scrolling through it would.
		drawTranscript(c, 100, 1<<20)
		events(c)
		if n := rendered(); n > maxRendered {
			t.Fatalf("%d bytes of rendered blocks kept, over %d", n, maxRendered)
		}
	}
	all := stripped(drawTranscript(c, 100, 1<<20))
	mustContain(t, all, "Message 0, paragraph 0, with bold words.", "Message 3, paragraph 49")
}

// A question goes to the spill file with its answer, like any item; one
// that went there still waiting is left as it was when it ends, and the
// transcript's count of what it holds stays right.
func TestSpilledQuestionsKeepTheirAnswer(t *testing.T) {
	defer func(text int64, items int) { maxResidentText, maxResidentItems = text, items }(maxResidentText, maxResidentItems)
	maxResidentText, maxResidentItems = 256<<10, 40
	sp := withSpill(t)
	c := testChat(t, sp)
	agent := &interaction.Agent{ID: testID, Name: "gemini"}
	deploy := request.New(&inbox.Request{ID: 1, Request: interaction.Request{Agent: agent, Questions: []interaction.Question{{
		ID: "deploy", Header: "Deploy 1.8.0 to production?", Question: "Questions from release-agent",
		Options: []interaction.Option{{Label: "Yes"}, {Label: "Canary only"}, {Label: "No"}},
	}}}})
	c.Asked(deploy)
	// The human picks the second option, here.
	c.AskEnded(deploy, inbox.Settlement{Answer: interaction.Answer{Answers: []interaction.AnswerItem{{ID: "deploy", Selected: []string{"Canary only"}}}}}, true)
	waiting := request.New(&inbox.Request{ID: 2, Request: interaction.Request{Agent: agent,
		Questions: []interaction.Question{{ID: "q", Question: "Roll back?", Options: []interaction.Option{{Label: "Yes"}, {Label: "No"}}}}}})
	c.Asked(waiting)
	for i := range 60 {
		events(c, msgChunk(fmt.Sprintf("Reply %d.", i)), conversation.Event{Kind: conversation.EventNotice, Text: "note"})
	}
	c.AskEnded(waiting, inbox.Settlement{Err: interaction.Errorf(interaction.CodeAborted, "the turn was cancelled")}, false)
	var held int64
	for _, it := range c.items {
		if it.kind == itemAsk {
			t.Fatalf("a question stayed past the budget: %+v", it.ask)
		}
		held += it.weight
	}
	if held != c.resident {
		t.Fatalf("the items weigh %d, the transcript counts %d", held, c.resident)
	}
	waitSpill(sp)
	b, err := os.ReadFile(sp.path(fileSafe(c.id) + "-transcript.md"))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, string(b), "? Deploy 1.8.0 to production?\n  Questions from release-agent\n  ✓ Canary only",
		"? Roll back?\n  … waiting for your answer")
}
