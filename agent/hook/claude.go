package hook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
)

// claudeCLI names Claude Code in the inbox and in its prompts.
const claudeCLI = "Claude Code"

// HandleClaude asks the human about a Claude Code hook input and returns
// the hook's output, or nil (print nothing: Claude Code asks as usual)
// with the reason in err when asktui cannot decide. A nil output with a
// nil error never happens.
//
// A PreToolUse hook on AskUserQuestion is answered for the human: "allow"
// with the original input plus the answers (keyed by question text,
// several labels joined with ", ", notes as annotations), or "deny" when
// the human declines. A PermissionRequest is allowed (once, or always
// through one of Claude Code's own suggestions) or denied with the
// human's reason; AskUserQuestion's own permission prompt is left to
// Claude Code, which then asks the question itself. The formats follow
// Claude Code's hooks reference ("PreToolUse decision control",
// "PermissionRequest decision control") and the Agent SDK's
// AskUserQuestion types.
//
// Claude Code shows its own permission dialog while a PermissionRequest
// hook runs and takes the first answer; it does not tell the hook when
// the human answered there (seen with 2.1.332: no signal, its pipes stay
// open). [WatchClaudeTranscript] notices it; the caller then ends ctx with
// a SETTLED_ELSEWHERE cause, which withdraws the question.
func HandleClaude(ctx context.Context, in Input, ask Asker) ([]byte, error) {
	switch {
	case in.HookEventName == "PreToolUse" && in.ToolName == "AskUserQuestion":
		return handleQuestions(ctx, in, ask)
	case in.HookEventName == "PermissionRequest" && in.ToolName == "AskUserQuestion":
		// After the PreToolUse hook left the question to Claude Code (no
		// inbox, time up), its permission prompt is the question itself:
		// "Allow once" would dismiss it unanswered.
		return nil, fmt.Errorf("%w: the permission prompt of AskUserQuestion", ErrNotMine)
	case in.HookEventName == "PermissionRequest":
		return handleClaudePermission(ctx, in, ask)
	}
	return nil, fmt.Errorf("%w: %s on %s", ErrNotMine, in.HookEventName, in.ToolName)
}

// askQuestion is one question of AskUserQuestion's input.
type askQuestion struct {
	Question    string      `json:"question"`
	Header      string      `json:"header"`
	Options     []askOption `json:"options"`
	MultiSelect bool        `json:"multiSelect"`
}

type askOption struct {
	Label       string `json:"label"`
	Description string `json:"description"`
	Preview     string `json:"preview"`
}

// handleQuestions answers AskUserQuestion.
func handleQuestions(ctx context.Context, in Input, ask Asker) ([]byte, error) {
	var input map[string]json.RawMessage
	if err := json.Unmarshal(in.ToolInput, &input); err != nil {
		return nil, fmt.Errorf("AskUserQuestion's tool_input is not an object: %w", err)
	}
	var qs []askQuestion
	if err := json.Unmarshal(input["questions"], &qs); err != nil || len(qs) == 0 {
		return nil, errors.New(`AskUserQuestion's tool_input has no "questions"`)
	}
	req := interaction.Request{Agent: agent(claudeCLI, "claude-code", in)}
	seen := map[string]bool{}
	for i, q := range qs {
		if seen[q.Question] {
			// Claude Code keys answers by question text: two questions
			// with one text cannot both be answered.
			return nil, fmt.Errorf("%w: two questions share the text %q", ErrNotMine, q.Question)
		}
		seen[q.Question] = true
		iq := interaction.Question{ID: fmt.Sprintf("q%d", i+1), Question: q.Question, Header: q.Header, MultiSelect: q.MultiSelect}
		for _, o := range q.Options {
			iq.Options = append(iq.Options, interaction.Option{Label: o.Label, Description: o.Description, Preview: o.Preview})
		}
		req.Questions = append(req.Questions, iq)
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	ans, err := ask(ctx, req)
	if err != nil {
		if interaction.CodeOf(err) == interaction.CodeDeclined {
			return decision(map[string]any{
				"hookEventName":            "PreToolUse",
				"permissionDecision":       "deny",
				"permissionDecisionReason": "The user declined to answer these questions in asktui. Do not ask them again unless the user asks you to.",
			})
		}
		return nil, err
	}
	answers := map[string]string{}
	annotations := map[string]map[string]string{}
	for i, q := range qs {
		item, _ := ans.Get(req.Questions[i].ID)
		var v string
		if item.Custom != "" {
			v = item.Custom // typed text, as typed (it overrides the choices)
		} else {
			v = joinLabels(item.Selected)
		}
		if v != "" {
			answers[q.Question] = v
		}
		if item.Note != "" {
			annotations[q.Question] = map[string]string{"notes": item.Note}
		}
	}
	// updatedInput replaces the whole input: the original, with the
	// answers (and notes) added.
	input["answers"] = mustJSON(answers)
	if len(annotations) > 0 {
		input["annotations"] = mustJSON(annotations)
	}
	return decision(map[string]any{
		"hookEventName":      "PreToolUse",
		"permissionDecision": "allow",
		"updatedInput":       input,
	})
}

// joinLabels joins several labels as Claude Code's own dialog does: with
// ", ", a label that holds ", " or a quote written as a JSON string.
func joinLabels(labels []string) string {
	parts := make([]string, len(labels))
	for i, l := range labels {
		if strings.Contains(l, ", ") || strings.Contains(l, `"`) {
			l = string(mustJSON(l))
		}
		parts[i] = l
	}
	return strings.Join(parts, ", ")
}

// handleClaudePermission answers a permission prompt.
func handleClaudePermission(ctx context.Context, in Input, ask Asker) ([]byte, error) {
	p := permission{
		agent:  agent(claudeCLI, "claude-code", in),
		cli:    claudeCLI,
		tool:   claudeToolTitle(in.ToolName),
		detail: claudeCall(in.ToolName, in.ToolInput).detail(),
	}
	for _, s := range in.PermissionSuggestions {
		label, desc := suggestionLabel(s)
		p.always = append(p.always, alwaysChoice{label: label, desc: desc, raw: s})
	}
	v, err := askPermission(ctx, p, ask)
	if err != nil {
		return nil, err
	}
	d := map[string]any{"behavior": "deny", "message": v.message}
	if v.allow {
		d = map[string]any{"behavior": "allow"}
		if v.always != nil {
			d["updatedPermissions"] = []json.RawMessage{v.always}
		}
	}
	return encode(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PermissionRequest", "decision": d}})
}

// claudeToolTitle names a tool for the human: MCP tools as "server: tool".
func claudeToolTitle(name string) string {
	if t := mcpTitle(name, "mcp__", "__"); t != "" {
		return t
	}
	if name == "" {
		return "a tool"
	}
	return name
}

// claudeCall reads what one of Claude Code's tools is about to do.
func claudeCall(tool string, raw json.RawMessage) call {
	f := fields(raw)
	switch tool {
	case "Bash", "PowerShell":
		return call{kind: "command", command: f("command"), description: f("description")}
	case "Edit", "MultiEdit":
		return call{kind: "edit", path: f("file_path"), before: f("old_string"), after: f("new_string")}
	case "Write":
		return call{kind: "write", path: f("file_path"), content: f("content")}
	case "ExitPlanMode":
		return call{kind: "markdown", markdown: f("plan")}
	case "WebFetch":
		return call{kind: "fetch", url: f("url"), prompt: f("prompt")}
	}
	return call{args: raw}
}

// suggestionLabel names a permission suggestion for the human, from its
// content; "" for one it does not understand (it is not offered).
func suggestionLabel(raw json.RawMessage) (label, desc string) {
	var s struct {
		Type        string `json:"type"`
		Behavior    string `json:"behavior"`
		Destination string `json:"destination"`
		Mode        string `json:"mode"`
		Rules       []struct {
			ToolName    string `json:"toolName"`
			RuleContent string `json:"ruleContent"`
		} `json:"rules"`
		Directories []string `json:"directories"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return "", ""
	}
	where := map[string]string{
		"session": "for this session", "localSettings": "in this project (local settings)",
		"projectSettings": "in this project (shared settings)", "userSettings": "in every project",
	}[s.Destination]
	switch s.Type {
	case "addRules":
		if s.Behavior != "allow" || len(s.Rules) == 0 {
			return "", ""
		}
		var rules []string
		for _, r := range s.Rules {
			if r.RuleContent != "" {
				rules = append(rules, r.ToolName+"("+r.RuleContent+")")
			} else {
				rules = append(rules, r.ToolName)
			}
		}
		return truncate("Always allow "+strings.Join(rules, ", "), 200), where
	case "setMode":
		return truncate("Switch to "+s.Mode+" mode", 200), where
	case "addDirectories":
		return truncate("Allow "+strings.Join(s.Directories, ", "), 200), where
	}
	return "", ""
}

// ClaudeConfig returns the settings.json "hooks" block that registers exe
// (with `hook claude`, then extra arguments such as --socket) as the hook for AskUserQuestion and for every permission prompt, with
// Claude Code's timeout a little longer than the hook's own, so the hook
// withdraws its question and lets Claude Code ask before it is killed.
// The statusMessage shows in Claude Code's spinner while the
// AskUserQuestion hook waits (its permission dialog hides any hook's
// status, so that hook has none to show).
func ClaudeConfig(exe string, extra []string, timeout time.Duration) []byte {
	secs := int(timeout / time.Second)
	handler := func(status string) map[string]any {
		h := map[string]any{
			"type":    "command",
			"command": exe,
			"args":    append(append([]string{"hook", "claude"}, extra...), "--timeout", (timeout - 10*time.Second).String()),
			"timeout": secs,
		}
		if status != "" {
			h["statusMessage"] = status
		}
		return h
	}
	b, _ := jsonl.MarshalIndent(map[string]any{"hooks": map[string]any{
		"PreToolUse": []any{map[string]any{
			"matcher": "AskUserQuestion",
			"hooks":   []any{handler("Waiting for your answer in asktui")},
		}},
		"PermissionRequest": []any{map[string]any{
			"matcher": "*",
			"hooks":   []any{handler("Also waiting for your decision in asktui")},
		}},
	}}) // maps of strings and numbers always encode
	return b
}

// decision wraps a PreToolUse decision.
func decision(out map[string]any) ([]byte, error) {
	return encode(map[string]any{"hookSpecificOutput": out})
}
