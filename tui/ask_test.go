package tui

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/sanitize"
	"github.com/asktui/asktui/internal/syncbuf"
	"github.com/asktui/asktui/styles"
)

// These tests replace Ask's hooks (the terminal it opens, the human)
// while they run, so none of them runs in parallel.

// useTerminal makes open the way Ask opens the controlling terminal for
// the rest of the test, forgetting the one opened before.
func useTerminal(t *testing.T, open func() (io.Reader, io.Writer, error)) {
	t.Helper()
	setTerminal := func(open func() (io.Reader, io.Writer, error)) {
		tty.Lock()
		defer tty.Unlock()
		openTerminal, tty.in, tty.out = open, nil, nil
	}
	prev := openTerminal
	setTerminal(open)
	t.Cleanup(func() { setTerminal(prev) })
}

// useHuman makes h the human of every Ask for the rest of the test.
func useHuman(t *testing.T, h func(*Program, interaction.Request)) {
	t.Helper()
	prev := askStarted
	askStarted = h
	t.Cleanup(func() { askStarted = prev })
}

// pressing is a human who presses keys as soon as the request is shown.
func pressing(keys ...string) func(*Program, interaction.Request) {
	return func(p *Program, req interaction.Request) {
		var agent interaction.Agent
		if req.Agent != nil {
			agent = *req.Agent
		}
		_ = p.Focus(agent)
		_ = p.Press(keys...)
	}
}

// emptyTerminal is a controlling terminal whose input has ended and whose
// output goes nowhere: the human is played with Press.
func emptyTerminal() (io.Reader, io.Writer, error) {
	return strings.NewReader(""), io.Discard, nil
}

type askResult struct {
	ans interaction.Answer
	err error
}

func askAsync(ctx context.Context, req interaction.Request, opts AskOptions) <-chan askResult {
	ch := make(chan askResult, 1)
	go func() {
		ans, err := Ask(ctx, req, opts)
		ch <- askResult{ans, err}
	}()
	return ch
}

func awaitAsk(t *testing.T, ch <-chan askResult) askResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(time.Minute):
		t.Fatal("Ask did not return within a minute")
		return askResult{}
	}
}

// waitTakesKeys waits until the question on out takes keys, as a human
// waits to see it before pressing one: until its hint ("Pick one …")
// shows, after the cue of any keys held while it has just appeared.
func waitTakesKeys(t *testing.T, out *syncbuf.Buffer) {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		text := sanitize.StripEscapes(out.String())
		if strings.Contains(text[max(strings.LastIndex(text, "held"), 0):], "Pick") {
			return
		}
		select {
		case <-out.Changed():
		case <-deadline:
			t.Fatalf("the question never took keys:\n%s", text)
		}
	}
}

// TestAskOnGivenTerminal asks on a terminal the test passes, as a test of
// a program that uses Ask would: keys typed on its input, the UI on its
// output. Ask returns the answer once the program has ended.
func TestAskOnGivenTerminal(t *testing.T) {
	useTerminal(t, func() (io.Reader, io.Writer, error) {
		t.Error("Ask opened the controlling terminal though it was given one")
		return nil, nil, errors.New("no")
	})
	useHuman(t, nil)
	keys, typed := io.Pipe()
	defer typed.Close()
	var out syncbuf.Buffer
	req := single(deployQuestion())
	ch := askAsync(context.Background(), req, AskOptions{Input: keys, Output: &out, Theme: styles.ThemeDark})
	waitTakesKeys(t, &out)
	if _, err := io.WriteString(typed, "\x1b[B\r"); err != nil { // ↓, enter
		t.Fatal(err)
	}
	r := awaitAsk(t, ch)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if err := r.ans.Check(req); err != nil {
		t.Fatal(err)
	}
	if got := r.ans.Answers[0].Selected; len(got) != 1 || got[0] != "No" {
		t.Fatalf("selected %q, want [No]", got)
	}
}

// TestAskRefusesBadRequestsBeforeTheTerminal: a request Service would
// refuse fails with the same error, and nothing is opened or drawn.
func TestAskRefusesBadRequestsBeforeTheTerminal(t *testing.T) {
	useTerminal(t, func() (io.Reader, io.Writer, error) {
		t.Error("Ask opened the terminal for a request it must refuse")
		return nil, nil, errors.New("no")
	})
	for name, req := range badRequests() {
		var out syncbuf.Buffer
		_, err := Ask(context.Background(), req, AskOptions{})
		if want := req.Validate(); err == nil || err.Error() != want.Error() {
			t.Errorf("%s: Ask = %v, want %v", name, err, want)
		}
		_, err = Ask(context.Background(), req, AskOptions{Input: strings.NewReader("\r"), Output: &out})
		if want := req.Validate(); err == nil || err.Error() != want.Error() {
			t.Errorf("%s, on a given terminal: Ask = %v, want %v", name, err, want)
		}
		if out.String() != "" {
			t.Errorf("%s: drew %q", name, out.String())
		}
	}
	if _, err := Ask(context.Background(), interaction.Request{}, AskOptions{}); !errors.Is(err, interaction.ErrEmptyQuestions) {
		t.Errorf("no questions: %v, want EMPTY_QUESTIONS", err)
	}
}

// TestAskOutcomes: each way an ask ends gives its code, and errors.Is
// matches the sentinel of that code and no other.
func TestAskOutcomes(t *testing.T) {
	useTerminal(t, emptyTerminal)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	caused, causeCancel := context.WithCancelCause(context.Background())
	causeCancel(interaction.Errorf(interaction.CodeTimeout, "the agent's own budget ran out"))
	tests := []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		keys []string
		want *interaction.Error
		also error
	}{
		{"answered", nil, []string{"enter"}, nil, nil},
		{"declined", nil, []string{"esc", "y"}, interaction.ErrDeclined, nil},
		{"ctrl+c", nil, []string{"ctrl+c"}, interaction.ErrClosed, ErrInterrupted},
		{"deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 50*time.Millisecond)
		}, nil, interaction.ErrTimeout, context.DeadlineExceeded},
		{"cancelled while shown", func() (context.Context, context.CancelFunc) {
			// Cancelled once the request is in the inbox.
			ctx, cancel := context.WithCancel(context.Background())
			return interaction.WithQueued(ctx, cancel), cancel
		}, nil, interaction.ErrAborted, context.Canceled},
		{"cancelled before", func() (context.Context, context.CancelFunc) { return cancelled, func() {} }, nil, interaction.ErrAborted, nil},
		{"a coded cause", func() (context.Context, context.CancelFunc) { return caused, func() {} }, nil, interaction.ErrTimeout, nil},
	}
	sentinels := []*interaction.Error{interaction.ErrDeclined, interaction.ErrTimeout, interaction.ErrAborted, interaction.ErrClosed, interaction.ErrNoTTY}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			useHuman(t, pressing(tt.keys...))
			ctx, cancel := context.Background(), func() {}
			if tt.ctx != nil {
				ctx, cancel = tt.ctx()
			}
			defer cancel()
			req := single(deployQuestion())
			ans, err := Ask(ctx, req, AskOptions{})
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				if err := ans.Check(req); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, s := range sentinels {
				if got := errors.Is(err, s); got != (s == tt.want) {
					t.Errorf("errors.Is(%v, %s) = %v", err, s.Code, got)
				}
			}
			if tt.also != nil && !errors.Is(err, tt.also) {
				t.Errorf("%v does not wrap %v", err, tt.also)
			}
		})
	}
}

// TestAskWithoutTerminal: no controlling terminal is NO_TTY, at once.
func TestAskWithoutTerminal(t *testing.T) {
	useTerminal(t, func() (io.Reader, io.Writer, error) {
		return nil, nil, errors.New("open /dev/tty: no such device or address")
	})
	_, err := Ask(context.Background(), single(deployQuestion()), AskOptions{})
	if !errors.Is(err, interaction.ErrNoTTY) || !strings.Contains(err.Error(), "/dev/tty") {
		t.Fatalf("Ask = %v, want NO_TTY saying why", err)
	}
}

// TestAsksTakeTurnsOnTheTerminal: Asks from several goroutines at once
// each start their program only once the one before it has ended, and
// the terminal is opened once.
func TestAsksTakeTurnsOnTheTerminal(t *testing.T) {
	var mu sync.Mutex
	opened := 0
	useTerminal(t, func() (io.Reader, io.Writer, error) {
		mu.Lock()
		defer mu.Unlock()
		opened++
		return emptyTerminal()
	})
	var last *Program
	started := 0
	useHuman(t, func(p *Program, req interaction.Request) {
		mu.Lock()
		defer mu.Unlock()
		if last != nil {
			select {
			case <-last.done:
			default:
				t.Error("an Ask started its program while another's was still running")
			}
		}
		last = p
		started++
		pressing("enter")(p, req)
	})
	const n = 5
	var chans []<-chan askResult
	for range n {
		chans = append(chans, askAsync(context.Background(), single(deployQuestion()), AskOptions{}))
	}
	for _, ch := range chans {
		if r := awaitAsk(t, ch); r.err != nil {
			t.Fatal(r.err)
		}
	}
	if started != n || opened != 1 {
		t.Fatalf("%d programs started and the terminal opened %d times, want %d and 1", started, opened, n)
	}
}

// TestAskWaitingItsTurnHonoursItsContext: an Ask waiting for the terminal
// gives up when its context ends, without ever drawing.
func TestAskWaitingItsTurnHonoursItsContext(t *testing.T) {
	useTerminal(t, emptyTerminal)
	shown := make(chan *Program, 2)
	useHuman(t, func(p *Program, _ interaction.Request) { shown <- p })
	first, cancelFirst := context.WithCancel(context.Background())
	defer cancelFirst()
	ch := askAsync(first, single(deployQuestion()), AskOptions{})
	<-shown // the first holds the terminal, unanswered

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Ask(ctx, single(deployQuestion()), AskOptions{}); !errors.Is(err, interaction.ErrTimeout) {
		t.Fatalf("the waiting Ask = %v, want ASK_TIMEOUT", err)
	}
	select {
	case <-shown:
		t.Fatal("the waiting Ask was drawn")
	default:
	}
	cancelFirst()
	if r := awaitAsk(t, ch); !errors.Is(r.err, interaction.ErrAborted) {
		t.Fatalf("the first Ask = %v, want ASK_ABORTED", r.err)
	}
}

// TestAskAgentOption names the asker when the request does not.
func TestAskAgentOption(t *testing.T) {
	useTerminal(t, emptyTerminal)
	var got *interaction.Agent
	useHuman(t, func(p *Program, req interaction.Request) {
		got = req.Agent
		pressing("enter")(p, req)
	})
	if _, err := Ask(context.Background(), interaction.Request{Questions: []interaction.Question{deployQuestion()}}, AskOptions{Agent: "deploy bot"}); err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Name != "deploy bot" {
		t.Fatalf("the request's agent is %+v, want deploy bot", got)
	}
}

// hostModel is a bubbletea program of a user's own that hands its screen
// to the question UI with AskCmd.
type hostModel struct {
	cmd tea.Cmd
	got *AnswerMsg
}

func (m *hostModel) Init() tea.Cmd { return m.cmd }

func (m *hostModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if a, ok := msg.(AnswerMsg); ok {
		m.got = &a
		return m, tea.Quit
	}
	return m, nil
}

func (m *hostModel) View() tea.View { return tea.NewView("the host's own screen") }

// TestAskCmdHandsTheScreenOver runs AskCmd in a program of the test's
// own: the question UI runs on the program's terminal, and the program
// gets the answer, or the coded error, as an AnswerMsg.
func TestAskCmdHandsTheScreenOver(t *testing.T) {
	useTerminal(t, emptyTerminal)
	for _, tt := range []struct {
		keys []string
		want string
		code interaction.Code
	}{
		{keys: []string{"3"}, want: "Only canary"},
		{keys: []string{"esc", "y"}, code: interaction.CodeDeclined},
	} {
		useHuman(t, pressing(tt.keys...))
		req := single(deployQuestion())
		m := &hostModel{cmd: AskCmd(context.Background(), req, AskOptions{})}
		var out syncbuf.Buffer
		p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(&out), tea.WithWindowSize(80, 24), tea.WithoutSignals())
		if _, err := p.Run(); err != nil {
			t.Fatal(err)
		}
		switch {
		case m.got == nil:
			t.Fatal("the program got no AnswerMsg")
		case interaction.CodeOf(m.got.Err) != tt.code:
			t.Fatalf("AnswerMsg.Err = %v, want %q", m.got.Err, tt.code)
		case tt.code == "" && m.got.Answer.Answers[0].Selected[0] != tt.want:
			t.Fatalf("AnswerMsg.Answer = %+v, want %s", m.got.Answer, tt.want)
		}
		// The host's screen, then the question UI (which saves the
		// window title first; scripted keys may answer before it draws
		// a frame), then the host's screen again, all on the host's
		// output.
		s := out.String()
		host, ui := "the host's own screen", pushTitle
		if first, at, last := strings.Index(s, host), strings.Index(s, ui), strings.LastIndex(s, host); first < 0 || at < first || last < at {
			t.Fatalf("the question UI did not take the program's screen and give it back:\n%q", s)
		}
	}
}

// TestSettle decides an ask's error from the request's and the UI's: an
// answer always wins; then Ctrl+C; then the end of the context; then a
// failure of the UI; then the request's own error.
func TestSettle(t *testing.T) {
	declined := interaction.Errorf(interaction.CodeDeclined, "no")
	closed := interaction.Errorf(interaction.CodeProviderClosed, "gone")
	signalled := errors.New("terminated signal received")
	cancelled, cancel := context.WithCancelCause(context.Background())
	cancel(signalled)

	tests := []struct {
		name           string
		ctx            context.Context
		askErr, runErr error
		code           interaction.Code
		wraps          error
	}{
		{"answer wins over ctrl+c", context.Background(), nil, ErrInterrupted, "", nil},
		{"answer wins over the context", cancelled, nil, nil, "", nil},
		{"declined", context.Background(), declined, nil, interaction.CodeDeclined, nil},
		{"ctrl+c", context.Background(), closed, ErrInterrupted, interaction.CodeProviderClosed, ErrInterrupted},
		{"ctrl+c wins over the context", cancelled, closed, ErrInterrupted, interaction.CodeProviderClosed, ErrInterrupted},
		{"the context, with its cause", cancelled, closed, nil, interaction.CodeAborted, signalled},
		{"ui failure", context.Background(), closed, errors.New("raw mode"), interaction.CodeInternal, nil},
		{"timeout", context.Background(), interaction.Errorf(interaction.CodeTimeout, "t"), nil, interaction.CodeTimeout, nil},
	}
	for _, tt := range tests {
		err := settle(tt.ctx, tt.askErr, tt.runErr)
		if got := interaction.CodeOf(err); got != tt.code {
			t.Errorf("%s: code %q (%v), want %q", tt.name, got, err, tt.code)
		}
		if tt.wraps != nil && !errors.Is(err, tt.wraps) {
			t.Errorf("%s: %v does not wrap %v", tt.name, err, tt.wraps)
		}
	}
}

// TestAskAccessible asks with the plain prompts on a given terminal:
// the same answer, no escape sequences, and nothing printed for a request
// refused or a context already ended.
func TestAskAccessible(t *testing.T) {
	useHuman(t, nil)
	var out syncbuf.Buffer
	req := single(deployQuestion())
	ans, err := Ask(context.Background(), req, AskOptions{Accessible: true, Input: strings.NewReader("2\n"), Output: &out})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got := ans.Answers[0].Selected; len(got) != 1 || got[0] != "No" {
		t.Fatalf("selected %q, want [No]\n%s", got, out.String())
	}
	if s := out.String(); !strings.Contains(s, "Deploy the release") || strings.Contains(s, "\x1b") {
		t.Fatalf("output:\n%q", s)
	}

	out.Reset()
	if _, err := Ask(context.Background(), interaction.Request{}, AskOptions{Accessible: true, Input: strings.NewReader("1\n"), Output: &out}); !errors.Is(err, interaction.ErrEmptyQuestions) {
		t.Errorf("no questions: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Ask(ctx, req, AskOptions{Accessible: true, Input: strings.NewReader("1\n"), Output: &out}); !errors.Is(err, interaction.ErrAborted) {
		t.Errorf("an ended context: %v", err)
	}
	if out.String() != "" {
		t.Errorf("printed %q for asks that never reached the human", out.String())
	}
}

// TestAskTheme: the zero theme detects the background, as documented
// (the program asks the terminal for it), unless NO_COLOR asks for none;
// a theme named wins over NO_COLOR, as the command line's --theme does.
func TestAskTheme(t *testing.T) {
	useTerminal(t, emptyTerminal)
	tests := []struct {
		theme   styles.Theme
		environ []string
		want    styles.Theme
	}{
		{"", []string{"TERM=xterm"}, styles.ThemeAuto},
		{styles.ThemeAuto, []string{"TERM=xterm"}, styles.ThemeAuto},
		{"", []string{"NO_COLOR=1"}, styles.ThemeMono},
		{"", []string{"NO_COLOR=1", "NO_COLOR="}, styles.ThemeAuto},
		{styles.ThemeLight, []string{"NO_COLOR=1"}, styles.ThemeLight},
	}
	for _, tt := range tests {
		var got styles.Theme
		useHuman(t, func(p *Program, req interaction.Request) {
			got = p.model.Theme()
			pressing("enter")(p, req)
		})
		if _, err := Ask(context.Background(), single(deployQuestion()), AskOptions{Theme: tt.theme, Environ: tt.environ}); err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("Theme %q with %q: the program draws with %q, want %q", tt.theme, tt.environ, got, tt.want)
		}
	}
}
