package tui

import "github.com/asktui/asktui/tui/internal/rulebook"

// Rules keeps the human's standing answers to permission requests (see
// docs/rules.md) for the screen. With [Options.Rules] set, the human can
// answer a permission once and for all from its question (a rule is
// saved, then the question is answered as its allow-once or deny-once
// option would be), and a pane lists, edits and removes the rules.
//
// Plan, Save, List, Remove and Replace may read and write files: the
// program calls them in commands, off its event loop, one at a time.
// Cover reads the rules too, in a command as the human types: it may run
// beside another Cover or one of those. Describe and Check must read
// nothing: the program calls them as the human types. asktui's command
// line implements Rules over its rules file; a program without one
// leaves Options.Rules nil.
//
// Its methods, each documented in full where the screen's rooms define
// them (tui/internal/rulebook):
//
//	Plan(p *interaction.Permission) (RulePlan, error)          // where a rule from p would stand, patterns suggested
//	Describe(plan RulePlan, c RuleChoice) (RuleText, error)    // the rule c makes, in words (reads nothing)
//	Save(p *interaction.Permission, c RuleChoice) (RuleEntry, bool, error) // add it; false when already there
//	Cover(p *interaction.Permission, c RuleChoice) (RuleCover, error)      // would the rules, with it, answer p as c chooses
//	List() (RuleList, error)                                   // the rules, with their hits
//	Check(line string) (RuleText, error)                       // a rule line in words (reads nothing)
//	Remove(n int, line string) error                           // remove rule n while its line is still line
//	Replace(n int, old, line string) (RuleEntry, error)        // put line in place of rule n, keeping its number
type Rules = rulebook.Rules

// RulePlan is where a rule saved from a permission would stand, and what
// it could match: Dir, the project directory as the rule writes it
// ("~/src/app"); Session, the asking agent's session (empty when the
// permission names none); Suggestions, the patterns offered, narrowest
// first.
type RulePlan = rulebook.RulePlan

// RuleChoice is what the human chose in the remember dialog: Deny (else
// the rule allows), Pattern in Claude Code's permission-rule syntax
// ("Bash(go test:*)"), and Session (the rule stands only for the asking
// agent's session; else for any agent in the project).
type RuleChoice = rulebook.RuleChoice

// RuleCover is what the rules would do with a permission once a rule is
// kept among them: Covers (they would answer it as chosen), Same (the
// number of the same rule already kept, or 0), Against (a deny rule that
// would answer it the other way; Number 0 when none does) and Left (the
// parts of the call no allow rule would cover).
type RuleCover = rulebook.RuleCover

// RuleText is a rule, or a pattern, as written (Line: a rules file's
// line, "allow ~/src/app Bash(go test:*)", or a pattern) and in words
// (Words: "allow `go test` with any arguments, from any agent, in
// ~/src/app").
type RuleText = rulebook.RuleText

// RuleEntry is one rule of the rules: its Number from 1, its RuleText,
// and how often it answered (Hits) and when it last did (Last).
type RuleEntry = rulebook.RuleEntry

// RuleList is the rules, in order (Rules), and the file they are kept in
// (Path).
type RuleList = rulebook.RuleList
