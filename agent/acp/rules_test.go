package acp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/asktui/asktui/agent/hook"
	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
	"github.com/asktui/asktui/internal/rules"
)

// TestOneRuleForEveryAgent is standing answers end to end, without a
// screen: a rule saved while answering Claude Code's hook about `go test
// ./...` answers the same kind of command coming through the Codex hook
// and from an ACP agent, with no one asked; a compound command built on
// it, and the same command in another project, still reach the human.
func TestOneRuleForEveryAgent(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "src", "app")
	if err := os.MkdirAll(project, 0o700); err != nil {
		t.Fatal(err)
	}
	store := rules.Open(filepath.Join(home, ".config", "asktui", "rules.conf"), filepath.Join(home, ".local", "state", "asktui", "rules-hits.json"), home)
	human := interactiontest.NewProvider()
	wrap := func(p interaction.Provider) interaction.Provider { return rules.Wrap(p, store) }
	outcomes := make(chan string, 1)
	r := newRigAsking(t, ruledAgentTo(outcomes), Options{Cwd: project}, "", human, wrap)
	svc := interaction.NewService()
	unregister, err := svc.Register(wrap(human))
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()

	hookInput := func(cli, command, cwd string) hook.Input {
		in := hook.Input{HookEventName: "PermissionRequest", ToolName: "Bash", Cwd: cwd, SessionID: cli + "-session"}
		in.ToolInput, _ = json.Marshal(map[string]string{"command": command})
		return in
	}
	type result struct {
		out []byte
		err error
	}
	runHook := func(handle func(context.Context, hook.Input, hook.Asker) ([]byte, error), in hook.Input) <-chan result {
		done := make(chan result, 1)
		go func() {
			out, err := handle(context.Background(), in, svc.Ask)
			done <- result{out, err}
		}()
		return done
	}
	decision := func(t *testing.T, res result) string {
		t.Helper()
		if res.err != nil {
			t.Fatal(res.err)
		}
		var out struct {
			HookSpecificOutput struct {
				Decision struct {
					Behavior string `json:"behavior"`
				} `json:"decision"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(res.out, &out); err != nil {
			t.Fatalf("%v: %s", err, res.out)
		}
		return out.HookSpecificOutput.Decision.Behavior
	}
	answer := func(c *interactiontest.Call, label string) {
		c.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: c.Req.Permission.Question, Selected: []string{label}}}})
	}

	// Claude Code asks; the human allows, and makes it stand for go test
	// with any arguments, from any agent, in the project.
	done := runHook(hook.HandleClaude, hookInput("claude", "go test ./...", project))
	call := human.Next(t)
	perm := call.Req.Permission
	if perm == nil {
		t.Fatal("Claude Code's permission carries no description for the rules")
	}
	var spec rules.Spec
	for _, s := range rules.Suggest(perm) {
		if s.String() == "Bash(go test:*)" {
			spec = s
		}
	}
	if spec.String() != "Bash(go test:*)" {
		t.Fatalf("no Bash(go test:*) among the suggestions %v", rules.Suggest(perm))
	}
	rule, err := rules.RuleFor(perm, rules.Allow, spec, false, home)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := store.Add(rule); err != nil {
		t.Fatal(err)
	}
	answer(call, perm.Allow)
	if got := decision(t, <-done); got != "allow" {
		t.Fatalf("Claude Code's decision %q, want allow", got)
	}
	if want := "allow `go test` with any arguments, from any agent, in ~/src/app"; rule.Describe() != want {
		t.Errorf("the rule in words: %q, want %q", rule.Describe(), want)
	}

	// Codex asks for go test in a subdirectory: the rule answers.
	if got := decision(t, <-runHook(hook.HandleCodex, hookInput("codex", "go test -run TestRefund ./pay", filepath.Join(project, "pay")))); got != "allow" {
		t.Fatalf("Codex's decision %q, want allow by the rule", got)
	}
	if a := human.NextActivity(t); !strings.Contains(a.Text, "allowed by rule 1 (Bash(go test:*)): go test -run TestRefund ./pay") {
		t.Errorf("the activity shows %q", a.Text)
	}

	// An ACP agent asks for go test: the rule picks its allow-once option.
	outcome := r.prompt("test it")
	if got := wait(t, outcomes); got != "allow" {
		t.Fatalf("the ACP agent's outcome %q, want allow by the rule", got)
	}
	wait(t, outcome)
	human.NextActivity(t) // its "allowed by rule 1"

	// A compound command built on it reaches the human; so does go test
	// in another project.
	done = runHook(hook.HandleCodex, hookInput("codex", "go test ./... && rm -rf ~", project))
	call = human.Next(t)
	answer(call, call.Req.Permission.Deny)
	if got := decision(t, <-done); got != "deny" {
		t.Fatalf("the compound command's decision %q, want deny", got)
	}
	done = runHook(hook.HandleCodex, hookInput("codex", "go test ./...", home))
	call = human.Next(t)
	answer(call, call.Req.Permission.Deny)
	if got := decision(t, <-done); got != "deny" {
		t.Fatalf("go test outside the project: %q, want deny", got)
	}
	hits, err := store.Hits()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, h := range hits {
		n += h.Count
	}
	if n != 2 {
		t.Errorf("the rule answered %d times, want 2 (%+v)", n, hits)
	}
}

// ruledAgentTo is an ACP agent whose turn asks to run go test ./... (as
// an argument vector), and reports the outcome to outcomes.
func ruledAgentTo(outcomes chan string) *testAgent {
	a := &testAgent{}
	a.prompt = func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
		a.update(ctx, sid, sdk.StartToolCall("t1", "Run tests", sdk.WithStartKind(sdk.ToolKindExecute),
			sdk.WithStartRawInput(map[string]any{"command": []string{"go", "test", "./..."}})))
		resp, err := a.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{SessionId: sid,
			ToolCall: sdk.ToolCallUpdate{ToolCallId: "t1"},
			Options: []sdk.PermissionOption{
				{Kind: sdk.PermissionOptionKindAllowAlways, Name: "Always allow", OptionId: "always"},
				{Kind: sdk.PermissionOptionKindAllowOnce, Name: "Allow once", OptionId: "allow"},
				{Kind: sdk.PermissionOptionKindRejectOnce, Name: "Reject", OptionId: "reject"},
			}})
		switch {
		case err != nil:
			outcomes <- err.Error()
		case resp.Outcome.Selected != nil:
			outcomes <- string(resp.Outcome.Selected.OptionId)
		default:
			outcomes <- "cancelled"
		}
		return sdk.StopReasonEndTurn, nil
	}
	return a
}

// TestShellLine: an ACP agent's command, as an argument vector, becomes
// one shell line that runs exactly its words: a word holding `&&` or a
// space stays one word for the rules, never a second command.
func TestShellLine(t *testing.T) {
	tests := []struct{ input, want string }{
		{`{"command":"go test ./..."}`, "go test ./..."},
		{`{"command":["go","test","./..."]}`, "go test ./..."},
		{`{"command":["bash","-c","go test && rm -rf ~"]}`, `bash -c 'go test && rm -rf ~'`},
		{`{"command":["echo","it's"]}`, `echo "it's"`},
		{`{"command":["printf","a\u0000b"]}`, ""}, // no shell line holds a NUL
		{`{"command":42}`, ""},
		{`{"cmd":"ls"}`, ""},
		{`not json`, ""},
	}
	for _, tt := range tests {
		if got := shellLine(tt.input); got != tt.want {
			t.Errorf("shellLine(%s) = %q, want %q", tt.input, got, tt.want)
		}
	}
}
