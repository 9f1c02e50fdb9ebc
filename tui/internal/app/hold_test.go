package app

import (
	"strings"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
)

// The arrival hold (hold.go): a key answers only what the human has seen.
// The four paths new users hit are each reproduced here on the model's
// fake clocks, and end to end through the real program below; the pty
// tests in internal/cli drive them with real keys.

// gaps are the delays after a change at which a key must not act: from
// the first frame up to just under the time on screen.
var gaps = []time.Duration{50 * time.Millisecond, 121 * time.Millisecond, 250 * time.Millisecond, 490 * time.Millisecond}

// released advances the key clock past the hold and delivers its check,
// as the timer would.
func released(m *Model) {
	advance(m, holdShown+holdQuiet+m.frameEvery)
	send(m, holdMsg{seq: m.hold.seq})
}

// Path 1: an idle screen, no key pressed for a long time; a request
// arrives and a digit or Enter pressed 50–490 ms after it is drawn must
// not answer it.
func TestIdleArrivalHoldsKeys(t *testing.T) {
	for _, view := range []string{"session", "one-shot"} {
		for _, gap := range gaps {
			for _, k := range []string{"1", "enter"} {
				t.Run(view+"/"+gap.String()+"/"+k, func(t *testing.T) {
					run(t, func(t *testing.T) {
						var m *Model
						if view == "session" {
							m = testSession(t, 100, 30)
						} else {
							m = testModel(t, 100, 30)
						}
						advance(m, time.Hour) // idle: no key for an hour
						p := askFrom(t, m, "agent-a", interaction.Question{ID: "q", Question: "Drop the production database?", Options: opts("Yes", "No")})
						pressEvery(m, gap, k)
						noResult(t, p)
						mustContain(t, screen(m), "keys held a moment")
						released(m)
						mustNotContain(t, screen(m), "keys held")
						pressEvery(m, 0, "2")
						if r := result(t, p); r.Answer.Answers[0].Selected[0] != "No" {
							t.Fatalf("got %+v", r.Answer)
						}
					})
				})
			}
		}
	}
}

// Path 2: the request on screen is answered on another view (or
// withdrawn, or times out) and the next takes its place: a key pressed
// 50–490 ms later, meant for the first, must not answer the second.
func TestSwapHoldsKeys(t *testing.T) {
	endings := map[string]inbox.Settlement{
		"answered elsewhere": settled("ssh ana@laptop"),
		"declined elsewhere": {Err: interaction.Errorf(interaction.CodeDeclined, "declined"), By: "ssh ana@laptop"},
		"withdrawn":          {Err: interaction.Errorf(interaction.CodeAborted, "gone")},
		"timed out":          {Err: interaction.Errorf(interaction.CodeTimeout, "timed out")},
	}
	for name, s := range endings {
		for _, gap := range gaps {
			t.Run(name+"/"+gap.String(), func(t *testing.T) {
				run(t, func(t *testing.T) {
					m := testSession(t, 100, 30)
					a := askFrom(t, m, "agent-a", interaction.Question{ID: "deploy", Question: "Use tabs?", Options: opts("Yes", "No")})
					b := askFrom(t, m, "agent-b", interaction.Question{ID: "q", Question: "Drop the production database?", Options: opts("Drop it", "Keep it")})
					glance(m)
					fake(m).ended[a.id] = s
					send(m, settledMsg{id: a.id, s: s})
					pressEvery(m, gap, "1")
					noResult(t, b)
					mustContain(t, screen(m), "keys held a moment", "Drop the production database?")
					released(m)
					pressEvery(m, 0, "2")
					if r := result(t, b); r.Answer.Answers[0].Selected[0] != "Keep it" {
						t.Fatalf("b got %+v", r.Answer)
					}
				})
			})
		}
	}
}

// The human answering one request brings up the next: that too is a
// change he did not choose (a digit and then Enter, as most prompts
// teach, must not answer the second).
func TestEnterAfterADigitNeverAnswersTheNextRequest(t *testing.T) {
	for _, gap := range []time.Duration{150 * time.Millisecond, 250 * time.Millisecond, 399 * time.Millisecond} {
		t.Run(gap.String(), func(t *testing.T) {
			run(t, func(t *testing.T) {
				m := testSession(t, 100, 30)
				a := askFrom(t, m, "agent-a", interaction.Question{ID: "q", Question: "Use tabs?", Options: opts("Yes", "No")})
				b := askFrom(t, m, "agent-b", interaction.Question{ID: "q", Question: "Grant full disk access?", Options: opts("Grant", "Deny")})
				pressEvery(m, time.Second, "1")
				if r := result(t, a); r.Answer.Answers[0].Selected[0] != "Yes" {
					t.Fatalf("a got %+v", r.Answer)
				}
				pressEvery(m, gap, "enter")
				noResult(t, b)
				mustContain(t, screen(m), "keys held a moment", "Answer sent to agent-a", "Grant full disk access?")
			})
		})
	}
}

// The hold has no upper bound: a human who keeps typing (auto-repeat, a
// sentence meant for something else) keeps it on, however long; keys
// pressed meanwhile are dropped, never delivered later.
func TestHoldLastsWhileKeysKeepComing(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		a := askFrom(t, m, "agent-a", interaction.Question{ID: "q", Question: "Name?", Options: opts("alpha", "beta")})
		b := askFrom(t, m, "agent-b", interaction.Question{ID: "q", Question: "Grant full disk access?", Options: opts("Grant", "Deny")})
		pressEvery(m, time.Second, "3") // a's Other row
		pressEvery(m, 80*time.Millisecond, "gam")
		withdraw(a, interaction.Errorf(interaction.CodeAborted, "gone"))
		for range 60 { // 6 s of typing, 100 ms apart
			pressEvery(m, 100*time.Millisecond, "1")
			noResult(t, b)
		}
		pressEvery(m, 100*time.Millisecond, "enter", "space", "n", "y")
		noResult(t, b)
		s := screen(m)
		mustContain(t, s, "agent-a withdrew its question", "keys held a moment")
		if m.mode() != modeQuestion || m.activeRequest().Current().Draft.OtherText != "" {
			t.Fatalf("held keys were delivered: mode %v, Other %q", m.mode(), m.activeRequest().Current().Draft.OtherText)
		}
		// Quiet at last: the keys work, and nothing typed before shows up.
		released(m)
		mustNotContain(t, screen(m), "keys held")
		pressEvery(m, 0, "2")
		if r := result(t, b); r.Answer.Answers[0].Selected[0] != "Deny" || r.Answer.Answers[0].Note != "" {
			t.Fatalf("b got %+v", r.Answer)
		}
	})
}

// Navigation acts at once while keys are held; letters never do, even
// those bound to moving (j, k, g).
func TestNavigationActsWhileHeld(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		advance(m, time.Hour)
		p := askFrom(t, m, "agent-a", interaction.Question{ID: "q", Question: "Which?", Options: opts("one", "two", "three")})
		pressEvery(m, 50*time.Millisecond, "down", "down")
		if c := m.activeRequest().Current().Draft.Cursor; c != 2 {
			t.Fatalf("↓ while held: cursor %d, want 2", c)
		}
		pressEvery(m, 50*time.Millisecond, "k", "g")
		if c := m.activeRequest().Current().Draft.Cursor; c != 2 {
			t.Fatalf("letters moved the cursor while held: %d", c)
		}
		pressEvery(m, 50*time.Millisecond, "?")
		if m.mode() != modeQuestion {
			t.Fatalf("? acted while held: mode %v", m.mode())
		}
		pressEvery(m, 50*time.Millisecond, "ctrl+t")
		if m.mode() != modeActivity {
			t.Fatalf("ctrl+t (opening a pane) did not act while held: mode %v", m.mode())
		}
		noResult(t, p)
	})
}

// The time on screen counts only while the request is drawn: one that
// arrived behind the help overlay is held from the moment the overlay
// closes, whatever time passed behind it.
func TestHoldCountsOnlyTimeOnScreen(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		advance(m, time.Hour)
		press(m, "?")
		p := ask(t, m, single(interaction.Question{ID: "q", Question: "Drop it?", Options: opts("Yes", "No")}))
		advance(m, time.Minute)
		press(m, "esc")
		pressEvery(m, 100*time.Millisecond, "1")
		noResult(t, p)
		released(m)
		pressEvery(m, 0, "1")
		result(t, p)
	})
}

// The human's own moves are not held: bringing a request up from the
// inbox or with ctrl+n/p, and type-ahead between the questions of one
// request. Nor are scripted keys.
func TestHumanChoicesAreNotHeld(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		a := askFrom(t, m, "agent-a", interaction.Question{ID: "q", Question: "A?", Options: opts("Yes", "No")})
		b := askFrom(t, m, "agent-b", interaction.Question{ID: "q", Question: "B?", Options: opts("One", "Two")})
		c := askFrom(t, m, "agent-c", interaction.Question{ID: "q", Question: "C?", Options: opts("One", "Two")})
		glance(m)
		pressEvery(m, 50*time.Millisecond, "ctrl+n", "2")
		if r := result(t, b); r.Answer.Answers[0].Selected[0] != "Two" {
			t.Fatalf("b got %+v", r.Answer)
		}
		released(m)
		pressEvery(m, 50*time.Millisecond, "ctrl+g", "down", "enter", "1")
		if r := result(t, c); r.Answer.Answers[0].Selected[0] != "One" {
			t.Fatalf("c, opened from the inbox, got %+v", r.Answer)
		}
		released(m)
		noResult(t, a)
		// a was seen and left for b: the program does not bring it back;
		// the inbox list has the keys, and a digit there answers nothing.
		if m.mode() != modeInbox {
			t.Fatalf("mode %v after the last new request was answered, want the inbox list", m.mode())
		}
		pressEvery(m, 50*time.Millisecond, "1")
		noResult(t, a)
		d := askFrom(t, m, "agent-d", setupRequest().Questions...)
		send(m, focusMsg{id: a.id})
		send(m, pressMsg{key: keyMsgs("1")[0], target: a.id}) // scripted: aimed, not held
		result(t, a)
		released(m)
		pressEvery(m, 50*time.Millisecond, "enter", "1", "space", "tab") // type-ahead within d
		if got := m.activeRequest(); got == nil || got.ID != d.id || got.Tab != 3 {
			t.Fatalf("type-ahead between d's questions was held: tab %d", got.Tab)
		}
	})
}

// Path 3: a question arrives in `asktui run` while the human writes a
// prompt. It never takes the keys from the editor, however long the
// typing goes on: no digit answers it, no "n" opens its note; it is
// announced, with the key that opens it.
func TestPromptKeepsTheKeysWhileTyping(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		press(m, "Fix the build")
		p := ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: f.info.ID, Name: "gemini"}, Questions: []interaction.Question{{
			ID: "permission", Question: "Run rm -rf build", Options: opts("Allow once", "Reject"), NoOther: true}}})
		text := " and 1 then run the tests, and note 2 failures"
		for _, r := range text {
			pressEvery(m, 60*time.Millisecond, string(r))
		}
		advance(m, 3*time.Second)
		send(m, holdMsg{seq: m.hold.seq})
		noResult(t, p)
		if v := m.conv().Prompt().Value(); v != "Fix the build"+text {
			t.Fatalf("editor %q: keys went elsewhere", v)
		}
		if m.mode() != modePrompt {
			t.Fatalf("mode %v, want the prompt: the question took the keys from the editor", m.mode())
		}
		mustContain(t, screen(m), "gemini asks: Run rm -rf build · ctrl+g opens", "1 question waits")

		// ctrl+g opens it: the human's move, so keys act at once.
		pressEvery(m, 50*time.Millisecond, "ctrl+g", "2")
		if r := result(t, p); r.Answer.Answers[0].Selected[0] != "Reject" {
			t.Fatalf("got %+v", r.Answer)
		}
		if v := m.conv().Prompt().Value(); m.mode() != modePrompt || v != "Fix the build"+text {
			t.Fatalf("after answering: mode %v, editor %q", m.mode(), v)
		}
	})
}

// With the editor empty and the keyboard quiet, a question opens by
// itself, held until seen.
func TestQuestionOpensWhenTheEditorIsEmptyAndQuiet(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		advance(m, time.Hour)
		p := ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: f.info.ID, Name: "gemini"}, Questions: []interaction.Question{{
			ID: "permission", Question: "Run rm -rf build", Options: opts("Allow once", "Reject"), NoOther: true}}})
		if m.mode() != modeQuestion {
			t.Fatalf("mode %v, want the question open", m.mode())
		}
		pressEvery(m, 100*time.Millisecond, "1")
		noResult(t, p)
		mustContain(t, screen(m), "keys held a moment")
		released(m)
		pressEvery(m, 0, "2")
		result(t, p)

		// Typed, then erased: once quiet, the next one opens too.
		press(m, "x", "backspace")
		q := ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: f.info.ID, Name: "gemini"}, Questions: []interaction.Question{{
			ID: "permission", Question: "Run make", Options: opts("Allow once", "Reject"), NoOther: true}}})
		if m.mode() != modeQuestion {
			t.Fatalf("mode %v after a quiet second, want the question open", m.mode())
		}
		noResult(t, q)
	})
}

// When the question the human answers goes away (withdrawn by its agent),
// the keys move back to the prompt, held: "yes" and Enter meant for the
// question must not become a prompt sent to the agent.
func TestWithdrawalNeverSendsAPrompt(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		advance(m, time.Hour)
		p := ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: f.info.ID, Name: "gemini"}, Questions: []interaction.Question{{
			ID: "q", Question: "Which name?", Options: opts("alpha", "beta")}}})
		released(m)
		pressEvery(m, 100*time.Millisecond, "3", "y", "e")
		withdraw(p, interaction.Errorf(interaction.CodeAborted, "gone"))
		pressEvery(m, 100*time.Millisecond, "s", "enter")
		f.mu.Lock()
		n := len(f.prompts)
		f.mu.Unlock()
		if n != 0 || m.conv().Prompt().Value() != "" {
			t.Fatalf("%d prompts sent, editor %q", n, m.conv().Prompt().Value())
		}
	})
}

// Path 4: the conversation on screen has its editor focused after any
// switch: ctrl+l, answering another agent's question from the inbox, or
// ctrl+n/p between their questions.
func TestFocusFollowsAcrossConversations(t *testing.T) {
	run(t, func(t *testing.T) {
		m, gem := testRun(t, 100, 30)
		// An agent started with the program keeps out of the way of the one
		// being written to; one the human starts (the picker) is shown.
		cl := newFakeConv("conv-2", "claude")
		send(m, convStartedMsg{agent: "claude", conv: cl})
		press(m, "zero")
		if c := m.conv(); c.Name() != "gemini" || c.Prompt().Value() != "zero" {
			t.Fatalf("a second agent starting took the screen: %s, editor %q", c.Name(), c.Prompt().Value())
		}
		press(m, "ctrl+u")
		send(m, convStartedMsg{agent: "claude", conv: cl, chosen: true})
		typeInto := func(want, text string) {
			t.Helper()
			press(m, text)
			if c := m.conv(); c.Name() != want || !strings.HasSuffix(c.Prompt().Value(), text) {
				t.Fatalf("typed %q into %s: editor %q", text, c.Name(), c.Prompt().Value())
			}
			for _, c := range m.convs {
				if c != m.conv() && c.Prompt().HasCursor() {
					t.Fatalf("%s's editor has the keys too", c.Name())
				}
			}
		}
		typeInto("claude", "one")

		// ctrl+l: switch to gemini.
		pick(t, m, gem.info.ID)
		typeInto("gemini", "two")

		// claude asks: announced, never switched to, however long the
		// editor has been empty and quiet; ctrl+g opens it, and shows
		// claude.
		advance(m, time.Hour)
		press(m, "ctrl+u")
		p := ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: cl.info.ID, Name: "claude"}, Questions: []interaction.Question{{
			ID: "q", Question: "Proceed?", Options: opts("Yes", "No")}}})
		advance(m, time.Minute)
		released(m)
		if c := m.conv(); c.Name() != "gemini" || m.mode() != modePrompt {
			t.Fatalf("claude's question moved the screen: %s, mode %v", c.Name(), m.mode())
		}
		press(m, "1")
		noResult(t, p)
		press(m, "backspace", "ctrl+g", "1")
		result(t, p)
		typeInto("claude", "three")

		// Back to gemini, and once more by picker.
		pick(t, m, gem.info.ID)
		typeInto("gemini", "four")
	})
}

// pick switches to conversation id with the agent picker, by keys.
func pick(t *testing.T, m *Model, id string) {
	t.Helper()
	press(m, "ctrl+l")
	for range m.picker.Rows() {
		press(m, "up")
	}
	for i := 0; m.picker.Rows()[m.picker.Cursor()].Conv != id; i++ {
		if i > len(m.picker.Rows()) {
			t.Fatalf("no row for %s in the picker", id)
		}
		press(m, "down")
	}
	press(m, "enter")
}

// Answering the last question gives the keys back to the prompt at once:
// the human's own doing, not a change under his keys.
func TestPromptTakesKeysAtOnceAfterAnswering(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		advance(m, time.Hour)
		p := ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: f.info.ID, Name: "gemini"}, Questions: []interaction.Question{{
			ID: "q", Question: "Proceed?", Options: opts("Yes", "No")}}})
		released(m)
		pressEvery(m, 50*time.Millisecond, "1", "n", "e", "x", "t")
		result(t, p)
		if v := m.conv().Prompt().Value(); v != "next" {
			t.Fatalf("editor %q, want the keys typed after answering", v)
		}
	})
}
