package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/asktui/asktui/interaction/conversation"
)

// Between two marks the guard passes at most markEvery notifications and
// not much more than markBytes of them: a flood of big updates waits for
// the screen every few MiB, not every 256 updates.
func TestGuardMarksByBytes(t *testing.T) {
	big := fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"text":%q}}`, strings.Repeat("x", 1<<20))
	var in strings.Builder
	for range 40 {
		in.WriteString(big + "\n")
	}
	pr, pw := io.Pipe()
	g := newGuard(strings.NewReader(in.String()), pw, make(chan struct{}))
	most := make(chan int, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(nil, maxLine+1)
		run, worst := 0, 0
		for sc.Scan() {
			var m struct {
				Method string `json:"method"`
				Params struct {
					N uint64 `json:"n"`
				} `json:"params"`
			}
			if json.Unmarshal(sc.Bytes(), &m) == nil && m.Method == markMethod {
				g.marked(m.Params.N)
				run = 0
				continue
			}
			run += len(sc.Bytes())
			worst = max(worst, run)
		}
		most <- worst
	}()
	if err := g.run(); err != nil {
		t.Fatal(err)
	}
	if worst := <-most; worst > markBytes+len(big) {
		t.Fatalf("%d bytes of notifications passed between two marks, over %d", worst, markBytes+len(big))
	}
}

// A mark is handled (and the guard reads on) only once the pacing sink
// lets it.
func TestMarkWaitsForThePacer(t *testing.T) {
	release, entered := make(chan struct{}), make(chan struct{})
	s := newSink()
	s.pace = func(context.Context) {
		close(entered)
		<-release
	}
	c := &session{sink: s, guard: newGuard(strings.NewReader(""), nil, make(chan struct{}))}
	done := make(chan struct{})
	go func() {
		_, _ = c.HandleExtensionMethod(context.Background(), markMethod, json.RawMessage(`{"n":1}`))
		close(done)
	}()
	<-entered
	if n := c.guard.seen.Load(); n != 0 {
		t.Fatalf("mark %d handled while the sink held it", n)
	}
	close(release)
	<-done
	if n := c.guard.seen.Load(); n != 1 {
		t.Fatalf("mark %d handled, want 1", n)
	}
}

// A flood against a screen that takes events only when asked to wait:
// the agent is held back (the events waiting never exceed what two marks
// let through), and every event still arrives, in order.
func TestFloodWaitsForTheScreen(t *testing.T) {
	const n = 20 * markEvery
	agent := &testAgent{prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
		for i := range n {
			a.update(ctx, sid, sdk.UpdateAgentMessageText(fmt.Sprint(i, " ")))
		}
		return sdk.StopReasonEndTurn, nil
	}}
	r := newRig(t, agent, Options{}, "")
	// The screen: events since its last take wait; Pace takes them
	// (as the screen's next frame would) once a mark's worth waits.
	var mu sync.Mutex
	taken, worst := 0, 0
	r.sink.mu.Lock()
	r.sink.pace = func(context.Context) {
		mu.Lock()
		defer mu.Unlock()
		r.sink.mu.Lock()
		defer r.sink.mu.Unlock()
		worst = max(worst, len(r.sink.events)-taken)
		taken = len(r.sink.events)
	}
	r.sink.mu.Unlock()
	if res := wait(t, r.prompt("go")); res.err != nil {
		t.Fatal(res.err)
	}
	var text strings.Builder
	for _, e := range r.sink.all() {
		if e.Kind == conversation.EventMessageChunk {
			text.WriteString(e.Text)
		}
	}
	for i, w := range strings.Fields(text.String()) {
		if w != fmt.Sprint(i) {
			t.Fatalf("chunk %d is %q", i, w)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if worst == 0 || worst > 2*markEvery+2 {
		t.Fatalf("%d events waited for the screen at once, want 1 to %d", worst, 2*markEvery+2)
	}
}

// A tool call's content is cut at maxToolText, saying so.
func TestToolContentClipped(t *testing.T) {
	long := strings.Repeat("é", maxToolText)
	out := (&session{terms: map[string]*conversation.TerminalOutput{}}).toolContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(long)), sdk.ToolDiffContent("/a", long, long)})
	for _, s := range []string{out[0].Text, out[1].Diff.New, *out[1].Diff.Old} {
		if len(s) > maxToolText+64 || !strings.Contains(s, "more bytes not shown") {
			t.Fatalf("kept %d bytes: %q", len(s), s[len(s)-40:])
		}
	}
}
