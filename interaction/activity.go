package interaction

import "time"

// ActivityKind says what an [Activity] reports.
type ActivityKind string

// The kinds of activity an agent reports.
const (
	// ActivityConnected: the agent arrived (a session opened, a script
	// started). ActivityDisconnected: it left.
	ActivityConnected    ActivityKind = "connected"
	ActivityDisconnected ActivityKind = "disconnected"
	// ActivityMessage: the agent says Text (Markdown allowed).
	ActivityMessage ActivityKind = "message"
	// ActivityThinking: the agent started working on something without
	// output yet (Text may say what); it lasts until the agent's next
	// activity of another kind, or ActivityIdle.
	ActivityThinking ActivityKind = "thinking"
	// ActivityIdle: the agent stopped thinking without saying anything.
	ActivityIdle ActivityKind = "idle"
	// ActivityToolCall: the agent called tool Tool with Args; CallID pairs
	// it with its ActivityToolResult, whose Text is the result and Failed
	// whether it failed.
	ActivityToolCall   ActivityKind = "tool_call"
	ActivityToolResult ActivityKind = "tool_result"
)

// Activity is one thing an agent reports while it works, so the human can
// follow what led to a question. Questions and answers themselves need no
// Activity: the provider sees them.
type Activity struct {
	// Agent is who reports.
	Agent Agent `json:"agent"`
	// Kind says what happened.
	Kind ActivityKind `json:"kind"`
	// Text is the message, the thinking note or the tool result.
	Text string `json:"text,omitempty"`
	// Tool and Args name a tool call and its arguments (usually JSON).
	Tool string `json:"tool,omitempty"`
	Args string `json:"args,omitempty"`
	// CallID pairs a tool call with its result.
	CallID string `json:"callId,omitempty"`
	// Failed marks a tool result that is an error.
	Failed bool `json:"failed,omitempty"`
	// Time is when it happened; zero means when it is received.
	Time time.Time `json:"time,omitzero"`
}

// ActivitySink receives agents' activity. A [Provider] that can show
// activity implements it; Report must not block.
type ActivitySink interface {
	Report(Activity)
}

// Report forwards a to the active provider when it shows activity (it
// implements [ActivitySink]); otherwise, or with no provider, it does
// nothing. Agents report through the Service just as they ask through it.
func (s *Service) Report(a Activity) {
	s.mu.Lock()
	reg := s.active
	s.mu.Unlock()
	if reg == nil {
		return
	}
	if sink, ok := reg.provider.(ActivitySink); ok {
		sink.Report(a)
	}
}
