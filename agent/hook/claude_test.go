package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"go.uber.org/goleak"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// humanView is a view of a real inbox that answers each request as the
// test's script says, like a human at the terminal.
type humanView struct {
	mu     sync.Mutex
	answer func(*inbox.Request) (interaction.Answer, bool) // false: decline
	seen   []*inbox.Request
	h      *inbox.Handle
	jobs   chan *inbox.Request
}

func (v *humanView) Notify(e inbox.Event) {
	if e.Kind == inbox.Arrived {
		v.jobs <- e.Request
	}
}

func (v *humanView) run() {
	for r := range v.jobs {
		v.mu.Lock()
		v.seen = append(v.seen, r)
		v.mu.Unlock()
		if a, ok := v.answer(r); ok {
			v.h.Answer(r.ID, a)
		} else {
			v.h.Decline(r.ID)
		}
	}
}

// withInbox runs the hook against a real inbox, answered by answer.
func withInbox(t *testing.T, handle func(context.Context, Input, Asker) ([]byte, error), in Input, answer func(*inbox.Request) (interaction.Answer, bool)) ([]byte, []*inbox.Request, error) {
	t.Helper()
	box := inbox.New(nil)
	v := &humanView{answer: answer, jobs: make(chan *inbox.Request, 4)}
	v.h = box.Attach("test", v)
	done := make(chan struct{})
	go func() { v.run(); close(done) }()
	svc := interaction.NewService()
	unregister, err := svc.Register(box)
	if err != nil {
		t.Fatal(err)
	}
	out, herr := handle(context.Background(), in, svc.Ask)
	unregister()
	box.Close()
	close(v.jobs)
	<-done
	return out, v.seen, herr
}

// fixture reads testdata/<cli>/in/<name>.json.
func fixture(t *testing.T, cli, name string) Input {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", cli, "in", name+".json")) //nolint:gosec // a path the test made, or its testdata
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in, err := Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func item(id string, selected ...string) interaction.AnswerItem {
	return interaction.AnswerItem{ID: id, Selected: selected}
}

func TestClaudeRoundTrips(t *testing.T) {
	cases := []struct {
		name    string
		fixture string
		answer  []interaction.AnswerItem // nil declines
		check   func(t *testing.T, reqs []*inbox.Request)
	}{
		{name: "single", fixture: "single", answer: []interaction.AnswerItem{item("q1", "Svelte")},
			check: func(t *testing.T, reqs []*inbox.Request) {
				r := reqs[0].Request
				if r.Agent.Name != "Claude Code · shop" || r.Questions[0].Options[1].Description != "Smallest" {
					t.Fatalf("request %+v", r)
				}
			}},
		{name: "single-custom-note", fixture: "single", answer: []interaction.AnswerItem{{ID: "q1", Selected: []string{}, Custom: "Solid", Note: "we tried React"}}},
		{name: "multi", fixture: "multi", answer: []interaction.AnswerItem{item("q1", "Introduction", "Setup, install", `Say "hi"`)}},
		{name: "mixed", fixture: "mixed", answer: []interaction.AnswerItem{
			{ID: "q1", Selected: []string{"Postgres"}, Note: "managed only"}, item("q2", "Tests", "Lint"), item("q3"), item("q4", "No")},
			check: func(t *testing.T, reqs []*inbox.Request) {
				r := reqs[0].Request
				if r.Agent.Name != "Claude Code · shop · planner" || !strings.Contains(r.Questions[0].Options[0].Preview, "CREATE TABLE") || !r.Questions[1].MultiSelect {
					t.Fatalf("request %+v", r)
				}
			}},
		{name: "declined", fixture: "single"},
		{name: "bash-once", fixture: "bash", answer: []interaction.AnswerItem{item("permission", "Allow once")},
			check: func(t *testing.T, reqs []*inbox.Request) {
				q := reqs[0].Request.Questions[0]
				if !strings.Contains(q.Detail, "rm -rf node_modules") || len(q.Options) != 3 || !strings.Contains(q.Options[2].Label, "Always allow Bash(rm -rf node_modules)") {
					t.Fatalf("question %+v", q)
				}
			}},
		{name: "bash-always", fixture: "bash", answer: []interaction.AnswerItem{item("permission", "Always allow Bash(rm -rf node_modules)")}},
		{name: "bash-deny-note", fixture: "bash", answer: []interaction.AnswerItem{{ID: "permission", Selected: []string{"Deny"}, Note: "keep the cache"}}},
		{name: "bash-instead", fixture: "bash", answer: []interaction.AnswerItem{{ID: "permission", Selected: []string{}, Custom: "run npm ci instead"}}},
		{name: "bash-declined", fixture: "bash"},
		// Typed text with a note: both reach Claude.
		{name: "bash-instead-note", fixture: "bash", answer: []interaction.AnswerItem{{ID: "permission", Selected: []string{}, Custom: "run npm ci instead", Note: "the lockfile is current"}}},
		// Captured from Claude Code 2.1.332: no tool_use_id, a transcript_path.
		{name: "bash-2.1.332", fixture: "bash-2.1.332", answer: []interaction.AnswerItem{item("permission", "Allow once")},
			check: func(t *testing.T, reqs []*inbox.Request) {
				q := reqs[0].Request.Questions[0]
				if q.Question != "Allow Claude Code to use `Bash`?" || !strings.Contains(q.Detail, "echo hi > /tmp/hooks/proj/ran.txt") ||
					len(q.Options) != 3 || q.Options[2].Label != "Allow /tmp/hooks/proj" {
					t.Fatalf("question %+v", q)
				}
			}},
		{name: "edit-mode", fixture: "edit", answer: []interaction.AnswerItem{item("permission", "Switch to acceptEdits mode")},
			check: func(t *testing.T, reqs []*inbox.Request) {
				r := reqs[0].Request
				if r.Agent.Name != "Claude Code · shop · security-reviewer" || !strings.Contains(r.Questions[0].Detail, "```diff") {
					t.Fatalf("request %+v", r)
				}
			}},
		{name: "plan", fixture: "plan", answer: []interaction.AnswerItem{item("permission", "Allow once")},
			check: func(t *testing.T, reqs []*inbox.Request) {
				if d := reqs[0].Request.Questions[0].Detail; !strings.HasPrefix(d, "## Plan") {
					t.Fatalf("detail %q", d)
				}
			}},
		{name: "mcp", fixture: "mcp", answer: []interaction.AnswerItem{item("permission", "Allow once")},
			check: func(t *testing.T, reqs []*inbox.Request) {
				if q := reqs[0].Request.Questions[0]; q.Header != "github: create_issue" || len(q.Options) != 2 {
					t.Fatalf("question %+v", q)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, reqs, err := withInbox(t, HandleClaude, fixture(t, "claude", c.fixture), func(*inbox.Request) (interaction.Answer, bool) {
				return interaction.Answer{Answers: c.answer}, c.answer != nil
			})
			if err != nil {
				t.Fatalf("Handle: %v", err)
			}
			if len(reqs) != 1 {
				t.Fatalf("%d requests reached the inbox", len(reqs))
			}
			if c.check != nil {
				c.check(t, reqs)
			}
			if !json.Valid(out) || !bytes.HasPrefix(out, []byte("{")) {
				t.Fatalf("output is not one JSON object: %q", out)
			}
			golden.RequireEqual(t, out)
		})
	}
}

// The original input survives in updatedInput: its metadata and any field
// asktui does not know, beside the answers.
func TestUpdatedInputKeepsTheOriginal(t *testing.T) {
	out, _, err := withInbox(t, HandleClaude, fixture(t, "claude", "single"), func(*inbox.Request) (interaction.Answer, bool) {
		return interaction.Answer{Answers: []interaction.AnswerItem{item("q1", "React")}}, true
	})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		HookSpecificOutput struct {
			PermissionDecision string `json:"permissionDecision"`
			UpdatedInput       struct {
				Questions []askQuestion       `json:"questions"`
				Answers   map[string]string   `json:"answers"`
				Metadata  map[string]string   `json:"metadata"`
				Other     map[string]any      `json:"-"`
				Notes     map[string]struct{} `json:"annotations"`
			} `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	u := got.HookSpecificOutput.UpdatedInput
	if got.HookSpecificOutput.PermissionDecision != "allow" || len(u.Questions) != 1 || u.Answers["Which framework?"] != "React" || u.Metadata["source"] != "remember" || u.Notes != nil {
		t.Fatalf("output %s", out)
	}
}

// Whenever asktui cannot decide, it prints nothing, so Claude Code asks
// as usual: no inbox, the inbox closed, time up, an input not for it.
func TestNothingPrintedWhenAsktuiCannotDecide(t *testing.T) {
	for name, err := range map[string]error{
		"no inbox": interaction.Errorf(interaction.CodeNoProvider, "no inbox"),
		"closed":   interaction.Errorf(interaction.CodeProviderClosed, "closed"),
		"time up":  interaction.Errorf(interaction.CodeTimeout, "time up"),
		"gone":     errors.New("connection refused"),
	} {
		t.Run(name, func(t *testing.T) {
			for _, fx := range []string{"single", "bash"} {
				out, herr := HandleClaude(context.Background(), fixture(t, "claude", fx), func(context.Context, interaction.Request) (interaction.Answer, error) {
					return interaction.Answer{}, err
				})
				if out != nil || herr == nil {
					t.Fatalf("%s: output %q, err %v; want nothing and the reason", fx, out, herr)
				}
			}
		})
	}
	for _, fx := range []string{"other-tool", "duplicate", "ask-permission"} {
		asked := false
		out, err := HandleClaude(context.Background(), fixture(t, "claude", fx), func(context.Context, interaction.Request) (interaction.Answer, error) {
			asked = true
			return interaction.Answer{}, nil
		})
		if out != nil || asked || !errors.Is(err, ErrNotMine) {
			t.Fatalf("%s: output %q, asked %v, err %v", fx, out, asked, err)
		}
	}
}

func TestMalformedInputIsRefused(t *testing.T) {
	for _, in := range []string{"", "not json", "[]", `{"tool_name":"Bash"}`, strings.Repeat(" ", MaxInputBytes+1)} {
		if _, err := Decode(strings.NewReader(in)); err == nil {
			t.Errorf("Decode(%.20q) succeeded", in)
		}
	}
	// A malformed tool_input is left to Claude Code, never a decision.
	out, err := HandleClaude(context.Background(), Input{HookEventName: "PreToolUse", ToolName: "AskUserQuestion", ToolInput: json.RawMessage(`{"questions":"x"}`)},
		func(context.Context, interaction.Request) (interaction.Answer, error) {
			return interaction.Answer{}, nil
		})
	if out != nil || err == nil {
		t.Fatalf("output %q err %v", out, err)
	}
}

func TestClaudeConfig(t *testing.T) {
	out := ClaudeConfig("/usr/local/bin/asktui", nil, 24*time.Hour)
	golden.RequireEqual(t, out)
	var cfg map[string]any
	if err := json.Unmarshal(out, &cfg); err != nil {
		t.Fatal(err)
	}
}
