package app

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/tuitest"
)

// The model tests drive Update directly with synthetic keys, as huh's own
// tests do, and run inside a synctest bubble: a command that waits on a
// timer (a tick, the notice, a blinking cursor) is recognised as one
// because it is durably blocked, and is left for later instead of being
// waited for. No test sleeps.

// The fixtures and checks this package's tests share with package tui's
// (tui/internal/tuitest).
var (
	fixedNow       = tuitest.FixedNow
	keyMsgs        = tuitest.KeyMsgs
	runCmd         = tuitest.RunCmd
	flatten        = tuitest.Flatten
	mustContain    = tuitest.MustContain
	mustNotContain = tuitest.MustNotContain
	mustFit        = tuitest.MustFit
	opts           = tuitest.Opts
	single         = tuitest.Single
	deployQuestion = tuitest.DeployQuestion
	setupRequest   = tuitest.SetupRequest
)

// fakeInbox is the model's answerer in Update tests: it records what the
// model answered, declined and drafted, and can end a request first (a
// withdrawal or another view's answer racing the human).
type fakeInbox struct {
	replies map[uint64]inbox.Settlement
	ended   map[uint64]inbox.Settlement
	drafts  map[uint64]*interaction.Answer
	saves   int
}

func newFakeInbox() *fakeInbox {
	return &fakeInbox{replies: map[uint64]inbox.Settlement{}, ended: map[uint64]inbox.Settlement{}, drafts: map[uint64]*interaction.Answer{}}
}

func (f *fakeInbox) end(id uint64, s inbox.Settlement) (inbox.Settlement, bool) {
	if prev, ok := f.ended[id]; ok {
		return prev, false
	}
	if prev, ok := f.replies[id]; ok {
		return prev, false
	}
	f.replies[id] = s
	return s, true
}

func (f *fakeInbox) Answer(id uint64, a interaction.Answer) (inbox.Settlement, bool) {
	return f.end(id, inbox.Settlement{Answer: a, By: f.Name()})
}

func (f *fakeInbox) Decline(id uint64) (inbox.Settlement, bool) {
	return f.end(id, inbox.Settlement{Err: interaction.Errorf(interaction.CodeDeclined, "declined"), By: f.Name()})
}

func (f *fakeInbox) SaveDraft(id uint64, a *interaction.Answer) {
	f.drafts[id] = a
	f.saves++
}

func (f *fakeInbox) Name() string { return "test" }

// testModel builds a root model of the given size with the dark theme, a
// fixed display clock and a fake key clock. Call it inside run.
func testModel(t *testing.T, w, h int) *Model {
	t.Helper()
	m := newModel(styles.ThemeDark, true, func() time.Time { return fixedNow })
	m.clock = func() time.Time { return fixedNow } // the key clock; see advance
	m.answers = newFakeInbox()
	send(m, tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// run runs a model test in a synctest bubble. The timers its commands
// left waiting fire when it ends: time in a bubble is fake, so letting an
// hour pass takes no time, and every command goroutine then returns.
func run(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		defer func() {
			time.Sleep(time.Hour) // fake time: fires the pending timers at once
			synctest.Wait()
			clear(parked)
		}()
		f(t)
	})
}

func fake(m *Model) *fakeInbox { return m.answers.(*fakeInbox) }

// pending is a request delivered to a model.
type pending struct {
	id uint64
	m  *Model
}

var nextTestID uint64

// ask delivers req to m as the inbox would.
func ask(t *testing.T, m *Model, req interaction.Request) pending {
	t.Helper()
	return askDeadline(t, m, req, time.Time{})
}

func askDeadline(t *testing.T, m *Model, req interaction.Request, deadline time.Time) pending {
	t.Helper()
	if err := req.Validate(); err != nil {
		t.Fatalf("test request is invalid: %v", err)
	}
	nextTestID++
	send(m, askMsg{req: &inbox.Request{ID: nextTestID, Request: req, Arrived: fixedNow, Deadline: deadline}})
	return pending{id: nextTestID, m: m}
}

// withdraw ends p as its caller withdrawing it (or timing out) would.
func withdraw(p pending, err error) {
	s := inbox.Settlement{Err: err}
	fake(p.m).ended[p.id] = s
	send(p.m, settledMsg{id: p.id, s: s})
}

// send delivers msg and then every message its commands produce at once,
// like the event loop would. A command that is still waiting (on a timer,
// or on an agent's turn) is parked; its message is delivered by a later
// send once it has come.
func send(m *Model, msg tea.Msg) {
	_, cmd := m.Update(msg)
	drain(m, cmd)
	for {
		synctest.Wait()
		var ready []tea.Msg
		left := parked[m][:0]
		for _, ch := range parked[m] {
			select {
			case msg := <-ch:
				ready = append(ready, msg)
			default:
				left = append(left, ch)
			}
		}
		parked[m] = left
		if len(ready) == 0 {
			return
		}
		for _, msg := range ready {
			deliver(m, msg)
		}
	}
}

// parked holds each model's commands still waiting, by their result
// channel. Tests in a bubble run one at a time per model.
var parked = map[*Model][]chan tea.Msg{}

// drain runs cmd and the commands that follow from it, delivering their
// messages to m. It must run inside a synctest bubble: a command still
// blocked once every goroutine of the bubble is blocked is waiting (on a
// timer, say), and is parked.
func drain(m *Model, cmd tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg, ch := runCmd(c)
		if ch != nil {
			parked[m] = append(parked[m], ch)
			continue
		}
		queue = append(queue, deliverCmds(m, msg)...)
	}
}

// deliver hands msg (and what follows from it) to m.
func deliver(m *Model, msg tea.Msg) { drain(m, func() tea.Msg { return msg }) }

// deliverCmds hands msg to m and returns the commands that follow.
func deliverCmds(m *Model, msg tea.Msg) []tea.Cmd {
	switch msg := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		return msg
	default:
		_, next := m.Update(msg)
		return []tea.Cmd{next}
	}
}

// press sends key presses a second apart (a human pace, past any grace):
// names like "enter", "shift+tab", "down", "space", "esc", or any other
// string typed rune by rune.
func press(m *Model, keys ...string) {
	pressEvery(m, time.Second, keys...)
}

// pressEvery sends key presses gap apart on the key clock.
func pressEvery(m *Model, gap time.Duration, keys ...string) {
	for _, k := range keys {
		for _, msg := range keyMsgs(k) {
			advance(m, gap)
			send(m, msg)
		}
	}
}

// advance moves the model's key clock on.
func advance(m *Model, d time.Duration) {
	now := m.clock()
	m.clock = func() time.Time { return now.Add(d) }
}

// stripped is s without escape sequences.
func stripped(s string) string { return ansi.Strip(s) }

// screen is the model's view without styling.
func screen(m *Model) string {
	return ansi.Strip(m.render())
}

// result returns the reply the model gave the request, failing if none.
func result(t *testing.T, p pending) inbox.Settlement {
	t.Helper()
	s, ok := fake(p.m).replies[p.id]
	if !ok {
		t.Fatalf("request %d got no reply", p.id)
	}
	return s
}

func noResult(t *testing.T, p pending) {
	t.Helper()
	if s, ok := fake(p.m).replies[p.id]; ok {
		t.Fatalf("request %d got an unexpected reply: %+v", p.id, s)
	}
}

func teaSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

func ansiWidth(s string) int { return ansi.StringWidth(s) }

// settled is a request answered from another view.
func settled(by string) inbox.Settlement {
	return inbox.Settlement{Answer: interaction.Answer{Answers: []interaction.AnswerItem{{ID: "deploy", Selected: []string{"No"}}}}, By: by}
}

// inboxRequest is a request as the inbox hands it to views.
type inboxRequest = inbox.Request

// glance lets a second pass with the screen as it is, as a human reading
// it would: the arrival hold on what was just shown ends.
func glance(m *Model) {
	advance(m, time.Second)
	send(m, holdMsg{seq: m.hold.seq})
}

// maxLineWidth is the widest line of s, in cells.
func maxLineWidth(s string) int {
	w := 0
	for l := range strings.SplitSeq(s, "\n") {
		w = max(w, cell.Width(l))
	}
	return w
}
