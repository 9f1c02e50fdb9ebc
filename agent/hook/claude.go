package hook

import (
	"bytes"
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
		return nil, notMine("PermissionRequest for AskUserQuestion: its prompt is the question itself; Claude Code asks it as usual")
	case in.HookEventName == "PermissionRequest":
		return handleClaudePermission(ctx, in, ask)
	case in.HookEventName == "PreToolUse":
		return nil, notMine("PreToolUse for %s: asktui answers Claude Code's permission prompts through PermissionRequest; Claude Code asks as usual", named(in.ToolName))
	}
	return nil, notMine("%s for %s: asktui answers PreToolUse for AskUserQuestion and PermissionRequest only; Claude Code goes on as usual", named(in.HookEventName), named(in.ToolName))
}

// askQuestion is one question of AskUserQuestion's input.
type askQuestion struct {
	Question    exactString `json:"question"`
	Header      string      `json:"header"`
	Options     []askOption `json:"options"`
	MultiSelect bool        `json:"multiSelect"`
}

type askOption struct {
	Label       exactString `json:"label"`
	Description string      `json:"description"`
	Preview     string      `json:"preview"`
}

// exactString is a JSON string as decoded and as sent: the answers go
// back keyed by the question's text and naming the labels byte for byte
// as Claude Code wrote them, so that it finds them whatever they hold.
// What the screen shows is neutralised there, never here.
type exactString struct {
	s   string
	raw json.RawMessage // the JSON string token, quotes included
}

func (e *exactString) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &e.s); err != nil {
		return err
	}
	if len(b) < 2 || b[0] != '"' {
		return errors.New("not a string")
	}
	e.raw = append(json.RawMessage(nil), b...)
	return nil
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
		if seen[q.Question.s] {
			// Claude Code keys answers by question text: two questions
			// with one text cannot both be answered.
			return nil, notMine("AskUserQuestion: two questions share the text %q, and Claude Code keys answers by text; Claude Code asks as usual", named(q.Question.s))
		}
		seen[q.Question.s] = true
		iq := interaction.Question{ID: fmt.Sprintf("q%d", i+1), Question: q.Question.s, Header: q.Header, MultiSelect: q.MultiSelect}
		for _, o := range q.Options {
			iq.Options = append(iq.Options, interaction.Option{Label: o.Label.s, Description: o.Description, Preview: o.Preview})
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
	// Both objects are keyed by the question's text as sent, in the
	// questions' order.
	var answers, annotations jsonObject
	for i, q := range qs {
		item, _ := ans.Get(req.Questions[i].ID)
		switch {
		case item.Custom != "":
			// Typed text, as typed (it overrides the choices).
			answers.add(q.Question.raw, mustJSON(item.Custom))
		case len(item.Selected) > 0:
			answers.add(q.Question.raw, joinLabels(q.Options, item.Selected))
		}
		if item.Note != "" {
			annotations.add(q.Question.raw, mustJSON(map[string]string{"notes": item.Note}))
		}
	}
	// updatedInput replaces the whole input: the original, with the
	// answers (and notes) added.
	input["answers"] = answers.json()
	if annotations.n > 0 {
		input["annotations"] = annotations.json()
	}
	return decision(map[string]any{
		"hookEventName":      "PreToolUse",
		"permissionDecision": "allow",
		"updatedInput":       input,
	})
}

// joinLabels is the answer naming the chosen labels, as JSON: one label
// as Claude Code sent it; several joined as Claude Code's own dialog
// joins them, with ", ", a label that holds ", " or a quote written as
// JavaScript's JSON.stringify writes it.
func joinLabels(opts []askOption, chosen []string) json.RawMessage {
	raw := make(map[string]json.RawMessage, len(opts))
	for _, o := range opts {
		raw[o.Label.s] = o.Label.raw
	}
	if len(chosen) == 1 && raw[chosen[0]] != nil {
		return raw[chosen[0]]
	}
	var b bytes.Buffer
	b.WriteByte('"')
	for i, l := range chosen {
		if i > 0 {
			b.WriteString(", ")
		}
		switch r := raw[l]; {
		case strings.Contains(l, ", ") || strings.Contains(l, `"`):
			quoted := mustJSON(jsStringify(l))
			b.Write(quoted[1 : len(quoted)-1])
		case r != nil:
			b.Write(r[1 : len(r)-1]) // the label's own bytes, escapes and all
		default:
			quoted := mustJSON(l)
			b.Write(quoted[1 : len(quoted)-1])
		}
	}
	b.WriteByte('"')
	return b.Bytes()
}

// jsStringify is JavaScript's JSON.stringify of s: quotes, backslashes and
// C0 controls escaped, everything else (U+2028, C1 controls, DEL) as it is,
// which is where encoding/json differs.
func jsStringify(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// jsonObject builds a JSON object from members whose keys and values are
// JSON text already.
type jsonObject struct {
	b bytes.Buffer
	n int
}

func (o *jsonObject) add(key, value json.RawMessage) {
	if o.n > 0 {
		o.b.WriteByte(',')
	}
	o.n++
	o.b.Write(key)
	o.b.WriteByte(':')
	o.b.Write(value)
}

func (o *jsonObject) json() json.RawMessage {
	return json.RawMessage("{" + o.b.String() + "}")
}

// handleClaudePermission answers a permission prompt.
func handleClaudePermission(ctx context.Context, in Input, ask Asker) ([]byte, error) {
	c, err := claudeCall(in.ToolName, in.ToolInput)
	if err != nil {
		return nil, err
	}
	p := permission{
		agent:  agent(claudeCLI, "claude-code", in),
		cli:    claudeCLI,
		tool:   claudeToolTitle(in.ToolName),
		detail: c.detail(),
		rule:   ruleFor(interaction.ClientClaude, "claude-code", in, in.ToolName, c),
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
func claudeCall(tool string, raw json.RawMessage) (call, error) {
	a := parseArgs(raw)
	var c call
	switch tool {
	case "Bash", "PowerShell":
		c = call{kind: "command", command: a.str("command"), description: a.str("description")}
	case "Edit":
		c = call{kind: "edit", path: a.str("file_path"), edits: []edit{{a.str("old_string"), a.str("new_string")}}}
	case "MultiEdit":
		c = call{kind: "edit", path: a.str("file_path"), edits: a.edits("edits")}
	case "Write":
		c = call{kind: "write", path: a.str("file_path"), content: a.str("content")}
	case "ExitPlanMode":
		c = call{kind: "markdown", markdown: a.str("plan")}
	case "WebFetch":
		c = call{kind: "fetch", url: a.str("url"), prompt: a.str("prompt")}
	default:
		c = call{args: raw}
	}
	return c, a.err
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
