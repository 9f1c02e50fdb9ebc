package app

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/tui/internal/rulebook"
)

// fakeRules is the program's rulebook.Rules in Update tests: rules kept in memory,
// patterns that look like Tool or Tool(…), words made from them.
type fakeRules struct {
	plan    rulebook.RulePlan
	planErr error
	saveErr error
	listErr error
	rules   []rulebook.RuleEntry
	saved   []rulebook.RuleChoice
	perms   []*interaction.Permission
	// leaves, when set, says what a pattern leaves of the call (Left);
	// a pattern it names does not cover the call. Else every rule does.
	leaves   map[string][]string
	coverErr error
}

var fakeSpec = regexp.MustCompile(`^[A-Za-z_]+(\([^()]+\))?$`)

func (f *fakeRules) Plan(*interaction.Permission) (rulebook.RulePlan, error) {
	return f.plan, f.planErr
}

func (f *fakeRules) Describe(plan rulebook.RulePlan, c rulebook.RuleChoice) (rulebook.RuleText, error) {
	if !fakeSpec.MatchString(c.Pattern) {
		return rulebook.RuleText{}, interaction.Errorf(interaction.CodeInvalidRule, "%q is not a rule: write Tool or Tool(specifier)", c.Pattern)
	}
	action, who, sess := "allow", "from any agent", ""
	if c.Deny {
		action = "deny"
	}
	if c.Session {
		who, sess = "from session "+plan.Session+" only", " session="+plan.Session
	}
	return rulebook.RuleText{Line: action + " " + plan.Dir + sess + " " + c.Pattern, Words: action + " " + c.Pattern + ", " + who + ", in " + plan.Dir}, nil
}

func (f *fakeRules) Save(p *interaction.Permission, c rulebook.RuleChoice) (rulebook.RuleEntry, bool, error) {
	if f.saveErr != nil {
		return rulebook.RuleEntry{}, false, f.saveErr
	}
	t, err := f.Describe(f.plan, c)
	if err != nil {
		return rulebook.RuleEntry{}, false, err
	}
	f.saved = append(f.saved, c)
	f.perms = append(f.perms, p)
	if n := f.same(t.Line); n > 0 {
		return rulebook.RuleEntry{Number: n, RuleText: t}, false, nil
	}
	e := rulebook.RuleEntry{Number: len(f.rules) + 1, RuleText: t}
	f.rules = append(f.rules, e)
	return e, true, nil
}

// same is the number of the rule written as line, or 0.
func (f *fakeRules) same(line string) int {
	for i, e := range f.rules {
		if e.Line == line {
			return i + 1
		}
	}
	return 0
}

func (f *fakeRules) Cover(_ *interaction.Permission, c rulebook.RuleChoice) (rulebook.RuleCover, error) {
	if f.coverErr != nil {
		return rulebook.RuleCover{}, f.coverErr
	}
	t, err := f.Describe(f.plan, c)
	if err != nil {
		return rulebook.RuleCover{}, err
	}
	left, leaves := f.leaves[c.Pattern]
	return rulebook.RuleCover{Covers: !leaves, Same: f.same(t.Line), Left: left}, nil
}

func (f *fakeRules) List() (rulebook.RuleList, error) {
	list := rulebook.RuleList{Path: "/home/u/.config/asktui/rules.conf"}
	if f.listErr != nil {
		return list, f.listErr
	}
	for i, e := range f.rules {
		e.Number = i + 1
		list.Rules = append(list.Rules, e)
	}
	return list, nil
}

func (f *fakeRules) Check(line string) (rulebook.RuleText, error) {
	fields := strings.SplitN(line, " ", 3)
	if len(fields) != 3 || fields[0] != "allow" && fields[0] != "deny" || !fakeSpec.MatchString(fields[2]) {
		return rulebook.RuleText{}, interaction.Errorf(interaction.CodeInvalidRule, "%q is not a rule: write ACTION DIRECTORY RULE", line)
	}
	return rulebook.RuleText{Line: line, Words: fields[0] + " " + fields[2] + ", from any agent, in " + fields[1]}, nil
}

func (f *fakeRules) Remove(n int, line string) error {
	if n < 1 || n > len(f.rules) || f.rules[n-1].Line != line {
		return fmt.Errorf("rule %d is no longer %s", n, line)
	}
	f.rules = slices.Delete(f.rules, n-1, n)
	return nil
}

func (f *fakeRules) Replace(n int, old, line string) (rulebook.RuleEntry, error) {
	t, err := f.Check(line)
	if err != nil {
		return rulebook.RuleEntry{}, err
	}
	if n < 1 || n > len(f.rules) || f.rules[n-1].Line != old {
		return rulebook.RuleEntry{}, errors.New("the rules file changed")
	}
	e := rulebook.RuleEntry{Number: n, RuleText: t}
	f.rules[n-1] = e
	return e, nil
}

// goTestPlan is where a rule for `go test ./...` in ~/src/app stands.
func goTestPlan() rulebook.RulePlan {
	return rulebook.RulePlan{Dir: "~/src/app", Session: "claude-code:4f1c2a", Suggestions: []rulebook.RuleText{
		{Line: "Bash(go test ./...)", Words: "exactly `go test ./...`"},
		{Line: "Bash(go test:*)", Words: "`go test` with any arguments"},
	}}
}

// permissionRequest is Claude Code asking to run `go test ./...`, as the
// hook puts it.
func permissionRequest() interaction.Request {
	return interaction.Request{
		Agent: &interaction.Agent{ID: "claude-code:4f1c2a", Name: "claude-code"},
		Questions: []interaction.Question{{
			ID: "permission", Header: "Bash", Question: "Claude Code wants to run `go test ./...`",
			Options: opts("Allow once", "Deny"),
		}},
		Permission: &interaction.Permission{
			Client: interaction.ClientClaude, Tool: "Bash", Kind: interaction.KindExecute, Command: "go test ./...",
			Cwd: "/home/u/src/app", Session: "claude-code:4f1c2a", Question: "permission", Allow: "Allow once", Deny: "Deny",
		},
	}
}

// compoundRequest is Claude Code asking to run `go test ./... && rm -rf
// /tmp/x`, which Bash(go test:*) does not cover.
func compoundRequest() interaction.Request {
	req := permissionRequest()
	req.Questions[0].Question = "Claude Code wants to run `go test ./... && rm -rf /tmp/x`"
	req.Permission.Command = "go test ./... && rm -rf /tmp/x"
	return req
}

// compoundSession is a session view with the rule Bash(go test:*) kept
// and compoundRequest shown: a compound command gets no suggestions.
func compoundSession(t *testing.T, w, h int) (*Model, *fakeRules, pending) {
	t.Helper()
	m := testSession(t, w, h)
	f := &fakeRules{plan: rulebook.RulePlan{Dir: "~/src/app", Session: "claude-code:4f1c2a"},
		rules:  []rulebook.RuleEntry{{RuleText: rulebook.RuleText{Line: "allow ~/src/app Bash(go test:*)", Words: "allow `go test` with any arguments, from any agent, in ~/src/app"}}},
		leaves: map[string][]string{"Bash(go test:*)": {"rm -rf /tmp/x"}, "Bash(go:*)": {"rm -rf /tmp/x"}}}
	m.rules = f
	p := ask(t, m, compoundRequest())
	glance(m)
	return m, f, p
}

// rulesSession is a session view with rules and a permission shown.
func rulesSession(t *testing.T, w, h int) (*Model, *fakeRules, pending) {
	t.Helper()
	m := testSession(t, w, h)
	f := &fakeRules{plan: goTestPlan()}
	m.rules = f
	p := ask(t, m, permissionRequest())
	glance(m)
	return m, f, p
}

func TestRememberSavesTheRuleAndAllows(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f, p := rulesSession(t, 100, 30)
		mustContain(t, screen(m), "a always: save a rule")
		press(m, "a")
		if m.mode() != modeRemember {
			t.Fatalf("a opened %v, not the remember dialog", m.mode())
		}
		s := screen(m)
		mustContain(t, s, "Always answer like this?", "Call     go test ./...", "Bash(go test ./...)", "Bash(go test:*)",
			"→ allow Bash(go test ./...), from any agent, in ~/src/app", "✓ It covers this call.", "enter: save it, and allow this time",
			"enter save the rule and answer")
		press(m, "down")
		mustContain(t, screen(m), "→ allow Bash(go test:*), from any agent, in ~/src/app")
		press(m, "tab", "space")
		mustContain(t, screen(m), "→ allow Bash(go test:*), from session claude-code:4f1c2a only, in ~/src/app")
		press(m, "space", "shift+tab", ")")
		mustContain(t, screen(m), `✗ INVALID_RULE: "Bash(go test:*))" is not a rule`)
		press(m, "enter")
		if len(f.saved) != 0 || m.mode() != modeRemember {
			t.Fatalf("a pattern that is not a rule was saved: %+v", f.saved)
		}
		press(m, "backspace")
		mustContain(t, screen(m), "→ allow Bash(go test:*), from any agent, in ~/src/app")
		press(m, "enter")
		want := []rulebook.RuleChoice{{Pattern: "Bash(go test:*)"}}
		if !slices.Equal(f.saved, want) || f.perms[0] == nil || f.perms[0].Command != "go test ./..." {
			t.Fatalf("saved %+v for %+v, want %+v", f.saved, f.perms, want)
		}
		got := result(t, p)
		if got.Err != nil || !slices.Equal(got.Answer.Answers[0].Selected, []string{"Allow once"}) {
			t.Fatalf("answered %+v, want Allow once", got)
		}
		mustContain(t, screen(m), "✓ Saved rule 1: answered claude-code Allow once")
	})
}

// The reproduction: with Bash(go test:*) kept, a permission for
// `go test ./... && rm -rf /tmp/x`, the same rule typed in the dialog.
// The dialog shows the call and says the rule does not cover it; Enter
// adds nothing (the rule is there), says so, and answers nothing: the
// question stays for the human.
func TestRememberRuleAlreadyThereDoesNotCoverTheCall(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f, p := compoundSession(t, 100, 30)
		press(m, "a", "Bash(go test:*)")
		s := screen(m)
		mustContain(t, s, "Call     go test ./... && rm -rf /tmp/x",
			"✗ Already there (rule 1). It does not cover this call: `rm -rf /tmp/x` is", "not allowed by it.",
			"enter: save it; the question stays for you to answer", "enter save the rule only")
		mustNotContain(t, s, "save the rule and answer", "allow this time")
		press(m, "enter")
		noResult(t, p)
		if m.mode() != modeQuestion {
			t.Fatalf("the save left %v, not the question", m.mode())
		}
		if len(f.rules) != 1 {
			t.Fatalf("the rule was added again: %+v", f.rules)
		}
		s = screen(m)
		mustContain(t, s, "✓ Rule 1 is already there; it does not cover this call: answer it", "go test ./... && rm -rf /tmp/x")
		mustNotContain(t, s, "saved", "answered")
		// The human answers it.
		press(m, "down", "enter")
		if got := result(t, p); !slices.Equal(got.Answer.Answers[0].Selected, []string{"Deny"}) {
			t.Fatalf("answered %+v, want the human's Deny", got)
		}
	})
}

// A new rule that does not cover the call is saved, if the human wants,
// and answers nothing.
func TestRememberSavingARuleThatDoesNotCoverAnswersNothing(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f, p := compoundSession(t, 100, 30)
		press(m, "a", "Bash(go:*)")
		mustContain(t, screen(m), "✗ It does not cover this call: `rm -rf /tmp/x` is not allowed by it.")
		press(m, "enter")
		noResult(t, p)
		if len(f.rules) != 2 || f.rules[1].Line != "allow ~/src/app Bash(go:*)" {
			t.Fatalf("rules %+v, want Bash(go:*) saved", f.rules)
		}
		mustContain(t, screen(m), "✓ Saved rule 2; it does not cover this call: answer it")
		if m.mode() != modeQuestion {
			t.Fatalf("mode %v, want the question", m.mode())
		}
	})
	// A rule that covers the whole call answers it; one already there
	// saves nothing and says so.
	run(t, func(t *testing.T) {
		m, f, p := compoundSession(t, 100, 30)
		f.rules = append(f.rules, rulebook.RuleEntry{RuleText: rulebook.RuleText{Line: "allow ~/src/app Bash(go test ./... && rm -rf /tmp/x)"}})
		press(m, "a", "Bash(go test ./... && rm -rf /tmp/x)")
		mustContain(t, screen(m), "✓ Already there (rule 2). It covers this call.", "enter: allow this time")
		press(m, "enter")
		if got := result(t, p); !slices.Equal(got.Answer.Answers[0].Selected, []string{"Allow once"}) {
			t.Fatalf("answered %+v, want Allow once", got)
		}
		if len(f.rules) != 2 {
			t.Fatalf("rules %+v", f.rules)
		}
		mustContain(t, screen(m), "✓ Rule 2 is already there: answered claude-code Allow once")
	})
}

// When the rules cannot tell whether the rule covers the call, nothing is
// answered.
func TestRememberCoverErrorAnswersNothing(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f, p := rulesSession(t, 100, 30)
		f.coverErr = interaction.Errorf(interaction.CodeInvalidRule, "line 3 of rules.conf is not a rule")
		press(m, "a")
		mustContain(t, screen(m), "✗ cannot tell whether it covers this call: INVALID_RULE: line 3 of", "rules.conf is not a rule")
		press(m, "enter")
		noResult(t, p)
		mustContain(t, screen(m), "✓ Saved rule 1; it does not cover this call: answer it")
	})
}

// The call is shown exactly: what would act on the terminal or not show
// is made visible; a long one is wrapped at its spaces, within the
// dialog's bounds, and says how much more there is.
func TestRememberShowsTheCall(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 60, 20)
		m.rules = &fakeRules{plan: rulebook.RulePlan{Dir: "~/src/app"}}
		req := permissionRequest()
		req.Permission.Command = "echo \x1b[2Jhi\u200b && go test ./... -run 'TestA|TestB' -count=1 -v && go vet ./... && make lint && make install"
		ask(t, m, req)
		glance(m)
		press(m, "a")
		s := screen(m)
		mustFit(t, s, 60, 20)
		mustContain(t, s, "│   Call     echo ␛[2Jhi\\u200b && go test ./... -run     │",
			"│            'TestA|TestB' -count=1 -v && go vet ./...   │",
			"│            && make lint && make install                │")
		mustNotContain(t, s, "\x1b")
	})
	run(t, func(t *testing.T) {
		m := testSession(t, 60, 20)
		m.rules = &fakeRules{plan: goTestPlan()}
		req := permissionRequest()
		req.Permission.Command = strings.Repeat("go test ./pkg/... && ", 30) + "true"
		ask(t, m, req)
		glance(m)
		press(m, "a")
		s := screen(m)
		mustFit(t, s, 60, 20)
		mustContain(t, s, "Call     go test ./pkg/... && go test ./pkg/... &&", "… 13 more lines, in the question", "→ allow")
	})
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		m.rules = &fakeRules{plan: rulebook.RulePlan{Dir: "~/src/app"}}
		req := permissionRequest()
		req.Permission.Kind, req.Permission.Tool, req.Permission.Command = interaction.KindEdit, "Edit", ""
		req.Permission.Paths = []string{"src/a.go", "docs/read\u202eme.md"}
		ask(t, m, req)
		glance(m)
		press(m, "a")
		mustContain(t, screen(m), "│   Call     src/a.go     ", "│            docs/read\\u202eme.md     ")
	})
}

func TestRememberDeniesFromTheDenyOption(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f, p := rulesSession(t, 100, 30)
		press(m, "down", "a")
		mustContain(t, screen(m), "→ deny Bash(go test ./...), from any agent, in ~/src/app")
		press(m, "enter")
		if len(f.saved) != 1 || !f.saved[0].Deny {
			t.Fatalf("saved %+v, want a deny rule", f.saved)
		}
		if got := result(t, p); !slices.Equal(got.Answer.Answers[0].Selected, []string{"Deny"}) {
			t.Fatalf("answered %+v, want Deny", got)
		}
	})
}

func TestRememberDenyWithoutDenyOptionDeclines(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		f := &fakeRules{plan: goTestPlan()}
		m.rules = f
		req := permissionRequest()
		req.Permission.Deny = ""
		p := ask(t, m, req)
		glance(m)
		press(m, "a", "shift+tab", "space", "enter")
		if len(f.saved) != 1 || !f.saved[0].Deny {
			t.Fatalf("saved %+v, want a deny rule", f.saved)
		}
		if got := result(t, p); interaction.CodeOf(got.Err) != interaction.CodeDeclined {
			t.Fatalf("answered %+v, want declined", got)
		}
	})
}

func TestRememberSaveErrorLeavesTheQuestion(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f, p := rulesSession(t, 100, 30)
		f.saveErr = interaction.Errorf(interaction.CodeUntrusted, "others can write the rules file")
		press(m, "a", "enter")
		noResult(t, p)
		if m.mode() != modeRemember {
			t.Fatalf("a failed save left the dialog for %v", m.mode())
		}
		mustContain(t, screen(m), "✗ not saved: UNTRUSTED: others can write the rules file")
		press(m, "esc")
		if m.mode() != modeQuestion {
			t.Fatalf("esc left %v, not the question", m.mode())
		}
		noResult(t, p)
		press(m, "enter")
		if got := result(t, p); !slices.Equal(got.Answer.Answers[0].Selected, []string{"Allow once"}) {
			t.Fatalf("answered %+v, want Allow once", got)
		}
	})
}

func TestRememberEscChangesNothing(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f, p := rulesSession(t, 100, 30)
		press(m, "a", "down", "esc")
		if m.mode() != modeQuestion || len(f.saved) != 0 {
			t.Fatalf("esc: mode %v, saved %+v", m.mode(), f.saved)
		}
		noResult(t, p)
		mustNotContain(t, screen(m), "Always answer")
	})
}

func TestRememberOnlyOnPermissionsWithRules(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		m.rules = &fakeRules{plan: goTestPlan()}
		p := ask(t, m, single(deployQuestion()))
		glance(m)
		mustNotContain(t, screen(m), "save a rule")
		press(m, "a")
		if m.mode() != modeQuestion {
			t.Fatalf("a on a question opened %v", m.mode())
		}
		noResult(t, p)
	})
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		ask(t, m, permissionRequest())
		glance(m)
		mustNotContain(t, screen(m), "save a rule")
		press(m, "a")
		if m.mode() != modeQuestion {
			t.Fatalf("a without rules opened %v", m.mode())
		}
	})
}

func TestRememberIsHeldLikeAnAnswer(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		m.rules = &fakeRules{plan: goTestPlan()}
		ask(t, m, permissionRequest())
		pressEvery(m, 10*time.Millisecond, "a") // the question just came up
		if m.mode() != modeRemember {
			return
		}
		t.Fatalf("a held key opened the remember dialog")
	})
}

func TestRememberPlanError(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f, p := rulesSession(t, 100, 30)
		f.planErr = errors.New(`the directory "/gone" cannot be resolved`)
		press(m, "a", "enter")
		mustContain(t, screen(m), `✗ the directory "/gone" cannot be resolved`)
		noResult(t, p)
		if len(f.saved) != 0 {
			t.Fatalf("saved %+v", f.saved)
		}
	})
}

func TestRememberClosesWhenTheRequestEnds(t *testing.T) {
	run(t, func(t *testing.T) {
		m, _, p := rulesSession(t, 100, 30)
		press(m, "a")
		withdraw(p, interaction.Errorf(interaction.CodeAborted, "withdrawn"))
		if m.mode() == modeRemember {
			t.Fatal("the dialog outlived its request")
		}
	})
}

func TestRulesPane(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f, _ := rulesSession(t, 100, 30)
		f.rules = []rulebook.RuleEntry{
			{RuleText: rulebook.RuleText{Line: "allow ~/src/app Bash(go test:*)", Words: "allow `go test` with any arguments, from any agent, in ~/src/app"}, Hits: 3, Last: time.Date(2026, 12, 2, 11, 58, 0, 0, time.Local)},
			{RuleText: rulebook.RuleText{Line: "deny ~/src/app Bash(git push:*)", Words: "deny `git push` with any arguments, from any agent, in ~/src/app"}},
		}
		press(m, "ctrl+k")
		if m.mode() != modeRules {
			t.Fatalf("ctrl+k opened %v", m.mode())
		}
		s := screen(m)
		mustContain(t, s, "Rules · 2 rules · /home/u/.config/asktui/rules.conf", "1 allow ~/src/app Bash(go test:*)",
			"3 answers, last 2026-12-02 11:58", "2 deny ~/src/app Bash(git push:*)", "never answered")

		// Remove, after a confirmation; n keeps it.
		press(m, "down", "d")
		mustContain(t, screen(m), "Remove rule 2? deny ~/src/app Bash(git push:*)")
		press(m, "n")
		if len(f.rules) != 2 {
			t.Fatalf("n removed a rule: %+v", f.rules)
		}
		press(m, "d", "y")
		if len(f.rules) != 1 {
			t.Fatalf("y removed nothing: %+v", f.rules)
		}
		mustContain(t, screen(m), "Rules · 1 rule", "✓ Removed rule 2: deny ~/src/app Bash(git push:*)")

		// Edit: a line that is not a rule stays open with why; a rule
		// replaces the old one.
		press(m, "e")
		mustContain(t, screen(m), "Edit rule 1", "→ allow Bash(go test:*), from any agent, in ~/src/app")
		press(m, " x")
		mustContain(t, screen(m), "is not a rule: write ACTION DIRECTORY RULE")
		press(m, "enter")
		if f.rules[0].Line != "allow ~/src/app Bash(go test:*)" {
			t.Fatalf("a bad line was saved: %+v", f.rules)
		}
		for range len(" xtest:*)") {
			press(m, "backspace")
		}
		press(m, "vet:*)")
		press(m, "enter")
		if len(f.rules) != 1 || f.rules[0].Line != "allow ~/src/app Bash(go vet:*)" {
			t.Fatalf("the edit gave %+v", f.rules)
		}
		mustContain(t, screen(m), "1 allow ~/src/app Bash(go vet:*)", "✓ Rule 1 replaced by rule 1")

		press(m, "esc")
		if m.mode() != modeQuestion {
			t.Fatalf("esc went to %v, not back to the question", m.mode())
		}
	})
}

func TestRulesPaneShowsTheProblem(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f, _ := rulesSession(t, 100, 30)
		f.rules = []rulebook.RuleEntry{{RuleText: rulebook.RuleText{Line: "allow ~/src/app Bash(go test:*)"}}}
		f.listErr = interaction.Errorf(interaction.CodeInvalidRule, "line 3 of rules.conf is not a rule")
		press(m, "ctrl+k")
		s := screen(m)
		mustContain(t, s, "✗ INVALID_RULE: line 3 of rules.conf is not a rule", "No rule answers until the file is fixed")
		mustNotContain(t, s, "Bash(go test:*)")
		press(m, "d", "e")
		if m.rulebook.Editing() || m.rulebook.Confirming() {
			t.Fatal("a rule of an unusable file could be edited or removed")
		}
		// Fixed: it reads them again when opened.
		f.listErr = nil
		press(m, "esc", "ctrl+k")
		mustContain(t, screen(m), "1 allow ~/src/app Bash(go test:*)")
	})
}

func TestRulesPaneInTheConversationView(t *testing.T) {
	run(t, func(t *testing.T) {
		m, _ := testRun(t, 100, 30)
		m.rules = &fakeRules{}
		press(m, "ctrl+k")
		if m.mode() != modeRules {
			t.Fatalf("ctrl+k opened %v", m.mode())
		}
		mustContain(t, screen(m), "No rules yet.")
		press(m, "esc")
		if m.mode() != modePrompt {
			t.Fatalf("esc went to %v, not back to the prompt", m.mode())
		}
	})
}

func TestRememberGolden(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {60, 20}} {
		for _, c := range []struct {
			name     string
			keys     []string
			list     bool
			compound bool
		}{
			{name: "dialog", keys: []string{"a", "down"}},
			{name: "error", keys: []string{"a", ")"}},
			{name: "uncovered", keys: []string{"a", "Bash(go test:*)"}, compound: true},
			{name: "rules", keys: []string{"ctrl+k"}, list: true},
			{name: "edit", keys: []string{"ctrl+k", "e"}, list: true},
		} {
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, size[0], size[1]), func(t *testing.T) {
				run(t, func(t *testing.T) {
					session := rulesSession
					if c.compound {
						session = compoundSession
					}
					m, f, _ := session(t, size[0], size[1])
					if c.list {
						f.rules = []rulebook.RuleEntry{
							{RuleText: rulebook.RuleText{Line: "allow ~/src/app Bash(go test:*)", Words: "allow `go test` with any arguments, from any agent, in ~/src/app"}, Hits: 3, Last: time.Date(2026, 12, 2, 11, 58, 0, 0, time.Local)},
							{RuleText: rulebook.RuleText{Line: "allow ~/src/app session=claude-code:4f1c2a Edit(src/**)", Words: "allow edits of `src/**`, from session claude-code:4f1c2a only, in ~/src/app"}},
							{RuleText: rulebook.RuleText{Line: "deny ~/src/app Bash(git push:*)", Words: "deny `git push` with any arguments, from any agent, in ~/src/app"}, Hits: 1, Last: time.Date(2026, 12, 1, 9, 5, 0, 0, time.Local)},
						}
					}
					press(m, c.keys...)
					s := screen(m)
					mustFit(t, s, size[0], size[1])
					golden.RequireEqual(t, s)
				})
			})
		}
	}
}

func TestRememberInTheConversationView(t *testing.T) {
	run(t, func(t *testing.T) {
		m, c := testRun(t, 60, 20)
		f := &fakeRules{plan: goTestPlan()}
		m.rules = f
		req := permissionRequest()
		req.Agent = &interaction.Agent{ID: c.info.ID}
		p := ask(t, m, req)
		press(m, "ctrl+g")
		glance(m)
		press(m, "a")
		s := screen(m)
		mustFit(t, s, 60, 20)
		mustContain(t, s, "Always answer like this?", "→ allow Bash(go test ./...), from any agent, in")
		press(m, "enter")
		if got := result(t, p); !slices.Equal(got.Answer.Answers[0].Selected, []string{"Allow once"}) || len(f.saved) != 1 {
			t.Fatalf("answered %+v, saved %+v", got, f.saved)
		}
	})
}

func TestRememberEscWhileSavingLeavesTheQuestion(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f, p := rulesSession(t, 100, 30)
		press(m, "a")
		// The save is under way when the human goes back.
		cmd := m.qpane.Remember().Save()
		press(m, "esc")
		send(m, cmd())
		noResult(t, p)
		if len(f.saved) != 1 || m.mode() != modeQuestion {
			t.Fatalf("saved %+v, mode %v", f.saved, m.mode())
		}
		mustContain(t, screen(m), "✓ Saved rule 1; the question still waits for you")
	})
}

// The rules pane's keys act on the rules, never on a question: one that
// arrives while the human edits a rule does not take the typing.
func TestRulesPaneIsNotHeld(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		f := &fakeRules{rules: []rulebook.RuleEntry{{RuleText: rulebook.RuleText{Line: "allow ~/src/app Bash(go test:*)"}}}}
		m.rules = f
		press(m, "ctrl+k", "e")
		p := ask(t, m, permissionRequest())
		pressEvery(m, 10*time.Millisecond, "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "vet:*)", "enter")
		if f.rules[0].Line != "allow ~/src/app Bash(go vet:*)" {
			t.Fatalf("the edit typed while a question arrived gave %+v", f.rules)
		}
		noResult(t, p)
		if m.mode() != modeRules {
			t.Fatalf("the question took the keys: %v", m.mode())
		}
	})
}

// On the smallest screens the dialog and the pane stay within the screen.
func TestRememberFitsSmallScreens(t *testing.T) {
	for _, size := range [][2]int{{40, 12}, {60, 14}, {140, 40}} {
		run(t, func(t *testing.T) {
			m, f, _ := rulesSession(t, size[0], size[1])
			f.rules = []rulebook.RuleEntry{{RuleText: rulebook.RuleText{Line: "allow ~/src/app Bash(go test:*)", Words: "allow `go test` with any arguments, from any agent, in ~/src/app"}}}
			for _, keys := range [][]string{{"a"}, {"tab"}, {")"}, {"esc", "ctrl+k"}, {"e"}, {"esc", "d"}} {
				press(m, keys...)
				mustFit(t, screen(m), size[0], size[1])
			}
		})
	}
}
