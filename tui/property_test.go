package tui

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"go.uber.org/goleak"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/activity"
	"github.com/asktui/asktui/tui/internal/app"
)

// The property test's knobs. A failure logs its seed; run it again with
//
//	go test -race -run TestPropertyConcurrentAsks ./tui -args -property.seed=SEED
//
// and soak with -property.rounds (or ASKTUI_PROPERTY_ROUNDS) set high.
var (
	propertySeed   = flag.Uint64("property.seed", 0, "seed of TestPropertyConcurrentAsks (0 picks a random one)")
	propertyRounds = flag.Int("property.rounds", 0, "rounds of TestPropertyConcurrentAsks (0 means $ASKTUI_PROPERTY_ROUNDS, else a default sized for CI)")
)

// defaultPropertyRounds keeps the test at a couple of seconds under -race
// on two cores.
const defaultPropertyRounds = 12

// propertyDeadline bounds each wait of a round: it turns a hang into a
// failure and never decides whether the test passes.
const propertyDeadline = time.Minute

func propertySettings(t *testing.T) (seed uint64, rounds int) {
	t.Helper()
	seed = *propertySeed
	if seed == 0 {
		seed = rand.Uint64() //nolint:gosec // a seeded source, so that a failing case can be replayed
	}
	rounds = *propertyRounds
	if rounds <= 0 {
		if env := os.Getenv("ASKTUI_PROPERTY_ROUNDS"); env != "" {
			n, err := strconv.Atoi(env)
			if err != nil || n <= 0 {
				t.Fatalf("ASKTUI_PROPERTY_ROUNDS=%q: want a positive number", env)
			}
			rounds = n
		}
	}
	if rounds <= 0 {
		rounds = defaultPropertyRounds
		if testing.Short() {
			rounds /= 4
		}
	}
	return seed, rounds
}

// TestPropertyConcurrentAsks runs rounds of a real program with many
// goroutines asking at once, contexts ending at random moments and a
// "human" pressing random keys, and checks what every Ask must guarantee:
// it returns (exactly once), with an answer consistent with its request or
// with a known coded error; ASK_ABORTED only for a context that ended;
// PROVIDER_CLOSED only once the program is gone, and at once for any Ask
// after that; the screen says an answer was sent (or a request declined)
// exactly as often as a caller got one; and no goroutine outlives the
// program.
func TestPropertyConcurrentAsks(t *testing.T) {
	seed, rounds := propertySettings(t)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("replay with: go test -race -run TestPropertyConcurrentAsks ./tui -args -property.seed=%d -property.rounds=%d", seed, rounds)
		}
	})
	// Timers a program leaves behind end by themselves: a pending tea.Tick
	// within its duration (see TestMain), a text cursor's blink within
	// half a second.
	before := goleak.IgnoreCurrent()
	timers := []goleak.Option{
		goleak.IgnoreAnyFunction("charm.land/bubbletea/v2.Tick.func1"),
		goleak.IgnoreAnyFunction("charm.land/bubbletea/v2.(*Program).execBatchMsg"),
	}
	blink := goleak.IgnoreAnyFunction("charm.land/bubbles/v2/cursor.(*Model).Blink.func1")
	outcomes := map[string]int{}
	defer func() { t.Logf("seed %d, %d rounds, outcomes: %v", seed, rounds, outcomes) }()
	for round := range rounds {
		rng := rand.New(rand.NewPCG(seed, uint64(round))) //nolint:gosec // a seeded source, so that a failing case can be replayed
		if !propertyRound(t, rng, outcomes) {
			t.Errorf("seed %d, round %d failed", seed, round)
			return
		}
	}
	goleak.VerifyNone(t, append(timers, before, blink)...)
}

// knownCodes are the errors an Ask of the program may return.
var knownCodes = map[interaction.Code]bool{
	interaction.CodeAborted:        true,
	interaction.CodeDeclined:       true,
	interaction.CodeTimeout:        true,
	interaction.CodeProviderClosed: true,
}

// endings are the ways a round ends the program.
type ending int

const (
	endQuit        ending = iota // Program.Quit while requests wait
	endRunContext                // the Run context is cancelled
	endCtrlC                     // the human presses ctrl+c
	endWithdrawAll               // every caller leaves, then Quit
	numEndings
)

func (e ending) String() string {
	return [...]string{"Quit", "Run context", "ctrl+c", "withdraw all, then Quit"}[e]
}

// cancelMode is when an asker's context ends.
type cancelMode int

const (
	cancelNever       cancelMode = iota // only if the round's ending withdraws them all
	cancelBefore                        // before Ask is called
	cancelAfterKeys                     // after the human's n-th action
	cancelWhenever                      // by a goroutine of its own, soon
	cancelWithTimeout                   // like cancelAfterKeys, with an ASK_TIMEOUT cause
	numCancelModes
)

// randomCancelMode leaves about half of the contexts to the human and
// the round's end.
func randomCancelMode(rng *rand.Rand) cancelMode {
	if rng.IntN(2) == 0 {
		return cancelNever
	}
	return cancelMode(1 + rng.IntN(int(numCancelModes)-1))
}

// asker is one asking goroutine's plan and what it observed.
type asker struct {
	req     interaction.Request
	mode    cancelMode
	afterN  int // for cancelAfterKeys and cancelWithTimeout
	spins   int // yields before asking
	ctx     context.Context
	cancel  context.CancelCauseFunc
	cause   error // the cause the context ends with
	report  bool  // report some activity before asking
	answer  interaction.Answer
	err     error
	ctxDone bool // the context had ended when Ask returned
	closed  bool // the program had exited when Ask returned
}

// propertyRound runs one program to its end and checks every Ask; it
// reports whether the round passed.
func propertyRound(t *testing.T, rng *rand.Rand, outcomes map[string]int) bool {
	t.Helper()
	sizes := [][2]int{{60, 20}, {80, 24}, {100, 30}, {140, 40}}
	size := sizes[rng.IntN(len(sizes))]
	theme := styles.ThemeDark
	if rng.IntN(3) == 0 {
		theme = styles.ThemeLight
	}
	end := ending(rng.IntN(int(numEndings)))
	p := New(Options{
		Theme:   theme,
		Session: rng.IntN(4) != 0,
		Inline:  rng.IntN(5) == 0,
		Alerts:  Alerts{Bell: rng.IntN(2) == 0, Title: rng.IntN(2) == 0, Notify: rng.IntN(2) == 0},
		now:     func() time.Time { return fixedNow },
		programOptions: []tea.ProgramOption{
			tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(size[0], size[1]),
			tea.WithFilter(probeFilter),
			tea.WithoutSignals(), tea.WithEnvironment([]string{"TERM=xterm-256color"}),
		},
	})
	prov := p.inbox
	runCtx, cancelRun := context.WithCancel(context.Background())
	defer cancelRun()
	runErr := make(chan error, 1)
	// Sometimes the program starts only after the first Asks: they wait
	// in the provider's queue.
	lateStart := rng.IntN(4) == 0
	start := func() { go func() { runErr <- p.Run(runCtx) }() }
	if !lateStart {
		start()
	}

	// Plan the askers up front, each with its own random source, so the
	// seed replays the same plans whatever the scheduling.
	askers := make([]*asker, 1+rng.IntN(8))
	for i := range askers {
		a := &asker{req: randomRequest(rng, fmt.Sprintf("a%d-", i)), mode: randomCancelMode(rng), spins: rng.IntN(200), report: rng.IntN(3) == 0}
		if err := a.req.Validate(); err != nil {
			t.Fatalf("the test built an invalid request: %v", err)
		}
		a.afterN = rng.IntN(30)
		a.ctx, a.cancel = context.WithCancelCause(context.Background())
		a.cause = context.Canceled
		if a.mode == cancelWithTimeout {
			a.cause = interaction.Errorf(interaction.CodeTimeout, "no answer in time")
		}
		askers[i] = a
	}
	actions := rng.IntN(30)
	human := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))    //nolint:gosec // a seeded source, so that a failing case can be replayed
	spinners := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64())) //nolint:gosec // a seeded source, so that a failing case can be replayed

	var returned atomic.Int32
	var wg sync.WaitGroup
	for _, a := range askers {
		if a.mode == cancelBefore {
			a.cancel(a.cause)
		}
		cancelSpins := spinners.IntN(300)
		wg.Go(func() {
			for range a.spins {
				runtime.Gosched()
			}
			if a.report {
				prov.Report(interaction.Activity{Agent: *agentOf(a.req), Kind: interaction.ActivityThinking, Text: "Thinking it over"})
			}
			a.answer, a.err = prov.Ask(a.ctx, a.req)
			a.ctxDone = a.ctx.Err() != nil
			select {
			case <-p.done:
				a.closed = true
			default:
			}
			returned.Add(1)
		})
		if a.mode == cancelWhenever {
			wg.Go(func() {
				for range cancelSpins {
					runtime.Gosched()
				}
				a.cancel(a.cause)
			})
		}
	}

	if lateStart {
		for range rng.IntN(100) {
			runtime.Gosched()
		}
		start()
	}

	// The human: random keys, now and then a look at the screen (which
	// waits until the program has taken every key so far) or a resize;
	// contexts planned to end after some of its actions end then.
	for n := range actions {
		for _, a := range askers {
			if (a.mode == cancelAfterKeys || a.mode == cancelWithTimeout) && a.afterN == n {
				a.cancel(a.cause)
			}
		}
		switch human.IntN(20) {
		case 0:
			look(p)
		case 1:
			s := sizes[human.IntN(len(sizes))]
			p.link.Send(tea.WindowSizeMsg{Width: s[0], Height: s[1]})
		case 2, 3, 4, 5:
			// Keys given to Press queue behind the requests already sent.
			if err := p.Press(randomKeys(human)...); err != nil {
				t.Fatalf("Press: %v", err)
			}
		default:
			// Keys from the keyboard go straight to the event loop, so
			// they race with arriving and withdrawn requests.
			for _, k := range randomKeys(human) {
				for _, m := range keyMsgs(k) {
					p.prog.Send(m)
				}
			}
		}
		if human.IntN(3) == 0 {
			runtime.Gosched()
		}
	}

	switch end {
	case endQuit:
		p.Quit()
	case endRunContext:
		cancelRun()
	case endCtrlC:
		if err := p.Press("ctrl+c"); err != nil {
			t.Fatalf("Press: %v", err)
		}
	case endWithdrawAll:
		for _, a := range askers {
			a.cancel(a.cause)
		}
		p.Quit()
	}

	deadline := time.NewTimer(propertyDeadline)
	defer deadline.Stop()
	var err error
	select {
	case err = <-runErr:
	case <-deadline.C:
		p.Quit()
		cancelRun()
		t.Errorf("ending by %v: Run did not return within %v", end, propertyDeadline)
		return false
	}
	switch {
	case end == endCtrlC && err != nil && !errors.Is(err, ErrInterrupted):
		// ErrInterrupted when questions still waited, nil when none did
		// (TestCtrlCExitRule pins which).
		t.Errorf("Run after ctrl+c = %v, want ErrInterrupted or nil", err)
	case end == endRunContext && err != nil && !errors.Is(err, context.Canceled):
		// The context's cause when questions still waited, else nil.
		t.Errorf("Run ending by %v = %v, want nil or the context's cause", end, err)
	case end != endCtrlC && end != endRunContext && err != nil:
		t.Errorf("Run ending by %v = %v, want nil", end, err)
	}

	all := make(chan struct{})
	go func() { wg.Wait(); close(all) }()
	select {
	case <-all:
	case <-deadline.C:
		t.Errorf("only %d of %d Asks returned within %v of the program's end", returned.Load(), len(askers), propertyDeadline)
		for _, a := range askers {
			a.cancel(a.cause) // let the test end
		}
		return false
	}
	if n := int(returned.Load()); n != len(askers) {
		t.Errorf("%d Asks returned, want %d", n, len(askers))
	}

	ok := !t.Failed()
	if msg := screenAgrees(p.model, askers); msg != "" {
		t.Errorf("ending by %v: %s", end, msg)
		ok = false
	}
	for i, a := range askers {
		outcomes[a.outcome()]++
		if msg := a.check(); msg != "" {
			t.Errorf("ask %d (cancel mode %d, ending by %v): %s\nrequest: %+v", i, a.mode, end, msg, a.req)
			ok = false
		}
		a.cancel(nil)
	}

	// Asking after the end fails at once.
	late := make(chan error, 1)
	go func() {
		_, err := prov.Ask(context.Background(), randomRequest(rng, "late-"))
		late <- err
	}()
	select {
	case err := <-late:
		if interaction.CodeOf(err) != interaction.CodeProviderClosed {
			t.Errorf("Ask after the program ended: err = %v, want PROVIDER_CLOSED", err)
			ok = false
		}
	case <-deadline.C:
		t.Errorf("Ask after the program ended did not return")
		return false
	}
	return ok
}

// outcome names the asker's outcome for the test's statistics.
func (a *asker) outcome() string {
	if a.err == nil {
		return "answered"
	}
	var d interface{ Draft() *interaction.Answer }
	if errors.As(a.err, &d) && d.Draft() != nil {
		return string(interaction.CodeOf(a.err)) + "+draft"
	}
	return string(interaction.CodeOf(a.err))
}

// screenAgrees compares what the screen told the human (answers sent,
// requests declined, in the activity log) with what the callers got, once
// the program has ended; it returns what disagrees, or "".
func screenAgrees(m *app.Model, askers []*asker) string {
	var sent, declined, answered, refused int
	for _, e := range m.Log().Entries() {
		switch e.Kind {
		case activity.EntryAnswered:
			sent++
		case activity.EntryDeclined:
			declined++
		}
	}
	for _, a := range askers {
		switch {
		case a.err == nil:
			answered++
		case interaction.CodeOf(a.err) == interaction.CodeDeclined:
			refused++
		}
	}
	if sent != answered || declined != refused {
		var got []string
		for _, a := range askers {
			got = append(got, a.outcome())
		}
		return fmt.Sprintf("the screen said %d answers were sent and %d requests declined, but %d callers got an answer and %d ASK_DECLINED (outcomes %v)",
			sent, declined, answered, refused, got)
	}
	return ""
}

// check returns what is wrong with the asker's outcome, or "".
func (a *asker) check() string {
	if a.err == nil {
		if err := a.answer.Check(a.req); err != nil {
			return fmt.Sprintf("the answer %+v fails Check: %v", a.answer, err)
		}
		if len(a.answer.Answers) != len(a.req.Questions) {
			return fmt.Sprintf("the answer has %d items for %d questions: %+v", len(a.answer.Answers), len(a.req.Questions), a.answer)
		}
		for _, q := range a.req.Questions {
			if _, ok := a.answer.Get(q.ID); !ok {
				return fmt.Sprintf("the answer has no item for question %q: %+v", q.ID, a.answer)
			}
		}
		return ""
	}
	code := interaction.CodeOf(a.err)
	if !knownCodes[code] {
		return fmt.Sprintf("error %v has code %q, not one of the known ones", a.err, code)
	}
	switch code {
	case interaction.CodeAborted, interaction.CodeTimeout:
		if !a.ctxDone {
			return fmt.Sprintf("%s for a context that had not ended: %v", code, a.err)
		}
		if want := interaction.CodeOf(interaction.ContextError(a.ctx)); code != want {
			return fmt.Sprintf("the context ended with %s but Ask returned %v", want, a.err)
		}
		var d interface{ Draft() *interaction.Answer }
		if errors.As(a.err, &d) && d.Draft() != nil {
			if err := d.Draft().Check(a.req); err != nil {
				return fmt.Sprintf("the withdrawal's draft %+v fails Check: %v", d.Draft(), err)
			}
		}
	case interaction.CodeProviderClosed:
		if !a.closed {
			return fmt.Sprintf("PROVIDER_CLOSED while the program still ran: %v", a.err)
		}
	}
	return ""
}

// look waits until the program has taken every message queued so far
// and drawn its screen, as a human glancing at it would; it gives up when
// the program has ended.
func look(p *Program) {
	ch := make(chan string, 1)
	p.link.Send(probeMsg{screen: ch})
	select {
	case <-ch:
	case <-p.done:
	}
}

// probeFilter answers a probeMsg with the model's screen, unstyled.
func probeFilter(m tea.Model, msg tea.Msg) tea.Msg {
	if p, ok := msg.(probeMsg); ok {
		p.screen <- screen(m.(*app.Model))
		return nil
	}
	return msg
}

// humanKeys are the keys the random human presses, the common ones listed
// more than once.
var humanKeys = []string{
	"enter", "enter", "enter", "esc", "esc", "y", "y", "n",
	"up", "down", "down", "left", "right", "tab", "tab", "shift+tab",
	"space", "space", "backspace", "home", "end", "pgup", "pgdown",
	"shift+up", "shift+down", "alt+enter", "ctrl+n", "ctrl+n", "ctrl+p",
	"ctrl+t", "ctrl+o", "/", "?", "c", "j", "k",
}

// humanPhrases are sequences that get somewhere: choose, answer every
// tab and submit, decline and confirm, type and confirm.
var humanPhrases = [][]string{
	{"1"}, {"2"}, {"enter"},
	{"3", "enter", "enter", "enter", "enter"},
	{"esc", "y"},
	{"tab", "tab", "tab", "tab", "enter", "y"},
	{"space", "down", "space", "enter"},
	{"sure thing", "enter"},
	{"/", "Opt", "enter"},
}

// randomKeys returns what the human presses next: a key, some text or a
// phrase.
func randomKeys(rng *rand.Rand) []string {
	if rng.IntN(3) == 0 {
		return humanPhrases[rng.IntN(len(humanPhrases))]
	}
	return []string{randomKey(rng)}
}

func randomKey(rng *rand.Rand) string {
	switch rng.IntN(6) {
	case 0:
		return strconv.Itoa(1 + rng.IntN(9))
	case 1:
		words := []string{"a", "x", "post", "Option", "yes", "no way", "日本", "é"}
		return words[rng.IntN(len(words))]
	default:
		return humanKeys[rng.IntN(len(humanKeys))]
	}
}

// The agents random requests come from; the zero one means none.
var propertyAgents = []interaction.Agent{
	{ID: "claude-code", Name: "Claude Code"},
	{ID: "codex"},
	{ID: "gemini", Name: "gemini-cli"},
	{ID: "aider", Name: "\x1b[31maider\x1b[0m"},
	{},
}

// randomRequest builds a valid request of 1–4 questions: single- and
// multi-select with varied option counts, free text, with and without
// headers and descriptions. Question ids start with prefix, so an answer
// delivered to the wrong Ask fails Check.
func randomRequest(rng *rand.Rand, prefix string) interaction.Request {
	texts := []string{
		"Deploy the release to production now?",
		"Which database should the service use?",
		"Anything else I should know?",
		"Pick the **regions** to roll out to, `eu-west-1` first",
		"A long question that goes on and on " + strings.Repeat("and on ", 40) + "until it wraps many times.",
		"Line one\nline two\n\nline four",
		"¿Qué base de datos? 日本語 🎉",
		"Weird \x1b]0;title\x07 text \u202e reversed",
	}
	var req interaction.Request
	if a := propertyAgents[rng.IntN(len(propertyAgents))]; a != (interaction.Agent{}) {
		req.Agent = &a
	}
	n := 1 + rng.IntN(4)
	for i := range n {
		q := interaction.Question{ID: fmt.Sprintf("%sq%d", prefix, i+1), Question: texts[rng.IntN(len(texts))]}
		if rng.IntN(2) == 0 {
			q.Header = []string{"Deploy", "Storage", "Regions", "Notes", "A rather long header for a tab"}[rng.IntN(5)]
		}
		switch rng.IntN(3) {
		case 0: // free text
		default:
			q.MultiSelect = rng.IntN(2) == 0
			count := 1 + rng.IntN(6)
			if rng.IntN(5) == 0 {
				count = 10 + rng.IntN(30)
			}
			for j := range count {
				o := interaction.Option{Label: fmt.Sprintf("Option %d", j+1)}
				if j == 0 && rng.IntN(2) == 0 {
					o.Label += " (Recommended)"
				}
				if rng.IntN(3) == 0 {
					o.Description = "What choosing option " + strconv.Itoa(j+1) + " means"
				}
				q.Options = append(q.Options, o)
			}
		}
		req.Questions = append(req.Questions, q)
	}
	return req
}

// agentOf returns the request's agent, or an anonymous one.
func agentOf(req interaction.Request) *interaction.Agent {
	if req.Agent != nil {
		return req.Agent
	}
	return &interaction.Agent{ID: "anonymous"}
}
