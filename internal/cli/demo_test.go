package cli

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/asktui/asktui/agent/script"
	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui"
)

// TestDemoAutoplayEveryScenario plays each built-in scenario end to end in
// a headless program: the scripted agents ask through the service, the
// scripted human answers through the keyboard, and the test checks what
// each agent received and what the activity pane shows at the end.
func TestDemoAutoplayEveryScenario(t *testing.T) {
	want := map[string]struct {
		answers map[string]map[string]string   // agent → question id → answer
		outcome map[string]interaction.Outcome // agent → how its last ask ended
		screen  []string
	}{
		"deploy": {
			answers: map[string]map[string]string{"release": {"deploy": "Yes (Recommended)"}},
			screen:  []string{"answered: Yes (Recommended)"},
		},
		"setup": {
			answers: map[string]map[string]string{"scaffold": {"ci": "“Jenkins on the build farm”"}},
			screen:  []string{"answered:"},
		},
		"parallel": {
			outcome: map[string]interaction.Outcome{"gemini": interaction.OutcomeWithdrawn},
			screen:  []string{"gemini      withdrew: Docs", "answered:"},
		},
	}
	for _, sc := range script.Builtin() {
		t.Run(sc.Name, func(t *testing.T) {
			w, ok := want[sc.Name]
			if !ok {
				t.Fatalf("no expectations for scenario %q", sc.Name)
			}
			in, stop := io.Pipe()
			defer stop.Close()
			p := tui.New(tui.Options{
				Input: in, Output: io.Discard, Theme: styles.ThemeDark,
				Session: true, Width: 160, Height: 100,
				Environ: []string{"TERM=xterm-256color"},
			})
			// A scenario that goes wrong fails here instead of hanging.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res, err := playDemo(ctx, p, sc, demoOptions{speed: 8, autoplay: true})
			if ctx.Err() != nil {
				t.Fatalf("the scenario did not finish:\n%s", p.Screen())
			}
			if err != nil {
				t.Fatalf("demo: %v\n%s", err, p.Screen())
			}
			screen := p.Screen()
			for _, s := range w.screen {
				if !strings.Contains(screen, s) {
					t.Errorf("final screen lacks %q:\n%s", s, screen)
				}
			}
			for agentID, answers := range w.answers {
				got := res.Agents[agentID]
				if got == nil {
					t.Fatalf("no result for agent %q", agentID)
				}
				for id, a := range answers {
					item := got.Answers[id]
					v := strings.Join(item.Selected, ", ")
					if item.Custom != "" {
						v = "“" + item.Custom + "”"
					}
					if v != a {
						t.Errorf("%s got %s = %q, want %q", agentID, id, v, a)
					}
				}
			}
			for agentID, kind := range w.outcome {
				outs := res.Agents[agentID].Outcomes
				if len(outs) == 0 || outs[len(outs)-1].Kind != kind {
					t.Errorf("%s outcomes %+v, want the last to be %s", agentID, outs, kind)
				}
			}
			// Every ask of every agent ended as scripted: nothing declined,
			// timed out, closed or failed by accident.
			for id, r := range res.Agents {
				for _, o := range r.Outcomes {
					switch o.Kind {
					case interaction.OutcomeAnswered, interaction.OutcomeSkipped, interaction.OutcomeWithdrawn:
					default:
						t.Errorf("%s: ask at line %d ended %s (%v)", id, o.Line, o.Kind, o.Err)
					}
				}
			}
		})
	}
}

// TestDemoList prints the built-in scenarios.
func TestDemoList(t *testing.T) {
	var out bytes.Buffer
	if code := run(context.Background(), []string{"demo", "--list"}, env{stdout: &out, stderr: io.Discard, stdin: strings.NewReader("")}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, sc := range script.Builtin() {
		if !strings.Contains(out.String(), sc.Name) || !strings.Contains(out.String(), sc.Title) {
			t.Fatalf("--list lacks %s:\n%s", sc.Name, out.String())
		}
	}
}
