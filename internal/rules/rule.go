package rules

import (
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/asktui/asktui/interaction"
)

// Action is what a rule answers: allow or deny.
type Action string

// The actions.
const (
	Allow Action = "allow"
	Deny  Action = "deny"
)

// Rule is one standing answer of the human's: an action, where it stands
// (a project directory, and optionally one agent session), and what it
// matches. Its line in the rules file is
//
//	ACTION DIRECTORY [session=SESSION] SPEC
//
// as in "allow ~/src/app Bash(go test:*)". A directory or session that
// holds spaces or quotes is written as a double-quoted Go string.
type Rule struct {
	// Action is allow or deny.
	Action Action
	// Dir is the project directory as written: absolute, or from the home
	// directory as ~/path. The rule answers only for calls whose working
	// directory is in it (symbolic links resolved), and a path rule and
	// a command's redirections and cd only within it.
	Dir string
	// Session, when set, limits the rule to one agent session
	// ([interaction.Permission.Session]).
	Session string
	// Spec is what the rule matches.
	Spec Spec

	// Set by compile.
	dir  string      // Dir, resolved
	path pathPattern // the Edit or Read pattern, absolute
	ok   bool        // compiled; a rule whose directory cannot be resolved never matches
}

// ParseRule parses one rule line, such as "allow ~/src/app Bash(go
// test:*)". Every error is an INVALID_RULE *interaction.Error.
func ParseRule(line string) (Rule, error) {
	rest := strings.TrimSpace(line)
	word, rest := cutField(rest)
	r := Rule{Action: Action(word)}
	if r.Action != Allow && r.Action != Deny {
		return Rule{}, invalid("a rule starts with allow or deny, then the project directory and the rule, as in: allow ~/src/app Bash(go test:*)")
	}
	var err error
	if r.Dir, rest, err = cutValue(rest); err != nil {
		return Rule{}, invalid("the directory: %v", err)
	}
	if err := checkDir(r.Dir); err != nil {
		return Rule{}, err
	}
	if v, ok := strings.CutPrefix(rest, "session="); ok {
		if r.Session, rest, err = cutValue(v); err != nil {
			return Rule{}, invalid("the session: %v", err)
		}
		if err := checkSession(r.Session); err != nil {
			return Rule{}, err
		}
	}
	if r.Spec, err = ParseSpec(rest); err != nil {
		return Rule{}, err
	}
	return r, nil
}

// NewRule returns the rule of action for spec in the project directory
// dir (absolute, or ~/path), for one session when session is not empty;
// it fails as [ParseRule] does.
func NewRule(action Action, dir, session string, spec Spec) (Rule, error) {
	return ParseRule(Rule{Action: action, Dir: dir, Session: session, Spec: spec}.String())
}

// String returns the rule's line in the rules file.
func (r Rule) String() string {
	s := string(r.Action) + " " + quoteField(r.Dir)
	if r.Session != "" {
		s += " session=" + quoteField(r.Session)
	}
	return s + " " + r.Spec.String()
}

// Describe says in words what the rule answers, for the human to read
// before saving it: "allow `go test` with any arguments, from any agent,
// in ~/src/app".
func (r Rule) Describe() string {
	who := "from any agent"
	if r.Session != "" {
		who = "from session " + r.Session + " only"
	}
	return string(r.Action) + " " + r.Spec.Describe() + ", " + who + ", in " + r.Dir
}

// Describe says in words what the spec matches: "`go test` with any
// arguments", "edits of `src/**`".
func (s Spec) Describe() string {
	code := func(t string) string { return "`" + strings.ReplaceAll(t, sep, " ") + "`" }
	switch s.Kind {
	case interaction.KindExecute:
		switch {
		case s.cmd.any:
			return "any shell command"
		case s.cmd.prefix != "":
			return code(s.cmd.prefix) + " with any arguments"
		case !strings.Contains(s.cmd.glob, "*"):
			return "exactly " + code(s.cmd.glob)
		default:
			return "shell commands matching " + code(s.cmd.glob)
		}
	case interaction.KindEdit, interaction.KindRead:
		what := "edits"
		if s.Kind == interaction.KindRead {
			what = "reads"
		}
		if s.Content == "" {
			return what + " of any file"
		}
		return what + " of " + code(s.Content)
	case interaction.KindFetch:
		switch {
		case s.domain == "":
			return "fetching any URL"
		case strings.HasPrefix(s.domain, "*."):
			return "fetching from any subdomain of " + s.domain[2:]
		default:
			return "fetching from " + s.domain
		}
	case interaction.KindMCP:
		if s.tool == "" {
			return "every tool of the MCP server " + code(s.server)
		}
		return "the MCP tool " + code(s.tool) + " of server " + code(s.server)
	default:
		return "the tool " + code(s.Tool)
	}
}

// compile resolves the rule's directory and makes its path pattern
// absolute; home is the home directory ~ stands for.
func (r *Rule) compile(home string) {
	r.ok = false
	dir := r.Dir
	if dir == "~" || strings.HasPrefix(dir, "~/") {
		if !filepath.IsAbs(home) {
			return
		}
		dir = home + dir[1:]
	}
	resolved, err := resolve(dir)
	if err != nil || resolved == filepath.VolumeName(resolved)+string(filepath.Separator) {
		return
	}
	r.dir = resolved
	if r.Spec.Kind == interaction.KindEdit || r.Spec.Kind == interaction.KindRead {
		if r.path, err = compilePath(r.Spec.Content, r.dir, home); err != nil {
			return
		}
	}
	r.ok = true
}

// checkDir checks a rule's directory as written.
func checkDir(d string) error {
	if err := checkField("directory", d, interaction.MaxPathLen); err != nil {
		return err
	}
	if d != "~" && !strings.HasPrefix(d, "~/") && !filepath.IsAbs(d) {
		return invalid("the directory %q is not absolute; write it from / or from ~/", d)
	}
	if filepath.Clean(d) == string(filepath.Separator) {
		return invalid("a rule stands in a project directory, not in / (which would be every directory)")
	}
	return nil
}

// checkSession checks a rule's session.
func checkSession(s string) error {
	return checkField("session", s, interaction.MaxIDLen)
}

// checkField refuses an empty, overlong, non-UTF-8 or control-character
// value.
func checkField(what, s string, limit int) error {
	switch {
	case s == "":
		return invalid("the %s is empty", what)
	case len(s) > limit:
		return invalid("the %s is %d bytes, over the limit of %d", what, len(s), limit)
	case !utf8.ValidString(s):
		return invalid("the %s is not valid UTF-8", what)
	}
	for _, r := range s {
		if unsafeRune(r) {
			return invalid("the %s holds the control character %U", what, r)
		}
	}
	return nil
}

// cutField returns the text up to the first space, and the rest trimmed.
func cutField(s string) (string, string) {
	i := strings.IndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimLeftFunc(s[i:], unicode.IsSpace)
}

// cutValue returns a field that may be a double-quoted Go string, and the
// rest trimmed.
func cutValue(s string) (string, string, error) {
	if !strings.HasPrefix(s, `"`) {
		v, rest := cutField(s)
		return v, rest, nil
	}
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", "", err
	}
	v, err := strconv.Unquote(q)
	if err != nil {
		return "", "", err
	}
	return v, strings.TrimLeftFunc(s[len(q):], unicode.IsSpace), nil
}

// quoteField writes a directory or session as a field: bare, or quoted
// when it is empty or holds a space or a quote.
func quoteField(s string) string {
	if s == "" || strings.HasPrefix(s, `"`) || strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(s)
	}
	return s
}
