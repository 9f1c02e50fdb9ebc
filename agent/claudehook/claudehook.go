// Package claudehook answers Claude Code's own questions and permission
// prompts from the asktui inbox: it is the logic of `asktui hook claude`,
// the command Claude Code runs as a hook.
//
// A PreToolUse hook on the AskUserQuestion tool and a PermissionRequest
// hook each get one JSON object on standard input (see [Input]). Handle
// turns it into an interaction.Request, asks the human through the inbox,
// and returns the JSON decision Claude Code reads on standard output:
// for AskUserQuestion, "allow" with the original input plus the answers
// (keyed by question text, several labels joined with ", ", notes as
// annotations) or "deny" when the human declines; for a permission
// prompt, "allow" (once, or always through one of Claude Code's own
// suggestions) or "deny" with the human's reason. Whenever asktui cannot
// decide (no inbox running, the inbox closed, the hook's time ran out, an
// input it does not understand), Handle returns no output: Claude Code
// then asks as usual. It never blocks Claude Code for good and never
// refuses a question on its own.
//
// The formats follow Claude Code's hooks reference ("PreToolUse decision
// control", "PermissionRequest decision control", "Permission update
// entries") and the Agent SDK's AskUserQuestion types.
package claudehook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/asktui/asktui/interaction"
)

// MaxInputBytes bounds the hook input read from standard input.
const MaxInputBytes = 16 << 20

// Input is the JSON object Claude Code gives a hook on standard input;
// fields asktui does not use are ignored.
type Input struct {
	SessionID      string          `json:"session_id"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	PermissionMode string          `json:"permission_mode"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolUseID      string          `json:"tool_use_id"`
	// AgentID is set inside a subagent; AgentType names the subagent
	// (or, without AgentID, the session's --agent).
	AgentID   string `json:"agent_id"`
	AgentType string `json:"agent_type"`
	// PermissionSuggestions are the "always allow" choices Claude Code
	// would offer (PermissionRequest only), kept as sent to be echoed.
	PermissionSuggestions []json.RawMessage `json:"permission_suggestions"`
}

// Decode reads a hook input, at most MaxInputBytes.
func Decode(r io.Reader) (Input, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return Input{}, fmt.Errorf("reading the hook input: %w", err)
	}
	if len(b) > MaxInputBytes {
		return Input{}, fmt.Errorf("the hook input is over %d bytes", MaxInputBytes)
	}
	var in Input
	if err := json.Unmarshal(b, &in); err != nil {
		return Input{}, fmt.Errorf("the hook input is not a JSON object: %w", err)
	}
	if in.HookEventName == "" {
		return Input{}, errors.New(`the hook input has no "hook_event_name"`)
	}
	return in, nil
}

// Asker asks the human: interaction.Service.Ask, or a client of the
// running inbox.
type Asker func(ctx context.Context, req interaction.Request) (interaction.Answer, error)

// ErrNotMine reports an input Handle leaves to Claude Code: another event
// or tool, or a question it cannot route (two questions with one text).
var ErrNotMine = errors.New("not a hook input asktui answers")

// Handle asks the human about in and returns the hook's output, or nil
// (print nothing: Claude Code asks as usual) with the reason in err when
// asktui cannot decide. A nil output with a nil error never happens.
func Handle(ctx context.Context, in Input, ask Asker) ([]byte, error) {
	switch {
	case in.HookEventName == "PreToolUse" && in.ToolName == "AskUserQuestion":
		return handleQuestions(ctx, in, ask)
	case in.HookEventName == "PermissionRequest":
		return handlePermission(ctx, in, ask)
	}
	return nil, fmt.Errorf("%w: %s on %s", ErrNotMine, in.HookEventName, in.ToolName)
}

// agent is who asks, as the inbox shows it: "Claude Code · <project>",
// and the subagent's type inside one.
func agent(in Input) *interaction.Agent {
	name := "Claude Code"
	if dir := filepath.Base(filepath.Clean(in.Cwd)); in.Cwd != "" && dir != "." && dir != string(filepath.Separator) {
		name += " · " + dir
	}
	if in.AgentType != "" {
		name += " · " + in.AgentType
	}
	id := "claude-code"
	if in.SessionID != "" {
		id += ":" + in.SessionID
	}
	if in.AgentID != "" {
		id += ":" + in.AgentID
	}
	return &interaction.Agent{ID: id, Name: name}
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
	req := interaction.Request{Agent: agent(in)}
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

// The options of a permission prompt.
const (
	allowOnce = "Allow once"
	denyLabel = "Deny"
)

// handlePermission answers a permission prompt.
func handlePermission(ctx context.Context, in Input, ask Asker) ([]byte, error) {
	q := interaction.Question{
		ID:       "permission",
		Header:   truncate(toolTitle(in.ToolName), 40),
		Question: "Allow Claude Code to use " + toolTitle(in.ToolName) + "?",
		Detail:   toolDetail(in.ToolName, in.ToolInput),
		Options:  []interaction.Option{{Label: allowOnce, Description: "This call only"}},
	}
	always := map[string]json.RawMessage{}
	for _, s := range in.PermissionSuggestions {
		label, desc := suggestionLabel(s)
		if label == "" || always[label] != nil {
			continue
		}
		always[label] = s
		q.Options = append(q.Options, interaction.Option{Label: label, Description: desc})
	}
	q.Options = append(q.Options, interaction.Option{Label: denyLabel, Description: "Claude is told you denied it; add a note to say why, or type what to do instead"})
	req := interaction.Request{Agent: agent(in), Questions: []interaction.Question{q}}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	ans, err := ask(ctx, req)
	if err != nil {
		if interaction.CodeOf(err) == interaction.CodeDeclined {
			return permission(map[string]any{"behavior": "deny", "message": "The user denied this in asktui."})
		}
		return nil, err
	}
	item, _ := ans.Get("permission")
	switch {
	case item.Custom != "":
		return permission(map[string]any{"behavior": "deny", "message": "The user denied this in asktui and said: " + item.Custom})
	case len(item.Selected) == 0:
		return nil, errors.New("the permission prompt was skipped")
	}
	switch choice := item.Selected[0]; choice {
	case allowOnce:
		return permission(map[string]any{"behavior": "allow"})
	case denyLabel:
		msg := "The user denied this in asktui."
		if item.Note != "" {
			msg = "The user denied this in asktui: " + item.Note
		}
		return permission(map[string]any{"behavior": "deny", "message": msg})
	default:
		return permission(map[string]any{"behavior": "allow", "updatedPermissions": []json.RawMessage{always[choice]}})
	}
}

// toolTitle names a tool for the human: MCP tools as "server: tool".
func toolTitle(name string) string {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if server, tool, ok := strings.Cut(rest, "__"); ok {
			return server + ": " + tool
		}
	}
	if name == "" {
		return "a tool"
	}
	return name
}

// toolDetail shows what the tool is about to do, as Markdown: the command,
// the change as a diff, the file written, the plan.
func toolDetail(tool string, raw json.RawMessage) string {
	var in map[string]any
	if err := json.Unmarshal(raw, &in); err != nil || len(in) == 0 {
		return ""
	}
	str := func(k string) string { s, _ := in[k].(string); return s }
	var b strings.Builder
	switch tool {
	case "Bash", "PowerShell":
		b.WriteString(fence("sh", str("command")))
		if d := str("description"); d != "" {
			b.WriteString("\n" + d + "\n")
		}
	case "Edit", "MultiEdit":
		b.WriteString("`" + str("file_path") + "`\n\n")
		b.WriteString(fence("diff", unifiedLines(str("old_string"), str("new_string"))))
	case "Write":
		b.WriteString("`" + str("file_path") + "`\n\n")
		b.WriteString(fence(strings.TrimPrefix(filepath.Ext(str("file_path")), "."), headLines(str("content"), 200)))
	case "ExitPlanMode":
		b.WriteString(str("plan"))
	case "WebFetch":
		b.WriteString(str("url") + "\n\n" + str("prompt"))
	default:
		pretty, _ := json.MarshalIndent(in, "", "  ")
		b.WriteString(fence("json", headLines(string(pretty), 200)))
	}
	return truncate(b.String(), interaction.MaxDetailLen)
}

// fence puts text in a Markdown code block that its own backticks cannot
// close.
func fence(lang, text string) string {
	ticks := "```"
	for strings.Contains(text, ticks) {
		ticks += "`"
	}
	return ticks + lang + "\n" + strings.TrimRight(text, "\n") + "\n" + ticks + "\n"
}

// unifiedLines shows an edit as removed and added lines.
func unifiedLines(before, after string) string {
	var b strings.Builder
	for l := range strings.SplitSeq(strings.TrimRight(before, "\n"), "\n") {
		b.WriteString("- " + l + "\n")
	}
	for l := range strings.SplitSeq(strings.TrimRight(after, "\n"), "\n") {
		b.WriteString("+ " + l + "\n")
	}
	return b.String()
}

// headLines keeps the first n lines of s and says how many were cut.
func headLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n… %d more lines", strings.Count(lines[n], "\n")+1)
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

// PrintConfig returns the settings.json "hooks" block that registers exe
// as the hook for AskUserQuestion and for every permission prompt, with
// Claude Code's timeout a little longer than the hook's own, so the hook
// withdraws its question and lets Claude Code ask before it is killed.
func PrintConfig(exe string, timeout time.Duration) []byte {
	secs := int(timeout / time.Second)
	handler := func(status string) map[string]any {
		return map[string]any{
			"type":          "command",
			"command":       exe,
			"args":          []string{"hook", "claude", "--timeout", (timeout - 10*time.Second).String()},
			"timeout":       secs,
			"statusMessage": status,
		}
	}
	cfg := map[string]any{"hooks": map[string]any{
		"PreToolUse": []any{map[string]any{
			"matcher": "AskUserQuestion",
			"hooks":   []any{handler("Waiting for your answer in asktui")},
		}},
		"PermissionRequest": []any{map[string]any{
			"matcher": "*",
			"hooks":   []any{handler("Waiting for your decision in asktui")},
		}},
	}}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(cfg)
	return b.Bytes()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// decision wraps a PreToolUse decision.
func decision(out map[string]any) ([]byte, error) {
	return encode(map[string]any{"hookSpecificOutput": out})
}

// permission wraps a PermissionRequest decision.
func permission(d map[string]any) ([]byte, error) {
	return encode(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PermissionRequest", "decision": d}})
}

func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func mustJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
