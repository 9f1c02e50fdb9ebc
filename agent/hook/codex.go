package hook

import (
	"context"
	"encoding/json"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
)

// codexCLI names Codex in the inbox and in its prompts.
const codexCLI = "Codex"

// HandleCodex asks the human about a Codex PermissionRequest hook input
// and returns the hook's output ({"hookSpecificOutput":{"hookEventName":
// "PermissionRequest","decision":{"behavior":"allow"}}}, or "deny" with
// the human's reason as "message"), or nil (print nothing: Codex shows
// its own approval prompt) with the reason in err when asktui cannot
// decide.
//
// Codex runs PermissionRequest hooks before its approval prompt and shows
// the prompt only when no hook decided, so the question cannot be
// answered twice. Its input names the tool ("Bash", "apply_patch",
// "mcp__<server>__<tool>") and the call's arguments ("command" holds the
// shell command, or the patch).
func HandleCodex(ctx context.Context, in Input, ask Asker) ([]byte, error) {
	if in.HookEventName != "PermissionRequest" {
		return nil, notMine("%s for %s: asktui answers Codex's PermissionRequest only; Codex goes on as usual", named(in.HookEventName), named(in.ToolName))
	}
	tool := in.ToolName
	if t := mcpTitle(tool, "mcp__", "__"); t != "" {
		tool = t
	} else if tool == "" {
		tool = "a tool"
	}
	c, err := codexCall(in.ToolName, in.ToolInput)
	if err != nil {
		return nil, err
	}
	v, err := askPermission(ctx, permission{
		agent:  agent(codexCLI, "codex", in),
		cli:    codexCLI,
		tool:   tool,
		detail: c.detail(),
		rule:   ruleFor(interaction.ClientCodex, "codex", in, in.ToolName, c),
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

// codexCall reads what one of Codex's tools is about to do.
func codexCall(tool string, raw json.RawMessage) (call, error) {
	a := parseArgs(raw)
	var c call
	switch tool {
	case "Bash":
		c = call{kind: "command", command: a.str("command"), description: a.str("description")}
	case "apply_patch":
		c = call{kind: "patch", content: a.str("command")}
	default:
		c = call{args: raw}
	}
	return c, a.err
}

// CodexConfig returns the hooks.json block (for ~/.codex/hooks.json, or a
// project's .codex/hooks.json) that registers command, a shell command
// line that runs `asktui hook codex`, for every approval prompt, with
// Codex's timeout 10 s longer than the hook's own.
func CodexConfig(command string, timeout time.Duration) []byte {
	b, _ := jsonl.MarshalIndent(map[string]any{"hooks": map[string]any{
		"PermissionRequest": []any{map[string]any{
			"matcher": "*",
			"hooks": []any{map[string]any{
				"type":          "command",
				"command":       command + " --timeout " + (timeout - 10*time.Second).String(),
				"timeout":       int(timeout / time.Second),
				"statusMessage": "Waiting for your decision in asktui",
			}},
		}},
	}}) // maps of strings and numbers always encode
	return b
}
