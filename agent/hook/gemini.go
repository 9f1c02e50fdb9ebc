package hook

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/asktui/asktui/interaction"
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
// it asks again); and [GeminiAsk] when asktui cannot decide (another
// event, an input not shaped as Gemini sends it, no inbox, the time ran
// out), so that Gemini asks in its own terminal even in a mode where it
// would not. The returned error says why in that case. A call of asktui's
// own ask_user_question (server "asktui") gets nil and an [ErrNotMine]
// error: asking permission to ask would put the question twice.
func HandleGemini(ctx context.Context, in Input, ask Asker) (out []byte, err error) {
	defer func() {
		if err != nil && out == nil && !errors.Is(err, errOwnTool) {
			out = GeminiAsk(err)
		}
	}()
	if in.HookEventName != "BeforeTool" {
		return nil, notMine("%s for %s: asktui answers Gemini CLI's BeforeTool only; Gemini CLI asks as usual", named(in.HookEventName), named(in.ToolName))
	}
	server, mcpTool := in.MCPContext.ServerName, in.MCPContext.ToolName
	if server == "asktui" && mcpTool == "ask_user_question" {
		// Asking permission to ask: the question itself is the prompt.
		return nil, errOwnTool
	}
	tool := geminiToolTitle(in.ToolName)
	if server != "" && mcpTool != "" {
		tool = server + ": " + mcpTool
	}
	c, err := geminiCall(in.ToolName, in.ToolInput)
	if err != nil {
		return nil, err
	}
	rule := ruleFor(interaction.ClientGemini, "gemini-cli", in, in.ToolName, c)
	if server != "" && mcpTool != "" {
		// Gemini writes mcp_SERVER_TOOL, and a server's name may hold
		// an underscore: its mcp_context tells them apart.
		rule.Kind, rule.MCPServer, rule.MCPTool = interaction.KindMCP, server, mcpTool
	}
	v, err := askPermission(ctx, permission{
		agent:  agent(geminiCLI, "gemini-cli", in),
		cli:    geminiCLI,
		tool:   tool,
		detail: c.detail(),
		rule:   rule,
	}, ask)
	if err != nil {
		return nil, err
	}
	if v.allow {
		return encode(map[string]any{"decision": "allow"})
	}
	return encode(map[string]any{"decision": "deny", "reason": v.message})
}

// errOwnTool is HandleGemini's error for a call of asktui's own tool,
// which it leaves to Gemini's policy (no output).
var errOwnTool error = notMineError("BeforeTool for asktui's own ask_user_question: the call is the question itself; Gemini CLI's policy decides as usual")

// GeminiAsk is Gemini CLI's "ask the user" output, {"decision":"ask"},
// with why asktui could not decide as its systemMessage: what `asktui hook
// gemini` prints whenever asktui cannot decide, so that Gemini asks in
// its own terminal even in its yolo mode.
func GeminiAsk(why error) []byte {
	out, _ := encode(map[string]any{"decision": "ask", "systemMessage": "asktui leaves this to Gemini CLI: " + truncate(why.Error(), 300)})
	return out
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
func geminiCall(tool string, raw json.RawMessage) (call, error) {
	a := parseArgs(raw)
	var c call
	switch tool {
	case "run_shell_command":
		c = call{kind: "command", command: a.str("command"), description: a.str("description"), workdir: a.str("dir_path")}
	case "replace":
		c = call{kind: "edit", path: a.str("file_path"), edits: []edit{{a.str("old_string"), a.str("new_string")}}, description: a.str("instruction")}
	case "write_file":
		c = call{kind: "write", path: a.str("file_path"), content: a.str("content")}
	case "web_fetch":
		c = call{kind: "fetch", prompt: a.str("prompt")}
	default:
		c = call{args: raw}
	}
	return c, a.err
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
