package history

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
)

// permissionRecord is the record of a permission request as asktui's
// hooks ask it (the question names the tool only), about call, ending
// with outcome after waited.
func permissionRecord(at time.Duration, call interaction.Permission, outcome interaction.Outcome, waited time.Duration) Record {
	call.Client, call.Cwd, call.Question, call.Allow, call.Deny = interaction.ClientClaude, "/home/me/src/app", "permission", "Allow once", "Deny"
	who := &interaction.Agent{ID: "claude-code:s1", Name: "Claude Code · app"}
	return Record{
		Time: t0.Add(at), Agent: who, Outcome: outcome, Waited: Duration(waited),
		Request: interaction.Request{Agent: who, Questions: []interaction.Question{{
			ID: "permission", Header: call.Tool, Question: "Allow Claude Code to use `" + call.Tool + "`?",
			Options: []interaction.Option{{Label: "Allow once"}, {Label: "Deny"}},
		}}, Permission: &call},
		Permission: &call,
	}
}

// chose is the answer selecting label for the permission's question.
func chose(label string) *interaction.Answer {
	return &interaction.Answer{Answers: []interaction.AnswerItem{{ID: "permission", Selected: []string{label}}}}
}

// TestFormatPermissions: each record of a permission request names the
// call (the command's first line, the files, the URL, the MCP tool; else
// the question), its answer, and what settled it: the human on which
// view, which standing rule, the rule the human saved through the
// remember dialog, or why it ended unanswered, in words for a person
// (issue 35: "Bash: Allow once" for `go test ./... && rm -rf build`, and a
// decline shown with the advice written for the agent).
func TestFormatPermissions(t *testing.T) {
	bash := func(cmd string) interaction.Permission {
		return interaction.Permission{Tool: "Bash", Kind: interaction.KindExecute, Command: cmd}
	}
	var recs []Record
	add := func(r Record, edit func(*Record)) {
		edit(&r)
		recs = append(recs, r)
	}
	add(permissionRecord(0, bash("go test ./... && rm -rf build"), interaction.OutcomeAnswered, 6*time.Second), func(r *Record) {
		r.Answer, r.By = chose("Allow once"), "this terminal"
	})
	add(permissionRecord(time.Minute, bash("go test ./..."), interaction.OutcomeAnswered, 2*time.Millisecond), func(r *Record) {
		r.Answer, r.Rule = chose("Allow once"), &Ruling{Number: 1, Rule: "allow ~/src/app Bash(go test:*)"}
	})
	add(permissionRecord(2*time.Minute, bash("go vet ./..."), interaction.OutcomeAnswered, 9*time.Second), func(r *Record) {
		r.Answer, r.By = chose("Allow once"), "ssh bob@10.0.0.2"
		r.Rule = &Ruling{Number: 4, Rule: "allow ~/src/app Bash(go vet:*)", Saved: true}
	})
	add(permissionRecord(3*time.Minute, bash("rm -rf ~/src/app\necho done"), interaction.OutcomeDeclined, 3*time.Second), func(r *Record) {
		// As recorded before issue 35: the message was the agent's.
		r.Error = interaction.Errorf(interaction.CodeDeclined, "the user declined to answer; do not ask the same questions again unless the user asks you to")
		r.By = "this terminal"
	})
	add(permissionRecord(4*time.Minute, bash("rm -rf /"), interaction.OutcomeDeclined, time.Millisecond), func(r *Record) {
		r.Error = interaction.Errorf(interaction.CodeDeclined, "Denied by the user's standing rule in asktui (rule 2: Bash(rm:*)). Do not try to run it another way.")
		r.Rule = &Ruling{Number: 2, Rule: "deny ~ Bash(rm:*)"}
	})
	add(permissionRecord(5*time.Minute, bash("sleep 10"), interaction.OutcomeTimeout, time.Second), func(r *Record) {
		r.Error = interaction.TimeoutAfter(time.Second)
	})
	add(permissionRecord(6*time.Minute, interaction.Permission{Tool: "Edit", Kind: interaction.KindEdit, Paths: []string{"main.go", "go.mod", "go.sum", "a.go", "b.go"}}, interaction.OutcomeWithdrawn, 2*time.Second), func(r *Record) {
		r.Error = interaction.Errorf(interaction.CodeAborted, "the MCP client disconnected before the human answered")
		r.Draft = chose("Deny")
	})
	add(permissionRecord(7*time.Minute, interaction.Permission{Tool: "WebFetch", Kind: interaction.KindFetch, URL: "https://example.com/\x1b[2Jdocs"}, interaction.OutcomeElsewhere, 4*time.Second), func(r *Record) {
		r.Error = interaction.Errorf(interaction.CodeSettledElsewhere, "answered in Claude Code's own permission dialog")
	})
	add(permissionRecord(8*time.Minute, interaction.Permission{Tool: "mcp__github__create_issue", Kind: interaction.KindMCP, MCPServer: "github", MCPTool: "create_issue"}, interaction.OutcomeClosed, 5*time.Second), func(r *Record) {
		r.Error = interaction.Errorf(interaction.CodeProviderClosed, "the asktui window was closed before the question was answered")
	})
	add(permissionRecord(9*time.Minute, interaction.Permission{Tool: "Task", Kind: interaction.KindOther}, interaction.OutcomeFailed, time.Second), func(r *Record) {
		r.Error = interaction.Errorf(interaction.CodeInternal, "boom")
	})
	add(permissionRecord(10*time.Minute, bash("make"), interaction.OutcomeWithdrawn, time.Second), func(r *Record) {
		r.Error = codedError(canceled(), context.Canceled) // as Wrap records a bare cancellation
	})

	var b strings.Builder
	if err := format(&b, recs, time.UTC); err != nil {
		t.Fatal(err)
	}
	want := `2025-06-01 12:00:06  Claude Code · app  answered  asked 12:00:00, waited 6s
  Bash: go test ./... && rm -rf build
  answer: Allow once
  answered by the human on this terminal

2025-06-01 12:01:00  Claude Code · app  answered  asked 12:01:00, waited 2ms
  Bash: go test ./...
  answer: Allow once
  answered by rule 1: allow ~/src/app Bash(go test:*)

2025-06-01 12:02:09  Claude Code · app  answered  asked 12:02:00, waited 9s
  Bash: go vet ./...
  answer: Allow once
  answered by the human on ssh bob@10.0.0.2, saving rule 4: allow ~/src/app Bash(go vet:*)

2025-06-01 12:03:03  Claude Code · app  declined  asked 12:03:00, waited 3s
  Bash: rm -rf ~/src/app …
  declined by the human on this terminal

2025-06-01 12:04:00  Claude Code · app  declined  asked 12:04:00, waited 1ms
  Bash: rm -rf /
  declined by rule 2: deny ~ Bash(rm:*)

2025-06-01 12:05:01  Claude Code · app  timeout  asked 12:05:00, waited 1s
  Bash: sleep 10
  timed out: no answer within 1s

2025-06-01 12:06:02  Claude Code · app  withdrawn  asked 12:06:00, waited 2s
  Edit: main.go, go.mod, go.sum and 2 more
  answer: Deny (draft)
  withdrawn: the MCP client disconnected before the human answered

2025-06-01 12:07:04  Claude Code · app  elsewhere  asked 12:07:00, waited 4s
  WebFetch: https://example.com/�[2Jdocs
  settled elsewhere: answered in Claude Code's own permission dialog

2025-06-01 12:08:05  Claude Code · app  closed  asked 12:08:00, waited 5s
  mcp__github__create_issue: create_issue (MCP server github)
  closed: the asktui window was closed before the question was answered

2025-06-01 12:09:01  Claude Code · app  failed  asked 12:09:00, waited 1s
  Task: -
  failed: INTERNAL: boom

2025-06-01 12:10:01  Claude Code · app  withdrawn  asked 12:10:00, waited 1s
  Bash: make
  withdrawn by its caller: context canceled
`
	if got := b.String(); got != want {
		t.Errorf("Format:\n%s\nwant:\n%s", got, want)
	}
	if strings.ContainsAny(b.String(), "\x1b") {
		t.Error("Format printed an escape")
	}
}

// canceled is a context that has been cancelled.
func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// TestFormatPermissionWidths: the call's line keeps a command of 120
// characters whole and cuts a longer one with "…", shows the first line
// of a longer command with " …", and cuts the tool at 60 characters and
// the rule at 120, each on its one line.
func TestFormatPermissionWidths(t *testing.T) {
	c120, c121 := strings.Repeat("a", 120), strings.Repeat("b", 121)
	for _, c := range []struct {
		name string
		perm interaction.Permission
		rule string
		want []string
	}{
		{"command of 120", interaction.Permission{Tool: "Bash", Kind: interaction.KindExecute, Command: c120}, "",
			[]string{"  Bash: " + c120}},
		{"command of 121", interaction.Permission{Tool: "Bash", Kind: interaction.KindExecute, Command: c121}, "",
			[]string{"  Bash: " + c121[:120] + "…"}},
		{"first line of 120, then more", interaction.Permission{Tool: "Bash", Kind: interaction.KindExecute, Command: c120 + "\nls"}, "",
			[]string{"  Bash: " + c120 + " …"}},
		{"first line of 121, then more", interaction.Permission{Tool: "Bash", Kind: interaction.KindExecute, Command: c121 + "\nls"}, "",
			[]string{"  Bash: " + c121[:120] + "…"}},
		{"tool of 61", interaction.Permission{Tool: strings.Repeat("t", 61), Kind: interaction.KindFetch, URL: "https://x"}, "",
			[]string{"  " + strings.Repeat("t", 60) + "…: https://x"}},
		{"rule of 121", interaction.Permission{Tool: "Bash", Kind: interaction.KindExecute, Command: "ls"}, "allow ~ Bash(" + strings.Repeat("r", 107) + ")",
			[]string{"  Bash: ls", "  answered by rule 1: allow ~ Bash(" + strings.Repeat("r", 107) + "…"}},
	} {
		r := permissionRecord(0, c.perm, interaction.OutcomeAnswered, time.Second)
		r.Answer = chose("Allow once")
		if c.rule != "" {
			r.Rule = &Ruling{Number: 1, Rule: c.rule}
		}
		var b strings.Builder
		if err := format(&b, []Record{r}, time.UTC); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		for _, w := range c.want {
			if !slices.Contains(lines, w) {
				t.Errorf("%s: no line %q in\n%s", c.name, w, b.String())
			}
		}
	}
}
