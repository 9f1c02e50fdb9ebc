package acp

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"go.uber.org/goleak"

	"github.com/asktui/asktui/agent/script"
	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// agentModeEnv makes the test binary an agent (see agentMain).
const agentModeEnv = "ASKTUI_ACP_TEST_AGENT"

func TestMain(m *testing.M) {
	if mode := os.Getenv(agentModeEnv); mode != "" {
		os.Exit(agentMain(mode))
	}
	goleak.VerifyTestMain(m)
}

// agentMain plays an agent in a subprocess: "scenario:FILE" serves a
// scenario; "garbage" prints a line that is not JSON-RPC; "crash" says
// something on standard error and exits 3; "hang" reads and never answers;
// "env:NAME" says on standard error what NAME holds and exits 3.
func agentMain(mode string) int {
	switch {
	case strings.HasPrefix(mode, "scenario:"):
		sc, err := script.Load(strings.TrimPrefix(mode, "scenario:"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		if err := ServeScenario(context.Background(), sc, os.Stdin, os.Stdout, ScenarioOptions{Speed: 1000}); err != nil {
			return 1
		}
		return 0
	case strings.HasPrefix(mode, "spawn:"):
		// A child that holds standard output open, as an MCP server or a
		// shell an agent started would; only killing the process group
		// ends it.
		child := exec.CommandContext(context.Background(), "sleep", "300")
		child.Stdout = os.Stdout
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		return agentMain("scenario:" + strings.TrimPrefix(mode, "spawn:"))
	case mode == "garbage":
		fmt.Println("Starting agent v1.2 …")
		_, _ = io.Copy(io.Discard, os.Stdin)
		return 0
	case strings.HasPrefix(mode, "env:"):
		// Says what a variable of its environment holds, and exits.
		name := strings.TrimPrefix(mode, "env:")
		v, ok := os.LookupEnv(name)
		fmt.Fprintf(os.Stderr, "%s=%q set=%v\n", name, v, ok)
		return 3
	case mode == "crash":
		fmt.Fprintln(os.Stderr, "panic: out of cheese")
		return 3
	case mode == "hang":
		fmt.Fprintln(os.Stderr, "waiting for a login token…")
		_, _ = io.Copy(io.Discard, os.Stdin)
		return 0
	}
	return 2
}

// within bounds waiting in tests: a failure deadline, never a way to
// synchronise.
const within = 20 * time.Second

// sink records a conversation's events; with pace set, it is a
// conversation.Pacer that calls it.
type sink struct {
	mu     sync.Mutex
	events []conversation.Event
	poke   chan struct{}
	pace   func(ctx context.Context)
}

// Pace calls the sink's pace, if set.
func (s *sink) Pace(ctx context.Context) {
	s.mu.Lock()
	pace := s.pace
	s.mu.Unlock()
	if pace != nil {
		pace(ctx)
	}
}

func newSink() *sink { return &sink{poke: make(chan struct{}, 1)} }

func (s *sink) ConversationEvent(e conversation.Event) {
	s.mu.Lock()
	s.events = append(s.events, e)
	s.mu.Unlock()
	select {
	case s.poke <- struct{}{}:
	default:
	}
}

func (s *sink) all() []conversation.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]conversation.Event(nil), s.events...)
}

// waitKind waits for an event of kind and returns the first.
func (s *sink) waitKind(t testing.TB, kind conversation.EventKind) conversation.Event {
	t.Helper()
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	for {
		for _, e := range s.all() {
			if e.Kind == kind {
				return e
			}
		}
		select {
		case <-s.poke:
		case <-deadline.C:
			t.Fatalf("no %s event within %v; got %v", kind, within, kinds(s.all()))
		}
	}
}

func kinds(events []conversation.Event) []string {
	var out []string
	for _, e := range events {
		out = append(out, string(e.Kind))
	}
	return out
}

// testAgent is an ACP agent in the test process; prompt plays each turn.
type testAgent struct {
	conn   *sdk.AgentSideConnection
	caps   sdk.AgentCapabilities
	modes  *sdk.SessionModeState
	prompt func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error)
	newReq chan sdk.NewSessionRequest
	init   chan sdk.InitializeRequest
	// refuse, when set, fails session/new and session/load for the MCP
	// servers given, or lets them pass with nil.
	refuse func([]sdk.McpServer) error
	asked  chan []sdk.ContentBlock
	// title, when set, is the agent's title in initialize's agentInfo.
	title string
}

func (a *testAgent) Initialize(_ context.Context, p sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	if a.init != nil {
		a.init <- p
	}
	info := &sdk.Implementation{Name: "test-agent", Version: "1"}
	if a.title != "" {
		info.Title = &a.title
	}
	return sdk.InitializeResponse{ProtocolVersion: sdk.ProtocolVersionNumber, AgentCapabilities: a.caps, AgentInfo: info}, nil
}
func (a *testAgent) NewSession(_ context.Context, p sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	if a.newReq != nil {
		a.newReq <- p
	}
	if a.refuse != nil {
		if err := a.refuse(p.McpServers); err != nil {
			return sdk.NewSessionResponse{}, err
		}
	}
	return sdk.NewSessionResponse{SessionId: "s1", Modes: a.modes}, nil
}
func (a *testAgent) LoadSession(ctx context.Context, p sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	if a.refuse != nil {
		if err := a.refuse(p.McpServers); err != nil {
			return sdk.LoadSessionResponse{}, err
		}
	}
	_ = a.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: p.SessionId, Update: sdk.UpdateUserMessageText("earlier prompt")})
	_ = a.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: p.SessionId, Update: sdk.UpdateAgentMessageText("earlier reply")})
	return sdk.LoadSessionResponse{}, nil
}
func (a *testAgent) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, nil
}
func (a *testAgent) Logout(context.Context, sdk.LogoutRequest) (sdk.LogoutResponse, error) {
	return sdk.LogoutResponse{}, nil
}
func (a *testAgent) Cancel(context.Context, sdk.CancelNotification) error { return nil }
func (a *testAgent) CloseSession(context.Context, sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	return sdk.CloseSessionResponse{}, nil
}
func (a *testAgent) ListSessions(context.Context, sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	t1, t2 := "2026-07-01T10:00:00Z", "2026-07-02T10:00:00Z"
	return sdk.ListSessionsResponse{Sessions: []sdk.SessionInfo{
		{SessionId: "old", Cwd: "/w", Title: sdk.Ptr("Old one"), UpdatedAt: &t1},
		{SessionId: "new", Cwd: "/w", Title: sdk.Ptr("New one"), UpdatedAt: &t2},
	}}, nil
}
func (a *testAgent) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	if a.asked != nil {
		a.asked <- p.Prompt
	}
	if a.prompt == nil {
		return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
	}
	stop, err := a.prompt(ctx, a, p.SessionId)
	return sdk.PromptResponse{StopReason: stop}, err
}
func (a *testAgent) ResumeSession(context.Context, sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	return sdk.ResumeSessionResponse{}, nil
}
func (a *testAgent) SetSessionConfigOption(context.Context, sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, nil
}
func (a *testAgent) SetSessionMode(context.Context, sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	return sdk.SetSessionModeResponse{}, nil
}

func (a *testAgent) update(ctx context.Context, sid sdk.SessionId, u sdk.SessionUpdate) {
	_ = a.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: sid, Update: u})
}

// pipeProc is an agent in the test process, behind two pipes.
type pipeProc struct {
	once  sync.Once
	close func()
	done  chan struct{}
	tail  string
}

func (p *pipeProc) kill()                   { p.once.Do(p.close) }
func (p *pipeProc) exited() <-chan struct{} { return p.done }
func (p *pipeProc) exitErr() error          { return nil }
func (p *pipeProc) stderrTail() string      { return p.tail }

// rig is a conversation with an in-process agent, and the human's side.
type rig struct {
	c     *session
	sink  *sink
	human *interactiontest.Provider
	agent *testAgent
	// agentOut is the agent's standard output: closing it is a crash.
	agentOut *io.PipeWriter
}

// newRig connects a conversation to agent, in process, and starts a
// session (or resumes session resume).
func newRig(t testing.TB, agent *testAgent, opts Options, resume string) *rig {
	t.Helper()
	return newRigAsking(t, agent, opts, resume, interactiontest.NewProvider(), nil)
}

// newRigAsking is newRig with the human given, and in front of it (when
// set) the provider wrap makes of it, as asktui run puts the rules there.
func newRigAsking(t testing.TB, agent *testAgent, opts Options, resume string, human *interactiontest.Provider, wrap func(interaction.Provider) interaction.Provider) *rig {
	t.Helper()
	var p interaction.Provider = human
	if wrap != nil {
		p = wrap(human)
	}
	svc := interaction.NewService()
	unregister, err := svc.Register(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(unregister)
	opts.Asker = svc
	l, err := NewLauncher(opts)
	if err != nil {
		t.Fatal(err)
	}
	c2aR, c2aW := io.Pipe()
	a2cR, a2cW := io.Pipe()
	agent.conn = sdk.NewAgentSideConnection(agent, a2cW, c2aR)
	agent.conn.SetLogger(l.opts.Logger)
	done := make(chan struct{})
	close(done)
	proc := &pipeProc{done: done, close: func() {
		_ = a2cW.Close()
		_ = c2aR.Close()
	}}
	s := newSink()
	c := newConversation(l.opts, "test", "test-agent", s, a2cR, c2aW, proc)
	t.Cleanup(func() { _ = c.Close() })
	ctx := context.Background()
	if err := c.initialize(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.open(ctx, resume); err != nil {
		t.Fatal(err)
	}
	return &rig{c: c, sink: s, human: human, agent: agent, agentOut: a2cW}
}

// prompt sends a prompt in the background and returns its outcome.
func (r *rig) prompt(text string) <-chan promptResult {
	out := make(chan promptResult, 1)
	go func() {
		stop, err := r.c.Prompt(context.Background(), []conversation.PromptPart{{Text: text}})
		out <- promptResult{stop, err}
	}()
	return out
}

type promptResult struct {
	stop conversation.StopReason
	err  error
}

func wait[T any](t testing.TB, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(within):
		t.Fatalf("nothing within %v", within)
		var zero T
		return zero
	}
}
