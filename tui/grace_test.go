package tui

import (
	"context"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
)

// The HIGH finding: two agents each ask one single-select question; the
// human presses 1 and, 150–400 ms later, Enter, as most prompts teach. The
// 1 answers the first; the Enter must not answer the second, which the
// human has not seen.
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
				s := screen(m)
				mustContain(t, s, "new question from agent-b · keys paused", "Answer sent to agent-a", "Grant full disk access?")

				// Once the keyboard has been quiet, keys work again.
				advance(m, graceQuiet)
				send(m, graceMsg{seq: m.grace.seq})
				mustNotContain(t, screen(m), "keys paused")
				pressEvery(m, 0, "2")
				if r := result(t, b); r.Answer.Answers[0].Selected[0] != "Deny" {
					t.Fatalf("b got %+v, want Deny after the pause", r.Answer)
				}
			})
		})
	}
}

// The variant: the human types into A's Other text, A withdraws mid-word,
// and B's question takes the screen: the next digit is absorbed.
func TestWithdrawalWhileTypingNeverAnswersTheNextRequest(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		a := askFrom(t, m, "agent-a", interaction.Question{ID: "q", Question: "Name?", Options: opts("alpha", "beta")})
		b := askFrom(t, m, "agent-b", interaction.Question{ID: "q", Question: "Grant full disk access?", Options: opts("Grant", "Deny")})
		pressEvery(m, time.Second, "3")
		pressEvery(m, 80*time.Millisecond, "gam")
		withdraw(a, interaction.Errorf(interaction.CodeAborted, "gone"))
		pressEvery(m, 80*time.Millisecond, "m", "a", "1")
		noResult(t, b)
		mustContain(t, screen(m), "agent-a withdrew its question", "keys paused")
	})
}

// A human who keeps typing cannot hold the grace forever: after graceMax
// the request takes keys.
func TestGraceEndsAfterItsLongest(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		askFrom(t, m, "agent-a", interaction.Question{ID: "q", Question: "A?", Options: opts("Yes", "No")})
		b := askFrom(t, m, "agent-b", interaction.Question{ID: "q", Question: "B?", Options: opts("One", "Two")})
		pressEvery(m, time.Second, "1")
		for range 20 { // auto-repeat: 100 ms apart for 2 s
			pressEvery(m, 100*time.Millisecond, "up")
			if _, ok := fake(m).replies[b.id]; ok {
				t.Fatal("b answered during the grace")
			}
		}
		pressEvery(m, 100*time.Millisecond, "enter")
		if _, ok := fake(m).replies[b.id]; !ok {
			t.Fatal("the grace outlasted graceMax")
		}
	})
}

// No grace when the human was not typing, when he brings the request up
// himself, or within one request (type-ahead between its questions).
func TestNoGraceWhenNotNeeded(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		a := askFrom(t, m, "agent-a", interaction.Question{ID: "q", Question: "A?", Options: opts("Yes", "No")})
		pressEvery(m, 2*time.Second, "1") // arrived long after the last key
		result(t, a)

		advance(m, time.Minute)
		b := askFrom(t, m, "agent-b", interaction.Question{ID: "q", Question: "B?", Options: opts("One", "Two")})
		c := askFrom(t, m, "agent-c", interaction.Question{ID: "q", Question: "C?", Options: opts("One", "Two")})
		d := askFrom(t, m, "agent-d", interaction.Question{ID: "q", Question: "D?", Options: opts("One", "Two")})
		pressEvery(m, 50*time.Millisecond, "1")
		result(t, b) // the panel was quiet: keys work at once
		noResult(t, c)
		pressEvery(m, 2*time.Second, "ctrl+n")       // c's grace is over; d brought up by hand
		pressEvery(m, 50*time.Millisecond, "2", "2") // d at once, then c (in its place) at once: one request, no grace
		if r := result(t, d); r.Answer.Answers[0].Selected[0] != "Two" {
			t.Fatalf("d got %+v", r.Answer)
		}
		noResult(t, c)
	})
}

func TestScriptedKeysSkipTheGrace(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		askFrom(t, m, "agent-a", interaction.Question{ID: "q", Question: "A?", Options: opts("Yes", "No")})
		b := askFrom(t, m, "agent-b", interaction.Question{ID: "q", Question: "B?", Options: opts("One", "Two")})
		pressEvery(m, time.Second, "1")
		send(m, pressMsg{key: keyMsgs("2")[0]})
		if r := result(t, b); r.Answer.Answers[0].Selected[0] != "Two" {
			t.Fatalf("a scripted key waited out the grace: %+v", r.Answer)
		}
	})
}

// End to end through the real program and inbox: two requests, the first
// answered by a digit, the second shown within the grace, and an Enter
// 200 ms later that must not answer it.
func TestGraceThroughTheProgram(t *testing.T) {
	h := startProgram(t, Options{Session: true})
	ctx := context.Background()
	first := h.ask(ctx, interaction.Request{Agent: &interaction.Agent{ID: "agent-a"}, Questions: []interaction.Question{{ID: "q", Question: "A?", Options: opts("Yes", "No")}}})
	h.waitFor("1 question waiting")
	second := h.ask(ctx, interaction.Request{Agent: &interaction.Agent{ID: "agent-b"}, Questions: []interaction.Question{{ID: "q", Question: "Grant full disk access?", Options: opts("Grant", "Deny")}}})
	h.waitFor("2 questions waiting")
	t0 := fixedNow.Add(time.Minute)
	h.pressAt(t0, "1")
	if r := wait(t, first); r.err != nil || r.answer.Answers[0].Selected[0] != "Yes" {
		t.Fatalf("first got %+v %v", r.answer, r.err)
	}
	h.waitFor("keys paused")
	h.pressAt(t0.Add(200*time.Millisecond), "enter")
	h.pressAt(t0.Add(time.Minute), "2")
	if r := wait(t, second); r.err != nil || r.answer.Answers[0].Selected[0] != "Deny" {
		t.Fatalf("second got %+v %v, want Deny: the Enter 200 ms after the digit must have been absorbed", r.answer, r.err)
	}
}
