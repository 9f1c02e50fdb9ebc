package hook

import (
	"context"
	"encoding/json"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
)

// qwenCLI names Qwen Code in the inbox and in its prompts.
const qwenCLI = "Qwen Code"

// HandleQwen asks the human about a Qwen Code PermissionRequest hook
// input and returns the hook's output, shaped as Claude Code's
// ({"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":
// {"behavior":"allow"}}}, or "deny" with the human's reason as
// "message"), or nil (print nothing: Qwen Code shows its own prompt)
// with the reason in err when asktui cannot decide.
//
// Qwen Code 0.24 runs PermissionRequest hooks before its own permission
// dialog and shows the dialog only when no hook decided, so the question
// cannot be answered twice. Its input is Claude Code's in shape, with
// Qwen's own tool names ("run_shell_command", "edit", "write_file",
// "web_fetch", "mcp__<server>__<tool>") and no permission suggestions.
// Its own question tool, ask_user_question, is left to Qwen: it asks the
// questions in its own dialog whatever a hook says.
func HandleQwen(ctx context.Context, in Input, ask Asker) ([]byte, error) {
	switch {
	case in.HookEventName != "PermissionRequest":
		return nil, notMine("%s for %s: asktui answers Qwen Code's PermissionRequest only; Qwen Code goes on as usual", named(in.HookEventName), named(in.ToolName))
	case in.ToolName == "ask_user_question":
		return nil, notMine("PermissionRequest for ask_user_question: Qwen Code asks its own questions in its dialog whatever a hook says; it asks as usual")
	case in.ToolName == "mcp__asktui__ask_user_question":
		// Asking permission to ask: the question itself is the prompt.
		return nil, notMine("PermissionRequest for asktui's own ask_user_question: the call is the question itself; Qwen Code asks as usual")
	}
	c, err := qwenCall(in.ToolName, in.ToolInput)
	if err != nil {
		return nil, err
	}
	v, err := askPermission(ctx, permission{
		agent:  agent(qwenCLI, "qwen-code", in),
		cli:    qwenCLI,
		tool:   qwenToolTitle(in.ToolName),
		detail: c.detail(),
		rule:   ruleFor(interaction.ClientQwen, "qwen-code", in, in.ToolName, c),
	}, ask)
	if err != nil {
		return nil, err
	}
	d := map[string]any{"behavior": "deny", "message": v.message}
	if v.allow {
		d = map[string]any{"behavior": "allow"}
	}
	return encode(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PermissionRequest", "decision": d}})
}

// qwenToolTitle names one of Qwen Code's tools for the human: MCP tools
// as "server: tool".
func qwenToolTitle(name string) string {
	if t := mcpTitle(name, "mcp__", "__"); t != "" {
		return t
	}
	switch name {
	case "run_shell_command":
		return "Shell"
	case "write_file":
		return "WriteFile"
	case "edit":
		return "Edit"
	case "web_fetch":
		return "WebFetch"
	case "":
		return "a tool"
	}
	return name
}

// qwenCall reads what one of Qwen Code's tools is about to do.
func qwenCall(tool string, raw json.RawMessage) (call, error) {
	a := parseArgs(raw)
	var c call
	switch tool {
	case "run_shell_command":
		c = call{kind: "command", command: a.str("command"), description: a.str("description"), workdir: a.str("directory")}
	case "edit":
		c = call{kind: "edit", path: a.str("file_path"), edits: []edit{{a.str("old_string"), a.str("new_string")}}}
	case "write_file":
		c = call{kind: "write", path: a.str("file_path"), content: a.str("content")}
	case "web_fetch":
		c = call{kind: "fetch", url: a.str("url"), prompt: a.str("prompt")}
	case "exit_plan_mode":
		c = call{kind: "markdown", markdown: a.str("plan")}
	default:
		c = call{args: raw}
	}
	return c, a.err
}

// QwenConfig returns the settings.json "hooks" block (for
// ~/.qwen/settings.json, or a project's .qwen/settings.json) that
// registers command, a shell command line that runs `asktui hook qwen`,
// for every permission prompt, with Qwen's timeout 10 s longer than the
// hook's own. The timeout is written in milliseconds: Qwen Code before
// 0.24 read every hook timeout so, and 0.24 still reads a value of 1000
// or more so (a smaller one as seconds), so Claude Code's 600 would give
// the hook 0.6 s in one and 10 minutes in the other.
func QwenConfig(command string, timeout time.Duration) []byte {
	b, _ := jsonl.MarshalIndent(map[string]any{"hooks": map[string]any{
		"PermissionRequest": []any{map[string]any{
			"matcher": "*",
			"hooks": []any{map[string]any{
				"type":          "command",
				"command":       command + " --timeout " + (timeout - 10*time.Second).String(),
				"timeout":       timeout.Milliseconds(),
				"statusMessage": "Waiting for your decision in asktui",
			}},
		}},
	}}) // maps of strings and numbers always encode
	return b
}
