package hook

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
)

// TestPermissionForRules: each CLI's permission request carries the call
// as the human's rules read it: the raw command, the files (a patch's
// too), the MCP server and tool, where it runs, the session, and the
// labels of the once-options. A call the rules cannot read is asked
// without one.
func TestPermissionForRules(t *testing.T) {
	const cwd = "/home/u/shop"
	tests := []struct {
		cli, name string
		handle    func(context.Context, Input, Asker) ([]byte, error)
		want      *interaction.Permission
	}{
		{"claude", "bash", HandleClaude, &interaction.Permission{Client: "claude-code", Tool: "Bash", Kind: interaction.KindExecute,
			Command: "rm -rf node_modules", Cwd: cwd, Session: "claude-code:abc123"}},
		{"claude", "edit", HandleClaude, &interaction.Permission{Client: "claude-code", Tool: "Edit", Kind: interaction.KindEdit,
			Paths: []string{"/home/u/shop/refund.go"}, Cwd: cwd, Session: "claude-code:abc123"}},
		{"claude", "mcp", HandleClaude, &interaction.Permission{Client: "claude-code", Tool: "mcp__github__create_issue", Kind: interaction.KindMCP,
			MCPServer: "github", MCPTool: "create_issue", Cwd: cwd, Session: "claude-code:abc123"}},
		{"codex", "bash", HandleCodex, &interaction.Permission{Client: "codex", Tool: "Bash", Kind: interaction.KindExecute,
			Command: "npm install left-pad", Cwd: cwd, Session: "codex:019a1f2e-6c1d-7a40-9d8e-2b6f3c4d5e6f"}},
		{"gemini", "shell", HandleGemini, &interaction.Permission{Client: "gemini-cli", Tool: "run_shell_command", Kind: interaction.KindExecute,
			Command: "rm -rf dist", Cwd: cwd + "/web", Session: "gemini-cli:5d1c2b7e-1f7a-4c55-9c1e-8b0e4b1f2a3c"}},
		{"gemini", "replace", HandleGemini, &interaction.Permission{Client: "gemini-cli", Tool: "replace", Kind: interaction.KindEdit,
			Paths: []string{"/home/u/shop/refund.go"}, Cwd: cwd, Session: "gemini-cli:5d1c2b7e-1f7a-4c55-9c1e-8b0e4b1f2a3c"}},
		{"gemini", "mcp", HandleGemini, &interaction.Permission{Client: "gemini-cli", Tool: "mcp_github_create_issue", Kind: interaction.KindMCP,
			MCPServer: "github", MCPTool: "create_issue", Cwd: cwd, Session: "gemini-cli:5d1c2b7e-1f7a-4c55-9c1e-8b0e4b1f2a3c"}},
	}
	for _, tt := range tests {
		t.Run(tt.cli+"/"+tt.name, func(t *testing.T) {
			got := askedPermission(t, tt.handle, fixture(t, tt.cli, tt.name))
			want := *tt.want
			want.Question, want.Allow, want.Deny = "permission", allowOnce, denyLabel
			if got == nil || !reflect.DeepEqual(*got, want) {
				t.Errorf("the permission is\n%+v\nwant\n%+v", got, &want)
			}
		})
	}
	t.Run("a Codex patch of relative paths is asked without one", func(t *testing.T) {
		// Codex applies a patch from a shell command after a cd too, and
		// its hook names only the session's directory.
		if got := askedPermission(t, HandleCodex, fixture(t, "codex", "patch")); got != nil {
			t.Errorf("the permission is %+v, want none", got)
		}
	})
	t.Run("a Codex patch of absolute paths names them", func(t *testing.T) {
		in := fixture(t, "codex", "patch")
		in.ToolInput, _ = json.Marshal(map[string]string{"command": "*** Begin Patch\n*** Update File: /home/u/shop/refund.go\n@@\n-a\n+b\n*** End Patch\n"})
		want := interaction.Permission{Client: "codex", Tool: "apply_patch", Kind: interaction.KindEdit, Paths: []string{"/home/u/shop/refund.go"},
			Cwd: cwd, Session: "codex:019a1f2e-6c1d-7a40-9d8e-2b6f3c4d5e6f", Question: "permission", Allow: allowOnce, Deny: denyLabel}
		if got := askedPermission(t, HandleCodex, in); got == nil || !reflect.DeepEqual(*got, want) {
			t.Errorf("the permission is %+v, want %+v", got, want)
		}
	})
	t.Run("a relative working directory is asked without one", func(t *testing.T) {
		in := fixture(t, "claude", "bash")
		in.Cwd = "shop"
		if got := askedPermission(t, HandleClaude, in); got != nil {
			t.Errorf("the permission is %+v, want none", got)
		}
	})
	t.Run("a command over the limit is asked without one", func(t *testing.T) {
		in := fixture(t, "claude", "bash")
		in.ToolInput, _ = json.Marshal(map[string]string{"command": "echo " + strings.Repeat("x", interaction.MaxCommandLen)})
		if got := askedPermission(t, HandleClaude, in); got != nil {
			t.Errorf("a permission with a command of %d bytes, want none", len(got.Command))
		}
	})
	t.Run("a patch that names no file has no paths", func(t *testing.T) {
		if got := patchPaths("*** Begin Patch\n*** Update File: \n*** End Patch\n"); got != nil {
			t.Errorf("paths %q, want none", got)
		}
		if got := patchPaths("*** Begin Patch\n*** Add File: a.go\n+x\n*** Update File: b.go\n*** Move to: c.go\n@@\n-x\n+y\n*** Delete File: d.go\n*** End Patch\n"); !reflect.DeepEqual(got, []string{"a.go", "b.go", "c.go", "d.go"}) {
			t.Errorf("paths %q", got)
		}
	})
}

// askedPermission runs handle on in with an asker that records the
// request's permission and denies, and returns the permission.
func askedPermission(t *testing.T, handle func(context.Context, Input, Asker) ([]byte, error), in Input) *interaction.Permission {
	t.Helper()
	var got *interaction.Permission
	asked := false
	ask := func(_ context.Context, req interaction.Request) (interaction.Answer, error) {
		asked = true
		got = req.Permission
		return interaction.Answer{Answers: []interaction.AnswerItem{item("permission", denyLabel)}}, nil
	}
	if _, err := handle(context.Background(), in, ask); err != nil {
		t.Fatal(err)
	}
	if !asked {
		t.Fatal("the human was not asked")
	}
	return got
}

// TestPermissionDefaultIsThisCallOnly: Claude Code's suggestions become
// choices that decide from now on; they come after Allow once and Deny,
// marked so, and Enter at once on the question (its first option)
// allows this call only, with no standing permission.
func TestPermissionDefaultIsThisCallOnly(t *testing.T) {
	for _, name := range []string{"bash", "bash-2.1.332", "edit"} {
		t.Run(name, func(t *testing.T) {
			var asked interaction.Request
			out, err := HandleClaude(context.Background(), fixture(t, "claude", name), func(_ context.Context, req interaction.Request) (interaction.Answer, error) {
				asked = req
				q := req.Questions[0]
				return interaction.Answer{Answers: []interaction.AnswerItem{{ID: q.ID, Selected: []string{q.Options[0].Label}}}}, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			opts := asked.Questions[0].Options
			if len(opts) < 3 || opts[0].Label != allowOnce || opts[1].Label != denyLabel {
				t.Fatalf("options %+v, want Allow once, Deny, then the standing choices", opts)
			}
			for _, o := range opts[2:] {
				if !strings.HasPrefix(o.Description, "from now on") {
					t.Errorf("the standing choice %q is not marked: %q", o.Label, o.Description)
				}
			}
			var got struct {
				HookSpecificOutput struct {
					Decision map[string]json.RawMessage `json:"decision"`
				} `json:"hookSpecificOutput"`
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			d := got.HookSpecificOutput.Decision
			if string(d["behavior"]) != `"allow"` || d["updatedPermissions"] != nil {
				t.Fatalf("enter at once decided %s, want allow this call only", out)
			}
		})
	}
}

// TestRuleDenyTellsTheAgent: a deny answered by one of the user's
// standing rules (rules.Wrap's note) tells the agent so; the user's own
// deny, with a note or without, is worded as ever.
func TestRuleDenyTellsTheAgent(t *testing.T) {
	const ruled = "Denied by the user's standing rule in asktui (rule 3: Bash(rm:*)). Do not try to run it another way."
	for _, tt := range []struct{ note, want string }{
		{ruled, ruled},
		{"keep the cache", "The user denied this in asktui: keep the cache"},
		{"", "The user denied this in asktui."},
	} {
		out, err := HandleClaude(context.Background(), fixture(t, "claude", "bash"), func(_ context.Context, req interaction.Request) (interaction.Answer, error) {
			return interaction.Answer{Answers: []interaction.AnswerItem{{ID: req.Questions[0].ID, Selected: []string{denyLabel}, Note: tt.note}}}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			HookSpecificOutput struct {
				Decision struct {
					Behavior, Message string
				} `json:"decision"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		if d := got.HookSpecificOutput.Decision; d.Behavior != "deny" || d.Message != tt.want {
			t.Errorf("note %q: decision %+v, want deny with %q", tt.note, d, tt.want)
		}
	}
}
