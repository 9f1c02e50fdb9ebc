package rules

import (
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/asktui/asktui/interaction"
)

// maxSpecLen bounds a rule's text, in bytes.
const maxSpecLen = 4096

// Spec is what a rule matches, in Claude Code's permission-rule syntax:
// a tool, and optionally a specifier in parentheses. The tool decides the
// kind of call ([interaction.PermissionKind]) the rule is about, whatever
// client makes it:
//
//	Bash, Bash(go test:*), Bash(npm run *), Bash(git diff)   execute
//	Edit(src/**) (also Write, MultiEdit, NotebookEdit)          edit
//	Read(./docs/**) (also Glob, Grep, LS)                       read
//	WebFetch, WebFetch(domain:go.dev)                           fetch
//	mcp__github, mcp__github__*, mcp__github__create_issue      mcp
//	WebSearch, Task, … (any other tool, by its exact name)      other
type Spec struct {
	// Tool is the tool as written ("Bash", "Write", "mcp__github").
	Tool string
	// Content is the specifier between the parentheses, trimmed; empty
	// for a rule without one.
	Content string
	// Kind is the kind of call the rule is about.
	Kind interaction.PermissionKind

	cmd    cmdPattern // KindExecute
	domain string     // KindFetch: "go.dev", or "*.go.dev" for subdomains
	server string     // KindMCP
	tool   string     // KindMCP: "" for every tool of the server
}

// String returns the spec as written: Tool or Tool(Content).
func (s Spec) String() string {
	if s.Content == "" {
		return s.Tool
	}
	return s.Tool + "(" + s.Content + ")"
}

// toolAliases are the tool names a rule may use for the kinds with a
// specifier: Claude Code's own.
var toolAliases = map[string]interaction.PermissionKind{
	"Bash":         interaction.KindExecute,
	"Edit":         interaction.KindEdit,
	"Write":        interaction.KindEdit,
	"MultiEdit":    interaction.KindEdit,
	"NotebookEdit": interaction.KindEdit,
	"Read":         interaction.KindRead,
	"Glob":         interaction.KindRead,
	"Grep":         interaction.KindRead,
	"LS":           interaction.KindRead,
	"WebFetch":     interaction.KindFetch,
}

// ParseSpec parses a rule such as "Bash(go test:*)". Every error is an
// INVALID_RULE *interaction.Error that says what to write instead.
func ParseSpec(s string) (Spec, error) {
	s = strings.TrimSpace(s)
	if err := checkText(s); err != nil {
		return Spec{}, err
	}
	name, content, hasParen := s, "", false
	if i := strings.IndexByte(s, '('); i >= 0 {
		if !strings.HasSuffix(s, ")") {
			return Spec{}, invalid("%q: a rule's specifier ends with \")\", as in Bash(go test:*)", s)
		}
		name, content, hasParen = s[:i], strings.TrimSpace(s[i+1:len(s)-1]), true
	}
	if !validToolName(name) {
		return Spec{}, invalid("%q: a rule starts with a tool name (letters, digits, _ and -), such as Bash, Edit, Read, WebFetch or mcp__server__tool", s)
	}
	if hasParen && content == "" {
		return Spec{}, invalid("%q: the parentheses are empty; write %s alone for every call of the tool", s, name)
	}
	spec := Spec{Tool: name, Content: content}
	kind, known := toolAliases[name]
	switch {
	case known:
		spec.Kind = kind
	case strings.HasPrefix(name, "mcp__"):
		spec.Kind = interaction.KindMCP
	default:
		spec.Kind = interaction.KindOther
		if hint := otherClientsTool(name); hint != "" {
			return Spec{}, invalid("%q: %s", s, hint)
		}
	}
	if err := spec.compile(); err != nil {
		return Spec{}, invalid("%q: %v", s, err)
	}
	return spec, nil
}

// compile checks the specifier of s and keeps what matching needs.
func (s *Spec) compile() error {
	var err error
	switch s.Kind {
	case interaction.KindExecute:
		s.cmd, err = compileCommand(s.Content)
	case interaction.KindEdit, interaction.KindRead:
		err = checkPathPattern(s.Content)
	case interaction.KindFetch:
		s.domain, err = compileDomain(s.Content)
	case interaction.KindMCP:
		if s.Content != "" {
			return fmt.Errorf("an MCP rule takes no specifier; name the tool as mcp__server__tool")
		}
		rest := strings.TrimPrefix(s.Tool, "mcp__")
		s.server, s.tool, _ = strings.Cut(rest, "__")
		if s.tool == "*" {
			s.tool = ""
		}
		if s.server == "" || strings.Contains(s.tool, "*") {
			return fmt.Errorf("an MCP rule is mcp__SERVER (every tool of the server), mcp__SERVER__* or mcp__SERVER__TOOL")
		}
	case interaction.KindOther:
		if strings.Contains(s.Tool, "*") {
			return fmt.Errorf("a tool's name has no wildcards; name one tool")
		}
		if s.Content != "" {
			return fmt.Errorf("only Bash, Edit, Read and WebFetch rules take a specifier; write %s alone", s.Tool)
		}
	}
	return err
}

// otherClientsTool says, for a name that is another client's tool of a
// kind with a rule name of its own (Gemini CLI's run_shell_command), what
// to write instead; "" for a name that is no such tool.
func otherClientsTool(name string) string {
	words := map[interaction.PermissionKind]string{
		interaction.KindExecute: "Bash(…)", interaction.KindEdit: "Edit(…)",
		interaction.KindRead: "Read(…)", interaction.KindFetch: "WebFetch(…)", interaction.KindMCP: "mcp__SERVER__TOOL",
	}
	for _, ct := range interaction.ToolKinds() {
		if k := interaction.ToolKind(ct.Client, name); k != interaction.KindOther {
			return fmt.Sprintf("%s is %s's %s tool; rules name it as Claude Code does: write %s", name, ct.Client, k, words[k])
		}
	}
	return ""
}

// validToolName reports whether s can name a tool.
func validToolName(s string) bool {
	if s == "" || len(s) > 256 {
		return false
	}
	for _, r := range s {
		ok := r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_-*.", r))
		if !ok {
			return false
		}
	}
	return s[0] != '*'
}

// checkText refuses a rule that is too long, not UTF-8, or holds control
// characters: rules are one line of text a person reads.
func checkText(s string) error {
	switch {
	case s == "":
		return invalid("the rule is empty; write one such as Bash(go test:*)")
	case len(s) > maxSpecLen:
		return invalid("the rule is %d bytes, over the limit of %d", len(s), maxSpecLen)
	case !utf8.ValidString(s):
		return invalid("the rule is not valid UTF-8")
	}
	for _, r := range s {
		if unsafeRune(r) {
			return invalid("the rule holds the control character %U; rules are plain text", r)
		}
	}
	return nil
}

// unsafeRune reports whether r would hide or disguise what a rule says
// where it is shown: a control character, a line or paragraph separator,
// or an invisible format character (bidirectional overrides, zero-width
// spaces).
func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

// checkPathPattern checks an Edit or Read rule's path pattern: "" for
// every path in the project, else gitignore-style globs (*, ?, [...],
// **), relative to the project, or absolute as //path or ~/path.
func checkPathPattern(p string) error {
	if p == "" {
		return nil
	}
	for seg := range strings.SplitSeq(strings.TrimPrefix(strings.TrimPrefix(p, "~/"), "//"), "/") {
		if seg == ".." {
			return fmt.Errorf("a path pattern may not go up with \"..\"; write it from the project, or absolute as //path")
		}
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("the path pattern's part %q is not a valid glob", seg)
		}
	}
	return nil
}

// compileDomain reads a WebFetch rule's specifier: "" for every fetch,
// else domain:HOST or domain:*.HOST.
func compileDomain(c string) (string, error) {
	if c == "" {
		return "", nil
	}
	host, ok := strings.CutPrefix(c, "domain:")
	if !ok {
		return "", fmt.Errorf("a WebFetch rule's specifier is domain:HOST, as in WebFetch(domain:go.dev)")
	}
	host = strings.ToLower(strings.TrimSpace(host))
	bare := strings.TrimPrefix(host, "*.")
	if bare == "" || strings.Trim(bare, "abcdefghijklmnopqrstuvwxyz0123456789.-") != "" || strings.Contains(bare, "..") {
		return "", fmt.Errorf("%q is not a host name (letters, digits, dots and dashes; *.HOST for its subdomains)", host)
	}
	return host, nil
}

// invalid returns an INVALID_RULE error.
func invalid(format string, args ...any) *interaction.Error {
	return interaction.Errorf(interaction.CodeInvalidRule, format, args...)
}
