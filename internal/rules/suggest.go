package rules

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/asktui/asktui/interaction"
)

// Suggest returns the rules that could stand for the call p describes,
// narrowest first, for the human to pick one (and perhaps edit it) when
// answering: for a shell command, exactly that command, then its first
// words with any arguments (Bash(go test:*): the second word only when
// the first is a name and the second a subcommand); for paths inside the
// working directory, exactly those files, then their directory; for a
// fetch, its domain; for an MCP call, the tool, then the server; for any
// other tool, its name. Each one matches p. A call the rules cannot read
// (a compound command, a path outside the working directory, a call
// without a command or paths) gets none: the human writes the rule.
func Suggest(p *interaction.Permission) []Spec {
	if p == nil {
		return nil
	}
	var texts []string
	switch p.Kind {
	case interaction.KindExecute:
		texts = suggestCommand(p)
	case interaction.KindEdit, interaction.KindRead:
		texts = suggestPaths(p)
	case interaction.KindFetch:
		if host := hostOf(p.URL); host != "" {
			texts = []string{"WebFetch(domain:" + host + ")"}
		}
	case interaction.KindMCP:
		if p.MCPServer != "" && p.MCPTool != "" {
			texts = []string{"mcp__" + p.MCPServer + "__" + p.MCPTool, "mcp__" + p.MCPServer}
		}
	default:
		texts = []string{p.Tool}
	}
	var specs []Spec
	for _, t := range texts {
		if s, err := ParseSpec(t); err == nil && s.Kind == p.Kind && !containsSpec(specs, s) {
			specs = append(specs, s)
		}
	}
	return specs
}

func containsSpec(specs []Spec, s Spec) bool {
	for _, o := range specs {
		if o.String() == s.String() {
			return true
		}
	}
	return false
}

// suggestCommand suggests Bash rules for a command of one simple
// command, every word of it literal and without spaces.
func suggestCommand(p *interaction.Permission) []string {
	cwd, err := resolve(p.Cwd)
	if err != nil {
		return nil
	}
	pl, err := analyze(p.Command, cwd)
	if err != nil || len(pl.reads)+len(pl.writes)+len(pl.dirs) > 0 || len(pl.cmds) != 1 {
		return nil
	}
	words := strings.Split(pl.cmds[0].key, sep)
	for _, w := range words {
		if w == dyn || w == "" || strings.ContainsAny(w, " \t\n*()") || strings.HasSuffix(w, ":") {
			return nil
		}
	}
	prefix := words[:1]
	if len(words) > 1 && !strings.Contains(words[0], "/") && !strings.HasPrefix(words[1], "-") && !strings.ContainsAny(words[1], "/.=") {
		prefix = words[:2]
	}
	return []string{
		"Bash(" + strings.Join(words, " ") + ")",
		"Bash(" + strings.Join(prefix, " ") + ":*)",
	}
}

// suggestPaths suggests Edit or Read rules for paths inside the working
// directory: exactly those files, from the project, then the directory
// that holds them all.
func suggestPaths(p *interaction.Permission) []string {
	cwd, err := resolve(p.Cwd)
	if err != nil || len(p.Paths) == 0 {
		return nil
	}
	tool := "Edit"
	if p.Kind == interaction.KindRead {
		tool = "Read"
	}
	var rels []string
	for _, raw := range p.Paths {
		abs, err := resolveFrom(cwd, raw)
		if err != nil || abs == cwd || !within(abs, cwd) {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(abs, cwd+string(filepath.Separator)))
		rels = append(rels, rel)
	}
	var texts []string
	if len(rels) == 1 {
		texts = append(texts, tool+"(/"+escapeGlob(rels[0])+")")
	}
	dir := path.Dir(rels[0])
	for _, r := range rels[1:] {
		for dir != "." && !strings.HasPrefix(r, dir+"/") {
			dir = path.Dir(dir)
		}
	}
	if dir == "." {
		return append(texts, tool)
	}
	return append(texts, tool+"(/"+escapeGlob(dir)+"/**)")
}

// escapeGlob makes a path a glob that matches only itself.
func escapeGlob(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// RuleFor returns the rule of action for spec that stands where p was
// asked: in its project (its working directory, as [ProjectDir] writes
// it), for p's session only when session is set.
func RuleFor(p *interaction.Permission, action Action, spec Spec, session bool, home string) (Rule, error) {
	dir, err := ProjectDir(p.Cwd, home)
	if err != nil {
		return Rule{}, err
	}
	sess := ""
	if session {
		if p.Session == "" {
			return Rule{}, invalid("the request names no session to keep the rule to")
		}
		sess = p.Session
	}
	return NewRule(action, dir, sess, spec)
}

// ProjectDir returns the absolute directory dir, resolved, as a rule
// writes it: from home as ~/… when inside it.
func ProjectDir(dir, home string) (string, error) {
	resolved, err := resolve(dir)
	if err != nil {
		return "", invalid("the directory %q cannot be resolved: %v", dir, err)
	}
	if filepath.IsAbs(home) {
		if h, err := resolve(home); err == nil && within(resolved, h) {
			return "~" + strings.TrimPrefix(resolved, h), nil
		}
	}
	return resolved, nil
}
