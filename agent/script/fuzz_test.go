package script

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse feeds scenario files (YAML, which a user may hand to `asktui
// demo`) to Parse: it must never panic or hang, every failure must be a
// *ParseError with a message, and every scenario it accepts must hold
// only requests that validate, unique agent ids and well-formed steps.
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("scenarios", "*.yaml"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no scenario files to seed from: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file) //nolint:gosec // a path the test made, or its testdata
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		``,
		`agents: []`,
		`{"agents": [{"id": "a", "steps": [{"say": "hi"}]}]}`,
		"agents:\n  - id: a\n    steps:\n      - ask: {questions: [{id: q, question: Why?, options: [{label: Yes}, {label: No}]}], keys: [down, enter]}\n      - when: {id: q, label: Yes, then: [{say: \"yes {{answer.q}}\"}], else: [{wait: 1s}]}\n",
		"agents:\n  - id: a\n    steps:\n      - tool: {name: t, args: &x {a: [1, 2.5, null, true, .inf]}, result: r}\n      - tool: {name: t, args: *x}\n",
		"x-a: &a [*a]\nagents: *a\n",
		"agents:\n  - id: a\n    steps:\n      - withdraw: {after: 2s, ask: {questions: [{id: q, question: Q}]}}\n      - think: {for: -1s}\n",
		"a: b\n---\nc: d\n",
		"agents:\n  - id: a\n    steps: [{ask: {questions: [{id: q, question: Q, multi_select: yes}], keys: [\"pause:5ms\", \"text:up\", ctrl+x]}}]\n",
		"\t- [",
		"x-a: &a\u202eb hi\nagents: [{id: a, steps: [{say: *a\u202ec }]}]\n",
		"agents: [{id: a, steps: [{tool: {name: t, args: {\"\\e]52;c;aGk=\\a\": .inf}}}]}]\n",
	} {
		f.Add([]byte(s))
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := Parse("fuzz", data)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is a %T, want *ParseError", err, err)
			}
			if pe.Msg == "" || pe.Line < 0 || pe.Column < 0 {
				t.Fatalf("ParseError %+v: want a message and no negative position", pe)
			}
			if i := strings.IndexFunc(pe.Error(), unsafeRune); i >= 0 {
				t.Fatalf("message %q holds a raw control or bidi character at byte %d; quote it", pe.Error(), i)
			}
			return
		}
		if len(sc.Agents) == 0 {
			t.Fatal("accepted a scenario without agents")
		}
		ids := map[string]bool{}
		for _, s := range sc.Agents {
			if s.Agent.ID == "" || ids[s.Agent.ID] {
				t.Fatalf("agent id %q is empty or repeated", s.Agent.ID)
			}
			ids[s.Agent.ID] = true
			if len(s.Steps) == 0 {
				t.Fatalf("agent %q has no steps", s.Agent.ID)
			}
			agent := s.Agent
			walk(s.Steps, func(st *Step) {
				switch st.Kind {
				case StepAsk, StepWithdraw:
					req := st.Request
					req.Agent = &agent
					if err := req.Validate(); err != nil {
						t.Fatalf("agent %q line %d: accepted a request that Validate rejects: %v", agent.ID, st.Line, err)
					}
					for _, k := range st.Keys {
						if err := CheckKey(k); err != nil {
							t.Fatalf("agent %q line %d: accepted the key %q: %v", agent.ID, st.Line, k, err)
						}
					}
				case StepTool:
					if st.Args != "" && !json.Valid([]byte(st.Args)) {
						t.Fatalf("agent %q line %d: tool arguments %q are not JSON", agent.ID, st.Line, st.Args)
					}
				}
				if st.For < 0 {
					t.Fatalf("agent %q line %d: negative duration %v", agent.ID, st.Line, st.For)
				}
			})
		}
	})
}
