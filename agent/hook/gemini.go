package hook

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/asktui/asktui/internal/jsonl"
)

// geminiCLI names Gemini CLI in the inbox and in its prompts.
const geminiCLI = "Gemini CLI"

// GeminiTools is the BeforeTool matcher (a regular expression on the tool
// name) of the tools Gemini CLI asks about in its default approval mode:
// shell commands, file writes and edits, web fetches and MCP tools.
const GeminiTools = "run_shell_command|write_file|replace|web_fetch|mcp_.*"

// HandleGemini asks the human about a Gemini CLI BeforeTool hook input
// and returns the hook's output.
//
// Gemini CLI 0.61 runs BeforeTool hooks before its policy check, for
// every call the matcher selects, and a hook can deny a call or make
// Gemini ask, but not approve it past Gemini's own prompt. So: "deny"
// with the human's reason when the human denies; {"decision":"allow"}
// when the human allows, after which Gemini's own policy decides (in its
// yolo or auto_edit approval mode it runs the call, in the default mode
// it asks again); and {"decision":"ask"} with the reason as systemMessage
// when asktui cannot decide, so that Gemini asks in its own terminal even
// in a mode where it would not. The returned error says why in that case.
// A call it does not handle (asktui's own tool, another event) gets nil.
func HandleGemini(ctx context.Context, in Input, ask Asker) ([]byte, error) {
	if in.HookEventName != "BeforeTool" {
		return nil, fmt.Errorf("%w: %s on %s", ErrNotMine, in.HookEventName, in.ToolName)
	}
	server, mcpTool := in.MCPContext.ServerName, in.MCPContext.ToolName
	if server == "asktui" || strings.HasPrefix(in.ToolName, "mcp_asktui_") {
		// Asking permission to ask: the question itself is the prompt.
		return nil, fmt.Errorf("%w: asktui's own tool", ErrNotMine)
	}
	tool := geminiToolTitle(in.ToolName)
	if server != "" && mcpTool != "" {
		tool = server + ": " + mcpTool
	}
	v, err := askPermission(ctx, permission{
		agent:  agent(geminiCLI, "gemini-cli", in),
		cli:    geminiCLI,
		tool:   tool,
		detail: geminiCall(in.ToolName, in.ToolInput).detail(),
	}, ask)
	if err != nil {
		out, _ := encode(map[string]any{"decision": "ask", "systemMessage": "asktui could not ask: " + truncate(err.Error(), 300)})
		return out, err
	}
	if v.allow {
		return encode(map[string]any{"decision": "allow"})
	}
	return encode(map[string]any{"decision": "deny", "reason": v.message})
}

// geminiToolTitle names one of Gemini CLI's tools for the human.
func geminiToolTitle(name string) string {
	switch name {
	case "run_shell_command":
		return "Shell"
	case "write_file":
		return "WriteFile"
	case "replace":
		return "Edit"
	case "web_fetch":
		return "WebFetch"
	case "":
		return "a tool"
	}
	return name
}

// geminiCall reads what one of Gemini CLI's tools is about to do.
func geminiCall(tool string, raw json.RawMessage) call {
	f := fields(raw)
	switch tool {
	case "run_shell_command":
		return call{kind: "command", command: f("command"), description: f("description"), workdir: f("dir_path")}
	case "replace":
		return call{kind: "edit", path: f("file_path"), before: f("old_string"), after: f("new_string"), description: f("instruction")}
	case "write_file":
		return call{kind: "write", path: f("file_path"), content: f("content")}
	case "web_fetch":
		return call{kind: "fetch", prompt: f("prompt")}
	}
	return call{args: raw}
}

// GeminiConfig returns the settings.json "hooks" block (for
// ~/.gemini/settings.json, or a trusted project's .gemini/settings.json)
// that registers command, a shell command line that runs `asktui hook
// gemini`, before the tools Gemini CLI asks about, with Gemini's timeout
// (milliseconds) 10 s longer than the hook's own.
func GeminiConfig(command string, timeout time.Duration) []byte {
	b, _ := jsonl.MarshalIndent(map[string]any{"hooks": map[string]any{
		"BeforeTool": []any{map[string]any{
			"matcher": GeminiTools,
			"hooks": []any{map[string]any{
				"type":        "command",
				"name":        "asktui",
				"command":     command + " --timeout " + (timeout - 10*time.Second).String(),
				"timeout":     timeout.Milliseconds(),
				"description": "Ask in the asktui inbox before Gemini runs a command, writes a file or calls an MCP tool",
			}},
		}},
	}}) // maps of strings and numbers always encode
	return b
}
