package interaction

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/asktui/asktui/internal/sanitize"
)

// PermissionKind says what a tool call that asks for permission does: the
// key the human's standing rules match on, whichever program asks.
type PermissionKind string

// The kinds of tool call a [Permission] describes.
const (
	// KindExecute runs a shell command ([Permission.Command]).
	KindExecute PermissionKind = "execute"
	// KindEdit writes, edits or creates files ([Permission.Paths]).
	KindEdit PermissionKind = "edit"
	// KindRead reads or searches files ([Permission.Paths]).
	KindRead PermissionKind = "read"
	// KindFetch fetches a URL ([Permission.URL]).
	KindFetch PermissionKind = "fetch"
	// KindMCP calls a tool of an MCP server ([Permission.MCPServer],
	// [Permission.MCPTool]).
	KindMCP PermissionKind = "mcp"
	// KindOther is any other tool, known by its name ([Permission.Tool]).
	KindOther PermissionKind = "other"
)

// The clients a [Permission] names: the programs whose tool calls asktui
// asks about.
const (
	ClientClaude  = "claude-code" // Claude Code, through asktui hook claude
	ClientCodex   = "codex"       // Codex, through asktui hook codex
	ClientGemini  = "gemini-cli"  // Gemini CLI, through asktui hook gemini
	ClientCopilot = "copilot-cli" // GitHub Copilot CLI, through asktui hook copilot
	ClientQwen    = "qwen-code"   // Qwen Code, through asktui hook qwen
	ClientACP     = "acp"         // an ACP agent of asktui run
)

// Limits on a [Permission], in bytes of UTF-8 (and paths). Commands and
// paths longer than these are not what a person approves at a glance.
const (
	// MaxCommandLen is the longest shell command.
	MaxCommandLen = 65_536
	// MaxPaths is the most paths one permission may name.
	MaxPaths = 256
	// MaxPathLen is the longest path, and the longest working directory.
	MaxPathLen = 4_096
	// MaxURLLen is the longest URL.
	MaxURLLen = 8_192
)

// Permission describes the tool call a permission request is about, in
// terms the human's standing rules can match: who asks (the client, the
// session), what the call does (its kind and the command, paths, URL or
// tool), where (the working directory), and which of the request's
// options mean "allow once" and "deny once", so that an answer given by a
// rule is exactly what the human would have chosen.
//
// Only asktui's own code sets it: the hook handlers from a CLI's hook
// input and asktui run from an ACP agent's session/request_permission. It
// is never part of a request's JSON (its field in [Request] is not
// encoded or decoded), so an MCP ask_user_question call or a request file
// cannot carry one; the socket carries it beside the request (see
// agent/socket), and the history records it beside the request.
//
// A request with a Permission has exactly one question, the one named by
// Question; [Request.Validate] checks it.
type Permission struct {
	// Client is the program whose tool call it is: [ClientClaude],
	// [ClientCodex], [ClientGemini], [ClientCopilot], [ClientQwen] or
	// [ClientACP].
	Client string `json:"client"`
	// Tool is the tool's name as the client calls it ("Bash",
	// "apply_patch", "run_shell_command", "mcp__github__create_issue"), or
	// for an ACP agent its tool-call kind ("execute", "edit"): ACP names
	// no tools.
	Tool string `json:"tool,omitempty"`
	// Kind is what the call does; [ToolKind] maps a client's tool names
	// onto it.
	Kind PermissionKind `json:"kind"`
	// Command is the shell command of an execute call, exactly as the
	// shell receives it.
	Command string `json:"command,omitempty"`
	// Paths are the files an edit or read call touches, absolute or
	// relative to Cwd. An edit or read call without paths is never
	// answered by a rule that allows.
	Paths []string `json:"paths,omitempty"`
	// URL is what a fetch call fetches.
	URL string `json:"url,omitempty"`
	// MCPServer and MCPTool name the server and tool of an MCP call.
	MCPServer string `json:"mcpServer,omitempty"`
	MCPTool   string `json:"mcpTool,omitempty"`
	// Cwd is the absolute directory the call works in: the command's
	// working directory when the call names one, else the agent's.
	Cwd string `json:"cwd"`
	// Session names the agent's session, stable for its life and unique
	// across clients ("claude-code:<session_id>", an ACP conversation's
	// agent id); rules saved "for this session" match it.
	Session string `json:"session,omitempty"`
	// Question is the id of the request's one question.
	Question string `json:"question"`
	// Allow is the label of the option that allows this call once, if
	// the question has one.
	Allow string `json:"allow,omitempty"`
	// Deny is the label of the option that denies this call once. When
	// empty, a rule denies by declining the request (ASK_DECLINED), which
	// every caller that sets a Permission takes as a refusal.
	Deny string `json:"deny,omitempty"`
}

// toolKinds maps each client's tool names onto the kinds, and
// [ToolKinds] lists them for the documentation. A name not listed is
// [KindOther], but for MCP tools, which each client names by a prefix.
// It is built on first use: a program that never asks about a
// permission allocates nothing for it.
var toolKinds = sync.OnceValue(func() []ClientTools {
	return []ClientTools{
		{ClientClaude, "mcp__SERVER__TOOL", map[PermissionKind][]string{
			KindExecute: {"Bash"},
			KindEdit:    {"Edit", "MultiEdit", "Write", "NotebookEdit"},
			KindRead:    {"Read", "Glob", "Grep", "LS", "NotebookRead"},
			KindFetch:   {"WebFetch"},
		}},
		{ClientCodex, "mcp__SERVER__TOOL", map[PermissionKind][]string{
			KindExecute: {"Bash"},
			KindEdit:    {"apply_patch"},
		}},
		{ClientGemini, "mcp_SERVER_TOOL", map[PermissionKind][]string{
			KindExecute: {"run_shell_command"},
			KindEdit:    {"write_file", "replace"},
			KindRead:    {"read_file", "read_many_files", "glob", "search_file_content", "list_directory"},
			KindFetch:   {"web_fetch"},
		}},
		{ClientCopilot, "SERVER/TOOL", map[PermissionKind][]string{
			KindExecute: {"bash"},
			KindEdit:    {"edit", "create"},
			KindRead:    {"view", "glob", "grep"},
			KindFetch:   {"web_fetch"},
		}},
		{ClientQwen, "mcp__SERVER__TOOL", map[PermissionKind][]string{
			KindExecute: {"run_shell_command"},
			KindEdit:    {"edit", "write_file", "notebook_edit"},
			KindRead:    {"read_file", "glob", "grep_search", "list_directory"},
			KindFetch:   {"web_fetch"},
		}},
		{ClientACP, "", map[PermissionKind][]string{
			KindExecute: {"execute"},
			KindEdit:    {"edit"},
			KindRead:    {"read", "search"},
			KindFetch:   {"fetch"},
		}},
	}
})

// ClientTools is how one client's tool names map onto the kinds of
// [Permission], as [ToolKinds] lists them.
type ClientTools struct {
	// Client is the client, such as [ClientClaude].
	Client string
	// MCP says how the client names an MCP server's tool, or is empty
	// when it does not tell them apart from its own.
	MCP string
	// Tools lists the client's tool names of each kind but MCP and other.
	Tools map[PermissionKind][]string
}

// ToolKinds returns the mapping of every client's tool names onto the
// kinds, in a fixed order. The slice is the caller's; its maps are
// shared and must not be changed.
func ToolKinds() []ClientTools { return append([]ClientTools(nil), toolKinds()...) }

// ToolKind returns the kind of client's tool named tool (for an ACP
// agent, its tool-call kind): [KindOther] for a tool not in
// [ToolKinds]. PowerShell and every other non-POSIX shell is KindOther:
// its commands are not shell commands a rule can read.
func ToolKind(client, tool string) PermissionKind {
	switch client {
	case ClientClaude, ClientCodex, ClientQwen:
		if strings.HasPrefix(tool, "mcp__") {
			return KindMCP
		}
	case ClientCopilot:
		if strings.Contains(tool, "/") {
			return KindMCP
		}
	case ClientGemini:
		if strings.HasPrefix(tool, "mcp_") {
			return KindMCP
		}
	}
	for _, ct := range toolKinds() {
		if ct.Client != client {
			continue
		}
		for kind, names := range ct.Tools {
			for _, n := range names {
				if n == tool {
					return kind
				}
			}
		}
	}
	return KindOther
}

// knownKind reports whether k is one of the kinds.
func knownKind(k PermissionKind) bool {
	switch k {
	case KindExecute, KindEdit, KindRead, KindFetch, KindMCP, KindOther:
		return true
	}
	return false
}

// DecodePermission decodes a [Permission] from JSON, strictly: unknown
// fields are an error, as is anything after the object. It does not check
// the permission against a request; [Request.Validate] does. Every error
// is an INVALID_REQUEST *[Error].
func DecodePermission(data []byte) (*Permission, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var p Permission
	if err := dec.Decode(&p); err != nil {
		return nil, WrapError(CodeInvalidRequest, err, `the "permission" is not a permission object: %v`, err)
	}
	if dec.More() {
		return nil, Errorf(CodeInvalidRequest, `the "permission" is followed by more JSON; send one object`)
	}
	return &p, nil
}

// checkPermission checks r's permission, if any: its strings' lengths
// and encoding, its kind, its working directory, and that it names the
// request's one question and options of it.
func (p *problems) checkPermission(r Request) {
	perm := r.Permission
	if perm == nil {
		return
	}
	const ref = "the permission"
	for _, s := range []struct {
		what  string
		value string
		limit int
	}{
		{`"client"`, perm.Client, MaxIDLen},
		{`"tool"`, perm.Tool, MaxIDLen},
		{`"command"`, perm.Command, MaxCommandLen},
		{`"url"`, perm.URL, MaxURLLen},
		{`"mcpServer"`, perm.MCPServer, MaxIDLen},
		{`"mcpTool"`, perm.MCPTool, MaxIDLen},
		{`"cwd"`, perm.Cwd, MaxPathLen},
		{`"session"`, perm.Session, MaxIDLen},
		{`"question"`, perm.Question, MaxIDLen},
		{`"allow"`, perm.Allow, MaxLabelLen},
		{`"deny"`, perm.Deny, MaxLabelLen},
	} {
		if !fine(s.value, s.limit) {
			p.checkString(ref+"'s "+s.what, s.value, s.limit)
		}
		if strings.IndexByte(s.value, 0) >= 0 {
			p.addf(`%s's %s holds a NUL byte`, ref, s.what)
		}
	}
	if strings.TrimSpace(perm.Client) == "" {
		p.addf(`%s has no "client"; name the program whose tool call it is, such as %q`, ref, ClientClaude)
	}
	if !knownKind(perm.Kind) {
		p.addf(`%s's "kind" is %s; it must be one of execute, edit, read, fetch, mcp, other`, ref, quote(string(perm.Kind)))
	}
	if !filepath.IsAbs(perm.Cwd) {
		p.addf(`%s's "cwd" is %s; it must be an absolute directory`, ref, quote(perm.Cwd))
	}
	if len(perm.Paths) > MaxPaths {
		p.addf(`%s names %d paths, over the limit of %d`, ref, len(perm.Paths), MaxPaths)
	} else {
		for i, path := range perm.Paths {
			what := fmt.Sprintf(`%s's path %d`, ref, i+1)
			switch {
			case path == "":
				p.addf(`%s is empty`, what)
			case strings.IndexByte(path, 0) >= 0:
				p.addf(`%s holds a NUL byte`, what)
			case !fine(path, MaxPathLen):
				p.checkString(what, path, MaxPathLen)
			}
		}
	}
	p.checkPermissionQuestion(r)
}

// checkPermissionQuestion checks that r's permission names r's one
// question, and options of it as its allow and deny labels.
func (p *problems) checkPermissionQuestion(r Request) {
	perm := r.Permission
	if len(r.Questions) != 1 {
		p.addf(`a request with a permission has exactly one question, not %d`, len(r.Questions))
		return
	}
	q := r.Questions[0]
	if perm.Question != q.ID {
		p.addf(`the permission's "question" is %s, but the request's question has the id %s`, quote(perm.Question), quote(q.ID))
	}
	if perm.Allow == "" && perm.Deny == "" {
		p.addf(`the permission names neither an "allow" nor a "deny" option`)
	}
	if perm.Allow != "" && perm.Allow == perm.Deny {
		p.addf(`the permission's "allow" and "deny" are the same option %s`, quote(perm.Allow))
	}
	for _, l := range []struct{ what, label string }{{`"allow"`, perm.Allow}, {`"deny"`, perm.Deny}} {
		if l.label == "" {
			continue
		}
		found := false
		for _, o := range q.Options {
			if o.Label == l.label {
				found = true
				break
			}
		}
		if !found {
			p.addf(`the permission's %s option %s is not an option of its question`, l.what, quote(l.label))
		}
	}
}

// maxSummaryPaths is how many paths [Permission.Summary] names before
// it counts the rest.
const maxSummaryPaths = 3

// Summary names what the call works on, for a person, on one line: the
// shell command's first line (" …" when more lines follow), the files
// ("a.go, b.go and 2 more"), the URL, or the MCP tool and its server
// ("create_issue (MCP server github)"); "" for a call of another kind, or
// one that names none. Text longer than limit characters (0: no limit) is
// cut with "…". Control characters, escape sequences and bidirectional
// controls show as U+FFFD: what the caller sent is visible, and inert.
func (perm *Permission) Summary(limit int) string {
	if perm == nil {
		return ""
	}
	switch perm.Kind {
	case KindExecute:
		cmd := strings.TrimSpace(perm.Command)
		first, rest, more := strings.Cut(cmd, "\n")
		s := sanitize.Replace(strings.TrimSpace(first), limit)
		if more && strings.TrimSpace(rest) != "" && !strings.HasSuffix(s, "…") {
			s += " …"
		}
		return s
	case KindEdit, KindRead:
		n := min(len(perm.Paths), maxSummaryPaths)
		s := strings.Join(perm.Paths[:n], ", ")
		if len(perm.Paths) > n {
			s += " and " + strconv.Itoa(len(perm.Paths)-n) + " more"
		}
		return sanitize.Replace(s, limit)
	case KindFetch:
		return sanitize.Replace(perm.URL, limit)
	case KindMCP:
		if perm.MCPTool == "" {
			return ""
		}
		s := perm.MCPTool
		if perm.MCPServer != "" {
			s += " (MCP server " + perm.MCPServer + ")"
		}
		return sanitize.Replace(s, limit)
	case KindOther:
	}
	return ""
}

// textBytes adds up the lengths of the permission's strings.
func (perm *Permission) textBytes() int {
	if perm == nil {
		return 0
	}
	n := len(perm.Client) + len(perm.Tool) + len(perm.Command) + len(perm.URL) + len(perm.MCPServer) +
		len(perm.MCPTool) + len(perm.Cwd) + len(perm.Session) + len(perm.Question) + len(perm.Allow) + len(perm.Deny)
	for _, path := range perm.Paths {
		n += len(path)
	}
	return n
}
