package rules

import (
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/history"
)

// Verdict is what the rules say about a permission.
type Verdict int

// The verdicts.
const (
	// Ask: no rule answers; the human decides.
	Ask Verdict = iota
	// Allowed: allow rules cover every part of the call, and no deny
	// rule matches any part.
	Allowed
	// Denied: a deny rule matches a part of the call.
	Denied
)

// Decision is the rules' answer to one permission.
type Decision struct {
	// Verdict is the answer.
	Verdict Verdict
	// Rules are the rules that decided, in the order of the file: the
	// deny rule that matched, or the allow rules that together allow
	// every part of the call.
	Rules []Numbered
}

// Numbered is a rule with its number: its place among the rules of the
// file, from 1.
type Numbered struct {
	Number int
	Rule   Rule
}

// Ruling returns the decision as the history records it: the first
// rule's number, and the rules' lines joined by "; "; nil when no rule
// decided.
func (d Decision) Ruling() *history.Ruling {
	if d.Verdict == Ask || len(d.Rules) == 0 {
		return nil
	}
	lines := make([]string, len(d.Rules))
	for i, n := range d.Rules {
		lines[i] = n.Rule.String()
	}
	return &history.Ruling{Number: d.Rules[0].Number, Rule: strings.Join(lines, "; ")}
}

// maxActivityCall is how many characters of the call an activity line
// shows.
const maxActivityCall = 120

// Activity returns the line the activity shows for the decision about
// the call p: which rules answered, and the call, so that what was
// allowed or denied is seen: "allowed by rule 3 (Bash(go test:*)): go
// test ./...", "denied by rule 1 (Bash(rm:*)): rm -rf build", "allowed by
// rules 3 and 5 (Bash(go test:*), Bash(go vet:*)): go vet && go test". The
// call is p's [interaction.Permission.Summary], one line and inert (for a
// tool of no known kind the rule's pattern names it); "" when no rule
// decided.
func (d Decision) Activity(p *interaction.Permission) string {
	verb := map[Verdict]string{Allowed: "allowed", Denied: "denied"}[d.Verdict]
	if verb == "" || len(d.Rules) == 0 {
		return ""
	}
	nums := make([]string, len(d.Rules))
	specs := make([]string, len(d.Rules))
	for i, n := range d.Rules {
		nums[i] = strconv.Itoa(n.Number)
		specs[i] = n.Rule.Spec.String()
	}
	s := verb + " by rule " + nums[0]
	if len(nums) > 1 {
		s = verb + " by rules " + strings.Join(nums[:len(nums)-1], ", ") + " and " + nums[len(nums)-1]
	}
	s += " (" + strings.Join(specs, ", ") + ")"
	if call := p.Summary(maxActivityCall); call != "" {
		s += ": " + call
	}
	return s
}

// Decide returns the rules' answer to the call p describes. Only rules of
// p's kind, for p's session or any, whose directory holds p's working
// directory (symbolic links resolved) take part, and for a shell command
// the Edit and Read rules for the files its redirections write and read.
// A deny rule that matches any part of the call denies it; otherwise the
// call is allowed when allow rules cover every part of it; anything the
// rules cannot read is left to the human (Ask).
func (s *Set) Decide(p *interaction.Permission) Decision {
	if s.Len() == 0 || p == nil {
		return Decision{}
	}
	cwd, err := resolve(p.Cwd)
	if err != nil {
		return Decision{}
	}
	scope := s.scope(p, cwd, p.Kind)
	if len(scope) == 0 {
		return Decision{}
	}
	var part partMatcher
	switch p.Kind {
	case interaction.KindExecute:
		return s.decideCommand(p.Command, cwd, scope, s.scope(p, cwd, interaction.KindEdit), s.scope(p, cwd, interaction.KindRead))
	case interaction.KindEdit, interaction.KindRead:
		return s.decidePaths(p.Kind, p.Paths, cwd, scope)
	case interaction.KindFetch:
		host := hostOf(p.URL)
		part = func(r Rule) bool {
			return r.Spec.domain == "" || (host != "" && domainMatch(r.Spec.domain, host))
		}
	case interaction.KindMCP:
		part = func(r Rule) bool {
			return p.MCPServer != "" && r.Spec.server == p.MCPServer && (r.Spec.tool == "" || (p.MCPTool != "" && r.Spec.tool == p.MCPTool))
		}
	default:
		// An ACP agent names no tools: its Tool is the call's kind, which
		// no rule names.
		part = func(r Rule) bool { return p.Tool != "" && p.Client != interaction.ClientACP && r.Spec.Tool == p.Tool }
	}
	return s.decideWhole(scope, part)
}

// scope returns the indexes of the rules of kind that stand for p: for
// its session or any, in a directory that holds its resolved working
// directory cwd.
func (s *Set) scope(p *interaction.Permission, cwd string, kind interaction.PermissionKind) []int {
	var scope []int
	for i, r := range s.rules {
		if r.ok && r.Spec.Kind == kind && (r.Session == "" || r.Session == p.Session) && within(cwd, r.dir) {
			scope = append(scope, i)
		}
	}
	return scope
}

// partMatcher reports whether rule r matches a call of one part.
type partMatcher func(r Rule) bool

// decideWhole decides a call that is one part: the first deny rule that
// matches, else the first allow rule.
func (s *Set) decideWhole(scope []int, match partMatcher) Decision {
	if i := s.first(scope, Deny, match); i >= 0 {
		return s.denied(i)
	}
	if i := s.first(scope, Allow, match); i >= 0 {
		return s.allowedBy(map[int]bool{i: true})
	}
	return Decision{}
}

// first returns the index of the first rule in scope of action that
// matches, or -1.
func (s *Set) first(scope []int, action Action, match partMatcher) int {
	for _, i := range scope {
		if r := s.rules[i]; r.Action == action && match(r) {
			return i
		}
	}
	return -1
}

// denied is the decision of the deny rule at index i.
func (s *Set) denied(i int) Decision {
	return Decision{Verdict: Denied, Rules: []Numbered{{i + 1, s.rules[i]}}}
}

// decideCommand decides a shell command from the rules in scope of each
// kind. It is denied when a deny Bash rule matches any command the line
// shows (or is a bare Bash), or a deny Edit or Read rule a file one of
// its redirections writes or reads. It is allowed only when the line is
// read in full ([analyze]) and every command it runs is allowed by a
// Bash rule whose directory holds where it runs, every file it reads and
// directory it cd's to is inside the directories of all those rules, and
// every file it writes is allowed by an Edit rule (an edit, which a Bash
// rule alone never allows).
func (s *Set) decideCommand(command, cwd string, exec, edit, read []int) Decision {
	keys := sight(command)
	denies := func(r Rule) bool {
		return r.Spec.cmd.any || slices.ContainsFunc(keys, func(k string) bool { return denies(r.Spec.cmd, k) })
	}
	if i := s.first(exec, Deny, denies); i >= 0 {
		return s.denied(i)
	}
	if strings.TrimSpace(command) == "" {
		return Decision{}
	}
	pl, err := analyze(command, cwd)
	if err != nil {
		return Decision{}
	}
	for _, files := range []struct {
		scope []int
		paths []string
	}{{edit, pl.writes}, {read, pl.reads}} {
		if len(files.paths) == 0 {
			continue
		}
		if i := s.first(files.scope, Deny, func(r Rule) bool { return r.path.any || slices.ContainsFunc(files.paths, r.path.match) }); i >= 0 {
			return s.denied(i)
		}
	}
	used := map[int]bool{}
	for _, c := range pl.cmds {
		i := s.first(exec, Allow, func(r Rule) bool { return within(c.cwd, r.dir) && r.Spec.cmd.match(c.key) })
		if i < 0 {
			return Decision{}
		}
		used[i] = true
	}
	if len(used) == 0 {
		return Decision{}
	}
	for _, p := range slices.Concat(pl.reads, pl.dirs) {
		for i := range used {
			if !within(p, s.rules[i].dir) {
				return Decision{}
			}
		}
	}
	for _, w := range pl.writes {
		i := s.first(edit, Allow, func(r Rule) bool { return s.allowsEdit(r, w) })
		if i < 0 {
			return Decision{}
		}
		used[i] = true
	}
	return s.allowedBy(used)
}

// denies reports whether a deny rule's pattern matches the command key,
// as written or with its command named by its base name (/bin/rm as rm).
func denies(p cmdPattern, key string) bool {
	if p.match(key) {
		return true
	}
	name, rest, hasRest := strings.Cut(key, sep)
	base := path.Base(name)
	switch {
	case name == dyn || base == name:
		return false
	case hasRest:
		return p.match(base + sep + rest)
	default:
		return p.match(base)
	}
}

// decidePaths decides an edit or read: denied when a deny rule matches a
// path (or is bare); allowed when every path, resolved, is allowed by an
// allow rule (a bare one: inside its directory; an edit inside .git/ or
// the rules' own directory only as allowsEdit says).
func (s *Set) decidePaths(kind interaction.PermissionKind, paths []string, cwd string, scope []int) Decision {
	resolved := make([]string, 0, len(paths))
	unknown := len(paths) == 0
	for _, p := range paths {
		r, err := resolveFrom(cwd, p)
		if err != nil {
			unknown = true
			continue
		}
		resolved = append(resolved, r)
	}
	if i := s.first(scope, Deny, func(r Rule) bool { return r.path.any || slices.ContainsFunc(resolved, r.path.match) }); i >= 0 {
		return s.denied(i)
	}
	if unknown {
		return Decision{}
	}
	used := map[int]bool{}
	for _, p := range resolved {
		allows := func(r Rule) bool { return allowsPath(r, p) }
		if kind == interaction.KindEdit {
			allows = func(r Rule) bool { return s.allowsEdit(r, p) }
		}
		i := s.first(scope, Allow, allows)
		if i < 0 {
			return Decision{}
		}
		used[i] = true
	}
	return s.allowedBy(used)
}

// allowsPath reports whether the path rule r covers the resolved path p:
// a bare rule every path inside its directory, else its pattern.
func allowsPath(r Rule, p string) bool {
	if r.path.any {
		return within(p, r.dir)
	}
	return r.path.match(p)
}

// allowsEdit reports whether the Edit rule r allows writing the resolved
// path p. Beyond its pattern, two places are guarded: the directory of
// the rules file (an agent that could write it could grant itself
// anything) is never written by a rule, and a file inside a .git
// directory (its hooks run at the next commit) only by a rule whose
// pattern names .git itself (Edit(.git/**)).
func (s *Set) allowsEdit(r Rule, p string) bool {
	for _, g := range s.guarded {
		if within(p, g) {
			return false
		}
	}
	if inGit(p) && !slices.ContainsFunc(r.path.segs, isGit) {
		return false
	}
	return allowsPath(r, p)
}

// inGit reports whether the resolved path p is, or is inside, a .git
// directory (in any case: a file system may not tell .GIT apart).
func inGit(p string) bool {
	return slices.ContainsFunc(splitPath(p), isGit)
}

func isGit(name string) bool { return strings.EqualFold(name, ".git") }

// allowedBy is the decision allowed by the rules whose indexes are used.
func (s *Set) allowedBy(used map[int]bool) Decision {
	d := Decision{Verdict: Allowed}
	for i := range s.rules {
		if used[i] {
			d.Rules = append(d.Rules, Numbered{i + 1, s.rules[i]})
		}
	}
	return d
}

// hostOf returns the lower-case ASCII host of an http or https URL, or
// "" for anything else.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	for i := 0; i < len(host); i++ {
		if c := host[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '.' && c != '-' {
			return "" // an IPv6 literal or a name outside ASCII: no rule names it
		}
	}
	return host
}

// domainMatch reports whether host is the rule's domain, or for
// "*.domain" one of its subdomains.
func domainMatch(domain, host string) bool {
	if base, ok := strings.CutPrefix(domain, "*."); ok {
		return strings.HasSuffix(host, "."+base)
	}
	return host == domain
}

// Uncovered names, for the human, the parts of p's call that no allow
// rule of the set covers: each command of a shell command line that no
// Bash rule allows where it runs (its words as the shell passes them, a
// word the shell decides as "…"), each file a redirection writes that no
// Edit rule allows ("> path"), or each file of an edit or read that no
// rule allows. Nil when every part is covered, when the rules cannot
// read the call in parts, or when no part is covered: the whole call is
// then what is left.
func (s *Set) Uncovered(p *interaction.Permission) []string {
	if p == nil {
		return nil
	}
	cwd, err := resolve(p.Cwd)
	if err != nil {
		return nil
	}
	var left []string
	parts := 0
	switch p.Kind {
	case interaction.KindExecute:
		pl, err := analyze(p.Command, cwd)
		if err != nil {
			return nil
		}
		exec, edit := s.scope(p, cwd, interaction.KindExecute), s.scope(p, cwd, interaction.KindEdit)
		for _, c := range pl.cmds {
			parts++
			if s.first(exec, Allow, func(r Rule) bool { return within(c.cwd, r.dir) && r.Spec.cmd.match(c.key) }) < 0 {
				left = append(left, shownKey(c.key))
			}
		}
		for _, w := range pl.writes {
			parts++
			if s.first(edit, Allow, func(r Rule) bool { return s.allowsEdit(r, w) }) < 0 {
				left = append(left, "> "+shownPath(w, cwd))
			}
		}
	case interaction.KindEdit, interaction.KindRead:
		scope := s.scope(p, cwd, p.Kind)
		for _, raw := range p.Paths {
			parts++
			abs, err := resolveFrom(cwd, raw)
			if err != nil {
				return nil
			}
			allows := func(r Rule) bool { return allowsPath(r, abs) }
			if p.Kind == interaction.KindEdit {
				allows = func(r Rule) bool { return s.allowsEdit(r, abs) }
			}
			if s.first(scope, Allow, allows) < 0 {
				left = append(left, raw)
			}
		}
	case interaction.KindFetch, interaction.KindMCP, interaction.KindOther:
		return nil
	}
	if len(left) == parts {
		return nil
	}
	return left
}

// shownKey is a command's key as words a person reads: a word the shell
// decides is "…", and words xargs adds are "…" too.
func shownKey(key string) string {
	return strings.ReplaceAll(strings.ReplaceAll(key, dyn, "…"), sep, " ")
}

// shownPath is the resolved path p from the directory cwd when inside it.
func shownPath(p, cwd string) string {
	if rel, ok := strings.CutPrefix(p, cwd+"/"); ok {
		return rel
	}
	return p
}
