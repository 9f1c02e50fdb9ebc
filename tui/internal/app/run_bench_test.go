package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/chat"
)

// streamText is a realistic reply: prose, a list, a code block, repeated.
var streamText = strings.Repeat("The refund rounds down where Charge rounded half away from zero, so the **partial refund** test fails by one cent.\n\n- `refund.go` divides in integers\n- the test expects 2000\n\n```go\nfunc refund(c int) int {\n\treturn int(math.Round(float64(c) / 2))\n}\n```\n\n", 60)

func benchRun(b *testing.B) (*Model, string) {
	b.Helper()
	return benchRunIn(b, nil)
}

// benchRunIn is benchRun with the transcripts' long texts kept in sp.
func benchRunIn(b *testing.B, sp *chat.Spill) (*Model, string) {
	b.Helper()
	m := newModel(styles.ThemeDark, true, func() time.Time { return fixedNow })
	m.spill = sp
	m.answers = newFakeInbox()
	m.kind = kindRun
	m.focus = focusPrompt
	m.launcher = &fakeLauncher{}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	f := newFakeConv("conv-1", "gemini")
	m.Update(convStartedMsg{agent: "gemini", conv: f})
	return m, f.info.ID
}

// BenchmarkStreamFrame streams 10,000 chunks of 20 bytes and draws a
// frame every 100 chunks (the link hands the model all the chunks that
// arrived since the last frame, in one batch): the cost of one frame,
// the batch taken and the screen drawn, at 120x40. Target: ≤ 2 ms.
func BenchmarkStreamFrame(b *testing.B) {
	const chunk, perFrame = 20, 100
	for b.Loop() {
		b.StopTimer()
		m, id := benchRun(b)
		var frames int
		var spent time.Duration
		for off := 0; off < 10_000*chunk; off += chunk * perFrame {
			batch := make([]conversation.Event, 0, perFrame)
			for i := off; i < off+chunk*perFrame; i += chunk {
				s := streamText[i%len(streamText) : min(i%len(streamText)+chunk, len(streamText))]
				batch = append(batch, conversation.Event{Conversation: id, Kind: conversation.EventMessageChunk, Text: s})
			}
			start := time.Now()
			m.applyConvEvents(batch)
			m.drawn = ""
			m.View()
			spent += time.Since(start)
			frames++
		}
		b.ReportMetric(float64(spent.Microseconds())/float64(frames)/1000, "ms/frame")
		b.StartTimer()
	}
}

// BenchmarkTranscriptScroll moves through a transcript of 10,000 items
// with the keys, drawing the screen after each: ≤ 2 ms a key.
func BenchmarkTranscriptScroll(b *testing.B) {
	m, id := benchRun(b)
	var es []conversation.Event
	for i := range 10_000 {
		switch i % 3 {
		case 0:
			es = append(es, conversation.Event{Conversation: id, Kind: conversation.EventUserChunk, Text: fmt.Sprintf("prompt %d", i)})
		case 1:
			es = append(es, conversation.Event{Conversation: id, Kind: conversation.EventMessageChunk, Text: fmt.Sprintf("Reply %d with some **bold** text.", i)})
		default:
			es = append(es, conversation.Event{Conversation: id, Kind: conversation.EventToolCall, Tool: &conversation.ToolCall{ID: fmt.Sprint(i), Title: "read file", Kind: conversation.ToolRead, Status: conversation.ToolCompleted}})
		}
	}
	m.applyConvEvents(es)
	m.Update(keyMsgs("ctrl+t")[0])
	m.View()
	keys := []tea.KeyPressMsg{keyMsgs("up")[0], keyMsgs("pgup")[0], keyMsgs("up")[0]}
	for i := 0; b.Loop(); i++ {
		m.Update(keys[i%len(keys)])
		m.drawn = ""
		m.View()
		if i%300 == 299 {
			m.Update(keyMsgs("end")[0])
		}
	}
}
