package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/tui/internal/chat"
)

// fakeConv is a conversation in tests: it records what the screen asked
// of it; a turn lasts until the test ends it (or it is cancelled).
type fakeConv struct {
	info conversation.Info

	mu        sync.Mutex
	prompts   [][]conversation.PromptPart
	cancelled int
	modes     []string
	closed    bool
	stop      chan conversation.StopReason
}

func newFakeConv(id, name string) *fakeConv {
	return &fakeConv{
		info: conversation.Info{
			ID: id, Agent: interaction.Agent{ID: id, Name: name}, Cwd: "",
			Modes: []conversation.Mode{{ID: "ask", Name: "Ask"}, {ID: "code", Name: "Code"}}, Mode: "ask",
			Commands: []conversation.Command{{Name: "init", Description: "create an AGENTS.md"}, {Name: "review", Description: "review the branch"}},
		},
		stop: make(chan conversation.StopReason, 1),
	}
}

func (f *fakeConv) Info() conversation.Info { return f.info }

func (f *fakeConv) Prompt(_ context.Context, parts []conversation.PromptPart) (conversation.StopReason, error) {
	f.mu.Lock()
	f.prompts = append(f.prompts, parts)
	f.mu.Unlock()
	return <-f.stop, nil
}

func (f *fakeConv) Cancel() {
	f.mu.Lock()
	f.cancelled++
	f.mu.Unlock()
	select {
	case f.stop <- conversation.StopCancelled:
	default:
	}
}

func (f *fakeConv) SetMode(_ context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.modes = append(f.modes, id)
	return nil
}

func (f *fakeConv) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	return nil
}

// fakeLauncher starts fakeConvs.
type fakeLauncher struct {
	mu      sync.Mutex
	started []string
	convs   map[string]*fakeConv
}

func (l *fakeLauncher) Agents() []conversation.AgentChoice {
	return []conversation.AgentChoice{
		{Name: "gemini", Description: "gemini --acp"},
		{Name: "goose", Description: "goose acp", Missing: "goose is not installed: see https://block.github.io/goose"},
	}
}

func (l *fakeLauncher) Start(_ context.Context, name, resume string, _ conversation.Sink) (conversation.Conversation, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.started = append(l.started, name+"|"+resume)
	c := newFakeConv("conv-"+name, name)
	if l.convs == nil {
		l.convs = map[string]*fakeConv{}
	}
	l.convs[name] = c
	return c, nil
}

func (l *fakeLauncher) Sessions(context.Context, string) ([]conversation.PastSession, error) {
	return []conversation.PastSession{{Session: "s-41", Title: "Refactor payments", Cwd: "/src/shop", Updated: fixedNow.Add(-time.Hour)}}, nil
}

// testRunEmpty is a conversation view that can start fake agents and has
// none yet.
func testRunEmpty(t *testing.T, w, h int) *Model {
	t.Helper()
	m := testModel(t, w, h)
	m.kind = kindRun
	m.focus = focusPrompt
	m.launcher = &fakeLauncher{}
	return m
}

// testRun is a conversation view with one fake agent, started.
func testRun(t *testing.T, w, h int) (*Model, *fakeConv) {
	t.Helper()
	m := testRunEmpty(t, w, h)
	f := newFakeConv("conv-1", "gemini")
	send(m, convStartedMsg{agent: "gemini", conv: f})
	return m, f
}

// events applies conversation events of conv as the link would.
func events(m *Model, conv string, es ...conversation.Event) {
	for i := range es {
		es[i].Conversation = conv
	}
	m.takeEvents(es, nil)
}

func msgChunk(s string) conversation.Event {
	return conversation.Event{Kind: conversation.EventMessageChunk, Text: s}
}

func str(s string) *string { return &s }

// busyConversation plays one turn with every kind of update.
func busyConversation(m *Model, f *fakeConv) {
	events(m, f.info.ID,
		conversation.Event{Kind: conversation.EventUserChunk, Text: "Make the refund tests pass."},
		conversation.Event{Kind: conversation.EventThoughtChunk, Text: "The refund rounds down.\nCharge rounded half away from zero.\nCheck the tests first."},
		msgChunk("I'll look at **refund.go** first."),
		conversation.Event{Kind: conversation.EventToolCall, Tool: &conversation.ToolCall{ID: "t1", Title: "Read refund.go", Kind: conversation.ToolRead, Status: conversation.ToolCompleted,
			Locations: []conversation.Location{{Path: "payments/refund.go", Line: 40}}}},
		conversation.Event{Kind: conversation.EventPlan, Plan: []conversation.PlanEntry{
			{Content: "Find the rounding", Status: "completed"}, {Content: "Fix it", Status: "in_progress"}, {Content: "Run the tests", Status: "pending"}}},
		conversation.Event{Kind: conversation.EventToolCall, Tool: &conversation.ToolCall{ID: "t2", Title: "Edit refund.go", Kind: conversation.ToolEdit, Status: conversation.ToolCompleted,
			Content: []conversation.ToolContent{{Diff: &conversation.Diff{Path: "payments/refund.go",
				Old: str("package payments\n\nfunc refund(c int) int {\n\treturn c / 2\n}\n"),
				New: "package payments\n\nimport \"math\"\n\nfunc refund(c int) int {\n\treturn int(math.Round(float64(c) / 2))\n}\n"}}}}},
		conversation.Event{Kind: conversation.EventToolCall, Tool: &conversation.ToolCall{ID: "t3", Title: "go test ./payments/...", Kind: conversation.ToolExecute, Status: conversation.ToolFailed,
			Content: []conversation.ToolContent{{Text: "--- FAIL: TestRefundPartial (0.01s)\n    refund_test.go:48: refund = 1999, want 2000\nFAIL\nFAIL github.com/acme/shop/payments 0.212s\nline 5\nline 6\nline 7\nline 8"}}}},
		msgChunk("## Result\n\nThe test still fails:\n\n```go\nwant := 2000 // cents\n```\n\nI'll try again."),
		conversation.Event{Kind: conversation.EventUsage, Usage: &conversation.Usage{Used: 12_400, Size: 200_000, Cost: 0.12, Currency: "USD"}},
		conversation.Event{Kind: conversation.EventInfo, Info: &conversation.Info{ID: f.info.ID, Agent: f.info.Agent, Title: "Refund rounding", Modes: f.info.Modes, Mode: "code", Commands: f.info.Commands}},
	)
}

// demoDeployRequest is asktui demo --acp deploy's question, as agent/acp
// asks its form: the field's title as the header, the form's message as
// the text.
func demoDeployRequest(f *fakeConv) interaction.Request {
	return interaction.Request{Agent: &interaction.Agent{ID: f.info.ID, Name: f.info.Agent.Name}, Questions: []interaction.Question{{
		ID: "deploy", Header: "Deploy 1.8.0 to production?", Question: "Questions from release-agent",
		Options: []interaction.Option{
			{Label: "Yes", Description: "Roll out to all 12 pods, 3 at a time"},
			{Label: "Canary only", Description: "Send 5% of traffic to 1.8.0 for 30 minutes"},
			{Label: "No", Description: "Keep 1.7.4 in production"},
		},
	}}}
}

func TestRunGolden(t *testing.T) {
	cases := []struct {
		name string
		then func(*testing.T, *Model, *fakeConv)
	}{
		{name: "transcript"},
		{name: "split", then: func(t *testing.T, m *Model, _ *fakeConv) { press(m, "ctrl+t", "up", "up", "d") }},
		{name: "thoughts", then: func(t *testing.T, m *Model, _ *fakeConv) { press(m, "ctrl+t", "t") }},
		{name: "expanded", then: func(t *testing.T, m *Model, _ *fakeConv) { press(m, "ctrl+t", "up", "enter") }},
		{name: "permission", then: func(t *testing.T, m *Model, f *fakeConv) {
			ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: f.info.ID, Name: "gemini"}, Questions: []interaction.Question{{
				ID: "permission", Header: "Permission", Question: "Modifying critical configuration file",
				Detail:  "```diff\n- host: old\n+ host: new\n```",
				Options: []interaction.Option{{Label: "Allow this change"}, {Label: "Skip this change"}},
			}}})
		}},
		// Issue 35: the question and the answer stay in the transcript.
		{name: "answered", then: func(t *testing.T, m *Model, f *fakeConv) {
			ask(t, m, demoDeployRequest(f))
			glance(m)
			press(m, "2")
		}},
		{name: "commands", then: func(t *testing.T, m *Model, _ *fakeConv) { press(m, "/") }},
		{name: "agents", then: func(t *testing.T, m *Model, _ *fakeConv) { press(m, "ctrl+l") }},
		// Issue 16: inline Markdown in thoughts and tool titles.
		{name: "markdown", then: func(t *testing.T, m *Model, f *fakeConv) {
			events(m, f.info.ID,
				conversation.Event{Kind: conversation.EventThoughtChunk, Text: "**Planning the answer**\n\nThe `refund` test first."},
				conversation.Event{Kind: conversation.EventToolCall, Tool: &conversation.ToolCall{ID: "t9", Title: "**codex**: run `go test ./payments/...`", Kind: conversation.ToolExecute, Status: conversation.ToolCompleted}},
				msgChunk("**codex**: the tests pass."))
		}},
		// Issue 16: an agent that could not start keeps its reason.
		{name: "failed", then: func(t *testing.T, m *Model, _ *fakeConv) {
			send(m, convStartedMsg{agent: "claude", err: interaction.Errorf(interaction.CodeAgentAuth,
				"claude needs you to sign in first: run it once on its own and sign in, then try again; it said: Please run /login\n\nThe end of its standard error:\nLoading settings…\nPlease run /login")})
		}},
	}
	for _, c := range cases {
		for _, size := range [][2]int{{100, 30}, {60, 20}} {
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, size[0], size[1]), func(t *testing.T) {
				run(t, func(t *testing.T) {
					m, f := testRun(t, size[0], size[1])
					busyConversation(m, f)
					if c.then != nil {
						c.then(t, m, f)
					}
					glance(m)
					s := screen(m)
					mustFit(t, s, size[0], size[1])
					golden.RequireEqual(t, s)
				})
			})
		}
	}
}

func TestPromptIsSentWithItsFilesAndKeptInTheHistory(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "refund.go"), []byte("package payments\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		f.info.Cwd = dir
		info := f.info
		events(m, f.info.ID, conversation.Event{Kind: conversation.EventInfo, Info: &info})
		press(m, "Fix @ref")
		// The listing comes back as a message; its file completes.
		send(m, chat.FilesMsg{Conv: f.info.ID, Files: []string{"refund.go", "README.md"}})
		mustContain(t, screen(m), "refund.go")
		press(m, "tab", "please")
		press(m, "enter")
		mustContain(t, screen(m), "› Fix @refund.go please", "gemini is working", "esc cancels")
		f.mu.Lock()
		got := f.prompts
		f.mu.Unlock()
		if len(got) != 1 || got[0][0].Text != "Fix @refund.go please" || len(got[0]) != 2 || got[0][1].Path != "refund.go" {
			t.Fatalf("prompts = %+v", got)
		}
		press(m, "esc")
		if f.cancelled != 1 {
			t.Fatalf("esc during the turn cancelled %d times, want 1", f.cancelled)
		}
		mustContain(t, screen(m), "turn cancelled")
		press(m, "up")
		if v := m.conv().Prompt().Value(); v != "Fix @refund.go please" {
			t.Fatalf("↑ on an empty editor gave %q, want the last prompt", v)
		}
		press(m, "shift+tab")
		if len(f.modes) != 1 || f.modes[0] != "code" {
			t.Fatalf("⇧tab switched to %v, want [code]", f.modes)
		}
	})
}

func TestAgentPickerStartsAndResumes(t *testing.T) {
	run(t, func(t *testing.T) {
		m, _ := testRun(t, 100, 30)
		l := m.launcher.(*fakeLauncher)
		press(m, "ctrl+l")
		s := screen(m)
		mustContain(t, s, "Agents", "gemini", "start gemini", "start goose", "goose is not installed")
		press(m, "down", "enter") // start gemini
		press(m, "ctrl+l", "down", "down", "enter")
		mustContain(t, screen(m), "Refactor payments")
		press(m, "enter")
		l.mu.Lock()
		defer l.mu.Unlock()
		if len(l.started) != 2 || l.started[0] != "gemini|" || l.started[1] != "gemini|s-41" {
			t.Fatalf("started %v", l.started)
		}
	})
}

// Chunks streamed in any size render what the whole message renders.
func TestStreamedMessageRendersAsTheWhole(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		text := "# Title\n\nSome **bold** text and `code`.\n\n- one\n- two\n\n```go\nfunc f() {}\n```\n\nThe end."
		for i := 0; i < len(text); i += 3 {
			events(m, f.info.ID, msgChunk(text[i:min(i+3, len(text))]))
			screen(m)
		}
		events(m, f.info.ID, conversation.Event{Kind: conversation.EventTurnEnded, Stop: conversation.StopEndTurn})
		streamed := screen(m)
		whole := m.Markdown.Render(text, m.contentWidth())
		for _, l := range whole {
			mustContain(t, streamed, strings.TrimSpace(stripped(l)))
		}
	})
}
