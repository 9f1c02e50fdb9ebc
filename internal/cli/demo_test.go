package cli

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"sync"
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
		"intro": {
			outcome: map[string]interaction.Outcome{"gemini": interaction.OutcomeWithdrawn},
			screen:  []string{"gemini      withdrew: Docs", "answered:"},
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

// TestDefaultDemoAsksAtOnce keeps the first question of the default demo
// within reach of a newcomer: on the scenario's own timeline (a virtual
// clock, so no wall-clock time is measured), some agent asks within 2 s of
// the start, which leaves a second of the 3 s for starting the
// process and drawing. The other agents are still working then: at least
// one of them asks only later.
func TestDefaultDemoAsksAtOnce(t *testing.T) {
	sc, err := script.Lookup(defaultScenario)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Agents) < 2 {
		t.Fatalf("the default demo has %d agents; it should show agents working in parallel", len(sc.Agents))
	}
	var first []time.Duration
	for _, s := range sc.Agents {
		first = append(first, firstAskAt(t, s))
	}
	t.Logf("first ask of each agent at speed 1: %v", first)
	if m := slices.Min(first); m > 2*time.Second {
		t.Errorf("the default demo's first question is scheduled %v after the start, want within 2s", m)
	}
	if m := slices.Max(first); m <= 2*time.Second {
		t.Errorf("every agent of the default demo asks within 2s (%v): none is seen working first", first)
	}
}

// firstAskAt plays one agent of a scenario on a virtual clock until its
// first question and returns the time at which it asked.
func firstAskAt(t *testing.T, s script.Script) time.Duration {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var (
		mu    sync.Mutex
		now   time.Duration
		asked = time.Duration(-1)
	)
	sleep := func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		now += d
		mu.Unlock()
		return ctx.Err()
	}
	asker := askerFunc(func(ctx context.Context, _ interaction.Request) (interaction.Answer, error) {
		mu.Lock()
		if asked < 0 {
			asked = now
		}
		mu.Unlock()
		cancel() // the rest of the script does not matter
		return interaction.Answer{}, interaction.ContextError(ctx)
	})
	r := &script.Runner{Asker: asker, Sleep: sleep}
	_, _ = r.Run(ctx, &script.Scenario{Name: "one", Agents: []script.Script{s}})
	mu.Lock()
	defer mu.Unlock()
	if asked < 0 {
		t.Fatalf("agent %s never asks", s.Agent.ID)
	}
	return asked
}

// askerFunc adapts a function to interaction.Asker.
type askerFunc func(context.Context, interaction.Request) (interaction.Answer, error)

func (f askerFunc) Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
	return f(ctx, req)
}
