package cli

import (
	"strings"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/rules"
	"github.com/asktui/asktui/tui"
)

// rulebook is the screen's view of the rules (tui.Rules) over the store
// the inbox answers with, so that a rule saved or removed on the screen
// takes effect at the next permission.
type rulebook struct{ store *rules.Store }

var _ tui.Rules = rulebook{}

// screenRules returns the rules the screen keeps in store, or nil (no
// remember key, no rules pane) when there is no store: never a non-nil
// interface around a nil store.
func screenRules(store *rules.Store) tui.Rules {
	if store == nil {
		return nil
	}
	return rulebook{store: store}
}

// Plan resolves p's project as a rule writes it, and suggests patterns.
func (b rulebook) Plan(p *interaction.Permission) (tui.RulePlan, error) {
	dir, err := rules.ProjectDir(p.Cwd, b.store.Home())
	if err != nil {
		return tui.RulePlan{}, err
	}
	plan := tui.RulePlan{Dir: dir, Session: p.Session}
	for _, s := range rules.Suggest(p) {
		plan.Suggestions = append(plan.Suggestions, tui.RuleText{Line: s.String(), Words: s.Describe()})
	}
	return plan, nil
}

// action is the rules' action of c.
func action(c tui.RuleChoice) rules.Action {
	if c.Deny {
		return rules.Deny
	}
	return rules.Allow
}

// Describe builds the rule of c in plan's project without touching a file.
func (rulebook) Describe(plan tui.RulePlan, c tui.RuleChoice) (tui.RuleText, error) {
	spec, err := rules.ParseSpec(c.Pattern)
	if err != nil {
		return tui.RuleText{}, err
	}
	session := ""
	if c.Session {
		if plan.Session == "" {
			return tui.RuleText{}, interaction.Errorf(interaction.CodeInvalidRule, "the request names no session to keep the rule to")
		}
		session = plan.Session
	}
	r, err := rules.NewRule(action(c), plan.Dir, session, spec)
	if err != nil {
		return tui.RuleText{}, err
	}
	return tui.RuleText{Line: r.String(), Words: r.Describe()}, nil
}

// ruleOf is the rule of c for p, where p was asked (rules.RuleFor).
func (b rulebook) ruleOf(p *interaction.Permission, c tui.RuleChoice) (rules.Rule, error) {
	spec, err := rules.ParseSpec(c.Pattern)
	if err != nil {
		return rules.Rule{}, err
	}
	return rules.RuleFor(p, action(c), spec, c.Session, b.store.Home())
}

// Save adds the rule of c for p, unless it is there already, and notes
// it as saved from p's request (Store.Remembered): the history records
// it with the human's answer.
func (b rulebook) Save(p *interaction.Permission, c tui.RuleChoice) (tui.RuleEntry, bool, error) {
	r, err := b.ruleOf(p, c)
	if err != nil {
		return tui.RuleEntry{}, false, err
	}
	n, added, err := b.store.Add(r)
	if err != nil {
		return tui.RuleEntry{}, false, err
	}
	b.store.Remembered(p, n)
	return entry(n, rules.Hits{}), added, nil
}

// Cover decides p, with the matcher that answers permissions, by the
// rules as they are with the rule of c added after them (when it is not
// there yet, as Save would add it), and says whether that decision is c's
// answer.
func (b rulebook) Cover(p *interaction.Permission, c tui.RuleChoice) (tui.RuleCover, error) {
	r, err := b.ruleOf(p, c)
	if err != nil {
		return tui.RuleCover{}, err
	}
	set, err := b.store.Load()
	if err != nil {
		return tui.RuleCover{}, err
	}
	var cov tui.RuleCover
	kept := set.Rules()
	lines := make([]string, 0, len(kept)+1)
	for i, k := range kept {
		lines = append(lines, k.String())
		if cov.Same == 0 && k.String() == r.String() {
			cov.Same = i + 1
		}
	}
	if cov.Same == 0 {
		lines = append(lines, r.String())
	}
	// Only rules, in order: each keeps its number in the file.
	with, err := rules.Parse([]byte(strings.Join(lines, "\n")), b.store.Home())
	if err != nil {
		return tui.RuleCover{}, err
	}
	want := rules.Allowed
	if c.Deny {
		want = rules.Denied
	}
	d := with.Decide(p)
	switch {
	case d.Verdict == want:
		cov.Covers = true
	case d.Verdict != rules.Ask && len(d.Rules) > 0:
		cov.Against = entry(d.Rules[0], rules.Hits{})
	case !c.Deny:
		cov.Left = with.Uncovered(p)
	}
	return cov, nil
}

func entry(n rules.Numbered, h rules.Hits) tui.RuleEntry {
	return tui.RuleEntry{Number: n.Number, RuleText: tui.RuleText{Line: n.Rule.String(), Words: n.Rule.Describe()}, Hits: h.Count, Last: h.Last}
}

// List reads the rules and their counts; counts that cannot be read are
// shown as none.
func (b rulebook) List() (tui.RuleList, error) {
	list := tui.RuleList{Path: b.store.Path()}
	set, err := b.store.Load()
	if err != nil {
		return list, err
	}
	hits, _ := b.store.Hits()
	for i, r := range set.Rules() {
		list.Rules = append(list.Rules, entry(rules.Numbered{Number: i + 1, Rule: r}, hits[r.String()]))
	}
	return list, nil
}

// Check parses a rule line.
func (rulebook) Check(line string) (tui.RuleText, error) {
	r, err := rules.ParseRule(line)
	if err != nil {
		return tui.RuleText{}, err
	}
	return tui.RuleText{Line: r.String(), Words: r.Describe()}, nil
}

// still checks that rule n reads line, as when it was listed.
func (b rulebook) still(n int, line string) error {
	set, err := b.store.Load()
	if err != nil {
		return err
	}
	if list := set.Rules(); n < 1 || n > len(list) || list[n-1].String() != line {
		return interaction.Errorf(interaction.CodeInvalidRule, "rule %d is no longer %s: the rules file changed meanwhile; look again", n, line)
	}
	return nil
}

// Remove removes rule n if it is still line.
func (b rulebook) Remove(n int, line string) error {
	_, err := b.store.Remove(n, line)
	return err
}

// Replace puts the rule written as line in the place of rule n, still
// old, keeping its number.
func (b rulebook) Replace(n int, old, line string) (tui.RuleEntry, error) {
	r, err := rules.ParseRule(line)
	if err != nil {
		return tui.RuleEntry{}, err
	}
	if r.String() == old {
		if err := b.still(n, old); err != nil {
			return tui.RuleEntry{}, err
		}
		return entry(rules.Numbered{Number: n, Rule: r}, rules.Hits{}), nil
	}
	got, err := b.store.Replace(n, old, r)
	if err != nil {
		return tui.RuleEntry{}, err
	}
	return entry(got, rules.Hits{}), nil
}
