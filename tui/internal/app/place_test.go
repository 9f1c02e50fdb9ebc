package app

import (
	"strings"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
)

// The human's choice of place stands (hold.go): every way a question the
// human left could come back, each followed by three seconds of waiting
// and then typing, as a person who chose where to be would. The text must
// land where the human went, and the question left must still wait,
// unanswered.

// idle lets d pass on the key clock and delivers the timers that would
// have fired meanwhile.
func idle(m *Model, d time.Duration) {
	advance(m, d)
	send(m, openMsg{at: m.openAt})
	send(m, holdMsg{seq: m.hold.seq})
}

// twoAgents is a conversation view with agents "one" (shown) and "two",
// and a question of one's on screen, seen.
func twoAgents(t *testing.T) (m *Model, one, two *fakeConv, q pending) {
	t.Helper()
	m, one = testRun(t, 100, 30)
	two = newFakeConv("conv-2", "two")
	send(m, convStartedMsg{agent: "two", conv: two})
	advance(m, time.Hour)
	q = ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: one.info.ID, Name: "one"}, Questions: []interaction.Question{{
		ID: "deploy", Question: "Deploy 1.8.0 to production?", Options: opts("Yes", "No", "Not now")}}})
	if m.mode() != modeQuestion {
		t.Fatalf("mode %v, want one's question open", m.mode())
	}
	released(m)
	return m, one, two, q
}

func TestAQuestionLeftNeverComesBack(t *testing.T) {
	type want struct {
		conv   string // the conversation on screen
		mode   mode
		editor string // the text in its editor, when the prompt has the keys
	}
	cases := []struct {
		name  string
		leave func(t *testing.T, m *Model, one, two *fakeConv)
		want  want
	}{
		{"switch agents", func(t *testing.T, m *Model, _, two *fakeConv) {
			pick(t, m, two.info.ID)
		}, want{"two", modePrompt, "3 items"}},
		{"back to the prompt", func(t *testing.T, m *Model, _, _ *fakeConv) {
			press(m, "ctrl+e")
		}, want{"gemini", modePrompt, "3 items"}},
		{"transcript over the question, then esc", func(t *testing.T, m *Model, _, _ *fakeConv) {
			press(m, "ctrl+t")
			idle(m, 3*time.Second)
			press(m, "esc")
		}, want{"gemini", modePrompt, "3 items"}},
		{"inbox opened from the prompt, esc", func(t *testing.T, m *Model, one, _ *fakeConv) {
			ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: one.info.ID, Name: "one"}, Questions: []interaction.Question{{
				ID: "db", Question: "Which database?", Options: opts("Postgres", "SQLite")}}})
			press(m, "ctrl+e", "ctrl+g", "down", "esc")
		}, want{"gemini", modePrompt, "3 items"}},
		{"question opened from the inbox, left for the prompt", func(t *testing.T, m *Model, one, _ *fakeConv) {
			ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: one.info.ID, Name: "one"}, Questions: []interaction.Question{{
				ID: "db", Question: "Which database?", Options: opts("Postgres", "SQLite")}}})
			press(m, "ctrl+e", "ctrl+g", "down", "enter", "ctrl+e")
		}, want{"gemini", modePrompt, "3 items"}},
		{"past answers from the prompt, esc", func(t *testing.T, m *Model, _, _ *fakeConv) {
			press(m, "ctrl+e", "ctrl+o", "esc")
		}, want{"gemini", modePrompt, "3 items"}},
		{"switch agents, and the agent one answers in its transcript", func(t *testing.T, m *Model, one, two *fakeConv) {
			pick(t, m, two.info.ID)
			events(m, one.info.ID, msgChunk("Waiting for your answer."))
		}, want{"two", modePrompt, "3 items"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run(t, func(t *testing.T) {
				m, one, two, q := twoAgents(t)
				c.leave(t, m, one, two)
				for range 3 {
					idle(m, time.Second)
				}
				pressEvery(m, 80*time.Millisecond, "3 items")
				idle(m, time.Minute)
				noResult(t, q)
				if got := m.conv().Name(); got != c.want.conv || m.mode() != c.want.mode {
					t.Fatalf("screen on %s in mode %v, want %s in mode %v:\n%s", got, m.mode(), c.want.conv, c.want.mode, screen(m))
				}
				if got := m.conv().Prompt().Value(); got != c.want.editor {
					t.Fatalf("editor %q, want %q", got, c.want.editor)
				}
				mustContain(t, screen(m), "question")
			})
		})
	}
}

// Switching back to the agent whose question the human left returns to
// that question, held until seen, as it was left.
func TestSwitchingBackReturnsToTheQuestion(t *testing.T) {
	run(t, func(t *testing.T) {
		m, one, two, q := twoAgents(t)
		pick(t, m, two.info.ID)
		press(m, "draft")
		pick(t, m, one.info.ID)
		if m.mode() != modeQuestion || m.conv().Name() != "gemini" {
			t.Fatalf("switching back to one shows mode %v of %s, want its question", m.mode(), m.conv().Name())
		}
		pressEvery(m, 50*time.Millisecond, "2")
		noResult(t, q)
		mustContain(t, screen(m), "keys held a moment")
		released(m)
		press(m, "2")
		if r := result(t, q); r.Answer.Answers[0].Selected[0] != "No" {
			t.Fatalf("got %+v", r.Answer)
		}
		// two's prompt is as the human left it.
		pick(t, m, two.info.ID)
		if m.mode() != modePrompt || m.conv().Prompt().Value() != "draft" {
			t.Fatalf("two shows mode %v, editor %q", m.mode(), m.conv().Prompt().Value())
		}
		// Left on its prompt, one returns to its prompt, its new question
		// announced and not opened within placeGrace of the switch.
		pick(t, m, one.info.ID)
		mustContain(t, screen(m), "enter sends")
	})
}

// A new arrival of the conversation on screen opens by itself only once
// the human has not moved for placeGrace; an arrival of another agent's
// never switches.
func TestNewArrivalWaitsAfterAMove(t *testing.T) {
	run(t, func(t *testing.T) {
		m, one, two := func() (*Model, *fakeConv, *fakeConv) {
			m, one := testRun(t, 100, 30)
			two := newFakeConv("conv-2", "two")
			send(m, convStartedMsg{agent: "two", conv: two})
			return m, one, two
		}()
		advance(m, time.Hour)
		pick(t, m, two.info.ID)
		other := ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: one.info.ID, Name: "one"}, Questions: []interaction.Question{{
			ID: "q", Question: "One's question?", Options: opts("Yes", "No")}}})
		advance(m, time.Second)
		mine := ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: two.info.ID, Name: "two"}, Questions: []interaction.Question{{
			ID: "q", Question: "Two's question?", Options: opts("Yes", "No")}}})
		idle(m, time.Second)
		if m.mode() != modePrompt {
			t.Fatalf("mode %v 2 s after the switch: a question opened within placeGrace", m.mode())
		}
		mustContain(t, screen(m), "2 questions wait")
		idle(m, time.Second)
		if m.mode() != modeQuestion || m.conv().Name() != "two" || !strings.Contains(screen(m), "Two's question?") {
			t.Fatalf("mode %v on %s 3 s after the switch, want two's question open:\n%s", m.mode(), m.conv().Name(), screen(m))
		}
		pressEvery(m, 50*time.Millisecond, "1")
		noResult(t, mine)
		released(m)
		press(m, "2")
		result(t, mine)
		// one's question, never shown, still never switches the screen.
		idle(m, time.Minute)
		if m.conv().Name() != "two" || m.mode() != modePrompt {
			t.Fatalf("on %s in mode %v, want two's prompt", m.conv().Name(), m.mode())
		}
		noResult(t, other)
	})
}

// An agent the human started is shown when it is ready only if the human
// has not moved since; otherwise it is announced.
func TestAgentReadyAfterAMoveIsAnnounced(t *testing.T) {
	run(t, func(t *testing.T) {
		m, _ := testRun(t, 100, 30)
		asked := m.clock()
		press(m, "ctrl+o", "esc", "hello")
		send(m, convStartedMsg{agent: "two", conv: newFakeConv("conv-2", "two"), chosen: true, asked: asked})
		if m.conv().Name() != "gemini" || m.conv().Prompt().Value() != "hello" {
			t.Fatalf("on %s, editor %q: the agent starting took the screen", m.conv().Name(), m.conv().Prompt().Value())
		}
		mustContain(t, screen(m), "two is ready · ctrl+l switches to it")
	})
}

// The session view (serve, SSH): the request shown is answered on another
// view; the one the human left earlier is not brought back, a new one is.
func TestSessionNeverBringsBackARequestLeft(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		a := askFrom(t, m, "agent-a", interaction.Question{ID: "q", Question: "Drop the table?", Options: opts("Yes", "No", "Later")})
		b := askFrom(t, m, "agent-b", interaction.Question{ID: "q", Question: "Which database?", Options: opts("Postgres", "SQLite")})
		glance(m)
		press(m, "ctrl+n") // the human leaves a for b
		fake(m).ended[b.id] = settled("ssh alice@laptop")
		send(m, settledMsg{id: b.id, s: settled("ssh alice@laptop")})
		for range 3 {
			idle(m, time.Second)
		}
		pressEvery(m, 80*time.Millisecond, "3 items")
		idle(m, time.Minute)
		noResult(t, a)
		if m.mode() != modeInbox {
			t.Fatalf("mode %v, want the inbox list:\n%s", m.mode(), screen(m))
		}
		// A new request takes the place of the next one answered.
		c := askFrom(t, m, "agent-c", interaction.Question{ID: "q", Question: "Ship it?", Options: opts("Yes", "No")})
		press(m, "enter") // opens a, the human's choice
		press(m, "ctrl+n")
		if r := m.activeRequest(); r.ID != c.id {
			t.Fatalf("ctrl+n shows %d, want c", r.ID)
		}
		press(m, "1")
		result(t, c)
		if m.mode() != modeInbox {
			t.Fatalf("mode %v after c, want the inbox list: a was left", m.mode())
		}
		press(m, "enter", "2")
		if r := result(t, a); r.Answer.Answers[0].Selected[0] != "No" {
			t.Fatalf("a got %+v", r.Answer)
		}
	})
}
