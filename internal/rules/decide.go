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

// Activity returns the line the activity shows for the decision:
// "allowed by rule 3: Bash(go test:*)", "denied by rule 1: Bash(rm:*)",
// "allowed by rules 3 and 5: Bash(go test:*), Bash(go vet:*)".
func (d Decision) Activity() string {
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
	if len(nums) == 1 {
		return verb + " by rule " + nums[0] + ": " + specs[0]
	}
	return verb + " by rules " + strings.Join(nums[:len(nums)-1], ", ") + " and " + nums[len(nums)-1] + ": " + strings.Join(specs, ", ")
}

// Decide returns the rules' answer to the call p describes. Only rules of
// p's kind, for p's session or any, whose directory holds p's working
// directory (symbolic links resolved) take part. A deny rule that
// matches any part of the call denies it; otherwise the call is allowed
// when allow rules cover every part of it; anything the rules cannot
// read is left to the human (Ask).
func (s *Set) Decide(p *interaction.Permission) Decision {
	if s.Len() == 0 || p == nil {
		return Decision{}
	}
	cwd, err := resolve(p.Cwd)
	if err != nil {
		return Decision{}
	}
	var scope []int
	for i, r := range s.rules {
		if r.ok && r.Spec.Kind == p.Kind && (r.Session == "" || r.Session == p.Session) && within(cwd, r.dir) {
			scope = append(scope, i)
		}
	}
	if len(scope) == 0 {
		return Decision{}
	}
	var part partMatcher
	switch p.Kind {
	case interaction.KindExecute:
		return s.decideCommand(p.Command, cwd, scope)
	case interaction.KindEdit, interaction.KindRead:
		return s.decidePaths(p.Paths, cwd, scope)
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

// partMatcher reports whether rule r matches a call of one part.
type partMatcher func(r Rule) bool

// decideWhole decides a call that is one part: the first deny rule that
// matches, else the first allow rule.
func (s *Set) decideWhole(scope []int, match partMatcher) Decision {
	for _, deny := range []bool{true, false} {
		for _, i := range scope {
			if r := s.rules[i]; (r.Action == Deny) == deny && match(r) {
				v := Allowed
				if deny {
					v = Denied
				}
				return Decision{Verdict: v, Rules: []Numbered{{i + 1, r}}}
			}
		}
	}
	return Decision{}
}

// decideCommand decides a shell command: denied when a deny rule matches
// any command it runs (or is a bare Bash); allowed when every command it
// runs is allowed by a rule whose directory holds where it runs, and
// every file it redirects to and directory it cd's to is inside the
// directories of all those rules.
func (s *Set) decideCommand(command, cwd string, scope []int) Decision {
	a := &analysis{closed: "no command"}
	if strings.TrimSpace(command) != "" {
		a = analyze(command, cwd)
	}
	for _, i := range scope {
		r := s.rules[i]
		if r.Action != Deny {
			continue
		}
		if r.Spec.cmd.any || slices.ContainsFunc(a.cmds, func(c simpleCmd) bool { return denies(r.Spec.cmd, c.key) }) {
			return Decision{Verdict: Denied, Rules: []Numbered{{i + 1, r}}}
		}
	}
	if a.closed != "" {
		return Decision{}
	}
	used := map[int]bool{}
	for _, c := range a.cmds {
		if c.wrapper || c.builtin {
			continue
		}
		found := -1
		for _, i := range scope {
			if r := s.rules[i]; r.Action == Allow && within(c.cwd, r.dir) && r.Spec.cmd.match(c.key) {
				found = i
				break
			}
		}
		if found < 0 {
			return Decision{}
		}
		used[found] = true
	}
	if len(used) == 0 {
		return Decision{}
	}
	for _, p := range a.paths {
		for i := range used {
			if !within(p, s.rules[i].dir) {
				return Decision{}
			}
		}
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
// path (or is bare); allowed when every path, resolved, is matched by an
// allow rule (a bare one: inside its directory).
func (s *Set) decidePaths(paths []string, cwd string, scope []int) Decision {
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
	for _, i := range scope {
		r := s.rules[i]
		if r.Action == Deny && (r.path.any || slices.ContainsFunc(resolved, r.path.match)) {
			return Decision{Verdict: Denied, Rules: []Numbered{{i + 1, r}}}
		}
	}
	if unknown {
		return Decision{}
	}
	used := map[int]bool{}
	for _, p := range resolved {
		found := -1
		for _, i := range scope {
			r := s.rules[i]
			if r.Action == Allow && ((r.path.any && within(p, r.dir)) || (!r.path.any && r.path.match(p))) {
				found = i
				break
			}
		}
		if found < 0 {
			return Decision{}
		}
		used[found] = true
	}
	return s.allowedBy(used)
}

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
