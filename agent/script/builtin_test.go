package script

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
)

// autoplayAnswers are the answers each embedded scenario's autoplay keys
// give in asktui's question panel; a question missing here is never
// answered (the withdrawn one of the parallel and intro scenarios).
var autoplayAnswers = map[string]map[string]interaction.AnswerItem{
	"deploy": {"deploy": selected("Yes (Recommended)")},
	"setup": {
		"lang":     selected("Go"),
		"db":       selected("PostgreSQL"),
		"features": selected("HTTP API", "Metrics", "Tracing", "Docker"),
		"ci":       custom("Jenkins on the build farm"),
	},
	"intro": {
		"callers":  selected("Keep a deprecated wrapper (Recommended)"),
		"comments": selected("Missing error check", "N+1 query"),
		"pr":       selected("Open as draft (Recommended)"),
	},
	"parallel": {
		"callers":  selected("Keep a deprecated wrapper (Recommended)"),
		"comments": selected("Missing error check", "N+1 query"),
		"pr":       selected("Open as draft (Recommended)"),
	},
}

// lastMessages are what each agent says last on the autoplay path.
var lastMessages = map[string]map[string]string{
	"deploy": {"release": "**1.8.0 is live**"},
	"setup":  {"scaffold": "- CI: Jenkins on the build farm"},
	"intro": {
		"claude-code": "Opened **#491** (Open as draft (Recommended))",
		"codex":       "Approved #486",
		"gemini":      "The guide is ready for review.",
	},
	"parallel": {
		"claude-code": "Opened **#491** (Open as draft (Recommended))",
		"codex":       "Posting: Missing error check, N+1 query.",
		"gemini":      "The guide is ready for review.",
	},
}

func TestBuiltinAutoplayPath(t *testing.T) {
	for _, sc := range Builtin() {
		t.Run(sc.Name, func(t *testing.T) {
			table := autoplayAnswers[sc.Name]
			rec := &recorder{}
			res, err := (&Runner{Asker: &fakeAsker{fn: answers(table)}, Reporter: rec, Sleep: (&fakeClock{}).Sleep}).
				Run(context.Background(), sc)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			for id, want := range lastMessages[sc.Name] {
				said := messages(res.Agents[id].Transcript)
				if len(said) == 0 || !strings.Contains(said[len(said)-1], want) {
					t.Errorf("agent %s said last %q, want it to contain %q", id, said, want)
				}
				if got := rec.of(id); !slices.Equal(got, res.Agents[id].Transcript) {
					t.Errorf("agent %s: reported activity differs from its transcript", id)
				}
			}
			for _, s := range sc.Agents {
				for _, o := range res.Agents[s.Agent.ID].Outcomes {
					want := interaction.OutcomeAnswered
					if (sc.Name == "parallel" || sc.Name == "intro") && s.Agent.ID == "gemini" {
						want = interaction.OutcomeWithdrawn
					}
					if o.Kind != want {
						t.Errorf("agent %s: ask on line %d ended %s, want %s", s.Agent.ID, o.Line, o.Kind, want)
					}
				}
			}
		})
	}
}

// TestBuiltinDurations keeps the embedded scenarios watchable: each lasts
// roughly half a minute to a minute at speed 1, counting the scripted
// human's time to answer.
func TestBuiltinDurations(t *testing.T) {
	for _, sc := range Builtin() {
		var longest time.Duration
		for _, s := range sc.Agents {
			d := agentDuration(t, s, autoplayAnswers[sc.Name])
			longest = max(longest, d)
		}
		t.Logf("%s: about %v at speed 1", sc.Name, longest.Round(time.Second))
		if longest < 25*time.Second || longest > 70*time.Second {
			t.Errorf("%s lasts about %v; keep embedded scenarios between 30s and 60s", sc.Name, longest)
		}
	}
}

// agentDuration adds up one agent's scripted time on the autoplay path:
// its own waits plus the time the player takes to answer each of its asks.
func agentDuration(t *testing.T, s Script, table map[string]interaction.AnswerItem) time.Duration {
	t.Helper()
	clock := &virtualClock{}
	var asked [][]string
	r := &Runner{Asker: &fakeAsker{fn: answers(table)}, Sleep: clock.Sleep,
		OnAsk: func(_ interaction.Agent, keys []string) { asked = append(asked, keys) }}
	if _, err := r.Run(context.Background(), &Scenario{Agents: []Script{s}}); err != nil {
		t.Fatal(err)
	}
	total := clock.now()
	for _, keys := range asked {
		total += playTime(t, keys)
	}
	return total
}

// playTime is how long the Player takes to press keys at speed 1.
func playTime(t *testing.T, keys []string) time.Duration {
	t.Helper()
	n := 0
	for _, p := range expand(keys) {
		if p.key != "" {
			n++
		}
	}
	if n == 0 {
		return 0
	}
	clock := &virtualClock{}
	kb := newKeyboard(clock, n)
	p := &Player{Keyboard: kb, Sleep: clock.Sleep}
	p.Enqueue(interaction.Agent{ID: "a"}, keys)
	runPlayer(t, p, kb)
	return clock.now()
}
