package hook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
	"github.com/asktui/asktui/internal/markdown"
	"github.com/asktui/asktui/internal/sanitize"
)

// copilotCLI names GitHub Copilot CLI in the inbox and in its prompts.
const copilotCLI = "Copilot CLI"

// Copilot CLI's hook events (its camelCase configuration and input).
const (
	copilotPermissionRequest = "permissionRequest"
	copilotPreToolUse        = "preToolUse"
)

// DecodeCopilot reads a GitHub Copilot CLI hook input, at most
// MaxInputBytes: one JSON object in Copilot's camelCase (1.0.102:
// "hookName", "sessionId", "cwd", "toolName", and "toolInput" for a
// permissionRequest, "toolArgs" for a preToolUse, which names no event),
// as an [Input] whose HookEventName is the event. toolArgs sent as a
// string of JSON, as older versions did, is read as the JSON it holds.
func DecodeCopilot(r io.Reader) (Input, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return Input{}, fmt.Errorf("reading the hook input: %w", err)
	}
	if len(b) > MaxInputBytes {
		return Input{}, fmt.Errorf("the hook input is over %d bytes", MaxInputBytes)
	}
	var c struct {
		HookName              string            `json:"hookName"`
		SessionID             string            `json:"sessionId"`
		Cwd                   string            `json:"cwd"`
		ToolName              string            `json:"toolName"`
		ToolInput             json.RawMessage   `json:"toolInput"`
		ToolArgs              json.RawMessage   `json:"toolArgs"`
		PermissionSuggestions []json.RawMessage `json:"permissionSuggestions"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return Input{}, fmt.Errorf("the hook input is not a JSON object of Copilot CLI's hook fields: %w", err)
	}
	in := Input{HookEventName: c.HookName, SessionID: c.SessionID, Cwd: c.Cwd, ToolName: c.ToolName,
		ToolInput: c.ToolInput, PermissionSuggestions: c.PermissionSuggestions}
	if in.HookEventName == "" && c.ToolArgs != nil {
		in.HookEventName, in.ToolInput = copilotPreToolUse, c.ToolArgs
		var s string
		if json.Unmarshal(c.ToolArgs, &s) == nil {
			in.ToolInput = json.RawMessage(s)
		}
	}
	if in.HookEventName == "" {
		return Input{}, errors.New(`the hook input has no "hookName" and no "toolArgs": not a Copilot CLI hook input`)
	}
	return in, nil
}

// ReadCopilotInput is [DecodeCopilot] bounded by ctx, as [ReadInput] is
// [Decode].
func ReadCopilotInput(ctx context.Context, r io.Reader) (Input, error) {
	return readWith(ctx, r, DecodeCopilot)
}

// HandleCopilot asks the human about a GitHub Copilot CLI
// permissionRequest hook input and returns the hook's output,
// {"behavior":"allow"} or {"behavior":"deny","message":…} with the
// human's reason, or nil (print nothing: Copilot CLI goes on with its own
// permission flow, its rules and its prompt) with the reason in err when
// asktui cannot decide.
//
// Copilot CLI 1.0.102 runs permissionRequest hooks before its permission
// service (its rules, the session's approvals, its prompt) and asks only
// when no hook decided, so the question cannot be answered twice. Its
// input names the tool ("bash", "edit" for a new file too, MCP tools as
// "SERVER/TOOL") and toolInput, the call as the prompt shows it: "bash"
// has "command", "edit" has "file_path" and "diff". A preToolUse input,
// and a call of asktui's own ask_user_question, are left to Copilot.
func HandleCopilot(ctx context.Context, in Input, ask Asker) ([]byte, error) {
	if in.HookEventName != copilotPermissionRequest {
		return nil, notMine("%s for %s: asktui answers Copilot CLI's permissionRequest only; Copilot CLI goes on as usual", named(in.HookEventName), named(in.ToolName))
	}
	server, mcpTool, isMCP := strings.Cut(in.ToolName, "/")
	isMCP = isMCP && server != "" && mcpTool != ""
	if isMCP && server == "asktui" && mcpTool == "ask_user_question" {
		// Asking permission to ask: the question itself is the prompt.
		return nil, notMine("permissionRequest for asktui's own ask_user_question: the call is the question itself; Copilot CLI asks as usual")
	}
	c, err := copilotCall(in.ToolName, in.ToolInput)
	if err != nil {
		return nil, err
	}
	tool := in.ToolName
	switch {
	case isMCP:
		tool = server + ": " + mcpTool
	case tool == "":
		tool = "a tool"
	}
	rule := ruleFor(interaction.ClientCopilot, "copilot-cli", in, in.ToolName, c)
	if isMCP {
		rule.MCPServer, rule.MCPTool = server, mcpTool
	}
	v, err := askPermission(ctx, permission{
		agent:  agent(copilotCLI, "copilot-cli", in),
		cli:    copilotCLI,
		tool:   tool,
		detail: c.detail(),
		rule:   rule,
	}, ask)
	if err != nil {
		return nil, err
	}
	if v.allow {
		return encode(map[string]any{"behavior": "allow"})
	}
	return encode(map[string]any{"behavior": "deny", "message": v.message})
}

// copilotCall reads what one of Copilot CLI's tools is about to do.
func copilotCall(tool string, raw json.RawMessage) (call, error) {
	a := parseArgs(raw)
	var c call
	switch tool {
	case "bash", "powershell":
		c = call{kind: "command", command: a.str("command"), description: a.str("description")}
	case "edit", "create":
		path := a.str("file_path")
		if path == "" {
			path = a.str("path")
		}
		switch diff := a.str("diff"); {
		case diff != "":
			// The change as Copilot's prompt shows it: its own diff.
			v := sanitize.Visible
			c = call{kind: "markdown", path: path,
				markdown: markdown.Code(v(path)) + "\n\n" + markdown.Fence("diff", headLines(v(diff), 400))}
		case tool == "create":
			c = call{kind: "write", path: path, content: a.str("file_text")}
		default:
			c = call{kind: "edit", path: path, edits: []edit{{a.str("old_str"), a.str("new_str")}}}
		}
	case "web_fetch":
		c = call{kind: "fetch", url: a.str("url")}
	default:
		c = call{args: raw}
	}
	return c, a.err
}

// CopilotConfig returns the hook file (for $COPILOT_HOME/hooks/asktui.json,
// or a repository's .github/hooks/asktui.json) that registers command, a
// shell command line that runs `asktui hook copilot`, for every
// permission request, with Copilot's timeout (seconds) 10 s longer than
// the hook's own.
func CopilotConfig(command string, timeout time.Duration) []byte {
	b, _ := jsonl.MarshalIndent(map[string]any{"version": 1, "hooks": map[string]any{
		copilotPermissionRequest: []any{map[string]any{
			"type":       "command",
			"bash":       command + " --timeout " + (timeout - 10*time.Second).String(),
			"timeoutSec": int(timeout / time.Second),
		}},
	}}) // maps of strings and numbers always encode
	return b
}
