package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
)

func deployQuestion() interaction.Question {
	return interaction.Question{
		ID: "deploy", Header: "Deploy", Question: "Deploy the release to production now?",
		Options: []interaction.Option{
			{Label: "Yes (Recommended)", Description: "All checks passed on main."},
			{Label: "No", Description: "Keep the release staged."},
			{Label: "Only canary"},
		},
	}
}

func TestSingleSelectEnterAnswersAtOnce(t *testing.T) {
	m := testModel(t, 100, 30)
	p := ask(t, m, single(deployQuestion()))
	s := screen(m)
	mustContain(t, s, "claude-code", "Deploy the release to production now?", "Recommended", "All checks passed on main.", "Other")
	mustNotContain(t, s, "Review")
	press(m, "down", "enter")
	r := result(t, p)
	if r.err != nil {
		t.Fatal(r.err)
	}
	got := r.answer.Answers
	if len(got) != 1 || got[0].ID != "deploy" || len(got[0].Selected) != 1 || got[0].Selected[0] != "No" || got[0].Custom != "" {
		t.Fatalf("answer = %+v, want deploy: [No]", got)
	}
	if len(m.requests) != 0 {
		t.Fatalf("answered request still on screen")
	}
	mustContain(t, screen(m), "Answer sent to claude-code", "No questions waiting")
}

func TestSingleSelectDigitPicksAndEchoesLabelExactly(t *testing.T) {
	m := testModel(t, 100, 30)
	p := ask(t, m, single(deployQuestion()))
	press(m, "1")
	r := result(t, p)
	if r.err != nil || r.answer.Answers[0].Selected[0] != "Yes (Recommended)" {
		t.Fatalf("got %+v %v, want the label exactly as sent", r.answer, r.err)
	}
}

func TestMultiSelectSpaceTogglesEnterConfirms(t *testing.T) {
	m := testModel(t, 100, 30)
	q := interaction.Question{ID: "feat", Question: "Which features?", MultiSelect: true, Options: opts("Auth", "Billing", "Search")}
	p := ask(t, m, single(q))
	mustContain(t, screen(m), "space to toggle, enter to confirm")
	press(m, "space", "down", "down", "space", "enter")
	r := result(t, p)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := strings.Join(r.answer.Answers[0].Selected, ","); got != "Auth,Search" {
		t.Fatalf("selected = %q, want Auth,Search", got)
	}
}

func TestOtherTextBecomesCustomAndDigitsNeverPick(t *testing.T) {
	m := testModel(t, 100, 30)
	p := ask(t, m, single(deployQuestion()))
	press(m, "end", "down") // the last option, then the Other row
	press(m, "wait 2 days, then 1")
	noResult(t, p)
	mustContain(t, screen(m), "wait 2 days, then 1")
	press(m, "enter")
	r := result(t, p)
	if r.err != nil {
		t.Fatal(r.err)
	}
	a := r.answer.Answers[0]
	if a.Custom != "wait 2 days, then 1" || len(a.Selected) != 0 {
		t.Fatalf("answer = %+v, want custom only", a)
	}
}

func TestFreeTextQuestion(t *testing.T) {
	m := testModel(t, 100, 30)
	p := ask(t, m, single(interaction.Question{ID: "name", Question: "Name the service?"}))
	mustContain(t, screen(m), "Type your answer")
	press(m, "billing-api", "enter")
	r := result(t, p)
	if r.err != nil || r.answer.Answers[0].Custom != "billing-api" || r.answer.Answers[0].Selected == nil {
		t.Fatalf("got %+v %v", r.answer, r.err)
	}
}

func setupRequest() interaction.Request {
	return interaction.Request{
		Agent: &interaction.Agent{ID: "codex"},
		Questions: []interaction.Question{
			{ID: "env", Header: "Environment", Question: "Where should it run?", Options: opts("Staging", "Production")},
			{ID: "db", Header: "Database", Question: "Which database?", Options: opts("Postgres (Recommended)", "SQLite")},
			{ID: "extras", Header: "Extras", Question: "Which extras?", MultiSelect: true, Options: opts("Metrics", "Tracing", "Logs")},
			{ID: "notes", Question: "Anything else?"},
		},
	}
}

func TestSeveralQuestionsTabsDraftsReviewAndSkipped(t *testing.T) {
	m := testModel(t, 100, 30)
	p := ask(t, m, setupRequest())
	mustContain(t, screen(m), "Environment", "Database", "Extras", "Q4", "Review", "Where should it run?")

	press(m, "down", "enter") // env = Production, moves to db
	mustContain(t, screen(m), "Which database?")
	press(m, "tab")           // skip db
	press(m, "space", "down") // extras: Metrics checked, cursor on Tracing, not confirmed
	press(m, "shift+tab", "shift+tab", "left", "right", "right", "right")
	// Back on extras: the draft survived the moves.
	if q := m.requests[0].questions[2]; !q.choice.Chosen[0] || q.choice.Cursor != 1 {
		t.Fatalf("draft lost: %+v", q.choice)
	}
	press(m, "tab", "tab") // notes skipped, review
	s := screen(m)
	mustContain(t, s, "Review your answers", "Production", "Metrics", "unanswered", "2 unanswered")
	press(m, "enter")
	mustContain(t, screen(m), "Submit with 2 unanswered?")
	noResult(t, p)
	press(m, "n") // back out: nothing lost
	mustContain(t, screen(m), "Review your answers", "Production")
	press(m, "enter", "y")
	r := result(t, p)
	if r.err != nil {
		t.Fatal(r.err)
	}
	want := map[string]string{"env": "Production", "db": "", "extras": "Metrics", "notes": ""}
	for i, a := range r.answer.Answers {
		if a.ID != setupRequest().Questions[i].ID {
			t.Fatalf("answers out of order: %+v", r.answer.Answers)
		}
		if got := strings.Join(a.Selected, ","); got != want[a.ID] || a.Selected == nil {
			t.Fatalf("%s = %q, want %q", a.ID, got, want[a.ID])
		}
	}
}

func TestAnsweredTabsAreMarked(t *testing.T) {
	m := testModel(t, 100, 30)
	ask(t, m, setupRequest())
	press(m, "enter") // env = Staging
	tabs := strings.Split(screen(m), "\n")[2]
	if !strings.Contains(tabs, "✓ Environment") || !strings.Contains(tabs, "○ Database") {
		t.Fatalf("tab marks wrong: %q", tabs)
	}
}

func TestDeclineNeedsConfirmationAndBackingOutKeepsDrafts(t *testing.T) {
	m := testModel(t, 100, 30)
	p := ask(t, m, setupRequest())
	press(m, "down")            // cursor on Production (not chosen)
	press(m, "tab", "tab", "x") // extras: Metrics checked
	press(m, "esc")
	mustContain(t, screen(m), "Decline codex's question?")
	press(m, "esc") // back out
	noResult(t, p)
	r := m.requests[0]
	if r.tab != 2 || !r.questions[2].choice.Chosen[0] || r.questions[0].choice.Cursor != 1 {
		t.Fatalf("drafts changed after backing out: tab %d, %+v", r.tab, r.questions[2].choice)
	}
	press(m, "esc", "y")
	res := result(t, p)
	if interaction.CodeOf(res.err) != interaction.CodeDeclined {
		t.Fatalf("err = %v, want ASK_DECLINED", res.err)
	}
}

func TestEscClearsFilterBeforeDeclining(t *testing.T) {
	m := testModel(t, 100, 30)
	ask(t, m, single(deployQuestion()))
	press(m, "/", "can", "enter", "esc")
	if m.requests[0].dialog != nil {
		t.Fatal("esc with a filter applied opened the decline dialog")
	}
	press(m, "esc")
	if m.requests[0].dialog == nil {
		t.Fatal("esc without a filter did not ask to decline")
	}
}

func TestWithdrawnRequestLeavesTheScreenVisibly(t *testing.T) {
	m := testModel(t, 100, 30)
	a := ask(t, m, single(deployQuestion()))
	b := ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: "gemini"}, Questions: []interaction.Question{{ID: "q", Question: "Second question?"}}})
	mustContain(t, screen(m), "+1 waiting (gemini)")
	send(m, withdrawMsg{id: a.id, err: interaction.Errorf(interaction.CodeAborted, "gone")})
	s := screen(m)
	mustContain(t, s, "claude-code withdrew its question", "Second question?")
	mustNotContain(t, s, "Deploy the release")
	// The program acknowledges the withdrawal with the draft (none here).
	if r := result(t, a); interaction.CodeOf(r.err) != interaction.CodeAborted {
		t.Fatalf("withdrawn request got %+v, want ASK_ABORTED", r)
	}
	noResult(t, b)
}

func TestRequestArrivingAfterItsContextEndedIsNotShown(t *testing.T) {
	m := testModel(t, 100, 30)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	askCtx(t, m, ctx, single(deployQuestion()), time.Time{})
	if len(m.requests) != 0 {
		t.Fatal("a request whose caller already left was queued")
	}
}

func TestCountdownShownAndNeverAnswers(t *testing.T) {
	m := testModel(t, 100, 30)
	p := askCtx(t, m, context.Background(), single(deployQuestion()), fixedNow.Add(90*time.Second))
	mustContain(t, screen(m), "⏱ 1:30 left")
	send(m, tickMsg(fixedNow))
	noResult(t, p)
}

func TestHostileTextIsInert(t *testing.T) {
	m := testModel(t, 100, 30)
	q := interaction.Question{
		ID: "x", Header: "\x1b[31mHdr",
		Question: "Title\x1b]0;pwned\x07 and \x1b[2Jclear\u202e",
		Options:  opts("ok\x1b[5m", "\u009b31mno"),
	}
	p := ask(t, m, single(q))
	raw := m.render()
	for _, bad := range []string{"\x1b]0;pwned", "\x1b[2J", "\x1b[5m", "\x9b", "\u202e", "\x07"} {
		if strings.Contains(raw, bad) {
			t.Fatalf("rendered screen contains %q", bad)
		}
	}
	mustContain(t, screen(m), "Title and clear")
	press(m, "enter")
	if got := result(t, p).answer.Answers[0].Selected[0]; got != "ok\x1b[5m" {
		t.Fatalf("answer %q does not echo the label exactly as sent", got)
	}
}

func TestCtrlCQuits(t *testing.T) {
	m := testModel(t, 100, 30)
	ask(t, m, single(deployQuestion()))
	_, cmd := m.Update(keyMsgs("ctrl+c")[0])
	if cmd == nil || !m.quitting {
		t.Fatal("ctrl+c did not quit")
	}
}

func TestLongQuestionScrollsAndKeepsHelpOnScreen(t *testing.T) {
	m := testModel(t, 60, 20)
	long := strings.Repeat("This sentence makes the question long. ", 40) + "THE END"
	ask(t, m, single(interaction.Question{ID: "l", Question: long, Options: opts("A", "B")}))
	s := screen(m)
	mustContain(t, s, "shift+↑/↓ to scroll", "esc decline")
	mustNotContain(t, s, "THE END")
	if n := len(strings.Split(s, "\n")); n > 20 {
		t.Fatalf("screen has %d rows, want ≤ 20", n)
	}
	press(m, "shift+down", "shift+down", "shift+down", "shift+down", "shift+down", "shift+down", "shift+down", "shift+down",
		"shift+down", "shift+down", "shift+down", "shift+down", "shift+down", "shift+down", "shift+down", "shift+down",
		"shift+down", "shift+down", "shift+down", "shift+down", "shift+down", "shift+down", "shift+down", "shift+down")
	mustContain(t, screen(m), "THE END", "A")
}

func TestResizeKeepsLayoutWithinTheScreen(t *testing.T) {
	m := testModel(t, 100, 30)
	ask(t, m, setupRequest())
	for _, size := range [][2]int{{60, 20}, {200, 60}, {80, 24}, {61, 21}} {
		send(m, teaSize(size[0], size[1]))
		mustFit(t, screen(m), size[0], size[1])
		mustContain(t, screen(m), "decline")
	}
}

func TestGrowingTheWindowShowsMoreOptions(t *testing.T) {
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
}

func TestQuestionInlineMarkdown(t *testing.T) {
	m := testModel(t, 100, 30)
	ask(t, m, single(interaction.Question{ID: "q", Question: "Keep `Charge()` as a **deprecated** wrapper?", Options: opts("Yes", "No")}))
	s := screen(m)
	mustContain(t, s, "Keep Charge() as a deprecated wrapper?")
	mustNotContain(t, s, "`", "**")
}

func TestSameWindowSizeDoesNotRebuildTheForm(t *testing.T) {
	m := testModel(t, 100, 30)
	ask(t, m, single(deployQuestion()))
	form := m.requests[0].form
	_, cmd := m.Update(teaSize(100, 30))
	if cmd != nil || m.requests[0].form != form {
		t.Fatal("an unchanged window size rebuilt the form (huh would ask for the size again, forever)")
	}
	m.Update(teaSize(90, 30))
	if m.requests[0].form == form {
		t.Fatal("a new window size did not rebuild the form")
	}
}

// TestKeysTypedBeforeCommandsRunGoToTheNextQuestion presses keys faster
// than the event loop runs the commands they return, as a fast typist or
// a paste does: a confirmed question must be left at once.
func TestKeysTypedBeforeCommandsRunGoToTheNextQuestion(t *testing.T) {
	m := testModel(t, 100, 30)
	ask(t, m, setupRequest())
	for _, k := range []string{"enter", "down", "enter", "space", "enter"} {
		m.Update(keyMsgs(k)[0]) // commands dropped on purpose
	}
	r := m.requests[0]
	if got := r.questions[0].answer().Selected; len(got) != 1 || got[0] != "Staging" {
		t.Fatalf("env = %v, want Staging", got)
	}
	if got := r.questions[1].answer().Selected; len(got) != 1 || got[0] != "SQLite" {
		t.Fatalf("db = %v, want SQLite", got)
	}
	if got := r.questions[2].answer().Selected; len(got) != 1 || got[0] != "Metrics" {
		t.Fatalf("extras = %v, want Metrics", got)
	}
	if r.tab != 3 {
		t.Fatalf("tab = %d, want 3 (the free-text question)", r.tab)
	}
	for _, k := range keyMsgs("done") {
		m.Update(k)
	}
	m.Update(keyMsgs("enter")[0])
	if !r.reviewing() || r.questions[3].answer().Custom != "done" {
		t.Fatalf("free text not confirmed at once: tab %d, %+v", r.tab, r.questions[3].answer())
	}
}

func TestQuestionMarkShowsEveryKey(t *testing.T) {
	m := testModel(t, 60, 20)
	ask(t, m, setupRequest())
	mustNotContain(t, screen(m), "page down")
	press(m, "?")
	s := screen(m)
	mustContain(t, s, "page down", "filter", "scroll question", "quit")
	if n := len(strings.Split(s, "\n")); n > 20 {
		t.Fatalf("full help pushed the screen to %d rows", n)
	}
	press(m, "?")
	mustNotContain(t, screen(m), "page down")
}
