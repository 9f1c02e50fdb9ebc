package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"go.uber.org/goleak"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/app"
	"github.com/asktui/asktui/tui/internal/tuitest"
)

func TestMain(m *testing.M) {
	tuitest.KeepRegexpClock()
	goleak.VerifyTestMain(m,
		// bubbletea does not cancel a pending tea.Tick when its program
		// ends; the timer goroutine (and a batch waiting on it) ends by
		// itself within the tick's duration (at most 4 s here).
		goleak.IgnoreAnyFunction("charm.land/bubbletea/v2.Tick.func1"),
		goleak.IgnoreAnyFunction("charm.land/bubbletea/v2.(*Program).execBatchMsg"),
		// A text input's cursor blinks on a timer that ends on its own
		// within half a second of its program.
		goleak.IgnoreAnyFunction("charm.land/bubbles/v2/cursor.(*Model).Blink.func1"),
		// chroma's regexp engine (code highlighting, internal/highlight) keeps a
		// clock goroutine (tuitest.KeepRegexpClock).
		goleak.IgnoreAnyFunction("github.com/dlclark/regexp2.runClock"),
		// teatest waits for a SIGINT for the life of the test binary.
		goleak.IgnoreAnyFunction("github.com/charmbracelet/x/exp/teatest/v2.NewTestModel.func2"),
	)
}

// probeMsg asks the event loop for the screen as it stands; the test
// program's filter answers it with the model's view, unstyled.
type probeMsg struct{ screen chan string }

// harness runs a real Program headless, 100x30 unless told otherwise,
// with its inbox registered in a service.
type harness struct {
	t       *testing.T
	prog    *Program
	svc     *interaction.Service
	clock   *settableClock
	changed chan struct{} // signalled whenever the program handles a message
	runErr  chan error
	cancel  context.CancelFunc
	release func()
	stopped bool
}

// settableClock is a key clock tests move, shared with the program's
// goroutine.
type settableClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *settableClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *settableClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

func startProgram(t *testing.T, opts ...Options) *harness {
	t.Helper()
	o := Options{}
	if len(opts) > 0 {
		o = opts[0]
	}
	w, hgt := 100, 30
	if o.Width > 0 {
		w, hgt = o.Width, o.Height
		o.Width, o.Height = 0, 0
	}
	h := &harness{t: t, clock: &settableClock{t: fixedNow}, changed: make(chan struct{}, 1), runErr: make(chan error, 1)}
	o.Theme = styles.ThemeDark
	o.now = func() time.Time { return fixedNow }
	o.clock = h.clock.now
	o.programOptions = []tea.ProgramOption{
		tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(w, hgt),
		tea.WithFilter(func(m tea.Model, msg tea.Msg) tea.Msg {
			if p, ok := msg.(probeMsg); ok {
				p.screen <- screen(m.(*app.Model))
				return nil
			}
			select {
			case h.changed <- struct{}{}:
			default:
			}
			return msg
		}),
		tea.WithoutSignals(), tea.WithEnvironment([]string{"TERM=xterm-256color"}),
	}
	h.prog = New(o)
	h.svc = interaction.NewService()
	unregister, err := h.svc.Register(h.prog.Provider())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel, h.release = cancel, unregister
	go func() { h.runErr <- h.prog.Run(ctx) }()
	t.Cleanup(h.stop)
	return h
}

func (h *harness) stop() {
	if h.stopped {
		return
	}
	h.stopped = true
	h.cancel()
	select {
	case <-h.runErr:
	case <-time.After(5 * time.Second):
		h.t.Error("program did not stop")
	}
	h.release()
}

// screen returns the program's current screen, unstyled.
func (h *harness) screen() string {
	ch := make(chan string, 1)
	h.prog.prog.Send(probeMsg{screen: ch})
	select {
	case s := <-ch:
		return s
	case <-time.After(5 * time.Second):
		h.t.Fatal("the program did not answer a probe")
		return ""
	}
}

// waitUntil returns the screen once cond holds for it, looking again
// each time the program has handled a message.
func (h *harness) waitUntil(cond func(screen string) bool) {
	h.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		s := h.screen()
		if cond(s) {
			return
		}
		select {
		case <-h.changed:
		case <-timeout:
			h.t.Fatalf("condition not met; screen:\n%s", s)
		}
	}
}

// waitFor waits until the screen shows s.
func (h *harness) waitFor(s string) {
	h.t.Helper()
	h.waitUntil(func(screen string) bool { return strings.Contains(screen, s) })
}

// press presses keys a second apart on the key clock: a human pace,
// past any arrival grace.
func (h *harness) press(keys ...string) {
	for _, k := range keys {
		for _, msg := range keyMsgs(k) {
			h.clock.set(h.clock.now().Add(time.Second))
			h.prog.prog.Send(msg)
		}
	}
}

// pressAt presses keys at time at on the key clock and returns once the
// program has handled them.
func (h *harness) pressAt(at time.Time, keys ...string) {
	h.clock.set(at)
	for _, k := range keys {
		for _, msg := range keyMsgs(k) {
			h.prog.prog.Send(msg)
		}
	}
	h.screen() // handled in order: the keys came first
}

type outcome struct {
	answer interaction.Answer
	err    error
}

func (h *harness) ask(ctx context.Context, req interaction.Request) <-chan outcome {
	ch := make(chan outcome, 1)
	go func() {
		a, err := h.svc.Ask(ctx, req)
		ch <- outcome{a, err}
	}()
	return ch
}

func wait(t *testing.T, ch <-chan outcome) outcome {
	t.Helper()
	select {
	case o := <-ch:
		return o
	case <-time.After(10 * time.Second):
		t.Fatal("Ask did not return")
		return outcome{}
	}
}

func TestRoundTripThroughProgram(t *testing.T) {
	h := startProgram(t)
	ch := h.ask(context.Background(), single(deployQuestion()))
	h.waitFor("Deploy the release to production now?")
	h.press("2")
	o := wait(t, ch)
	if o.err != nil || o.answer.Answers[0].Selected[0] != "No" {
		t.Fatalf("got %+v, %v", o.answer, o.err)
	}
}

func TestConcurrentAsksEachGetTheirOwnAnswer(t *testing.T) {
	h := startProgram(t)
	const n = 8
	chans := make([]<-chan outcome, n)
	for i := range n {
		req := interaction.Request{
			Agent:     &interaction.Agent{ID: fmt.Sprintf("agent-%d", i)},
			Questions: []interaction.Question{{ID: "q", Question: fmt.Sprintf("Question number %d?", i), Options: opts("a", "b", "c")}},
		}
		chans[i] = h.ask(context.Background(), req)
	}
	// Requests are shown in arrival order, which the test doesn't control:
	// answer whichever is shown with the option matching its number.
	answered := map[int]string{}
	for range n {
		var shown int
		h.waitUntil(func(screen string) bool {
			for i := range n {
				if _, done := answered[i]; !done && strings.Contains(screen, fmt.Sprintf("Question number %d?", i)) {
					shown = i
					return true
				}
			}
			return false
		})
		pick := shown%3 + 1
		answered[shown] = string(rune('a' + pick - 1))
		h.press(fmt.Sprint(pick))
	}
	for i, ch := range chans {
		o := wait(t, ch)
		if o.err != nil || o.answer.Answers[0].Selected[0] != answered[i] {
			t.Fatalf("ask %d: got %+v %v, want %q", i, o.answer, o.err, answered[i])
		}
	}
}

func TestCancelMidFormWithdrawsTheQuestion(t *testing.T) {
	h := startProgram(t)
	ctx, cancel := context.WithCancel(context.Background())
	ch := h.ask(ctx, single(deployQuestion()))
	h.waitFor("Deploy the release")
	h.press("down", "end", "half typed")
	cancel()
	o := wait(t, ch)
	if interaction.CodeOf(o.err) != interaction.CodeAborted {
		t.Fatalf("err = %v, want ASK_ABORTED", o.err)
	}
	h.waitFor("claude-code withdrew its question")
}

func TestTimeoutCauseIsReturned(t *testing.T) {
	h := startProgram(t)
	ctx, cancel := context.WithTimeoutCause(context.Background(), 200*time.Millisecond,
		interaction.Errorf(interaction.CodeTimeout, "no answer within 200ms"))
	defer cancel()
	o := wait(t, h.ask(ctx, single(deployQuestion())))
	if interaction.CodeOf(o.err) != interaction.CodeTimeout {
		t.Fatalf("err = %v, want ASK_TIMEOUT", o.err)
	}
}

func TestProgramExitFailsEveryWaitingAsk(t *testing.T) {
	h := startProgram(t)
	var chans []<-chan outcome
	for i := range 3 {
		q := deployQuestion()
		q.Question = fmt.Sprintf("Waiting question %d?", i)
		chans = append(chans, h.ask(context.Background(), single(q)))
	}
	h.waitFor("+2 waiting")
	h.prog.Quit()
	for _, ch := range chans {
		if o := wait(t, ch); interaction.CodeOf(o.err) != interaction.CodeProviderClosed {
			t.Fatalf("err = %v, want PROVIDER_CLOSED", o.err)
		}
	}
	// Asking after the program ended fails at once, too.
	if _, err := h.prog.Provider().Ask(context.Background(), single(deployQuestion())); interaction.CodeOf(err) != interaction.CodeProviderClosed {
		t.Fatalf("err = %v, want PROVIDER_CLOSED", err)
	}
}

func TestCtrlCEndsRunWithErrInterrupted(t *testing.T) {
	h := startProgram(t)
	ch := h.ask(context.Background(), single(deployQuestion()))
	h.waitFor("Deploy the release")
	h.press("ctrl+c")
	select {
	case err := <-h.runErr:
		if err != ErrInterrupted { //nolint:errorlint // Run returns ErrInterrupted itself, not wrapped
			t.Fatalf("Run = %v, want ErrInterrupted", err)
		}
		h.runErr <- err // for stop
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return")
	}
	if o := wait(t, ch); interaction.CodeOf(o.err) != interaction.CodeProviderClosed {
		t.Fatalf("err = %v, want PROVIDER_CLOSED", o.err)
	}
}

func TestWithdrawalCarriesTheDraft(t *testing.T) {
	h := startProgram(t)
	ctx, cancel := context.WithCancel(context.Background())
	ch := h.ask(ctx, setupRequest())
	h.waitFor("Where should it run?")
	h.press("down", "enter") // env = Production, the rest unanswered
	h.waitFor("Which database?")
	cancel()
	o := wait(t, ch)
	if interaction.CodeOf(o.err) != interaction.CodeAborted {
		t.Fatalf("err = %v, want ASK_ABORTED", o.err)
	}
	var d interface{ Draft() *interaction.Answer }
	if !errors.As(o.err, &d) || d.Draft() == nil {
		t.Fatalf("the withdrawal carries no draft: %#v", o.err)
	}
	if item, _ := d.Draft().Get("env"); len(item.Selected) != 1 || item.Selected[0] != "Production" {
		t.Fatalf("draft = %+v", d.Draft())
	}
}

// Two views of one inbox: both show the request, the first answer wins,
// and the other view says where it was answered.
func TestTwoViewsOfOneInbox(t *testing.T) {
	in := inbox.New(nil)
	defer in.Close()
	a := startProgram(t, Options{Inbox: in, Name: "left", Session: true})
	b := startProgram(t, Options{Inbox: in, Name: "right", Session: true})
	ch := a.ask(context.Background(), single(deployQuestion()))
	a.waitFor("Deploy the release")
	b.waitFor("Deploy the release")
	b.press("down") // a draft on the right that the left's answer overtakes
	a.press("3")
	if o := wait(t, ch); o.err != nil || o.answer.Answers[0].Selected[0] != "Only canary" {
		t.Fatalf("got %+v %v", o.answer, o.err)
	}
	b.waitFor("answered from left")
	a.waitFor("Answer sent to claude-code")
}

// badRequests are requests a Service would refuse, for providers asked
// without one.
func badRequests() map[string]interaction.Request {
	return map[string]interaction.Request{
		"no questions":  {},
		"duplicate ids": {Questions: []interaction.Question{deployQuestion(), deployQuestion()}},
		"long label": {Questions: []interaction.Question{{ID: "q", Question: "Pick",
			Options: opts(strings.Repeat("x", interaction.MaxLabelLen+1))}}},
		"invalid UTF-8":       {Questions: []interaction.Question{{ID: "q", Question: "Pick \xff"}}},
		"too many":            {Questions: make([]interaction.Question, interaction.MaxQuestions+1)},
		"no options, noOther": {Questions: []interaction.Question{{ID: "q", Question: "Pick", NoOther: true}}},
	}
}

// TestProviderRefusesBadRequests asks the program's provider directly, as
// a library user may, with requests a Service would refuse: each fails
// with Service's code and message, and the program lives on to answer a
// good one. Without the check, the empty request panicked in the program
// and every waiting Ask got PROVIDER_CLOSED.
func TestProviderRefusesBadRequests(t *testing.T) {
	h := startProgram(t)
	for name, req := range badRequests() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := h.prog.Provider().Ask(ctx, req)
		cancel()
		if want := req.Validate(); want == nil || err == nil || err.Error() != want.Error() {
			t.Errorf("%s: Ask = %v, want %v", name, err, want)
		}
	}
	ch := h.ask(context.Background(), single(deployQuestion()))
	h.waitFor("Deploy the release to production now?")
	h.press("2")
	if o := wait(t, ch); o.err != nil {
		t.Fatalf("the good request after the bad ones: %v", o.err)
	}
}

// TestAccessibleProviderRefusesBadRequests: the same in accessible mode,
// where nothing may be printed for a request that is refused.
func TestAccessibleProviderRefusesBadRequests(t *testing.T) {
	var out bytes.Buffer
	p := New(Options{Accessible: true, Input: strings.NewReader(""), Output: &out})
	for name, req := range badRequests() {
		_, err := p.Provider().Ask(context.Background(), req)
		if want := req.Validate(); want == nil || err == nil || err.Error() != want.Error() {
			t.Errorf("%s: Ask = %v, want %v", name, err, want)
		}
	}
	if out.Len() != 0 {
		t.Errorf("refused requests were prompted:\n%s", out.String())
	}
}

// TestZeroThemeDetects: Options' zero Theme detects the background, as
// its doc says, rather than drawing dark whatever the terminal.
func TestZeroThemeDetects(t *testing.T) {
	if got := New(Options{Input: strings.NewReader(""), Output: io.Discard}).model.Theme(); got != styles.ThemeAuto {
		t.Fatalf("the zero Theme is %q, want %q", got, styles.ThemeAuto)
	}
}

// End to end through the real program and inbox: two requests, the first
// answered by a digit, the second shown within the hold, and an Enter
// 200 ms later that must not answer it.
func TestHoldThroughTheProgram(t *testing.T) {
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
	h.waitFor("keys held a moment")
	h.pressAt(t0.Add(200*time.Millisecond), "enter")
	h.pressAt(t0.Add(time.Minute), "2")
	if r := wait(t, second); r.err != nil || r.answer.Answers[0].Selected[0] != "Deny" {
		t.Fatalf("second got %+v %v, want Deny: the Enter 200 ms after the digit must have been dropped", r.answer, r.err)
	}
}
