package script

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/asktui/asktui/interaction"
)

// Scenario is a parsed scenario: one or more scripted agents that run
// concurrently. Build one with [Parse], [Load], [Lookup] or [Builtin].
type Scenario struct {
	// Name is the short name used on the command line.
	Name string
	// Title is a one-line summary; Description says more. Both may be
	// empty.
	Title, Description string
	// Agents are the scripted agents, in file order. Their ids are unique.
	Agents []Script
}

// Script is one scripted agent of a [Scenario]: who it is and what it does.
type Script struct {
	// Agent is the identity on every activity and request of the script.
	// Its Name defaults to its ID.
	Agent interaction.Agent
	// Steps run in order.
	Steps []Step
}

// StepKind names what a [Step] does.
type StepKind string

// The kinds of step.
const (
	// StepSay reports a message (Markdown allowed).
	StepSay StepKind = "say"
	// StepThink reports thinking for a while, then idle.
	StepThink StepKind = "think"
	// StepTool reports a tool call and, after a while, its result.
	StepTool StepKind = "tool"
	// StepAsk asks the human and remembers the answer.
	StepAsk StepKind = "ask"
	// StepWhen branches on a remembered answer.
	StepWhen StepKind = "when"
	// StepWithdraw asks and withdraws the question after a delay unless
	// it was answered by then.
	StepWithdraw StepKind = "withdraw"
	// StepWait does nothing for a while.
	StepWait StepKind = "wait"
)

// Step is one step of a [Script]. Which fields matter depends on Kind.
type Step struct {
	// Kind says what the step does.
	Kind StepKind
	// Line is the step's line in the scenario file, 0 when unknown.
	Line int

	// Text is the message of a say step and the note of a think step. It
	// may refer to remembered answers as {{answer.ID}}.
	Text string
	// For is how long a think, tool or wait step lasts, and how long a
	// withdraw step waits before withdrawing its question.
	For time.Duration

	// Tool names the tool of a tool step; Args are its arguments as
	// compact JSON ("" when none); Result is the result text and Failed
	// marks a failed call. Args and Result may refer to {{answer.ID}}.
	Tool, Args, Result string
	Failed             bool

	// Request is what an ask or withdraw step asks. Its Agent is nil: the
	// runner sets it to the script's agent.
	Request interaction.Request
	// Keys are the human's keystrokes for an ask or withdraw step when
	// autoplaying (see [Player]); they may be empty.
	Keys []string

	// When is the condition of a when step; Then runs when it holds and
	// Else otherwise.
	When       Condition
	Then, Else []Step
}

// Match names what a [Condition] tests.
type Match string

// The forms of condition.
const (
	// MatchLabel holds when the question was answered by selecting the
	// label Condition.Value (among others, for multi-select).
	MatchLabel Match = "label"
	// MatchCustom holds when the question was answered with custom text:
	// any text when Condition.Value is empty, else exactly Value.
	MatchCustom Match = "custom"
	// MatchSkipped holds when the request was answered but the question
	// skipped.
	MatchSkipped Match = "skipped"
	// MatchDeclined holds when the human declined the request
	// (ASK_DECLINED).
	MatchDeclined Match = "declined"
	// MatchWithdrawn holds when the agent withdrew the request before it
	// was answered.
	MatchWithdrawn Match = "withdrawn"
)

// Condition is the test of a when step on the latest answer to one
// question of the same agent.
type Condition struct {
	// ID is the question id.
	ID string
	// Match says what to test; Value is its label or custom text.
	Match Match
	Value string
}

// ParseError is a problem in a scenario file. Its message names the
// scenario, the line when known, and the place, as in
//
//	scenario "setup": line 12: agent "scaffold" step 3 (tool): "for": invalid duration "2x"; ...
type ParseError struct {
	// Scenario is the name or path the scenario was parsed under.
	Scenario string
	// Line and Column locate the problem in the file (from 1), or are 0
	// when unknown.
	Line, Column int
	// Msg names the place within the scenario and the problem.
	Msg string
	// Err is the underlying error, if any (such as a YAML syntax error).
	Err error
}

// Error returns the message with the scenario and line in front.
func (e *ParseError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "scenario %q: ", e.Scenario)
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// Parse parses a scenario in YAML (or JSON, which is YAML too). name labels
// error messages and is the scenario's name when the file sets none. Every
// problem is reported as a *[ParseError] naming the agent, step and field,
// and the line when known.
func Parse(name string, data []byte) (*Scenario, error) {
	sc, _, err := parse(name, data)
	return sc, err
}

// Load reads and parses the scenario file at path. Errors name the file;
// the scenario's name defaults to the file's base name without extension.
// A file over [MaxFileBytes] is refused without reading it all.
func Load(path string) (*Scenario, error) {
	data, err := readScenario(path)
	if err != nil {
		return nil, fmt.Errorf("scenario %q: %w", path, err)
	}
	sc, named, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	if !named {
		base := filepath.Base(path)
		sc.Name = strings.TrimSuffix(base, filepath.Ext(base))
	}
	return sc, nil
}
