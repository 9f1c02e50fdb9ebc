package script

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
)

func TestBuiltinScenarios(t *testing.T) {
	all := Builtin()
	var names []string
	for _, sc := range all {
		names = append(names, sc.Name)
	}
	if want := []string{"deploy", "intro", "parallel", "setup"}; !slices.Equal(names, want) {
		t.Fatalf("builtin names = %v, want %v (sorted)", names, want)
	}
	for _, sc := range all {
		t.Run(sc.Name, func(t *testing.T) {
			if sc.Title == "" || sc.Description == "" {
				t.Errorf("title %q / description %q: both should be set", sc.Title, sc.Description)
			}
			for _, s := range sc.Agents {
				walk(s.Steps, func(st *Step) {
					if (st.Kind == StepAsk) && len(st.Keys) == 0 {
						t.Errorf("agent %q: the ask on line %d has no autoplay keys", s.Agent.ID, st.Line)
					}
				})
			}
		})
	}
	byName := map[string]*Scenario{}
	for _, sc := range all {
		byName[sc.Name] = sc
	}

	// deploy: one agent, one decision with a recommended option.
	deploy := byName["deploy"]
	if len(deploy.Agents) != 1 {
		t.Errorf("deploy has %d agents, want 1", len(deploy.Agents))
	}
	asks := collect(deploy, StepAsk)
	if len(asks) != 1 || !slices.ContainsFunc(asks[0].Request.Questions[0].Options,
		func(o interaction.Option) bool { return strings.Contains(o.Label, "(Recommended)") }) {
		t.Errorf("deploy should ask one question with a recommended option, got %+v", asks)
	}

	// setup: one batch of several questions, multi-select, descriptions
	// and keys that type an Other answer.
	setup := collect(byName["setup"], StepAsk)
	if len(setup) != 1 || len(setup[0].Request.Questions) < 3 {
		t.Fatalf("setup should ask one batch of several questions, got %d asks", len(setup))
	}
	var multi, described bool
	for _, q := range setup[0].Request.Questions {
		multi = multi || q.MultiSelect
		for _, o := range q.Options {
			described = described || o.Description != ""
		}
	}
	typed := slices.ContainsFunc(expand(setup[0].Keys), func(p press) bool { return p.typed })
	if !multi || !described || !typed {
		t.Errorf("setup: multi-select %v, descriptions %v, typed Other text %v; want all", multi, described, typed)
	}

	// parallel: two or three agents, one withdraws.
	par := byName["parallel"]
	if n := len(par.Agents); n < 2 || n > 3 {
		t.Errorf("parallel has %d agents, want 2 or 3", n)
	}
	if len(collect(par, StepWithdraw)) != 1 {
		t.Errorf("parallel should have one withdraw step")
	}

	// parallel, the recordings' demo, shows a rich question: a Markdown detail,
	// a preview on every option, and keys that write a note.
	var rich bool
	for _, st := range collect(par, StepAsk) {
		for _, q := range st.Request.Questions {
			previews := 0
			for _, o := range q.Options {
				if o.Preview != "" {
					previews++
				}
			}
			if strings.Contains(q.Detail, "|---|") && previews == len(q.Options) && slices.Contains(st.Keys, "n") {
				rich = true
			}
		}
	}
	if !rich {
		t.Errorf("parallel should ask a question with a detail holding a table, a preview per option and a note in its keys")
	}
}

// walk calls fn on every step, branches included.
func walk(steps []Step, fn func(*Step)) {
	for i := range steps {
		fn(&steps[i])
		walk(steps[i].Then, fn)
		walk(steps[i].Else, fn)
	}
}

// collect returns the steps of one kind in a scenario.
func collect(sc *Scenario, kind StepKind) []*Step {
	var out []*Step
	for _, s := range sc.Agents {
		walk(s.Steps, func(st *Step) {
			if st.Kind == kind {
				out = append(out, st)
			}
		})
	}
	return out
}

// fullSource uses every kind of step and most fields.
const fullSource = `
name: demo
title: "A title"
description: "Words"
agents:
  - id: a
    name: "Agent A"
    steps:
      - say: "hello"
      - think: 2s
      - think: {for: 1.5s, text: "pondering"}
      - tool: {name: grep, args: {pattern: "a<b", n: 3, deep: [true, null, 1.5]}, for: 800ms, result: "3 matches", failed: true}
      - ask:
          questions:
            - id: db
              question: "Which?"
              header: Storage
              options: [{label: "Yes", description: "d"}, No, 2]
              multi_select: true
          keys: ["down", "space", "hello world", "pause:300ms", "text:up", "enter"]
      - when: {id: db, label: "No", then: [{say: "no"}], else: [{wait: 1s}]}
      - withdraw: {after: 4s, ask: {questions: [{id: q2, question: "Still?"}]}}
      - when: {id: q2, withdrawn: true, then: [{say: "withdrawn"}]}
      - wait: 250ms
  - id: b
    steps: [{say: "b"}]
`

func TestParseFull(t *testing.T) {
	sc := mustParse(t, fullSource)
	if sc.Name != "demo" || sc.Title != "A title" || sc.Description != "Words" {
		t.Errorf("header = %q %q %q", sc.Name, sc.Title, sc.Description)
	}
	if got := sc.Agents[1].Agent; got != (interaction.Agent{ID: "b", Name: "b"}) {
		t.Errorf("agent b = %+v, want its name to default to its id", got)
	}
	steps := sc.Agents[0].Steps
	if sc.Agents[0].Agent != (interaction.Agent{ID: "a", Name: "Agent A"}) {
		t.Errorf("agent a = %+v", sc.Agents[0].Agent)
	}
	wantKinds := []StepKind{StepSay, StepThink, StepThink, StepTool, StepAsk, StepWhen, StepWithdraw, StepWhen, StepWait}
	for i, k := range wantKinds {
		if steps[i].Kind != k {
			t.Errorf("step %d kind = %s, want %s", i+1, steps[i].Kind, k)
		}
	}
	if steps[0].Line != 9 {
		t.Errorf("step 1 line = %d, want 9", steps[0].Line)
	}
	if steps[1].For != 2*time.Second || steps[1].Text != "" {
		t.Errorf("think shorthand = %v %q", steps[1].For, steps[1].Text)
	}
	if steps[2].For != 1500*time.Millisecond || steps[2].Text != "pondering" {
		t.Errorf("think = %v %q", steps[2].For, steps[2].Text)
	}
	tool := steps[3]
	if tool.Tool != "grep" || tool.Args != `{"pattern":"a<b","n":3,"deep":[true,null,1.5]}` ||
		tool.For != 800*time.Millisecond || tool.Result != "3 matches" || !tool.Failed {
		t.Errorf("tool = %+v", tool)
	}
	q := steps[4].Request.Questions[0]
	if q.ID != "db" || q.Header != "Storage" || !q.MultiSelect || len(q.Options) != 3 ||
		q.Options[0] != (interaction.Option{Label: "Yes", Description: "d"}) || q.Options[1].Label != "No" || q.Options[2].Label != "2" {
		t.Errorf("question = %+v", q)
	}
	if steps[4].Request.Agent != nil {
		t.Errorf("parsed request has an agent; the runner sets it")
	}
	if !slices.Equal(steps[4].Keys, []string{"down", "space", "hello world", "pause:300ms", "text:up", "enter"}) {
		t.Errorf("keys = %q", steps[4].Keys)
	}
	when := steps[5]
	if when.When != (Condition{ID: "db", Match: MatchLabel, Value: "No"}) || len(when.Then) != 1 || len(when.Else) != 1 {
		t.Errorf("when = %+v", when)
	}
	if w := steps[6]; w.For != 4*time.Second || w.Request.Questions[0].ID != "q2" {
		t.Errorf("withdraw = %+v", w)
	}
	if steps[7].When != (Condition{ID: "q2", Match: MatchWithdrawn}) {
		t.Errorf("when withdrawn = %+v", steps[7].When)
	}
}

func TestParseJSON(t *testing.T) {
	sc := mustParse(t, `{"name": "j", "agents": [{"id": "a", "steps": [
		{"say": "hi"},
		{"ask": {"questions": [{"id": "x", "question": "Why?", "multiSelect": true, "options": [{"label": "A"}, {"label": "B"}]}]}},
		{"when": {"id": "x", "custom": "because", "then": [{"wait": "1s"}]}}
	]}]}`)
	st := sc.Agents[0].Steps
	if len(st) != 3 || !st[1].Request.Questions[0].MultiSelect || st[2].When != (Condition{ID: "x", Match: MatchCustom, Value: "because"}) {
		t.Errorf("steps = %+v", st)
	}
}

func TestParseNameDefaults(t *testing.T) {
	sc := mustParse(t, "agents: [{id: a, steps: [{say: hi}]}]")
	if sc.Name != "test" {
		t.Errorf("Parse name = %q, want the name argument", sc.Name)
	}
	path := filepath.Join(t.TempDir(), "mine.yml")
	if err := os.WriteFile(path, []byte("agents: [{id: a, steps: [{say: hi}]}]"), 0o600); err != nil {
		t.Fatal(err)
	}
	sc, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Name != "mine" {
		t.Errorf("Load name = %q, want the file's base name", sc.Name)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(filepath.Join(dir, "missing.yaml")); !errors.Is(err, os.ErrNotExist) ||
		!strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("Load(missing) = %v, want a not-exist error naming the file", err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("agents:\n  - id: a\n    steps:\n      - wait: 2x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(bad)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 4 || !strings.Contains(err.Error(), bad) {
		t.Errorf("Load(bad) = %v, want a ParseError on line 4 naming the file", err)
	}
}

func TestLookup(t *testing.T) {
	sc, err := Lookup("deploy")
	if err != nil || sc.Name != "deploy" {
		t.Fatalf("Lookup(deploy) = %v, %v", sc, err)
	}
	path := filepath.Join(t.TempDir(), "own.yaml")
	if err := os.WriteFile(path, []byte("name: own\nagents: [{id: a, steps: [{say: hi}]}]"), 0o600); err != nil {
		t.Fatal(err)
	}
	if sc, err := Lookup(path); err != nil || sc.Name != "own" {
		t.Errorf("Lookup(file) = %v, %v", sc, err)
	}
	_, err = Lookup("nope")
	if err == nil {
		t.Fatal("Lookup(nope) succeeded")
	}
	for _, want := range []string{`"nope"`, "deploy", "parallel", "setup"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Lookup(nope) error %q does not mention %s", err, want)
		}
	}
	// The copies are independent.
	a, _ := Lookup("deploy")
	a.Agents[0].Steps = nil
	if b, _ := Lookup("deploy"); len(b.Agents[0].Steps) == 0 {
		t.Error("modifying one looked-up scenario changed another")
	}
}

const head = "name: setup\nagents:\n  - id: scaffold\n    steps:\n"

var parseErrorTests = []struct {
	name string
	src  string
	line int      // 0: do not check
	want []string // substrings of the message
}{
	{"bad tool duration", head + `      - say: hi
      - think: 1s
      - tool: {name: grep, for: 2x}
`, 7, []string{`scenario "setup": line 7: agent "scaffold" step 3 (tool): "for": invalid duration "2x"`}},
	{"unknown step key", head + "      - sya: hi\n", 5,
		[]string{`agent "scaffold" step 1: unknown key "sya" (did you mean "say"?)`}},
	{"two actions", head + "      - say: hi\n        wait: 1s\n", 6,
		[]string{`agent "scaffold" step 1: has both "say" and "wait"`}},
	{"no action", head + "      - {}\n", 5, []string{`agent "scaffold" step 1: has no action`}},
	{"step not a mapping", head + "      - say hi\n", 5, []string{`agent "scaffold" step 1: must be a mapping`, "not text"}},
	{"bare integer duration", head + "      - wait: 2\n", 5,
		[]string{`step 1 (wait): invalid duration "2"; add a unit, as in "2s"`}},
	{"think shorthand", head + "      - think: soon\n", 5, []string{`step 1 (think): invalid duration "soon"`}},
	{"think without for", head + "      - think: {text: hmm}\n", 5, []string{`step 1 (think): has no "for"`}},
	{"negative duration", head + "      - wait: -1s\n", 5, []string{`step 1 (wait): duration "-1s" is negative`}},
	{"unknown tool key", head + "      - tool: {name: x, timeout: 1s}\n", 5,
		[]string{`step 1 (tool): unknown key "timeout"`, `"name", "args", "for", "result" or "failed"`}},
	{"tool without name", head + "      - tool: {for: 1s}\n", 5, []string{`step 1 (tool): has no "name"`}},
	{"tool failed not bool", head + "      - tool: {name: x, failed: sometimes}\n", 5,
		[]string{`step 1 (tool): "failed": must be true or false, not text`}},
	{"invalid request", head + `      - say: first
      - ask:
          questions:
            - id: db
              question: "Which?"
              options: [{label: "A"}, {label: ""}]
`, 8, []string{`agent "scaffold" step 2 (ask): question 1 (id "db"): option 2 has an empty label`}},
	{"empty questions", head + "      - ask: {questions: []}\n", 5,
		[]string{`step 1 (ask): the request has no questions`}},
	{"ask without questions", head + "      - ask: {keys: [enter]}\n", 5, []string{`step 1 (ask): has no "questions"`}},
	{"question field type", head + "      - ask: {questions: [{id: a, question: q, options: {label: x}}]}\n", 5,
		[]string{`step 1 (ask): question 1: "options": must be a list of options, not a mapping`}},
	{"unknown question key", head + "      - ask: {questions: [{id: a, question: q, multiselect: true}]}\n", 5,
		[]string{`step 1 (ask): question 1: unknown key "multiselect" (did you mean "multiSelect"?)`}},
	{"bad key name", head + "      - ask: {questions: [{id: a, question: q}], keys: [down, ctrl+x]}\n", 5,
		[]string{`step 1 (ask): "keys": key 2: "ctrl+x" is not a known key name`}},
	{"mistaken key name", head + "      - ask: {questions: [{id: a, question: q}], keys: [escape]}\n", 5,
		[]string{`"keys": key 1: "escape" is not a key name here; write "esc"`}},
	{"bad pause", head + "      - ask: {questions: [{id: a, question: q}], keys: [\"pause:soon\"]}\n", 5,
		[]string{`"keys": key 1: "pause:soon" is not a valid pause`}},
	{"when unknown id", head + `      - ask: {questions: [{id: db, question: q}]}
      - when: {id: dbb, custom: true, then: [{say: x}]}
`, 6, []string{`agent "scaffold" step 2 (when): "id": no earlier ask of agent "scaffold" has a question with id "dbb"; ids asked before this step: "db"`}},
	{"when before any ask", head + "      - when: {id: db, skipped: true, then: [{say: x}]}\n", 5,
		[]string{`step 1 (when): "id": no earlier ask`, "it has asked nothing before this step"}},
	{"when on another agent's id", `agents:
  - id: a
    steps: [{ask: {questions: [{id: db, question: q}]}}]
  - id: b
    steps: [{when: {id: db, skipped: true, then: [{say: x}]}}]
`, 5, []string{`agent "b" step 1 (when): "id": no earlier ask of agent "b"`}},
	{"when label not an option", head + `      - ask: {questions: [{id: db, question: q, options: [Yes, No]}]}
      - when: {id: db, label: Maybe, then: [{say: x}]}
`, 6, []string{`step 2 (when): "label": "Maybe" is not an option of question "db"; its labels are "Yes", "No"`}},
	{"when two conditions", head + `      - ask: {questions: [{id: db, question: q}]}
      - when: {id: db, skipped: true, declined: true, then: [{say: x}]}
`, 6, []string{`step 2 (when): has both "skipped" and "declined"`}},
	{"when no condition", head + `      - ask: {questions: [{id: db, question: q}]}
      - when: {id: db, then: [{say: x}]}
`, 6, []string{`step 2 (when): has no condition`}},
	{"when no branches", head + `      - ask: {questions: [{id: db, question: q}]}
      - when: {id: db, skipped: true}
`, 6, []string{`step 2 (when): has neither "then" nor "else"`}},
	{"when custom false", head + `      - ask: {questions: [{id: db, question: q}]}
      - when: {id: db, custom: false, then: [{say: x}]}
`, 6, []string{`step 2 (when): "custom": custom: false matches nothing`}},
	{"error inside a branch", head + `      - ask: {questions: [{id: db, question: q}]}
      - when:
          id: db
          skipped: true
          then:
            - say: ok
            - tool: {name: x, for: 1y}
`, 11, []string{`agent "scaffold" step 2 (when) then step 2 (tool): "for": invalid duration "1y"`}},
	{"withdraw without after", head + "      - withdraw: {ask: {questions: [{id: a, question: q}]}}\n", 5,
		[]string{`step 1 (withdraw): has no "after"`}},
	{"withdraw bad ask", head + "      - withdraw: {after: 1s, ask: {questions: [{id: a}]}}\n", 5,
		[]string{`step 1 (withdraw): "ask": question 1 (id "a"): the "question" text is empty`}},
	{"unknown answer reference", head + "      - say: \"Using {{answer.db}}\"\n", 5,
		[]string{`step 1 (say): {{answer.db}} refers to question "db"`}},
	{"empty agents", "name: setup\nagents: []\n", 2, []string{`"agents": is empty`}},
	{"no agents", "name: setup\ntitle: x\n", 1, []string{`no "agents"`}},
	{"agent without id", "agents:\n  - name: x\n    steps: [{say: hi}]\n", 2, []string{`agent 1: has no "id"`}},
	{"agent without steps", "agents:\n  - id: a\n", 2, []string{`agent "a": has no "steps"`}},
	{"agent empty steps", "agents:\n  - id: a\n    steps: []\n", 3, []string{`agent "a": "steps": is empty`}},
	{"duplicate agent ids", "agents:\n  - id: a\n    steps: [{say: hi}]\n  - id: a\n    steps: [{say: hi}]\n", 4,
		[]string{`agent 2 (id "a"): agent 1 already has this id`}},
	{"unknown top key", "name: x\nagent: []\n", 2, []string{`the top level: unknown key "agent" (did you mean "agents"?)`}},
	{"bad name", "name: two words\nagents: [{id: a, steps: [{say: hi}]}]\n", 1, []string{`"name": "two words" is not a usable name`}},
	{"syntax error", "agents:\n  - id: a\n    steps: [{say: hi}\n", 0, []string{"invalid YAML"}},
	{"syntax error in JSON", "{\"agents\": [\n  {\"id\": \"a\",, \"steps\": []}\n]}\n", 2, []string{"invalid YAML"}},
	{"two documents", "agents: [{id: a, steps: [{say: hi}]}]\n---\nagents: []\n", 3, []string{"2 YAML documents"}},
	{"empty file", "# nothing\n", 0, []string{"the file is empty"}},
	{"unknown alias", "agents: [{id: a, steps: [{say: *nope}]}]\n", 1,
		[]string{`agent "a" step 1 (say): alias "*nope" refers to no anchor "&nope"`}},
	{"alias before its anchor", "agents:\n  - id: a\n    steps:\n      - say: hi\n      - say: *later\n      - say: &later x\n", 5,
		[]string{`agent "a" step 2 (say): invalid YAML: could not find alias "later"`}},
	{"alias inside its anchor", "x-loop: &l [*l]\nagents: [{id: a, steps: [{say: hi}]}]\n", 1,
		[]string{`"x-loop": alias "*l" is inside the anchor "&l" it refers to`}},
	{"anchor on an alias to itself", "x-a: &a\n*a\nagents: [{id: a, steps: [{say: hi}]}]\n", 2,
		[]string{`"x-a": alias "*a" is inside the anchor "&a" it refers to`}},
	{"alias in a branch", head + "      - ask: {questions: [{id: q, question: Q}]}\n      - when: {id: q, skipped: true, then: [{tool: {name: t, args: *gone}}]}\n", 6,
		[]string{`agent "scaffold" step 2 (when) then step 1 (tool): "args": alias "*gone" refers to no anchor "&gone"`}},
	{"billion laughs", "x-a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\nx-b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n" +
		"x-c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nx-d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n" +
		"x-e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nagents: [{id: a, steps: [{tool: {name: t, args: *e}}]}]\n", 5,
		[]string{"more than 10000 alias expansions"}},
	{"null think", head + "      - think:\n", 5, []string{`step 1 (think): must be a mapping with the keys "for" or "text", not nothing`}},
	{"null say", head + "      - say:\n", 5, []string{`step 1 (say): is empty; write some text`}},
	{"null step", head + "      -\n", 5, []string{`agent "scaffold" step 1: must be a mapping with the keys "say", "think"`, "not nothing"}},
	{"null option", head + "      - ask: {questions: [{id: a, question: q, options: [A, ~]}]}\n", 5,
		[]string{`question 1: "options": option 2: must be a mapping with the keys "label", "description" or "preview", not nothing`}},
	{"null key", head + "      - ask: {questions: [{id: a, question: q}], keys: [enter, ~]}\n", 5,
		[]string{`"keys": key 2: is empty; write some text`}},
	{"schema before semantics", head + "      - when: {id: nope, skipped: true, then: [{say: hi, bogus: 1}]}\n", 5,
		[]string{`step 1 (when) then step 1: unknown key "bogus"`}},
	{"duplicate key", head + "      - tool: {name: a, name: b}\n", 5, []string{"invalid YAML", `"name"`}},
	{"merge key", "x-base: &b {id: a}\nagents: [{<<: *b, steps: [{say: hi}]}]\n", 2, []string{`agent 1: merge keys (<<) are not supported`}},
	{"option not text", head + "      - ask: {questions: [{id: a, question: q, options: [{label: [x]}]}]}\n", 5,
		[]string{`step 1 (ask): question 1: "options": option 1: "label": must be text, not a list`}},
}

func TestParseErrors(t *testing.T) {
	tests := parseErrorTests
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := Parse("setup", []byte(tt.src))
			if err == nil {
				t.Fatalf("Parse succeeded: %+v", sc)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T %v is not a *ParseError", err, err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, `scenario "setup": `) {
				t.Errorf("message %q does not start with the scenario", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q\n  does not contain %q", msg, w)
				}
			}
			if tt.line != 0 && pe.Line != tt.line {
				t.Errorf("line = %d, want %d (message %q)", pe.Line, tt.line, msg)
			}
		})
	}
}

func TestParseErrorUnwrap(t *testing.T) {
	_, err := Parse("s", []byte("agents: [\n"))
	var pe *ParseError
	if !errors.As(err, &pe) || errors.Unwrap(pe) == nil || pe.Line == 0 {
		t.Errorf("syntax error %#v should carry the YAML error and its line", err)
	}
}

func TestParseAnchors(t *testing.T) {
	sc := mustParse(t, `
x-shared: &q {id: db, question: "Which?", options: [A, B]}
agents:
  - id: a
    steps:
      - ask: {questions: [*q]}
      - when: {id: db, label: B, then: [{say: b}]}
      - ask: {questions: [*q, {id: more, question: "More?"}]}
`)
	st := sc.Agents[0].Steps
	if q := st[2].Request.Questions; len(q) != 2 || q[0].ID != "db" || len(q[0].Options) != 2 {
		t.Errorf("questions through an alias = %+v", q)
	}
}

func TestParseRequestErrorLine(t *testing.T) {
	_, err := Parse("s", []byte(`agents:
  - id: a
    steps:
      - ask:
          questions:
            - {id: one, question: "First?"}
            - {id: two, question: "Second?"}
            - {id: one, question: "Third?"}
`))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 8 || !strings.Contains(err.Error(), `questions 1 and 3 share the id "one"`) {
		t.Errorf("err = %v, want the duplicate id reported on line 8", err)
	}
}

// TestParseErrorsQuoteEscapes: names taken from the file (alias names,
// tool-argument keys, keys, ids) appear %q-quoted in messages, so a
// message never replays an escape sequence on the terminal showing it.
func TestParseErrorsQuoteEscapes(t *testing.T) {
	tests := []struct{ src, want string }{
		{"x-a: &a\u202eb hi\nagents: [{id: a, steps: [{say: *a\u202ec }]}]\n",
			`alias "*a\u202ec" refers to no anchor "&a\u202ec"`},
		{"agents: [{id: a, steps: [{tool: {name: t, args: {\"\\e]52;c;aGk=\\a\": .inf}}}]}]\n",
			`"args"["\x1b]52;c;aGk=\a"]: .inf cannot be written as JSON`},
		{"agents: [{id: a, steps: [{tool: {name: t, args: {k: [{\"\u202e\": .nan}]}}}]}]\n",
			`"args".k[0]["\u202e"]: .nan cannot be written as JSON`},
		{"agents: [{id: a, steps: [{\"\\e[31m\": x}]}]\n", `unknown key "\x1b[31m"`},
		{"agents: [{id: \"a\\e\", steps: [x]}]\n", `agent "a\x1b" step 1`},
	}
	for _, tt := range tests {
		_, err := Parse("s", []byte(tt.src))
		if err == nil {
			t.Fatalf("Parse(%q) succeeded", tt.src)
		}
		msg := err.Error()
		if i := strings.IndexFunc(msg, unsafeRune); i >= 0 || !strings.Contains(msg, tt.want) {
			t.Errorf("Parse(%q) = %q\n  want it to contain %s and no raw escapes", tt.src, msg, tt.want)
		}
	}
	if got := inert("a\x1b[31m\u202eb\u009b"); got != `a\x1b[31m\u202eb\u009b` {
		t.Errorf("inert = %q", got)
	}
}

// TestParseRichQuestions: a question's Markdown detail and an option's
// preview reach the request (issue 12), and their limits are the
// request's.
func TestParseRichQuestions(t *testing.T) {
	sc := mustParse(t, `
agents:
  - id: a
    steps:
      - ask:
          questions:
            - id: plan
              question: "Apply this plan?"
              detail: |
                ## Plan
                | step | what |
                |---|---|
                | 1 | migrate |
              options:
                - label: Apply
                  description: "Run it now"
                  preview: |
                    `+"```go"+`
                    db.Migrate(ctx)
                    `+"```"+`
                - Cancel
`)
	q := sc.Agents[0].Steps[0].Request.Questions[0]
	if !strings.HasPrefix(q.Detail, "## Plan\n| step | what |") || !strings.Contains(q.Options[0].Preview, "db.Migrate(ctx)") ||
		q.Options[0].Description != "Run it now" || q.Options[1] != (interaction.Option{Label: "Cancel"}) {
		t.Errorf("question = %+v", q)
	}
	big := strings.Repeat("x", interaction.MaxDetailLen+1)
	_, err := Parse("s", []byte("agents: [{id: a, steps: [{ask: {questions: [{id: q, question: Q, detail: "+big+"}]}}]}]"))
	if err == nil || !strings.Contains(err.Error(), `question 1 (id "q"): the "detail"`) {
		t.Errorf("over-long detail: %v", err)
	}
	_, err = Parse("s", []byte("agents: [{id: a, steps: [{ask: {questions: [{id: q, question: Q, options: [{label: A, preview: [x]}]}]}}]}]"))
	if err == nil || !strings.Contains(err.Error(), `question 1: "options": option 1: "preview": must be text, not a list`) {
		t.Errorf("preview not text: %v", err)
	}
}
