package acp

import (
	"context"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/asktui/asktui/interaction/conversation"
	sdk "github.com/coder/acp-go-sdk"
)

// countSink counts message chunks and their bytes.
type countSink struct{ chunks, bytes atomic.Int64 }

func (s *countSink) ConversationEvent(e conversation.Event) {
	if e.Kind == conversation.EventMessageChunk {
		s.chunks.Add(1)
		s.bytes.Add(int64(len(e.Text)))
	}
}

// BenchmarkStreamChunks streams 10,000 message chunks of 20 bytes from an
// agent as fast as the pipe takes them, through the SDK, the line guard
// and the update conversion, to the sink: one op is one whole turn.
func BenchmarkStreamChunks(b *testing.B) {
	const chunks = 10_000
	chunk := strings.Repeat("x", 19) + " "
	agent := &testAgent{prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
		for range chunks {
			a.update(ctx, sid, sdk.UpdateAgentMessageText(chunk))
		}
		return sdk.StopReasonEndTurn, nil
	}}
	r := newRig(b, agent, Options{}, "")
	s := &countSink{}
	r.c.sink = s
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.c.Prompt(context.Background(), []conversation.PromptPart{{Text: "go"}}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if got := s.chunks.Load(); got != int64(chunks*b.N) {
		b.Fatalf("%d chunks reached the sink, want %d", got, chunks*b.N)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(chunks*b.N), "ns/chunk")
}

// BenchmarkClientSide is the client's share alone: 10,000 pre-encoded
// session/update lines of 20-byte chunks written straight into the
// agent's output, until the last has reached the sink. One op is 10,000
// chunks.
func BenchmarkClientSide(b *testing.B) {
	const chunks = 10_000
	line := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"xxxxxxxxxxxxxxxxxxx "}}}}` + "\n")
	var batch []byte
	for range chunks {
		batch = append(batch, line...)
	}
	r := newRig(b, &testAgent{}, Options{}, "")
	s := &countSink{}
	r.c.emitMu.Lock()
	r.c.sink = s
	r.c.emitMu.Unlock()
	b.ReportAllocs()
	b.ResetTimer()
	want := int64(0)
	for b.Loop() {
		want += chunks
		if _, err := r.agentOut.Write(batch); err != nil {
			b.Fatal(err)
		}
		for s.chunks.Load() < want {
			// The sink is reached on the SDK's goroutine; the pipe write
			// returned once the guard read the last line.
			runtime.Gosched()
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(chunks*b.N), "ns/chunk")
}
