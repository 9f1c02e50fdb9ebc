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
// leaves Options.Rules nil. The methods and the types below are
// documented where the screen's rooms define them, in
// tui/internal/rulebook.
type Rules = rulebook.Rules

// RulePlan is where a rule saved from a permission would stand, and what
// it could match.
type RulePlan = rulebook.RulePlan

// RuleChoice is what the human chose in the remember dialog.
type RuleChoice = rulebook.RuleChoice

// RuleCover is what the rules would do with a permission once a rule is
// kept among them.
type RuleCover = rulebook.RuleCover

// RuleText is a rule, or a pattern, as written and in words.
type RuleText = rulebook.RuleText

// RuleEntry is one rule of the rules, numbered.
type RuleEntry = rulebook.RuleEntry

// RuleList is the rules, in order.
type RuleList = rulebook.RuleList
