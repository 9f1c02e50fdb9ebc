// Package hook answers coding agents' own questions and approval prompts
// from the asktui inbox: it is the logic of `asktui hook claude`, `asktui
// hook codex`, `asktui hook gemini`, `asktui hook copilot` and `asktui
// hook qwen`, the commands those CLIs run as hooks.
//
// Each CLI gives a hook one JSON object on standard input ([Input]; the
// three share most field names) and reads a JSON decision on standard
// output. One place turns a tool call into an inbox question
// ([askPermission]: the command, diff or arguments as its detail) and the
// human's choice into a [verdict]; each CLI's file turns that verdict into
// its own output:
//
//   - Claude Code: PreToolUse on AskUserQuestion (answered for the human)
//     and PermissionRequest (allow, "always" through one of its own
//     suggestions, deny with a reason). See [HandleClaude].
//   - Codex: PermissionRequest (allow, or deny with a reason). See
//     [HandleCodex].
//   - Gemini CLI: BeforeTool (deny with a reason; it cannot approve, so an
//     approval lets Gemini's own policy decide). See [HandleGemini].
//   - GitHub Copilot CLI: permissionRequest, in its own camelCase input
//     ([DecodeCopilot]) and output (allow, or deny with a reason). See
//     [HandleCopilot].
//   - Qwen Code: PermissionRequest, Claude Code's shape with Qwen's tool
//     names (allow, or deny with a reason). See [HandleQwen].
//
// Whenever asktui cannot decide (no inbox running, the inbox closed, the
// hook's time ran out, an input it does not understand or that is not
// shaped as its CLI sends it), a handler returns no output and the CLI
// asks as usual; Gemini, which may run without asking at all, is then
// told to ask ([GeminiAsk]). A hook never blocks its CLI for good, never
// allows anything on its own and never refuses anything on its own.
//
// A CLI that an agent of `asktui run` runs (Claude Code under
// claude-agent-acp loads the user's hooks) has its calls asked in the
// run's conversation already: there `asktui hook` steps aside before any
// handler runs, as when it cannot decide (ASKTUI_RUN, read by
// internal/cli).
package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/markdown"
	"github.com/asktui/asktui/internal/sanitize"
)

// MaxInputBytes bounds the hook input read from standard input.
const MaxInputBytes = 16 << 20

// Input is the JSON object a CLI gives a hook on standard input; fields
// asktui does not use are ignored, and each CLI sets only some.
type Input struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	PermissionMode string          `json:"permission_mode"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	// ToolUseID names the tool call (Claude Code's PreToolUse; not its
	// PermissionRequest as of 2.1.332).
	ToolUseID string `json:"tool_use_id"`
	// AgentID is set inside a subagent; AgentType names the subagent
	// (or, without AgentID, Claude Code's --agent).
	AgentID   string `json:"agent_id"`
	AgentType string `json:"agent_type"`
	// PermissionSuggestions are the "always allow" choices Claude Code
	// would offer (PermissionRequest only), kept as sent to be echoed.
	PermissionSuggestions []json.RawMessage `json:"permission_suggestions"`
	// MCPContext names the server and tool of an MCP call (Gemini CLI).
	MCPContext struct {
		ServerName string `json:"server_name"`
		ToolName   string `json:"tool_name"`
	} `json:"mcp_context"`
}

// ReadInput is [Decode] bounded by ctx: when ctx ends before r does (a
// CLI that never closes the hook's standard input), it returns ctx's
// cause at once. The read goes on in the background until r ends; the
// `asktui hook` process exits first.
func ReadInput(ctx context.Context, r io.Reader) (Input, error) {
	return readWith(ctx, r, Decode)
}

// readWith is ReadInput with decode in place of Decode, for a CLI whose
// input is shaped otherwise (Copilot CLI's).
func readWith(ctx context.Context, r io.Reader, decode func(io.Reader) (Input, error)) (Input, error) {
	type result struct {
		in  Input
		err error
	}
	ch := make(chan result, 1)
	go func() {
		in, err := decode(r)
		ch <- result{in, err}
	}()
	select {
	case res := <-ch:
		return res.in, res.err
	case <-ctx.Done():
		return Input{}, fmt.Errorf("reading the hook input: %w", context.Cause(ctx))
	}
}

// Decode reads a hook input, at most MaxInputBytes: one JSON object
// whose fields have the types the CLIs send, with a "hook_event_name".
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
		return Input{}, fmt.Errorf("the hook input is not a JSON object of the hook's fields: %w", err)
	}
	if in.HookEventName == "" {
		return Input{}, errors.New(`the hook input has no "hook_event_name"`)
	}
	return in, nil
}

// Asker asks the human: interaction.Service.Ask, or a client of the
// running inbox.
type Asker func(ctx context.Context, req interaction.Request) (interaction.Answer, error)

// ErrNotMine reports an input a handler leaves to its CLI: another event
// or tool, or a question it cannot route (two questions with one text).
// The errors the handlers return match it (errors.Is) and say, for the
// person reading the hook's standard error, why the input is not
// asktui's and what the CLI does instead: "PreToolUse for Bash: asktui
// answers Claude Code's permission prompts through PermissionRequest;
// Claude Code asks as usual".
var ErrNotMine = errors.New("not a hook input asktui answers")

// notMineError is an [ErrNotMine] saying why.
type notMineError string

func (e notMineError) Error() string        { return string(e) }
func (e notMineError) Is(target error) bool { return target == ErrNotMine }

// notMine returns an [ErrNotMine] error whose text is the formatted
// sentence.
func notMine(format string, args ...any) error {
	return notMineError(fmt.Sprintf(format, args...))
}

// named is a name from the hook's input (an event, a tool) as an error
// message shows it: visible, and at most 60 bytes.
func named(s string) string {
	if s == "" {
		return "(none)"
	}
	return truncate(sanitize.Visible(s), 60)
}

// agent is who asks, as the inbox shows it: "<CLI> · <project>", and the
// subagent's type inside one.
func agent(cli, idPrefix string, in Input) *interaction.Agent {
	name := cli
	if dir := filepath.Base(filepath.Clean(in.Cwd)); in.Cwd != "" && dir != "." && dir != string(filepath.Separator) {
		name += " · " + dir
	}
	if in.AgentType != "" {
		name += " · " + in.AgentType
	}
	id := idPrefix
	if in.SessionID != "" {
		id += ":" + in.SessionID
	}
	if in.AgentID != "" {
		id += ":" + in.AgentID
	}
	return &interaction.Agent{ID: id, Name: name}
}

// permission is an approval prompt as the inbox asks it.
type permission struct {
	agent *interaction.Agent
	// cli names the program asking, in the question ("Allow Codex to use
	// Bash?") and in what the agent is told.
	cli string
	// tool is the tool's name for the human; detail what the call does
	// (Markdown).
	tool, detail string
	// always are extra "allow" choices beyond "Allow once", each with the
	// CLI's own value to send back.
	always []alwaysChoice
	// rule describes the call for the human's standing rules (its
	// question and labels are filled in by askPermission), or is nil.
	rule *interaction.Permission
}

// alwaysChoice is one "always allow" choice a CLI offers.
type alwaysChoice struct {
	label, desc string
	raw         json.RawMessage
}

// verdict is the human's decision on a permission.
type verdict struct {
	allow bool
	// always is the chosen "always" choice, when there was one.
	always json.RawMessage
	// message is what the agent is told when denied.
	message string
}

// The options of a permission prompt.
const (
	allowOnce = "Allow once"
	denyLabel = "Deny"
)

// ruleDenied starts the note internal/rules.Wrap puts on a deny it
// answers by one of the user's standing rules ("Denied by the user's
// standing rule in asktui (rule 3: Bash(rm:*)). …"); internal/cli's
// TestServeDeniesByRule holds the two to the same words.
const ruleDenied = "Denied by the user's standing rule in asktui"

// askPermission asks the human about p. An error means asktui cannot
// decide; a decline is a deny.
func askPermission(ctx context.Context, p permission, ask Asker) (verdict, error) {
	// The tool's name as sent, whatever it holds, made visible: the
	// human approves exactly this.
	tool := sanitize.Visible(p.tool)
	q := interaction.Question{
		ID:       "permission",
		Header:   truncate(tool, 40),
		Question: "Allow " + p.cli + " to use " + markdown.Code(tool) + "?", // Markdown would take * and _ as emphasis
		Detail:   p.detail,
		Options:  []interaction.Option{{Label: allowOnce, Description: "This call only"}},
	}
	agentName := strings.SplitN(p.cli, " ", 2)[0]
	q.Options = append(q.Options, interaction.Option{Label: denyLabel,
		Description: agentName + " is told you denied it; add a note to say why, or type what to do instead"})
	// The choices that decide from now on (Claude Code's "always allow"
	// suggestions, a mode, a directory) come after the two that decide
	// this call only, marked so: the cursor starts on Allow once, and a
	// standing permission is only ever chosen on purpose.
	always := map[string]json.RawMessage{}
	for _, c := range p.always {
		if c.label == "" || always[c.label] != nil || c.label == allowOnce || c.label == denyLabel {
			continue
		}
		always[c.label] = c.raw
		desc := "from now on"
		if c.desc != "" {
			desc += ", " + c.desc
		}
		q.Options = append(q.Options, interaction.Option{Label: c.label, Description: desc})
	}
	req := interaction.Request{Agent: p.agent, Questions: []interaction.Question{q}}
	if err := req.Validate(); err != nil {
		return verdict{}, err
	}
	if p.rule != nil {
		// The call as the human's rules see it. One they cannot read
		// (a command over the limit, a relative working directory) is
		// left out, and the human is asked as ever.
		rule := *p.rule
		rule.Question, rule.Allow, rule.Deny = q.ID, allowOnce, denyLabel
		req.Permission = &rule
		if req.Validate() != nil {
			req.Permission = nil
		}
	}
	ans, err := ask(ctx, req)
	if err != nil {
		if interaction.CodeOf(err) == interaction.CodeDeclined {
			return verdict{message: "The user denied this in asktui."}, nil
		}
		return verdict{}, err
	}
	item, _ := ans.Get("permission")
	switch {
	case item.Custom != "":
		msg := "The user denied this in asktui and said: " + item.Custom
		if item.Note != "" {
			msg += "\n\nThe user's note: " + item.Note
		}
		return verdict{message: msg}, nil
	case len(item.Selected) == 0:
		return verdict{}, errors.New("the permission prompt was skipped")
	}
	switch choice := item.Selected[0]; choice {
	case allowOnce:
		return verdict{allow: true}, nil
	case denyLabel:
		msg := "The user denied this in asktui."
		switch {
		case strings.HasPrefix(item.Note, ruleDenied):
			// A standing rule of the user's answered, and says which
			// (rules.Wrap): the agent is told so, in the rule's words.
			msg = item.Note
		case item.Note != "":
			msg = "The user denied this in asktui: " + item.Note
		}
		return verdict{message: msg}, nil
	default:
		return verdict{allow: true, always: always[choice]}, nil
	}
}

// ruleFor describes client's call of tool, as c reads it, for the
// human's standing rules: the raw command, paths and URL (never the
// sanitised text shown), where it runs (the call's own directory when it
// names one, else the session's), and the session.
func ruleFor(client, idPrefix string, in Input, tool string, c call) *interaction.Permission {
	p := &interaction.Permission{
		Client: client,
		Tool:   tool,
		Kind:   interaction.ToolKind(client, tool),
		Cwd:    in.Cwd,
	}
	if in.SessionID != "" {
		p.Session = idPrefix + ":" + in.SessionID
	}
	if c.workdir != "" {
		p.Cwd = c.workdir
		if !filepath.IsAbs(c.workdir) && in.Cwd != "" {
			p.Cwd = filepath.Join(in.Cwd, c.workdir)
		}
	}
	switch p.Kind {
	case interaction.KindExecute:
		p.Command = c.command
	case interaction.KindEdit, interaction.KindRead:
		p.Paths = c.paths()
		if c.kind == "patch" && slices.ContainsFunc(p.Paths, func(f string) bool { return !filepath.IsAbs(f) }) {
			// Codex applies a patch from a shell command too ("cd .. &&
			// apply_patch <<EOF"), its relative paths from where that
			// cd went, and its hook says only the session's directory:
			// where a relative path lands is not known, so no rule
			// answers.
			return nil
		}
		if p.Paths == nil {
			p.Paths = argPaths(in.ToolInput)
		}
	case interaction.KindFetch:
		p.URL = c.url
	case interaction.KindMCP:
		p.MCPServer, p.MCPTool = mcpParts(client, tool)
	case interaction.KindOther: // known by its name alone
	}
	return p
}

// mcpParts splits an MCP tool's name as client writes it
// (mcp__SERVER__TOOL; Gemini CLI: mcp_SERVER_TOOL, where only its
// mcp_context tells the parts apart) into server and tool.
func mcpParts(client, name string) (server, tool string) {
	prefix, sep := "mcp__", "__"
	if client == interaction.ClientGemini {
		prefix, sep = "mcp_", "_"
	}
	if rest, ok := strings.CutPrefix(name, prefix); ok {
		if s, t, ok := strings.Cut(rest, sep); ok && s != "" && t != "" {
			return s, t
		}
	}
	return "", ""
}

// paths are the files the call touches: its path, or those its patch
// names. None when it names none, and no rule allows it then.
func (c call) paths() []string {
	if c.kind == "patch" {
		return patchPaths(c.content)
	}
	if c.path != "" {
		return []string{c.path}
	}
	return nil
}

// argPaths is the file or directory a read or edit tool's arguments
// name, under the names the CLIs give it; nil when they name none (the
// tool then works in the session's directory, which no rule assumes).
func argPaths(raw json.RawMessage) []string {
	a := parseArgs(raw)
	for _, k := range []string{"file_path", "notebook_path", "absolute_path", "path", "dir_path"} {
		if s := a.str(k); s != "" && a.err == nil {
			return []string{s}
		}
	}
	return nil
}

// mcpTitle names an MCP tool "server: tool" from a name of the form
// <prefix><server><sep><tool>, or returns "".
func mcpTitle(name, prefix, sep string) string {
	if rest, ok := strings.CutPrefix(name, prefix); ok {
		if server, tool, ok := strings.Cut(rest, sep); ok && server != "" && tool != "" {
			return server + ": " + tool
		}
	}
	return ""
}

// call is what a tool call does, in the terms toolDetail shows.
type call struct {
	// kind picks the rendering: "command", "edit", "write", "patch",
	// "markdown", "fetch", or "" for the arguments as JSON.
	kind                           string
	command, description           string
	path, content                  string
	edits                          []edit
	markdown, url, prompt, workdir string
	args                           json.RawMessage
}

// edit is one replacement in a file: the text before and after.
type edit struct{ before, after string }

// edits reads the field k as a list of edits, each an object with string
// "old_string" and "new_string" (Claude Code's MultiEdit).
func (a *toolArgs) edits(k string) []edit {
	v, ok := a.m[k]
	if !ok {
		return nil
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(v, &raw); err != nil {
		if a.err == nil {
			a.err = fmt.Errorf(`the tool's %q is %s, not an array`, truncate(k, 40), jsonKind(v))
		}
		return nil
	}
	var out []edit
	for _, r := range raw {
		e := parseArgs(r)
		out = append(out, edit{e.str("old_string"), e.str("new_string")})
		if e.err != nil && a.err == nil {
			a.err = fmt.Errorf("an edit of %q: %w", truncate(k, 40), e.err)
		}
	}
	return out
}

// detail shows what the tool is about to do, as Markdown: the command,
// the change as a diff, the file written, the plan. Commands, paths,
// contents and arguments are shown exactly as the CLI will use them, in
// code that their own backticks cannot close, with every character that
// would act on the terminal or not show made visible
// ([sanitize.Visible]); only prose (a description, a plan) is left for
// the screen to neutralise.
func (c call) detail() string {
	v := sanitize.Visible
	var b strings.Builder
	switch c.kind {
	case "command":
		b.WriteString(markdown.Fence("sh", v(c.command)))
		if c.workdir != "" {
			b.WriteString("\nin " + markdown.Code(v(c.workdir)) + "\n")
		}
		if c.description != "" {
			b.WriteString("\n" + c.description + "\n")
		}
	case "edit":
		b.WriteString(markdown.Code(v(c.path)) + "\n\n")
		var diff strings.Builder
		for i, e := range c.edits {
			if i > 0 {
				diff.WriteString("@@\n")
			}
			diff.WriteString(unifiedLines(v(e.before), v(e.after)))
		}
		b.WriteString(markdown.Fence("diff", diff.String()))
		if c.description != "" {
			b.WriteString("\n" + c.description + "\n")
		}
	case "write":
		b.WriteString(markdown.Code(v(c.path)) + "\n\n")
		b.WriteString(markdown.Fence(strings.TrimPrefix(filepath.Ext(v(c.path)), "."), headLines(v(c.content), 200)))
	case "patch":
		b.WriteString(markdown.Fence("diff", headLines(v(c.content), 400)))
	case "markdown":
		b.WriteString(c.markdown)
	case "fetch":
		if c.url != "" {
			b.WriteString(markdown.Code(v(c.url)) + "\n\n")
		}
		b.WriteString(c.prompt)
	default:
		var val any
		if json.Unmarshal(c.args, &val) != nil {
			return ""
		}
		if m, ok := val.(map[string]any); ok && len(m) == 0 {
			return ""
		}
		pretty, _ := json.MarshalIndent(val, "", "  ")
		// JSON escapes C0 controls; Visible's stand-ins for the rest are
		// JSON escapes too, so the arguments read as the JSON they are.
		b.WriteString(markdown.Fence("json", headLines(v(string(pretty)), 200)))
	}
	return truncate(strings.TrimSpace(b.String())+"\n", interaction.MaxDetailLen)
}

// toolArgs reads a tool call's arguments (its tool_input), which must be a
// JSON object. A field read with str must be a string when present: a
// command, path or text of another type is not what the CLI would run, so
// nothing is shown for approval and the first such field is err.
type toolArgs struct {
	m   map[string]json.RawMessage
	err error
}

// parseArgs reads raw, a tool_input.
func parseArgs(raw json.RawMessage) *toolArgs {
	a := &toolArgs{}
	if len(raw) == 0 {
		a.err = errors.New(`the hook input has no "tool_input"`)
	} else if err := json.Unmarshal(raw, &a.m); err != nil || a.m == nil {
		a.err = fmt.Errorf(`the hook input's "tool_input" is %s, not an object`, jsonKind(raw))
	}
	return a
}

// str is the string field k, or "" when it is absent or null.
func (a *toolArgs) str(k string) string {
	v, ok := a.m[k]
	if !ok || string(v) == "null" {
		return ""
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil && a.err == nil {
		a.err = fmt.Errorf(`the tool's %q is %s, not a string`, truncate(k, 40), jsonKind(v))
	}
	return s
}

// jsonKind names the type of a JSON value, for messages that must not
// echo the value.
func jsonKind(v json.RawMessage) string {
	v = bytes.TrimLeft(v, " \t\r\n")
	if len(v) == 0 {
		return "empty"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
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
