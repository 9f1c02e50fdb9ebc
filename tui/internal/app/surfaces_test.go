package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/markdown"
)

// bashPermission is Claude Code asking, through its hook, to run cmd in
// ~/proj: the request the hook sends, its Permission included.
func bashPermission(cmd string) interaction.Request {
	return interaction.Request{
		Agent: &interaction.Agent{ID: "claude-code:abc123", Name: "Claude Code · proj"},
		Questions: []interaction.Question{{
			ID: "permission", Header: "Bash", Question: "Allow Claude Code to use `Bash`?",
			Detail:  markdown.Fence("sh", cmd),
			Options: []interaction.Option{{Label: "Allow once", Description: "This call only"}, {Label: "Deny"}},
		}},
		Permission: &interaction.Permission{
			Client: interaction.ClientClaude, Tool: "Bash", Kind: interaction.KindExecute, Command: cmd,
			Cwd: "/home/u/proj", Session: "claude-code:abc123", Question: "permission", Allow: "Allow once", Deny: "Deny",
		},
	}
}

// TestGoldenWaitingPermissions pins the waiting list of two permissions
// of the same tool: each row names its command, where both read "Bash"
// before.
func TestGoldenWaitingPermissions(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {60, 20}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			run(t, func(t *testing.T) {
				m := testSession(t, size[0], size[1])
				ask(t, m, bashPermission("npm publish --tag next"))
				ask(t, m, bashPermission("git push origin main"))
				glance(m)
				press(m, "ctrl+g")
				s := screen(m)
				mustFit(t, s, size[0], size[1])
				mustContain(t, s, "Bash npm publish --tag next", "Bash git push origin main")
				golden.RequireEqual(t, s)
			})
		})
	}
}

// Each row names the call, whatever its kind; a call that names nothing
// falls back to the header; what would act on the terminal is made
// visible, and Markdown in a command stays the command's text.
func TestInboxRowNamesTheCall(t *testing.T) {
	perm := func(p interaction.Permission) interaction.Request {
		req := bashPermission("true")
		req.Questions[0].Header = p.Tool
		p.Cwd, p.Question, p.Allow, p.Deny, p.Client = "/home/u/proj", "permission", "Allow once", "Deny", interaction.ClientClaude
		req.Permission = &p
		return req
	}
	tests := []struct {
		name string
		req  interaction.Request
		want string
	}{
		{"command", bashPermission("npm publish --tag next"), "Bash npm publish --tag next"},
		{"the first line of a script", bashPermission("\n  cat <<'EOF' > notes.md\nhello\nEOF\n"), "Bash cat <<'EOF' > notes.md…"},
		{"markdown stays text", bashPermission("rm *.tmp **/_x_"), "Bash rm *.tmp **/_x_"},
		{"an escape made visible", bashPermission("echo \x1b[2Khi\u202e"), `Bash echo ␛[2Khi\u202e`},
		{"files", perm(interaction.Permission{Tool: "Edit", Kind: interaction.KindEdit, Paths: []string{"src/app.go", "src/b.go"}}), "Edit src/app.go +1 more"},
		{"a URL", perm(interaction.Permission{Tool: "WebFetch", Kind: interaction.KindFetch, URL: "https://example.com/x"}), "WebFetch https://example.com/x"},
		{"an MCP tool", perm(interaction.Permission{Tool: "mcp__github__create_issue", Kind: interaction.KindMCP, MCPServer: "github", MCPTool: "create_issue"}), "github: create_issue"},
		{"another tool: the header", perm(interaction.Permission{Tool: "Task", Kind: interaction.KindOther}), "Task"},
		{"no permission: the header", single(deployQuestion()), "Deploy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run(t, func(t *testing.T) {
				m := testSession(t, 100, 30)
				ask(t, m, tt.req)
				ask(t, m, single(interaction.Question{ID: "q", Question: "Later?"}))
				glance(m)
				press(m, "ctrl+g")
				row := ""
				for _, l := range strings.Split(screen(m), "\n") {
					if strings.Contains(l, "❯") {
						row = l // the inbox's cursor, above the options'
						break
					}
				}
				if !strings.Contains(row, " · "+tt.want+" · ") {
					t.Errorf("the row reads %q, want it to name %q", row, tt.want)
				}
				raw := m.render()
				for _, bad := range []string{"\x1b[2K", "\u202e"} {
					if strings.Contains(ansiFree(raw), bad) {
						t.Errorf("the screen holds %q", bad)
					}
				}
			})
		})
	}
}

// The detail as sent (ctrl+r) wraps the same way: at spaces only.
func TestRawDetailWrapsAtSpaces(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 60, 20)
		ask(t, m, bashPermission("./bin/server --config config/production.yaml --listen-address 0.0.0.0:8080 --tls-cert=/etc/ssl/private/production-cluster-certificate-bundle.pem"))
		glance(m)
		press(m, "ctrl+r")
		var lines []string
		for _, l := range strings.Split(screen(m), "\n") {
			lines = append(lines, strings.TrimSpace(l))
		}
		s := strings.Join(lines, "\n")
		mustContain(t, s, "```sh\n./bin/server --config config/production.yaml\n--listen-address 0.0.0.0:8080\n",
			"--tls-cert=/etc/ssl/private/production-cluster-certificat↩\ne-bundle.pem\n```")
	})
}

// The hint says what acts: filtered to one match of 100,000 options, a
// digit picks among the rows shown (1, and 2 for Other), not 1–9; while
// the filter or the Other row has the keys, digits are text.
func TestHintSaysWhatActs(t *testing.T) {
	many := make([]interaction.Option, 100_000)
	for i := range many {
		many[i] = interaction.Option{Label: fmt.Sprintf("service-%06d", i)}
	}
	hint := func(m *Model) string {
		for _, l := range strings.Split(screen(m), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "Pick one") {
				return strings.TrimSpace(l)
			}
		}
		return ""
	}
	for _, c := range []struct {
		noOther bool
		want    string
	}{{false, "Pick one · enter or 1–2 answers at once"}, {true, "Pick one · enter or 1 answers at once"}} {
		run(t, func(t *testing.T) {
			m := testModel(t, 100, 30)
			ask(t, m, single(interaction.Question{ID: "svc", Question: "Which service?", Options: many, NoOther: c.noOther}))
			glance(m)
			if got := hint(m); got != "Pick one · enter or 1–9 answers at once" {
				t.Errorf("unfiltered: %q", got)
			}
			press(m, "/", "service-042424")
			if got := hint(m); got != "Pick one · type to filter, enter applies" {
				t.Errorf("filtering: %q", got)
			}
			press(m, "enter")
			if got := hint(m); got != c.want {
				t.Errorf("one match (noOther %v): %q, want %q", c.noOther, got, c.want)
			}
			if !c.noOther {
				mustContain(t, screen(m), "1-2 choose")
				press(m, "down")
				if got := hint(m); got != "Pick one · type your own answer, enter answers at once" {
					t.Errorf("on Other: %q", got)
				}
			} else {
				mustContain(t, screen(m), "• 1 choose")
			}
		})
	}
}

// An empty rule field reads as empty: nothing drawn in it that could
// pass for a rule, and the line under it says to write one.
func TestRememberEmptyRuleReadsEmpty(t *testing.T) {
	run(t, func(t *testing.T) {
		m, _, _ := rulesSession(t, 60, 20)
		press(m, "a", "ctrl+u")
		s := screen(m)
		for _, l := range strings.Split(s, "\n") {
			if _, rest, ok := strings.Cut(l, "Rule"); ok {
				if got := strings.Trim(rest, " │"); got != "" {
					t.Errorf("the empty rule field shows %q", got)
				}
			}
		}
		mustContain(t, s, "✗ no rule: write one, such as Bash(go test:*)")
	})
}

// planRequest is deepseek-harness asking for a plan to be approved.
func planRequest() interaction.Request {
	var plan strings.Builder
	plan.WriteString("## Move billing to Postgres\n\n")
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&plan, "%d. Step %d: copy the rows of table %d, then check them with `./bin/check --table %d`\n", i, i, i, i)
	}
	return interaction.Request{
		Agent: &interaction.Agent{ID: "deepseek", Name: "deepseek-harness"},
		Questions: []interaction.Question{{
			ID: "plan", Header: "Plan", Question: "Approve this plan?", Detail: plan.String(),
			Options: []interaction.Option{{Label: "Approve", Description: "Start with step 1"}, {Label: "Keep planning", Description: "Tell me what to change"}},
			Intent:  &interaction.Intent{Kind: interaction.IntentPlanReview, Approve: "Approve"},
		}},
	}
}

// TestGoldenPlanReview pins a plan review: the plan in the panel's
// height, the choices named by what they do, then a page down, then the
// note a decline asks for.
func TestGoldenPlanReview(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {60, 20}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			run(t, func(t *testing.T) {
				m := testModel(t, size[0], size[1])
				ask(t, m, planRequest())
				glance(m)
				var shots []string
				for _, keys := range [][]string{nil, {"pgdown"}, {"2"}} {
					press(m, keys...)
					s := screen(m)
					mustFit(t, s, size[0], size[1])
					shots = append(shots, s)
				}
				golden.RequireEqual(t, strings.Join(shots, "\n---\n"))
			})
		})
	}
}

// The answer to a plan review is the answer to any question: the label
// chosen, and the note. Approving sends at once; declining asks for a
// note first, and going back from it sends nothing.
func TestPlanReviewAnswers(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 60, 20)
		p := ask(t, m, planRequest())
		glance(m)
		s := screen(m)
		mustContain(t, s, "1. ○ Approve the plan", "2. ○ Decline · Keep planning")
		mustNotContain(t, s, "Other")
		press(m, "enter")
		got := result(t, p)
		if got.Err != nil || len(got.Answer.Answers) != 1 || strings.Join(got.Answer.Answers[0].Selected, ",") != "Approve" || got.Answer.Answers[0].Note != "" {
			t.Fatalf("approved: %+v %v", got.Answer, got.Err)
		}
	})
	run(t, func(t *testing.T) {
		m := testModel(t, 60, 20)
		p := ask(t, m, planRequest())
		glance(m)
		press(m, "down", "enter")
		if m.mode() != modeNote {
			t.Fatalf("declining opened %v, not the note", m.mode())
		}
		mustContain(t, screen(m), "Decline the plan", "enter decline the plan, with the note")
		press(m, "esc")
		noResult(t, p)
		if m.mode() != modeQuestion {
			t.Fatalf("esc left mode %v", m.mode())
		}
		press(m, "2", "split step 2 in two", "enter")
		got := result(t, p)
		if got.Err != nil || strings.Join(got.Answer.Answers[0].Selected, ",") != "Keep planning" || got.Answer.Answers[0].Note != "split step 2 in two" {
			t.Fatalf("declined: %+v %v", got.Answer, got.Err)
		}
	})
}

// A plan that fits leaves the hint its row: it says what the choices do.
func TestPlanReviewHint(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		req := planRequest()
		req.Questions[0].Detail = "1. Copy rows\n2. Swap tables"
		ask(t, m, req)
		glance(m)
		mustContain(t, screen(m), "Approve or decline the plan · enter or 1–2 answers at once")
	})
}

// The plan scrolls a page at a time with pgup/pgdn (the choices have no
// pages), and line by line as any question.
func TestPlanReviewScrolls(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 60, 20)
		ask(t, m, planRequest())
		glance(m)
		r := m.activeRequest()
		press(m, "pgdown")
		page := r.Scroll
		if page < 2 {
			t.Fatalf("pgdn scrolled to %d", page)
		}
		press(m, "shift+down")
		if r.Scroll != page+1 {
			t.Fatalf("⇧↓ scrolled to %d, want %d", r.Scroll, page+1)
		}
		press(m, "pgup", "pgup")
		if r.Scroll != 0 {
			t.Fatalf("pgup scrolled to %d", r.Scroll)
		}
		if c := r.Current().Draft.Cursor; c != 0 {
			t.Fatalf("the keys moved the choice to %d", c)
		}
	})
}

// The rule in words wraps at spaces only: a flag in it is never split
// at its hyphens, whatever the width.
func TestRememberRuleWordsWrapAtSpaces(t *testing.T) {
	for w := 44; w <= 90; w++ {
		run(t, func(t *testing.T) {
			m, _, _ := rulesSession(t, w, 24)
			press(m, "a", "ctrl+u", "Bash(git push --force-with-lease:*)")
			lines := strings.Split(screen(m), "\n")
			for i, l := range lines {
				if !strings.Contains(l, "→ allow") || i+1 >= len(lines) {
					continue
				}
				words := strings.Fields(strings.ReplaceAll(l+" "+lines[i+1], "│", " "))
				if !slices.Contains(words, "--force-with-lease:*),") {
					t.Errorf("at %d the rule in words is split:\n%s\n%s", w, l, lines[i+1])
				}
				return
			}
			t.Errorf("at %d no rule in words:\n%s", w, strings.Join(lines, "\n"))
		})
	}
}
