package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
)

func TestSingleSelectEnterAnswersAtOnce(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		p := ask(t, m, single(deployQuestion()))
		s := screen(m)
		mustContain(t, s, "claude-code", "Deploy the release to production now?", "Recommended", "All checks passed on main.", "Other")
		mustNotContain(t, s, "Review")
		press(m, "down", "enter")
		r := result(t, p)
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		got := r.Answer.Answers
		if len(got) != 1 || got[0].ID != "deploy" || len(got[0].Selected) != 1 || got[0].Selected[0] != "No" || got[0].Custom != "" {
			t.Fatalf("answer = %+v, want deploy: [No]", got)
		}
		if len(m.requests) != 0 {
			t.Fatalf("answered request still on screen")
		}
		mustContain(t, screen(m), "Answer sent to claude-code", "No questions waiting")
	})
}

func TestSingleSelectDigitPicksAndEchoesLabelExactly(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		p := ask(t, m, single(deployQuestion()))
		press(m, "1")
		r := result(t, p)
		if r.Err != nil || r.Answer.Answers[0].Selected[0] != "Yes (Recommended)" {
			t.Fatalf("got %+v %v, want the label exactly as sent", r.Answer, r.Err)
		}
	})
}

func TestMultiSelectSpaceTogglesEnterConfirms(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		q := interaction.Question{ID: "feat", Question: "Which features?", MultiSelect: true, Options: opts("Auth", "Billing", "Search")}
		p := ask(t, m, single(q))
		glance(m)
		mustContain(t, screen(m), "space toggles, enter confirms")
		press(m, "space", "down", "down", "space", "enter")
		r := result(t, p)
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		if got := strings.Join(r.Answer.Answers[0].Selected, ","); got != "Auth,Search" {
			t.Fatalf("selected = %q, want Auth,Search", got)
		}
	})
}

// A lone multi-select question never sends an empty answer on one Enter:
// with nothing checked, Enter takes the option under the cursor, as gum
// choose --no-limit does.
func TestLoneMultiSelectEnterTakesTheOptionUnderTheCursor(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		q := interaction.Question{ID: "feat", Question: "Which features?", MultiSelect: true, Options: opts("Auth", "Billing", "Search")}
		p := ask(t, m, single(q))
		press(m, "down", "enter")
		r := result(t, p)
		if got := r.Answer.Answers[0].Selected; len(got) != 1 || got[0] != "Billing" {
			t.Fatalf("selected = %v, want [Billing]", got)
		}
	})
}

// Enter with nothing typed on a lone free-text question or an empty Other
// row sends nothing and opens no dialog: it starts typing there, so the
// letters that follow are the answer (a dialog would have taken them, and
// its "n" closed it).
func TestEnterOnAnEmptyAnswerStartsTyping(t *testing.T) {
	for _, c := range []struct {
		name string
		q    interaction.Question
		keys []string
	}{
		{"free text", interaction.Question{ID: "n", Question: "Name the service?"}, nil},
		{"empty Other", interaction.Question{ID: "n", Question: "Pick?", Options: opts("A", "B")}, []string{"end", "down"}},
		{"multi on Other", interaction.Question{ID: "n", Question: "Pick?", MultiSelect: true, Options: opts("A", "B")}, []string{"end", "down"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			run(t, func(t *testing.T) {
				m := testModel(t, 100, 30)
				p := ask(t, m, single(c.q))
				press(m, c.keys...)
				press(m, "enter")
				noResult(t, p)
				if m.mode() != modeQuestion {
					t.Fatalf("mode %v after Enter, want the question", m.mode())
				}
				press(m, "nope", "enter")
				r := result(t, p)
				if r.Err != nil || r.Answer.Answers[0].Custom != "nope" {
					t.Fatalf("got %+v %v, want the text typed after Enter", r.Answer, r.Err)
				}
			})
		})
	}
}

// ctrl+c quits every kind of view by one rule: the exit says interrupted
// (130 from the command line) when it leaves a question unanswered, and
// nothing otherwise.
func TestCtrlCExitRule(t *testing.T) {
	for _, k := range []kind{kindOneShot, kindSession, kindRun} {
		run(t, func(t *testing.T) {
			m := testModel(t, 100, 30)
			m.kind = k
			press(m, "ctrl+c")
			if !m.quitting || m.interrupted {
				t.Fatalf("kind %v, nothing waiting: quitting %v interrupted %v", k, m.quitting, m.interrupted)
			}
			m = testModel(t, 100, 30)
			m.kind = k
			ask(t, m, single(deployQuestion()))
			press(m, "ctrl+c")
			if !m.quitting || !m.interrupted {
				t.Fatalf("kind %v, a question waiting: quitting %v interrupted %v", k, m.quitting, m.interrupted)
			}
		})
	}
}

func TestOtherTextBecomesCustomAndDigitsNeverPick(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		p := ask(t, m, single(deployQuestion()))
		press(m, "end", "down") // the last option, then the Other row
		press(m, "wait 2 days, then 1")
		noResult(t, p)
		mustContain(t, screen(m), "wait 2 days, then 1")
		press(m, "enter")
		r := result(t, p)
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		a := r.Answer.Answers[0]
		if a.Custom != "wait 2 days, then 1" || len(a.Selected) != 0 {
			t.Fatalf("answer = %+v, want custom only", a)
		}
	})
}

// Typed Other text on a single-select question is the answer, whether the
// human presses Enter or moves on with Tab (defect: the tab stayed ○ and
// the review sent nothing).
func TestOtherTextOnSingleSelectCountsWhenMovingOn(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		p := ask(t, m, setupRequest())
		press(m, "tab")              // Database
		press(m, "3", "CockroachDB") // row 3 is Other: type
		tabs := strings.Split(screen(m), "\n")[2]
		if !strings.Contains(tabs, "✓ Database") {
			t.Fatalf("typing Other text did not mark the tab answered: %q", tabs)
		}
		press(m, "tab", "tab", "tab") // extras, notes, review
		mustContain(t, screen(m), "“CockroachDB”")
		press(m, "enter", "y")
		db := result(t, p).Answer.Answers[1]
		if db.Custom != "CockroachDB" || len(db.Selected) != 0 {
			t.Fatalf("db = %+v, want custom CockroachDB", db)
		}
	})
}

func TestFreeTextQuestion(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		p := ask(t, m, single(interaction.Question{ID: "name", Question: "Name the service?"}))
		mustContain(t, screen(m), "Type your answer")
		press(m, "billing-api", "enter")
		r := result(t, p)
		if r.Err != nil || r.Answer.Answers[0].Custom != "billing-api" || r.Answer.Answers[0].Selected == nil {
			t.Fatalf("got %+v %v", r.Answer, r.Err)
		}
	})
}

func TestSeveralQuestionsTabsDraftsReviewAndSkipped(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		p := ask(t, m, setupRequest())
		mustContain(t, screen(m), "Environment", "Database", "Extras", "Q4", "Review", "Where should it run?")

		press(m, "down", "enter") // env = Production, moves to db
		mustContain(t, screen(m), "Which database?")
		press(m, "tab")           // skip db
		press(m, "space", "down") // extras: Metrics checked, cursor on Tracing, not confirmed
		press(m, "shift+tab", "shift+tab", "left", "right", "right", "right")
		// Back on extras: the draft survived the moves.
		if d := m.requests[0].Questions[2].Draft; !d.Chosen[0] || d.Cursor != 1 {
			t.Fatalf("draft lost: %+v", d)
		}
		press(m, "tab", "tab") // notes skipped, review
		s := screen(m)
		mustContain(t, s, "Review your answers", "Production", "Metrics", "unanswered", "2 questions unanswered")
		press(m, "enter")
		mustContain(t, screen(m), "Submit with 2 questions unanswered?")
		noResult(t, p)
		press(m, "n") // back out: nothing lost
		mustContain(t, screen(m), "Review your answers", "Production")
		press(m, "enter", "y")
		r := result(t, p)
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		want := map[string]string{"env": "Production", "db": "", "extras": "Metrics", "notes": ""}
		for i, a := range r.Answer.Answers {
			if a.ID != setupRequest().Questions[i].ID {
				t.Fatalf("answers out of order: %+v", r.Answer.Answers)
			}
			if got := strings.Join(a.Selected, ","); got != want[a.ID] || a.Selected == nil {
				t.Fatalf("%s = %q, want %q", a.ID, got, want[a.ID])
			}
		}
	})
}

// The review lists the answers in one column and its digits open that
// question.
func TestReviewAlignsAnswersAndDigitsJump(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		ask(t, m, setupRequest())
		press(m, "enter", "enter", "space", "enter", "ok", "enter")
		lines := strings.Split(screen(m), "\n")
		col := -1
		for _, l := range lines {
			for _, v := range []string{"Staging", "Postgres", "Metrics", "“ok”"} {
				if i := strings.Index(l, v); i >= 0 {
					c := ansiWidth(l[:i])
					if col >= 0 && c != col {
						t.Fatalf("answer %q starts at column %d, others at %d:\n%s", v, c, col, strings.Join(lines, "\n"))
					}
					col = c
				}
			}
		}
		if col < 0 {
			t.Fatalf("no answers on the review:\n%s", strings.Join(lines, "\n"))
		}
		press(m, "2")
		if r := m.requests[0]; r.Tab != 1 {
			t.Fatalf("2 on the review opened tab %d, want 1", r.Tab)
		}
	})
}

func TestAnsweredTabsAreMarked(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		ask(t, m, setupRequest())
		press(m, "enter") // env = Staging
		tabs := strings.Split(screen(m), "\n")[2]
		if !strings.Contains(tabs, "✓ Environment") || !strings.Contains(tabs, "○ Database") {
			t.Fatalf("tab marks wrong: %q", tabs)
		}
	})
}

func TestDeclineNeedsConfirmationAndBackingOutKeepsDrafts(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		p := ask(t, m, setupRequest())
		press(m, "down")            // cursor on Production (not chosen)
		press(m, "tab", "tab", "x") // extras: Metrics checked (x toggles too)
		press(m, "esc")
		mustContain(t, screen(m), "Decline codex's 4 questions?")
		press(m, "esc") // back out
		noResult(t, p)
		r := m.requests[0]
		if r.Tab != 2 || !r.Questions[2].Draft.Chosen[0] || r.Questions[0].Draft.Cursor != 1 {
			t.Fatalf("drafts changed after backing out: tab %d, %+v", r.Tab, r.Questions[2].Draft)
		}
		press(m, "esc", "y")
		res := result(t, p)
		if interaction.CodeOf(res.Err) != interaction.CodeDeclined {
			t.Fatalf("err = %v, want ASK_DECLINED", res.Err)
		}
	})
}

func TestEscClearsFilterBeforeDeclining(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		ask(t, m, single(deployQuestion()))
		press(m, "/", "can", "enter", "esc")
		if m.mode() == modeConfirm {
			t.Fatal("esc with a filter applied opened the decline dialog")
		}
		press(m, "esc")
		if m.mode() != modeConfirm {
			t.Fatal("esc without a filter did not ask to decline")
		}
	})
}

func TestWithdrawnRequestLeavesTheScreenVisibly(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		a := ask(t, m, single(deployQuestion()))
		b := ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: "gemini"}, Questions: []interaction.Question{{ID: "q", Question: "Second question?"}}})
		mustContain(t, screen(m), "+1 waiting (gemini)")
		withdraw(a, interaction.Errorf(interaction.CodeAborted, "gone"))
		s := screen(m)
		mustContain(t, s, "claude-code withdrew its question", "Second question?")
		mustNotContain(t, s, "Deploy the release")
		noResult(t, b)
	})
}

// An answer given after the request ended elsewhere is not sent, and the
// screen says why.
func TestAnswerAfterTheRequestEndedSaysHow(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		p := ask(t, m, single(deployQuestion()))
		fake(m).ended[p.id] = settled("ssh alice")
		press(m, "1")
		noResult(t, p)
		mustContain(t, screen(m), "claude-code's question was answered from ssh alice")
	})
}

func TestCountdownShownAndNeverAnswers(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		p := askDeadline(t, m, single(deployQuestion()), fixedNow.Add(90*time.Second))
		mustContain(t, screen(m), "⏱ 1:30 left")
		send(m, tickMsg(fixedNow))
		noResult(t, p)
	})
}

func TestHostileTextIsInert(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		q := interaction.Question{
			ID: "x", Header: "\x1b[31mHdr",
			Question: "Title\x1b]0;pwned\x07 and \x1b[2Jclear\u202e",
			Options:  opts("ok\x1b[5m", "\u009b31mno"),
		}
		p := ask(t, m, single(q))
		raw := m.render()
		for _, bad := range []string{"\x1b]0;pwned", "\x1b[2J", "\x1b[5m", "\u009b", "\u202e", "\x07"} {
			if strings.Contains(raw, bad) {
				t.Fatalf("rendered screen contains %q", bad)
			}
		}
		// What was taken out leaves a mark: the text is not joined up.
		mustContain(t, screen(m), `Title␛ and ␛clear\u202e`)
		// Labels are sanitized as the list asks for them: the filter's
		// index and its matches too.
		press(m, "/", "no")
		raw = m.render()
		for _, bad := range []string{"\x1b[5m", "\u009b"} {
			if strings.Contains(raw, bad) {
				t.Fatalf("filtered screen contains %q", bad)
			}
		}
		mustContain(t, screen(m), "␛no")
		mustNotContain(t, screen(m), "ok␛")
		press(m, "esc")
		press(m, "enter")
		if got := result(t, p).Answer.Answers[0].Selected[0]; got != "ok\x1b[5m" {
			t.Fatalf("answer %q does not echo the label exactly as sent", got)
		}
	})
}

func TestCtrlCQuits(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		ask(t, m, single(deployQuestion()))
		_, cmd := m.Update(keyMsgs("ctrl+c")[0])
		if cmd == nil || !m.quitting {
			t.Fatal("ctrl+c did not quit")
		}
	})
}

func TestLongQuestionScrollsAndKeepsHelpOnScreen(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 60, 20)
		long := strings.Repeat("This sentence makes the question long. ", 40) + "THE END"
		ask(t, m, single(interaction.Question{ID: "l", Question: long, Options: opts("A", "B")}))
		glance(m)
		s := screen(m)
		mustContain(t, s, "⇧↑/⇧↓ scroll", "esc decline", "1. ", "A")
		mustNotContain(t, s, "THE END")
		if n := len(strings.Split(s, "\n")); n > 20 {
			t.Fatalf("screen has %d rows, want ≤ 20", n)
		}
		for range 30 {
			press(m, "shift+down")
		}
		mustContain(t, screen(m), "THE END", "A")
	})
}

func TestResizeKeepsLayoutWithinTheScreen(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		ask(t, m, setupRequest())
		for _, size := range [][2]int{{60, 20}, {200, 60}, {80, 24}, {61, 21}, {40, 12}} {
			send(m, teaSize(size[0], size[1]))
			mustFit(t, screen(m), size[0], size[1])
			mustContain(t, screen(m), "decline")
		}
	})
}

func TestGrowingTheWindowShowsMoreOptions(t *testing.T) {
	run(t, func(t *testing.T) {
		many := make([]interaction.Option, 200)
		for i := range many {
			many[i] = interaction.Option{Label: fmt.Sprintf("option-%03d", i)}
		}
		m := testModel(t, 60, 20)
		ask(t, m, single(interaction.Question{ID: "q", Question: "Pick?", Options: many}))
		rows := func() int { return strings.Count(screen(m), "○ option-") }
		small := rows()
		send(m, teaSize(100, 40))
		if big := rows(); big <= small {
			t.Fatalf("after growing to 100x40 the list shows %d rows, at 60x20 it showed %d", big, small)
		}
		send(m, teaSize(60, 20))
		if again := rows(); again != small {
			t.Fatalf("after shrinking back the list shows %d rows, want %d", again, small)
		}
	})
}

func TestQuestionInlineMarkdown(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		ask(t, m, single(interaction.Question{ID: "q", Question: "Keep `Charge()` as a **deprecated** wrapper?", Options: []interaction.Option{
			{Label: "Yes", Description: "`Charge()` calls `ChargeV2()`"}, {Label: "No"},
		}}))
		s := screen(m)
		mustContain(t, s, "Keep Charge() as a deprecated wrapper?", "Charge() calls ChargeV2()")
		mustNotContain(t, s, "`", "**")
	})
}

func TestWrappedListItemsAreIndented(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 60, 30)
		ask(t, m, single(interaction.Question{ID: "q", Question: "Before I go on:\n- the migration rewrites every row of the events table and locks it\n- then it rebuilds the indexes", Options: opts("Go", "Stop")}))
		lines := strings.Split(screen(m), "\n")
		for i, l := range lines {
			if strings.Contains(l, "• the migration") {
				next := lines[i+1]
				if !strings.HasPrefix(strings.TrimPrefix(next, " "), "  ") || strings.HasPrefix(strings.TrimSpace(next), "•") {
					t.Fatalf("the wrapped list item's next line is not indented under its text:\n%s\n%s", l, next)
				}
				return
			}
		}
		t.Fatalf("list item not shown:\n%s", strings.Join(lines, "\n"))
	})
}

// The field of a question is built once and kept: resizing the window
// and moving between questions adjust it in place, keeping the filter and
// the cursor.
func TestFieldIsKeptAcrossResizeAndTabs(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		ask(t, m, setupRequest())
		q := m.requests[0].Questions[0]
		choice := q.Choice
		press(m, "/", "Prod")
		send(m, teaSize(90, 30))
		send(m, teaSize(100, 30))
		press(m, "tab", "shift+tab")
		if q.Choice != choice {
			t.Fatal("the field was rebuilt")
		}
		mustContain(t, screen(m), "/Prod", "Production")
		mustNotContain(t, screen(m), "Staging")
	})
}

// TestKeysTypedBeforeCommandsRunGoToTheNextQuestion presses keys faster
// than the event loop runs the commands they return, as a fast typist or
// a paste does: a confirmed question must be left at once.
func TestKeysTypedBeforeCommandsRunGoToTheNextQuestion(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		ask(t, m, setupRequest())
		glance(m)
		for _, k := range []string{"enter", "down", "enter", "space", "enter"} {
			m.Update(keyMsgs(k)[0]) // commands dropped on purpose
		}
		r := m.requests[0]
		if got := r.Questions[0].Answer().Selected; len(got) != 1 || got[0] != "Staging" {
			t.Fatalf("env = %v, want Staging", got)
		}
		if got := r.Questions[1].Answer().Selected; len(got) != 1 || got[0] != "SQLite" {
			t.Fatalf("db = %v, want SQLite", got)
		}
		if got := r.Questions[2].Answer().Selected; len(got) != 1 || got[0] != "Metrics" {
			t.Fatalf("extras = %v, want Metrics", got)
		}
		if r.Tab != 3 {
			t.Fatalf("tab = %d, want 3 (the free-text question)", r.Tab)
		}
		for _, k := range keyMsgs("done") {
			m.Update(k)
		}
		m.Update(keyMsgs("enter")[0])
		if !r.Reviewing() || r.Questions[3].Answer().Custom != "done" {
			t.Fatalf("free text not confirmed at once: tab %d, %+v", r.Tab, r.Questions[3].Answer())
		}
	})
}

func TestQuestionMarkShowsEveryKeyAndEscClosesIt(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 60, 20)
		p := ask(t, m, setupRequest())
		mustNotContain(t, screen(m), "page down")
		press(m, "?")
		s := screen(m)
		mustContain(t, s, "Keys", "↓ more · j/k scroll", "page down", "filter", "close help")
		mustNotContain(t, s, "? all keys")
		mustFit(t, s, 60, 20)
		// The list scrolls, one column, every description whole.
		var seen strings.Builder
		for range 10 {
			seen.WriteString(screen(m))
			press(m, "j")
		}
		all := seen.String()
		mustContain(t, all, "n       note", "esc     decline", "ctrl+c  quit", "?       help")
		mustNotContain(t, all, "…")
		press(m, "esc") // closes the help: it must not ask to decline
		if m.mode() != modeQuestion {
			t.Fatalf("esc in the help left mode %v", m.mode())
		}
		noResult(t, p)
		mustNotContain(t, screen(m), "page down", "Decline")
	})
}

// Drafts go to the inbox as they change, so a withdrawal keeps them.
func TestDraftsAreSavedAsTheyChange(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		p := ask(t, m, setupRequest())
		press(m, "down")
		if d := fake(m).drafts[p.id]; d != nil {
			t.Fatalf("a cursor move saved a draft: %+v", d)
		}
		press(m, "enter")
		d := fake(m).drafts[p.id]
		if d == nil || d.Answers[0].Selected[0] != "Production" {
			t.Fatalf("draft = %+v, want env Production", d)
		}
		saves := fake(m).saves
		press(m, "down", "up")
		if fake(m).saves != saves {
			t.Fatal("an unchanged draft was saved again")
		}
	})
}

// TestInboxNewsInABatchIsTakenInOrder: a flood of inbox news that the
// link hands over as one linkBatchMsg leaves the model exactly as the
// same messages one by one would.
func TestInboxNewsInABatchIsTakenInOrder(t *testing.T) {
	run(t, func(t *testing.T) {
		req := func(i uint64) *inbox.Request {
			return &inbox.Request{ID: 900 + i, Request: scaleRequest(int(i)), Arrived: fixedNow} //nolint:gosec // a small test number
		}
		withdrawn := inbox.Settlement{Err: interaction.Errorf(interaction.CodeAborted, "the caller withdrew it")}
		news := []tea.Msg{
			askMsg{req: req(1)},
			askMsg{req: req(2)},
			activityMsg{activity: interaction.Activity{Agent: interaction.Agent{ID: "agent-3", Name: "Agent 3"}, Kind: interaction.ActivityThinking, Text: "Reading the schema"}},
			askMsg{req: req(3)},
			settledMsg{id: 901, s: withdrawn},
		}
		one, batch := testModel(t, 100, 30), testModel(t, 100, 30)
		for _, msg := range news {
			if s, ok := msg.(settledMsg); ok {
				fake(one).ended[s.id] = s.s
				fake(batch).ended[s.id] = s.s
			}
			send(one, msg)
		}
		send(batch, linkBatchMsg(news))
		if got, want := screen(batch), screen(one); got != want {
			t.Fatalf("after the batch:\n%s\none by one:\n%s", got, want)
		}
		if n := len(batch.requests); n != 2 {
			t.Errorf("%d requests waiting after the batch, want 2", n)
		}
		if !strings.Contains(screen(batch), "Request 2:") {
			t.Errorf("the first request still waiting is not shown:\n%s", screen(batch))
		}
	})
}
