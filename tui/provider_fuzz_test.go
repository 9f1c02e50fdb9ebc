package tui

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/app"
)

// FuzzProvider throws requests straight at the tui provider, as a library
// user may, with no Service in front: empty ones, duplicate ids, labels
// at and over their limit, invalid UTF-8, escape sequences, Markdown,
// hundreds and thousands of questions, thousands of options. A request the
// Service would refuse must fail with the Service's code and message; any
// other is drawn by one of three programs (the one-shot panel, the same
// inline, and the session view; the input picks) at a size the input
// picks, takes a few keys, and is then withdrawn. An answer the keys
// produce must fit the request.
//
// The programs run without bubbletea's panic recovery, so a panic in any
// of them (in Update, View or a command) ends the fuzzing process and Go
// keeps the input that did it. After each input, the program must have
// handled everything sent to it and still run.
func FuzzProvider(f *testing.F) {
	for _, seed := range fuzzProviderSeeds() {
		f.Add(seed)
	}
	views := startFuzzViews(f)
	f.Fuzz(func(t *testing.T, data []byte) { views.ask(t, data) })
}

// ask is one input of FuzzProvider.
func (views *fuzzViews) ask(t testing.TB, data []byte) {
	{
		g := &reqGen{data: data}
		req := g.request()
		v := views.pick(g.byte())
		w, h := g.size()
		keys := g.keys()

		want := req.Validate()
		queued := make(chan struct{}, 1)
		ctx, cancel := context.WithCancel(interaction.WithQueued(context.Background(), func() {
			select {
			case queued <- struct{}{}:
			default:
			}
		}))
		defer cancel()
		type result struct {
			ans interaction.Answer
			err error
		}
		done := make(chan result, 1)
		go func() {
			ans, err := v.inbox.Ask(ctx, req)
			done <- result{ans, err}
		}()

		if want != nil {
			r := awaitResult(t, done)
			if r.err == nil || r.err.Error() != want.Error() {
				t.Fatalf("Ask(%s) = %v, want Validate's %v", describe(req), r.err, want)
			}
			return
		}
		v.prog.Resize(w, h)

		select {
		case <-queued:
		case r := <-done:
			t.Fatalf("Ask(%s) returned before the request was queued: %+v, %v", describe(req), r.ans, r.err)
		case <-time.After(time.Minute):
			t.Fatalf("Ask(%s) was not queued within a minute", describe(req))
		}
		v.barrier(t) // drawn
		if len(keys) > 0 {
			if err := v.prog.Press(keys...); err != nil {
				t.Fatal(err)
			}
			v.barrier(t)
		}
		cancel()
		r := awaitResult(t, done)
		switch code := interaction.CodeOf(r.err); {
		case r.err == nil:
			if err := r.ans.Check(req); err != nil {
				t.Fatalf("keys %q answered %s with an answer that does not fit it: %v", keys, describe(req), err)
			}
		case code != interaction.CodeAborted && code != interaction.CodeDeclined:
			t.Fatalf("keys %q on %s: Ask = %v, want an answer, ASK_ABORTED or ASK_DECLINED", keys, describe(req), r.err)
		}
		v.barrier(t) // the withdrawal drawn too
	}
}

func awaitResult[R any](t testing.TB, ch <-chan R) R {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(time.Minute):
		t.Fatal("Ask did not return within a minute")
		var zero R
		return zero
	}
}

// describe names a request briefly for a failure message.
func describe(req interaction.Request) string {
	opts := 0
	for _, q := range req.Questions {
		opts += len(q.Options)
	}
	return fmt.Sprintf("a request of %d questions and %d options", len(req.Questions), opts)
}

// fuzzViews are the programs under fuzz, each the one view of its own
// inbox, so an input costs one program's work.
type fuzzViews []*fuzzView

type fuzzView struct {
	inbox  *inbox.Inbox
	prog   *Program
	runErr chan error
}

// pick returns the view the input byte b picks.
func (views fuzzViews) pick(b byte) *fuzzView { return views[int(b)%len(views)] }

// barrierMsg is a message the fuzz test's filter answers: when it comes
// out of the event loop, every message sent before it has been handled
// and drawn.
type barrierMsg struct{ seen chan struct{} }

func startFuzzViews(tb testing.TB) fuzzViews {
	filter := tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
		if b, ok := msg.(barrierMsg); ok {
			close(b.seen)
			return nil
		}
		return msg
	})
	ctx, cancel := context.WithCancel(context.Background())
	var views fuzzViews
	for _, o := range []Options{{}, {Inline: true}, {Session: true}} {
		v := &fuzzView{inbox: inbox.New(nil), runErr: make(chan error, 1)}
		o.Inbox = v.inbox
		o.Theme = styles.ThemeDark
		o.now = func() time.Time { return fixedNow }
		o.programOptions = []tea.ProgramOption{
			tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(80, 24),
			tea.WithoutSignals(), tea.WithEnvironment([]string{"TERM=xterm-256color"}),
			tea.WithoutCatchPanics(), filter,
		}
		v.prog = New(o)
		go func() { v.runErr <- v.prog.Run(ctx) }()
		views = append(views, v)
	}
	tb.Cleanup(func() {
		cancel()
		for _, v := range views {
			<-v.runErr
			v.inbox.Close()
		}
	})
	return views
}

// barrier returns once the view has handled every message sent to it so
// far and drawn the result, and fails the test if the program has ended.
// The model draws at most once a frame; app.RedrawMsg makes it draw now.
func (v *fuzzView) barrier(t testing.TB) {
	t.Helper()
	b := barrierMsg{seen: make(chan struct{})}
	v.prog.link.Send(app.RedrawMsg())
	v.prog.link.Send(b)
	select {
	case <-b.seen:
	case err := <-v.runErr:
		v.runErr <- err
		t.Fatalf("the program ended: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("the program did not handle its messages within a minute")
	}
}

// reqGen turns fuzz input into a request, the sizes of the views and the
// keys to press. When the input runs out, it fills in a plain, valid
// question, so a few bytes can ask for a hundred questions or a thousand
// options that are all drawable.
type reqGen struct {
	data []byte
}

func (g *reqGen) byte() byte {
	if len(g.data) == 0 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return b
}

func (g *reqGen) exhausted() bool { return len(g.data) == 0 }

// nasty is text that has broken terminal UIs: escape and control
// sequences, bidirectional controls, wide and combining characters, a
// zero-width joiner sequence, tabs and line breaks.
const nasty = "\x1b[2J\x1b]0;pwned\x07\x1b[31mred\x1b[0m \u202eevil\u202c 界界 e\u0301 👩‍👩‍👧 \t tab\r\nline\x00\x7f\u0085"

// markdown is Markdown as agents send it in details and previews.
const markdownText = "# Plan\n\n1. **Add** the index\n2. Drop `old`\n\n```sql\nCREATE INDEX i ON t (c);\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted [link](http://x) ![img](y)\n"

// str makes a string of at most about limit bytes: raw input bytes (which
// may be invalid UTF-8 or escape sequences), or, for a few length codes,
// one at the limit, one over it, nasty text or Markdown. def is used when
// the input has run out.
func (g *reqGen) str(limit int, def string) string {
	if g.exhausted() {
		return def
	}
	n := int(g.byte())
	switch n {
	case 250:
		return strings.Repeat("界", limit/3) // at the limit, wide
	case 251:
		return strings.Repeat("x", limit+1) // over it
	case 252:
		return nasty
	case 253:
		return markdownText
	case 254:
		return strings.Repeat("word ", min(limit, 20_000)/5) // long, wraps
	case 255:
		return ""
	}
	n = min(n, len(g.data))
	s := string(g.data[:n])
	g.data = g.data[n:]
	return s
}

func (g *reqGen) request() interaction.Request {
	var req interaction.Request
	flags := g.byte()
	if flags&1 != 0 {
		req.Agent = &interaction.Agent{ID: g.str(interaction.MaxIDLen, "agent"), Name: g.str(interaction.MaxIDLen, "")}
	}
	var n int
	switch c := g.byte() % 16; {
	case c < 12:
		n = int(c)%5 + 1
	case c == 12:
		n = 0
	case c == 13:
		n = interaction.MaxQuestions
	case c == 14:
		n = interaction.MaxQuestions + 1
	default:
		n = 3000
	}
	req.Questions = make([]interaction.Question, n)
	for i := range req.Questions {
		req.Questions[i] = g.question(i)
	}
	return req
}

func (g *reqGen) question(i int) interaction.Question {
	q := interaction.Question{
		ID:       g.str(interaction.MaxIDLen, fmt.Sprintf("q%d", i+1)),
		Question: g.str(interaction.MaxQuestionLen, fmt.Sprintf("Question %d?", i+1)),
	}
	if g.exhausted() {
		return q
	}
	flags := g.byte()
	q.MultiSelect = flags&1 != 0
	q.NoOther = flags&2 != 0
	if flags&4 != 0 {
		q.Header = g.str(interaction.MaxHeaderLen, "")
	}
	if flags&8 != 0 {
		q.Detail = g.str(interaction.MaxDetailLen, "")
	}
	var n int
	switch c := g.byte() % 16; {
	case c < 6:
		n = int(c)
	case c == 6:
		n = 50
	case c == 7:
		n = 1000
	default:
		n = int(c) % 4
	}
	for j := range n {
		o := interaction.Option{Label: g.str(interaction.MaxLabelLen, fmt.Sprintf("option %d", j+1))}
		if !g.exhausted() {
			of := g.byte()
			if of&1 != 0 {
				o.Description = g.str(interaction.MaxDescriptionLen, "")
			}
			if of&2 != 0 {
				o.Preview = g.str(interaction.MaxPreviewLen, "")
			}
		}
		q.Options = append(q.Options, o)
	}
	return q
}

// fuzzKeys are the keys the input presses: everything a human might,
// but ctrl+c (which ends the program, as it should).
var fuzzKeys = []string{
	"enter", "esc", "tab", "shift+tab", "up", "down", "left", "right", "space",
	"backspace", "home", "end", "pgup", "pgdown", "f1", "alt+enter",
	"ctrl+a", "ctrl+e", "ctrl+g", "ctrl+l", "ctrl+n", "ctrl+p", "ctrl+t", "ctrl+o", "ctrl+r",
	"?", "/", "n", "y", "1", "2", "3", "9", "0", "x", "é", "界",
}

// size takes a view size from the input, from 1×1 to 200×70; 0 (the
// input run out) means 80×24.
func (g *reqGen) size() (w, h int) {
	w, h = int(g.byte()), int(g.byte())
	if w == 0 {
		w = 80
	}
	if h == 0 {
		h = 24
	}
	return 1 + (w-1)%200, 1 + (h-1)%70
}

// keys takes up to 16 keys from the input.
func (g *reqGen) keys() []string {
	var keys []string
	for range min(int(g.byte())%17, len(g.data)) {
		keys = append(keys, fuzzKeys[int(g.byte())%len(fuzzKeys)])
	}
	return keys
}

// fuzzProviderSeeds are inputs for each bad shape and a few good ones;
// plain go test runs them.
func fuzzProviderSeeds() [][]byte {
	seeds := [][]byte{
		{},                  // the input run out: one plain question
		{0, 12},             // no questions, said outright
		{0, 14},             // one question over the limit
		{0, 15},             // three thousand questions
		{0, 13},             // a hundred plain questions: valid
		{0, 0, 1, 'a', 255}, // an empty question text
		{0, 1, 1, 'a', 1, 'b', 0, 0, 1, 'a', 1, 'c'},                                        // duplicate ids
		{0, 0, 1, 'a', 1, '?', 0, 3, 251},                                                   // a label over the limit
		{0, 0, 1, 'a', 1, '?', 0, 3, 250, 0, 1, 'b', 0, 1, 'c'},                             // a label at the limit
		{0, 0, 1, 'a', 2, 0xff, 0xfe},                                                       // invalid UTF-8
		{0, 0, 1, 'a', 1, '?', 0, 2, 1, 'x', 0, 1, 'x'},                                     // duplicate labels
		{0, 0, 1, 'a', 1, '?', 2},                                                           // noOther without options
		{0, 0, 1, 'a', 1, '?', 0, 7},                                                        // a thousand options
		{1, 252, 252, 0, 252, 252, 12, 252, 253, 3, 252, 3, 253, 253, 1, 'b', 0, 1, 'c', 0}, // nasty text everywhere
		{0, 0, 1, 'a', 1, '?', 9, 254, 2, 1, 'x', 2, 253, 1, 'y', 0},                        // Markdown detail and previews
	}
	// Good requests with keys at several sizes.
	for i, keys := range [][]byte{{3, 0, 6, 7}, {5, 1, 1, 4, 8, 5}, {4, 33, 30, 34, 0}, {2, 2, 0}} {
		s := []byte{0, 1, 1, 'a', 1, '?', 1, 3, 1, 'x', 0, 1, 'y', 0, 1, 'z', 0, 1, 'b', 1, '!', 0, 0}
		s = append(s, byte(i), 20, 5) // a view, 20×5
		s = append(s, keys...)
		single := append([]byte(nil), s...)
		single[6] = 0 // the first question single-select
		seeds = append(seeds, s, single)
	}
	return seeds
}
