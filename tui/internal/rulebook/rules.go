// Package rulebook is the human's standing answers on the screen: the
// port through which the screen reaches the rules (Rules, which asktui's
// command line implements over its rules file; tui re-exports it), the
// rules pane that lists, edits and removes them, and the remember
// dialog, a state of the question panel, that saves a rule from a
// permission and answers it with the rule. What touches files runs in
// commands, whose messages (PlanMsg, CoverMsg, SavedMsg, ListedMsg) the
// program hands back to the pane or dialog that asked.
package rulebook

import (
	"time"

	"github.com/asktui/asktui/interaction"
)

// Rules is the port through which the screen reaches the human's
// standing answers: tui.Rules, whose comment says what the program
// expects of it (which methods may touch files, and where they run).
type Rules interface {
	// Plan returns where a rule saved from permission p would stand (its
	// project, resolved) and the patterns suggested for it, narrowest
	// first; an error says why no rule can be saved from p.
	Plan(p *interaction.Permission) (RulePlan, error)
	// Describe returns the rule the human's choice makes under plan: its
	// line and what it says in words, or why it is not a rule (the
	// pattern's error, to show as it is typed).
	Describe(plan RulePlan, c RuleChoice) (RuleText, error)
	// Save adds the rule c makes for p to the rules and returns it with
	// its number, and whether it was added: a rule already there is not
	// added twice, and comes back with its number and false.
	Save(p *interaction.Permission, c RuleChoice) (RuleEntry, bool, error)
	// Cover tells whether the rules, with the rule c makes for p kept
	// among them, would answer p as c chooses (allow, or deny), and if
	// not, why. The program answers p with a saved rule only when they
	// would: a rule that does not cover the call on screen never answers
	// it.
	Cover(p *interaction.Permission, c RuleChoice) (RuleCover, error)
	// List returns the rules in order, with how often each answered. An
	// error says why the rules cannot be used (the file is invalid or
	// not trusted); the list's Path is set even then.
	List() (RuleList, error)
	// Check returns what a rule line says in words, or why it is not a
	// rule.
	Check(line string) (RuleText, error)
	// Remove removes rule n when its line is still line (the file may have
	// changed since it was listed).
	Remove(n int, line string) error
	// Replace puts the rule written as line in place of rule n, whose
	// line is still old, keeping its number, and returns it.
	Replace(n int, old, line string) (RuleEntry, error)
}

// RulePlan is where a rule saved from a permission would stand, and what
// it could match.
type RulePlan struct {
	// Dir is the project directory as the rule writes it ("~/src/app").
	Dir string
	// Session is the asking agent's session; empty when the permission
	// names none, and a rule can only be for any agent in Dir.
	Session string
	// Suggestions are the patterns offered, narrowest first.
	Suggestions []RuleText
}

// RuleChoice is what the human chose in the remember dialog.
type RuleChoice struct {
	// Deny makes the rule deny; else it allows.
	Deny bool
	// Pattern is what the rule matches, in Claude Code's permission-rule
	// syntax ("Bash(go test:*)").
	Pattern string
	// Session keeps the rule to the asking agent's session; else it
	// stands for any agent in the project.
	Session bool
}

// RuleCover is what the rules would do with a permission once a rule is
// kept among them.
type RuleCover struct {
	// Covers reports that they would answer the permission as chosen,
	// with no one asked.
	Covers bool
	// Same is the number of the same rule already kept; 0 when the rule
	// is new.
	Same int
	// Against is the rule that would answer the permission the other way
	// (a deny rule, which wins over any allow); its Number is 0 when no
	// rule does.
	Against RuleEntry
	// Left are the parts of the call that no allow rule would cover, as
	// the agent wrote them (the commands of a command line, the files of
	// an edit), when the call has several parts and some are covered;
	// empty otherwise.
	Left []string
}

// RuleText is a rule, or a pattern, as written and in words.
type RuleText struct {
	// Line is the rule as written: a rules file's line
	// ("allow ~/src/app Bash(go test:*)"), or a pattern.
	Line string
	// Words says what it answers ("allow `go test` with any arguments,
	// from any agent, in ~/src/app").
	Words string
}

// RuleEntry is one rule of the rules, numbered.
type RuleEntry struct {
	// Number is the rule's place among the rules, from 1.
	Number int
	RuleText
	// Hits is how often it answered, and Last when it last did.
	Hits int
	Last time.Time
}

// RuleList is the rules, in order.
type RuleList struct {
	// Path is where they are kept.
	Path string
	// Rules are the rules, numbered from 1.
	Rules []RuleEntry
}

// The messages of the commands the rules pane and the remember dialog
// run: the program hands each back to the pane or dialog that asked.
type (
	// PlanMsg brings where a rule saved from request req's
	// permission would stand, and the patterns suggested, to the
	// remember dialog.
	PlanMsg struct {
		req  uint64
		plan RulePlan
		err  error
	}

	// CoverMsg says whether the rule of the remember dialog of
	// request req, as it stood at its change gen, covers the call.
	CoverMsg struct {
		req   uint64
		gen   int
		cover RuleCover
		err   error
	}

	// SavedMsg says what became of the rule the remember dialog saved.
	SavedMsg struct {
		Req      uint64    // the request the dialog is about
		Deny     bool      // a deny rule
		Entry    RuleEntry // the rule as the file holds it
		Added    bool      // false when the rule was already there
		Cover    RuleCover // whether the rules, with it, cover the call
		CoverErr error     // the rules cannot tell whether they cover it
		Err      error     // why the rule was not saved
	}

	// ListedMsg brings the rules to the rules pane, after what was
	// done to them (done says it, or err why it failed).
	ListedMsg struct {
		list    RuleList
		listErr error
		done    string
		err     error
	}
)
