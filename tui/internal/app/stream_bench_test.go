package app

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/tui/internal/chat"
)

// uniqueText is n bytes of Markdown whose blocks never repeat (so that no
// cache of rendered text helps): paragraphs, lists and code, numbered.
func uniqueText(n int, from int) string {
	var b strings.Builder
	for i := from; b.Len() < n; i++ {
		fmt.Fprintf(&b, "Paragraph %d: the refund rounds down where Charge rounded half away from zero, so the **partial refund** test fails by one cent.\n\n- `refund.go` divides %d in integers\n- the test expects %d\n\n```go\nfunc refund%d(c int) int {\n\treturn int(math.Round(float64(c) / 2))\n}\n```\n\n", i, i, i, i)
	}
	return b.String()[:n]
}

// BenchmarkStreamFrameAfter is one frame of a reply that keeps
// streaming (1 KiB of new Markdown since the last frame, the batch taken
// and the screen drawn at 120x40) after 1 MB, 10 MB and 100 MB of it
// have streamed: the cost of a frame does not grow with the message.
func BenchmarkStreamFrameAfter(b *testing.B) {
	for _, size := range []int{1e6, 1e7, 1e8} {
		b.Run(fmt.Sprintf("%dMB", size/1e6), func(b *testing.B) {
			sp := chat.NewSpill(b.TempDir(), nil)
			defer func() { _ = sp.Close() }()
			m, id := benchRunIn(b, sp)
			m.conv().BeginTurn(time.Time{})
			const chunk = 1 << 20
			text := uniqueText(chunk, 0)
			for sent := 0; sent < size; sent += chunk {
				m.takeEvents([]conversation.Event{{Conversation: id, Kind: conversation.EventMessageChunk, Text: text}}, nil)
				m.drawn = ""
				m.View()
			}
			// What the setup spilled is on disk before the timing starts.
			sp.Wait()
			runtime.GC()
			more := uniqueText(1<<20, 1_000_000)
			off := 0
			var spent time.Duration
			frames := 0
			for b.Loop() {
				s := more[off%len(more) : off%len(more)+1024]
				off = (off + 1024) % (len(more) - 1024)
				start := time.Now()
				m.takeEvents([]conversation.Event{{Conversation: id, Kind: conversation.EventMessageChunk, Text: s}}, nil)
				m.drawn = ""
				m.View()
				spent += time.Since(start)
				frames++
			}
			b.ReportMetric(float64(spent.Microseconds())/float64(frames)/1000, "ms/frame")
		})
	}
}

// BenchmarkFloodFrame applies a flood of 100,000 small updates of every
// kind (message and thought chunks that alternate, tool calls and their
// updates, usage, plans) in frames of 1,000 (as the link hands them over)
// and draws each frame: ms/frame, and the heap the transcript holds
// after.
func BenchmarkFloodFrame(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		sp := chat.NewSpill(b.TempDir(), nil)
		m, id := benchRunIn(b, sp)
		m.conv().BeginTurn(time.Time{})
		var spent time.Duration
		frames := 0
		for f := 0; f < 100; f++ {
			batch := make([]conversation.Event, 0, 1000)
			for j := range 1000 {
				i := f*1000 + j
				e := conversation.Event{Conversation: id}
				switch i % 8 {
				case 0, 1, 2:
					e.Kind, e.Text = conversation.EventMessageChunk, fmt.Sprintf("word %d ", i)
				case 3:
					e.Kind, e.Text = conversation.EventThoughtChunk, fmt.Sprintf("thinking %d ", i)
				case 4, 5:
					e.Kind, e.Tool = conversation.EventToolCall, &conversation.ToolCall{ID: fmt.Sprint(i / 80), Title: fmt.Sprintf("Read file %d", i), Kind: conversation.ToolRead, Status: conversation.ToolInProgress,
						Content: []conversation.ToolContent{{Text: fmt.Sprintf("line %d\nline 2", i)}}}
				case 6:
					e.Kind, e.Usage = conversation.EventUsage, &conversation.Usage{Used: i, Size: 200_000}
				case 7:
					e.Kind, e.Plan = conversation.EventPlan, []conversation.PlanEntry{{Content: fmt.Sprintf("Step %d", i), Status: "in_progress"}, {Content: "Next", Status: "pending"}}
				}
				batch = append(batch, e)
			}
			start := time.Now()
			m.takeEvents(batch, nil)
			m.drawn = ""
			m.View()
			spent += time.Since(start)
			frames++
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(spent.Microseconds())/float64(frames)/1000, "ms/frame")
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MiB")
		b.ReportMetric(float64(m.conv().Len()), "items")
		_ = sp.Close()
		b.StartTimer()
	}
}
