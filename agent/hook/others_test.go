package hook

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
)

// Codex's and Gemini CLI's approval prompts go through the same question
// as Claude Code's; each gets its own output. The inputs follow Codex's
// hook input schema (codex-rs/hooks) and Gemini CLI 0.61's BeforeTool
// input.
func TestCodexAndGeminiRoundTrips(t *testing.T) {
	cases := []struct {
		name, cli, fixture string
		answer             []interaction.AnswerItem // nil declines
		check              func(t *testing.T, q interaction.Question, a *interaction.Agent)
	}{
		{name: "codex-bash-once", cli: "codex", fixture: "bash", answer: []interaction.AnswerItem{item("permission", "Allow once")},
			check: func(t *testing.T, q interaction.Question, a *interaction.Agent) {
				if q.Question != "Allow Codex to use `Bash`?" || !strings.Contains(q.Detail, "npm install left-pad") ||
					len(q.Options) != 2 || a.Name != "Codex · shop" || !strings.HasPrefix(a.ID, "codex:") {
					t.Fatalf("question %+v agent %+v", q, a)
				}
			}},
		{name: "codex-bash-deny-note", cli: "codex", fixture: "bash", answer: []interaction.AnswerItem{{ID: "permission", Selected: []string{"Deny"}, Note: "use pnpm"}}},
		{name: "codex-bash-declined", cli: "codex", fixture: "bash"},
		{name: "codex-patch", cli: "codex", fixture: "patch", answer: []interaction.AnswerItem{item("permission", "Allow once")},
			check: func(t *testing.T, q interaction.Question, _ *interaction.Agent) {
				if !strings.Contains(q.Detail, "```diff\n*** Begin Patch") {
					t.Fatalf("detail %q", q.Detail)
				}
			}},
		{name: "codex-mcp-instead", cli: "codex", fixture: "mcp", answer: []interaction.AnswerItem{{ID: "permission", Selected: []string{}, Custom: "file it on the tracker", Note: "not GitHub"}},
			check: func(t *testing.T, q interaction.Question, _ *interaction.Agent) {
				if q.Header != "github: create_issue" || !strings.Contains(q.Detail, `"title": "Refunds round down"`) {
					t.Fatalf("question %+v", q)
				}
			}},
		{name: "gemini-shell-once", cli: "gemini", fixture: "shell", answer: []interaction.AnswerItem{item("permission", "Allow once")},
			check: func(t *testing.T, q interaction.Question, a *interaction.Agent) {
				if q.Question != "Allow Gemini CLI to use `Shell`?" || !strings.Contains(q.Detail, "rm -rf dist") || !strings.Contains(q.Detail, "in `web`") ||
					a.Name != "Gemini CLI · shop" {
					t.Fatalf("question %+v agent %+v", q, a)
				}
			}},
		{name: "gemini-shell-deny", cli: "gemini", fixture: "shell", answer: []interaction.AnswerItem{{ID: "permission", Selected: []string{"Deny"}, Note: "keep dist"}}},
		{name: "gemini-shell-declined", cli: "gemini", fixture: "shell"},
		{name: "gemini-replace", cli: "gemini", fixture: "replace", answer: []interaction.AnswerItem{item("permission", "Allow once")},
			check: func(t *testing.T, q interaction.Question, _ *interaction.Agent) {
				if q.Header != "Edit" || !strings.Contains(q.Detail, "```diff") || !strings.Contains(q.Detail, "Round refunds") {
					t.Fatalf("question %+v", q)
				}
			}},
		{name: "gemini-mcp", cli: "gemini", fixture: "mcp", answer: []interaction.AnswerItem{item("permission", "Allow once")},
			check: func(t *testing.T, q interaction.Question, _ *interaction.Agent) {
				if q.Header != "github: create_issue" {
					t.Fatalf("question %+v", q)
				}
			}},
	}
	handlers := map[string]func(context.Context, Input, Asker) ([]byte, error){"codex": HandleCodex, "gemini": HandleGemini}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, reqs, err := withInbox(t, handlers[c.cli], fixture(t, c.cli, c.fixture), func(*inbox.Request) (interaction.Answer, bool) {
				return interaction.Answer{Answers: c.answer}, c.answer != nil
			})
			if err != nil {
				t.Fatalf("handler: %v", err)
			}
			if len(reqs) != 1 {
				t.Fatalf("%d requests reached the inbox", len(reqs))
			}
			if c.check != nil {
				c.check(t, reqs[0].Request.Questions[0], reqs[0].Request.Agent)
			}
			if !json.Valid(out) {
				t.Fatalf("output is not JSON: %q", out)
			}
			golden.RequireEqual(t, out)
		})
	}
}

// When asktui cannot decide, Codex gets nothing (it shows its own prompt)
// and Gemini is told to ask, so that even in yolo mode nothing runs
// unasked. Inputs they do not handle get nothing and ask nobody.
func TestCodexAndGeminiWhenAsktuiCannotDecide(t *testing.T) {
	fail := func(context.Context, interaction.Request) (interaction.Answer, error) {
		return interaction.Answer{}, interaction.Errorf(interaction.CodeNoProvider, "no asktui inbox is running")
	}
	out, err := HandleCodex(context.Background(), fixture(t, "codex", "bash"), fail)
	if out != nil || err == nil {
		t.Errorf("codex: output %q, err %v", out, err)
	}
	out, err = HandleGemini(context.Background(), fixture(t, "gemini", "shell"), fail)
	var got struct{ Decision, SystemMessage string }
	if err == nil || json.Unmarshal(out, &got) != nil || got.Decision != "ask" || !strings.Contains(got.SystemMessage, "no asktui inbox") {
		t.Errorf("gemini: output %q, err %v", out, err)
	}
	asked := func(context.Context, interaction.Request) (interaction.Answer, error) {
		t.Error("asked")
		return interaction.Answer{}, nil
	}
	for _, c := range []struct {
		handle  func(context.Context, Input, Asker) ([]byte, error)
		cli, fx string
	}{{HandleCodex, "codex", "pre-tool-use"}, {HandleGemini, "gemini", "asktui"}} {
		if out, err := c.handle(context.Background(), fixture(t, c.cli, c.fx), asked); out != nil || !errors.Is(err, ErrNotMine) {
			t.Errorf("%s/%s: output %q, err %v", c.cli, c.fx, out, err)
		}
	}
}

func TestCodexAndGeminiConfig(t *testing.T) {
	for name, out := range map[string][]byte{
		"codex":  CodexConfig("'/usr/local/bin/asktui' hook codex", 600*time.Second),
		"gemini": GeminiConfig("'/usr/local/bin/asktui' hook gemini", 600*time.Second),
	} {
		t.Run(name, func(t *testing.T) {
			var cfg map[string]map[string][]struct {
				Matcher string
				Hooks   []struct {
					Type, Command string
					Timeout       int64
				}
			}
			if err := json.Unmarshal(out, &cfg); err != nil {
				t.Fatal(err)
			}
			golden.RequireEqual(t, out)
		})
	}
}
