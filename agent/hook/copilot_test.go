package hook

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
)

// copilotFixture reads testdata/copilot/in/<name>.json as Copilot CLI
// sends it.
func copilotFixture(t *testing.T, name string) Input {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "copilot", "in", name+".json")) //nolint:gosec // the test's own testdata
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in, err := DecodeCopilot(f)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// Copilot CLI's and Qwen Code's permission prompts go through the same
// question as the other CLIs'; each gets its own output. The inputs are
// what Copilot CLI 1.0.102 and Qwen Code 0.24.4 sent their hooks against
// the compatibility suite's mock model.
func TestCopilotAndQwenRoundTrips(t *testing.T) {
	cases := []struct {
		name, cli, fixture string
		answer             []interaction.AnswerItem // nil declines
		check              func(t *testing.T, r interaction.Request)
	}{
		{name: "copilot-bash-once", cli: "copilot", fixture: "bash", answer: []interaction.AnswerItem{item("permission", "Allow once")},
			check: func(t *testing.T, r interaction.Request) {
				q := r.Questions[0]
				if q.Question != "Allow Copilot CLI to use `bash`?" || !strings.Contains(q.Detail, "npm install left-pad") || len(q.Options) != 2 ||
					r.Agent.Name != "Copilot CLI · shop" || r.Agent.ID != "copilot-cli:6921a253-ff3e-4af5-8b9d-b19f2ab2311b" {
					t.Fatalf("request %+v", r)
				}
				if p := r.Permission; p == nil || p.Client != interaction.ClientCopilot || p.Kind != interaction.KindExecute ||
					p.Command != "npm install left-pad" || p.Cwd != "/home/u/shop" {
					t.Fatalf("permission %+v", r.Permission)
				}
			}},
		{name: "copilot-bash-deny-note", cli: "copilot", fixture: "bash", answer: []interaction.AnswerItem{{ID: "permission", Selected: []string{"Deny"}, Note: "use pnpm"}}},
		{name: "copilot-bash-declined", cli: "copilot", fixture: "bash"},
		{name: "copilot-edit", cli: "copilot", fixture: "edit", answer: []interaction.AnswerItem{item("permission", "Allow once")},
			check: func(t *testing.T, r interaction.Request) {
				q := r.Questions[0]
				if !strings.Contains(q.Detail, "`/home/u/shop/src/refund.go`") || !strings.Contains(q.Detail, "```diff") || !strings.Contains(q.Detail, "+return math.Round(x)") {
					t.Fatalf("detail %q", q.Detail)
				}
				if p := r.Permission; p == nil || p.Kind != interaction.KindEdit || len(p.Paths) != 1 || p.Paths[0] != "/home/u/shop/src/refund.go" {
					t.Fatalf("permission %+v", r.Permission)
				}
			}},
		{name: "copilot-mcp-instead", cli: "copilot", fixture: "mcp", answer: []interaction.AnswerItem{{ID: "permission", Selected: []string{}, Custom: "file it on the tracker"}},
			check: func(t *testing.T, r interaction.Request) {
				if q := r.Questions[0]; q.Header != "github: create_issue" || !strings.Contains(q.Detail, `"title": "Refunds round down"`) {
					t.Fatalf("question %+v", q)
				}
				if p := r.Permission; p == nil || p.Kind != interaction.KindMCP || p.MCPServer != "github" || p.MCPTool != "create_issue" {
					t.Fatalf("permission %+v", r.Permission)
				}
			}},
		{name: "qwen-shell-once", cli: "qwen", fixture: "shell", answer: []interaction.AnswerItem{item("permission", "Allow once")},
			check: func(t *testing.T, r interaction.Request) {
				q := r.Questions[0]
				if q.Question != "Allow Qwen Code to use `Shell`?" || !strings.Contains(q.Detail, "rm -rf dist") || !strings.Contains(q.Detail, "in `web`") ||
					r.Agent.Name != "Qwen Code · shop" || !strings.HasPrefix(r.Agent.ID, "qwen-code:") {
					t.Fatalf("request %+v", r)
				}
				if p := r.Permission; p == nil || p.Client != interaction.ClientQwen || p.Kind != interaction.KindExecute || p.Cwd != "/home/u/shop/web" {
					t.Fatalf("permission %+v", r.Permission)
				}
			}},
		{name: "qwen-shell-deny", cli: "qwen", fixture: "shell", answer: []interaction.AnswerItem{{ID: "permission", Selected: []string{"Deny"}, Note: "keep dist"}}},
		{name: "qwen-shell-declined", cli: "qwen", fixture: "shell"},
		{name: "qwen-edit", cli: "qwen", fixture: "edit", answer: []interaction.AnswerItem{item("permission", "Allow once")},
			check: func(t *testing.T, r interaction.Request) {
				if q := r.Questions[0]; q.Header != "Edit" || !strings.Contains(q.Detail, "+ return math.Round(x)") {
					t.Fatalf("question %+v", q)
				}
			}},
		{name: "qwen-mcp", cli: "qwen", fixture: "mcp", answer: []interaction.AnswerItem{item("permission", "Allow once")},
			check: func(t *testing.T, r interaction.Request) {
				if p := r.Permission; r.Questions[0].Header != "github: create_issue" || p == nil || p.Kind != interaction.KindMCP || p.MCPServer != "github" {
					t.Fatalf("request %+v, permission %+v", r, r.Permission)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			handle := HandleQwen
			var in Input
			if c.cli == "copilot" {
				handle, in = HandleCopilot, copilotFixture(t, c.fixture)
			} else {
				in = fixture(t, c.cli, c.fixture)
			}
			var asked interaction.Request
			out, reqs, err := withInbox(t, func(ctx context.Context, in Input, ask Asker) ([]byte, error) {
				return handle(ctx, in, func(ctx context.Context, r interaction.Request) (interaction.Answer, error) {
					asked = r
					return ask(ctx, r)
				})
			}, in, func(*inbox.Request) (interaction.Answer, bool) {
				return interaction.Answer{Answers: c.answer}, c.answer != nil
			})
			if err != nil {
				t.Fatalf("handler: %v", err)
			}
			if len(reqs) != 1 {
				t.Fatalf("%d requests reached the inbox", len(reqs))
			}
			if c.check != nil {
				c.check(t, asked)
			}
			if !json.Valid(out) {
				t.Fatalf("output is not JSON: %q", out)
			}
			golden.RequireEqual(t, out)
		})
	}
}

// When asktui cannot decide, Copilot CLI and Qwen Code get nothing: they
// go on as they would without asktui (Copilot with its rules and prompt,
// Qwen with its dialog). Inputs they do not handle (another event, asktui's
// own tool, Qwen's own question) get nothing and ask nobody.
func TestCopilotAndQwenWhenAsktuiCannotDecide(t *testing.T) {
	fail := func(context.Context, interaction.Request) (interaction.Answer, error) {
		return interaction.Answer{}, interaction.Errorf(interaction.CodeNoProvider, "no asktui inbox is running")
	}
	if out, err := HandleCopilot(context.Background(), copilotFixture(t, "bash"), fail); out != nil || err == nil {
		t.Errorf("copilot: output %q, err %v", out, err)
	}
	if out, err := HandleQwen(context.Background(), fixture(t, "qwen", "shell"), fail); out != nil || err == nil {
		t.Errorf("qwen: output %q, err %v", out, err)
	}
	asked := func(context.Context, interaction.Request) (interaction.Answer, error) {
		t.Error("asked")
		return interaction.Answer{}, nil
	}
	for _, fx := range []string{"asktui", "pre-tool-use", "pre-tool-use-string"} {
		if out, err := HandleCopilot(context.Background(), copilotFixture(t, fx), asked); out != nil || !errors.Is(err, ErrNotMine) {
			t.Errorf("copilot/%s: output %q, err %v", fx, out, err)
		}
	}
	for _, fx := range []string{"ask", "pre-tool-use"} {
		if out, err := HandleQwen(context.Background(), fixture(t, "qwen", fx), asked); out != nil || !errors.Is(err, ErrNotMine) {
			t.Errorf("qwen/%s: output %q, err %v", fx, out, err)
		}
	}
	// A command that is not a string is refused, not shown half.
	bad := copilotFixture(t, "bash")
	bad.ToolInput = json.RawMessage(`{"command":["rm","-rf","/"]}`)
	if out, err := HandleCopilot(context.Background(), bad, asked); out != nil || err == nil {
		t.Errorf("copilot, a command array: output %q, err %v", out, err)
	}
}

// Copilot CLI's input is its own camelCase: a permissionRequest names its
// event, a preToolUse does not (its toolArgs an object, or a string of
// JSON in older versions); anything else is no Copilot input.
func TestDecodeCopilot(t *testing.T) {
	in := copilotFixture(t, "bash")
	if in.HookEventName != "permissionRequest" || in.SessionID != "6921a253-ff3e-4af5-8b9d-b19f2ab2311b" || in.Cwd != "/home/u/shop" ||
		in.ToolName != "bash" || string(in.ToolInput) != `{"command":"npm install left-pad"}` {
		t.Fatalf("permissionRequest: %+v", in)
	}
	for _, fx := range []string{"pre-tool-use", "pre-tool-use-string"} {
		in := copilotFixture(t, fx)
		var args struct{ Command string }
		if in.HookEventName != "preToolUse" || json.Unmarshal(in.ToolInput, &args) != nil || args.Command == "" {
			t.Fatalf("%s: %+v", fx, in)
		}
	}
	for _, bad := range []string{`{"cwd":"/x","toolName":"bash"}`, `{"hookName":["permissionRequest"]}`, `not json`, `{"hook_event_name":"PreToolUse","tool_name":"bash"}`} {
		if in, err := DecodeCopilot(strings.NewReader(bad)); err == nil {
			t.Errorf("%s decoded as %+v", bad, in)
		}
	}
}

func TestCopilotAndQwenConfig(t *testing.T) {
	for name, out := range map[string][]byte{
		"copilot": CopilotConfig("'/usr/local/bin/asktui' hook copilot", 600*time.Second),
		"qwen":    QwenConfig("'/usr/local/bin/asktui' hook qwen", 600*time.Second),
	} {
		t.Run(name, func(t *testing.T) {
			if !json.Valid(out) {
				t.Fatalf("not JSON: %s", out)
			}
			golden.RequireEqual(t, out)
		})
	}
	// Qwen Code reads a timeout under 1000 as seconds and one of 1000 or
	// more as milliseconds (before 0.24, every one as milliseconds): the
	// block's is in milliseconds, and so means the same to both.
	var q struct {
		Hooks map[string][]struct{ Hooks []struct{ Timeout int64 } }
	}
	if err := json.Unmarshal(QwenConfig("asktui hook qwen", 600*time.Second), &q); err != nil || q.Hooks["PermissionRequest"][0].Hooks[0].Timeout != 600_000 {
		t.Fatalf("qwen's timeout: %+v, %v", q, err)
	}
}

// A hostile tool call from Copilot CLI or Qwen Code is shown exactly,
// every character that would act on the terminal or not show made
// visible.
func TestCopilotAndQwenHostile(t *testing.T) {
	for name, c := range map[string]struct {
		handle func(context.Context, Input, Asker) ([]byte, error)
		in     string
	}{
		"copilot-bash": {HandleCopilot, `{"hookName":"permissionRequest","cwd":"/home/u/shop","toolName":"bash","toolInput":{"command":"echo safe\u001b[2K\r rm -rf ~ \u202e"}}`},
		"copilot-edit": {HandleCopilot, `{"hookName":"permissionRequest","cwd":"/home/u/shop","toolName":"edit","toolInput":{"file_path":"/etc/pass\u001b]8;;http://x\u0007wd","diff":"+a\u200db\n"}}`},
		"qwen-shell":   {HandleQwen, `{"hook_event_name":"PermissionRequest","cwd":"/home/u/shop","tool_name":"run_shell_command","tool_input":{"command":"ls\u007f -la","directory":"web\u001b[8m/../../etc"}}`},
	} {
		t.Run(name, func(t *testing.T) {
			decode := Decode
			if strings.HasPrefix(name, "copilot") {
				decode = DecodeCopilot
			}
			in, err := decode(strings.NewReader(c.in))
			if err != nil {
				t.Fatal(err)
			}
			var req interaction.Request
			_, _ = c.handle(context.Background(), in, func(_ context.Context, r interaction.Request) (interaction.Answer, error) {
				req = r
				return interaction.Answer{}, interaction.Errorf(interaction.CodeDeclined, "declined")
			})
			if len(req.Questions) != 1 {
				t.Fatal("no question asked")
			}
			for _, s := range []string{req.Questions[0].Question, req.Questions[0].Detail} {
				for _, bad := range []string{"\x1b", "\u202e", "\u200d", "\x7f", "\r", "\a"} {
					if strings.Contains(s, bad) {
						t.Errorf("%q is shown raw in %q", bad, s)
					}
				}
			}
		})
	}
}
