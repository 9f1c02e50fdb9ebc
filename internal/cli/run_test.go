package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
)

func TestRunFailsBeforeTheTerminal(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		code interaction.Code
		exit int
		want string
	}{
		{[]string{"run", "nosuch"}, interaction.CodeAgentNotFound, exitNotFound, `no agent is called "nosuch"`},
		{[]string{"run", "gemini"}, interaction.CodeAgentNotFound, exitNotFound, "npm install -g @google/gemini-cli"},
		{[]string{"run", "--", dir + "/no-agent"}, interaction.CodeAgentNotFound, exitNotFound, "no-agent"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out outcome
			done := make(chan int, 1)
			var stdout, stderr strings.Builder
			go func() {
				done <- run(context.Background(), tt.args, env{
					stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
					environ: []string{"PATH=" + dir, "HOME=" + dir, "XDG_RUNTIME_DIR=" + dir},
					openTTY: mustNotOpenTTY(t),
				})
			}()
			out.code = <-done
			e := envelope(t, stderr.String())
			if out.code != tt.exit || e.Code != tt.code || !strings.Contains(e.Message, tt.want) || stdout.String() != "" {
				t.Fatalf("exit %d, error %v, stdout %q; want %d, %s with %q", out.code, e, stdout.String(), tt.exit, tt.code, tt.want)
			}
		})
	}
	if got := exitCode(interaction.Errorf(interaction.CodeAgentExited, "x")); got != exitAgent {
		t.Errorf("AGENT_EXITED exits %d", got)
	}
	if got := exitCode(interaction.Errorf(interaction.CodeAgentProtocol, "x")); got != exitAgent {
		t.Errorf("AGENT_PROTOCOL exits %d", got)
	}
	if got := exitCode(interaction.Errorf(interaction.CodeAgentAuth, "x")); got != exitAgentAuth {
		t.Errorf("AGENT_AUTH exits %d", got)
	}
}

func TestRunList(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr strings.Builder
	code := run(context.Background(), []string{"run", "--list"}, env{
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		environ: []string{"PATH=" + dir, "HOME=" + dir}, openTTY: mustNotOpenTTY(t),
	})
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if code != 0 || len(lines) != 7 || !strings.HasPrefix(lines[0], "gemini") || !strings.Contains(lines[0], "not installed") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s", code, stdout.String(), stderr.String())
	}
	// GitHub Copilot CLI and Qwen Code by name, with how to install them.
	for _, want := range []string{"npm install -g @github/copilot", "npm install -g @qwen-code/qwen-code"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("asktui run --list does not say %q:\n%s", want, stdout.String())
		}
	}
}

// asktui run completes every agent it knows by name.
func TestRunCompletesAgentNames(t *testing.T) {
	var stdout, stderr strings.Builder
	run(context.Background(), []string{"__complete", "run", ""}, env{
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, openTTY: mustNotOpenTTY(t),
	})
	for _, name := range []string{"gemini", "claude", "codex", "copilot", "qwen", "opencode", "goose"} {
		if !strings.Contains(stdout.String(), name+"\n") {
			t.Errorf("no completion %q:\n%s", name, stdout.String())
		}
	}
}

// recorder is a sink that keeps nothing.
type recorder struct{}

func (recorder) ConversationEvent(conversation.Event) {}

// TestRunExitStatusOneRule: a sign-in failure exits 6 whether it comes at
// session/new (a failed start) or in the middle of a turn, as Claude's
// does; a turn refused for the human's reason does not count.
func TestRunExitStatusOneRule(t *testing.T) {
	auth := interaction.Errorf(interaction.CodeAgentAuth, "claude needs you to sign in first")
	for _, tt := range []struct {
		name   string
		events []conversation.Event
		exit   int
	}{
		{"sign-in mid-turn", []conversation.Event{{Kind: conversation.EventTurnEnded, Err: auth}, {Kind: conversation.EventEnded}}, exitAgentAuth},
		{"busy", []conversation.Event{{Kind: conversation.EventTurnEnded, Err: interaction.Errorf(interaction.CodeBusy, "wait")}}, exitAnswered},
		{"cancelled", []conversation.Event{{Kind: conversation.EventTurnEnded, Stop: conversation.StopCancelled}}, exitAnswered},
		{"exited", []conversation.Event{{Kind: conversation.EventEnded, Err: interaction.Errorf(interaction.CodeAgentExited, "gone")}}, exitAgent},
		{"the first counts", []conversation.Event{
			{Kind: conversation.EventTurnEnded, Err: interaction.Errorf(interaction.CodeAgentProtocol, "garbage")},
			{Kind: conversation.EventTurnEnded, Err: auth}}, exitAgent},
	} {
		t.Run(tt.name, func(t *testing.T) {
			errs := &agentErrors{}
			s := endSink{recorder{}, errs}
			for _, e := range tt.events {
				s.ConversationEvent(e)
			}
			if got := exitCode(errs.err()); got != tt.exit {
				t.Fatalf("exit %d, want %d (%v)", got, tt.exit, errs.err())
			}
		})
	}
	// A failed start counts the same (Gemini's sign-in at session/new).
	errs := &agentErrors{Launcher: failingLauncher{auth}}
	if _, err := errs.Start(context.Background(), "gemini", "", recorder{}); exitCode(err) != exitAgentAuth || exitCode(errs.err()) != exitAgentAuth {
		t.Fatalf("a failed start: %v", errs.err())
	}
}

// failingLauncher fails every start with err.
type failingLauncher struct{ err error }

func (failingLauncher) Agents() []conversation.AgentChoice { return nil }
func (l failingLauncher) Start(context.Context, string, string, conversation.Sink) (conversation.Conversation, error) {
	return nil, l.err
}
func (failingLauncher) Sessions(context.Context, string) ([]conversation.PastSession, error) {
	return nil, nil
}

func TestConversationTokens(t *testing.T) {
	c := &conversationTokens{agents: map[string]interaction.Agent{}}
	claude := interaction.Agent{ID: "claude", Name: "Claude Code"}
	tok, forget := c.register(claude)
	other, _ := c.register(interaction.Agent{ID: "gemini"})
	if a, ok := c.identify(tok); !ok || a != claude || tok == other || len(tok) < 16 {
		t.Fatalf("identify(%q) = %+v, %v (other token %q)", tok, a, ok, other)
	}
	forget()
	if _, ok := c.identify(tok); ok {
		t.Fatal("a forgotten token still names its agent")
	}
	if _, ok := c.identify(""); ok {
		t.Fatal("the empty token names an agent")
	}
}
