package hook

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
)

// Only asktui's own ask_user_question is left to Gemini's policy unasked:
// another server whose name starts with "asktui" is asked about like any.
func TestGeminiOwnToolIsExactlyAsktuis(t *testing.T) {
	for _, c := range []struct {
		tool, server, mcpTool string
		own                   bool
	}{
		{"mcp_asktui_ask_user_question", "asktui", "ask_user_question", true},
		{"mcp_asktui_evil_run", "asktui_evil", "run", false},
		{"mcp_asktui_run", "asktui", "run", false},
		{"mcp_asktui_ask_user_question", "", "", false},
	} {
		in := Input{HookEventName: "BeforeTool", ToolName: c.tool, ToolInput: json.RawMessage(`{"x":1}`)}
		in.MCPContext.ServerName, in.MCPContext.ToolName = c.server, c.mcpTool
		asked := false
		out, err := HandleGemini(context.Background(), in, func(context.Context, interaction.Request) (interaction.Answer, error) {
			asked = true
			return interaction.Answer{}, interaction.Errorf(interaction.CodeDeclined, "no")
		})
		if c.own {
			if asked || out != nil || err == nil {
				t.Errorf("%+v: asked %v, output %q, err %v", c, asked, out, err)
			}
			continue
		}
		if !asked || !strings.Contains(string(out), `"deny"`) {
			t.Errorf("%+v: asked %v, output %q, err %v", c, asked, out, err)
		}
	}
}

// MultiEdit's edits are all shown: an approval never shows an empty diff
// for a change that has one.
func TestMultiEditShowsEveryEdit(t *testing.T) {
	c, err := claudeCall("MultiEdit", json.RawMessage(`{"file_path":"a.go","edits":[{"old_string":"one","new_string":"uno"},{"old_string":"two","new_string":"dos"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	d := c.detail()
	for _, want := range []string{"- one", "+ uno", "- two", "+ dos"} {
		if !strings.Contains(d, want) {
			t.Errorf("detail lacks %q:\n%s", want, d)
		}
	}
	if _, err := claudeCall("MultiEdit", json.RawMessage(`{"file_path":"a.go","edits":[{"old_string":1}]}`)); err == nil {
		t.Error("an edit with a number for old_string was accepted")
	}
}
