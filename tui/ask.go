package tui

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/app"
	"github.com/asktui/asktui/tui/internal/keys"
)

// AskOptions configure [Ask] and [AskCmd]. The zero value asks full screen
// on the controlling terminal, in colours chosen for its background.
type AskOptions struct {
	// Theme picks the palette; the zero value (or styles.ThemeAuto)
	// detects the terminal's background, and draws without colour
	// (styles.ThemeMono) when NO_COLOR is set in Environ.
	Theme styles.Theme
	// Inline draws below the prompt instead of on the alternate screen,
	// taking only the rows the question needs, and leaves one line saying
	// what became of it.
	Inline bool
	// Accessible asks with plain, linear prompts that a screen reader can
	// follow: one question at a time, options chosen by number.
	Accessible bool
	// Agent names the asker on screen when the request names none.
	Agent string
	// Input and Output are the terminal to ask on. Nil means the
	// controlling terminal (/dev/tty, or the console on Windows), so
	// standard input and output stay free for the program's own data and
	// Ask works in the middle of a pipe. Tests pass a reader of keys and a
	// writer.
	Input  io.Reader
	Output io.Writer
	// Environ describes the terminal (TERM, COLORTERM, NO_COLOR …); nil
	// means the process environment.
	Environ []string
}

// Ask puts req to the human on the terminal and returns the answer, with
// one item per question in request order. It draws the question UI,
// waits, and returns only once the UI is gone and the terminal is as it
// was, so the caller may print the answer at once.
//
// ctx is the request's lifetime: when it ends, the question leaves the
// screen. Ask returns an *interaction.Error, which errors.Is matches
// against the sentinels of package interaction:
//
//   - EMPTY_QUESTIONS or INVALID_REQUEST ([interaction.ErrInvalidRequest]):
//     req breaks a rule of [interaction.Request.Validate]; nothing is drawn.
//   - ASK_DECLINED ([interaction.ErrDeclined]): the human declined.
//   - ASK_TIMEOUT ([interaction.ErrTimeout]): ctx's deadline passed.
//   - ASK_ABORTED ([interaction.ErrAborted]): ctx was cancelled; a cause
//     given with context.WithCancelCause that is itself an
//     *interaction.Error is returned instead.
//   - PROVIDER_CLOSED ([interaction.ErrClosed]): the human quit with
//     Ctrl+C; the error also matches [ErrInterrupted].
//   - NO_TTY ([interaction.ErrNoTTY]): there is no terminal to open.
//
// Ask may be called from several goroutines at once. Asks on the
// controlling terminal take turns: each waits (as long as its context
// allows) for the one before it to leave the screen. To show many
// requests at once, in one inbox, run a [Program] and ask through its
// [Program.Provider] instead.
func Ask(ctx context.Context, req interaction.Request, opts AskOptions) (interaction.Answer, error) {
	if opts.Agent != "" && req.Agent == nil {
		req.Agent = &interaction.Agent{ID: opts.Agent, Name: opts.Agent}
	}
	type result struct {
		ans interaction.Answer
		err error
	}
	asked := make(chan result, 1)
	var box *inbox.Inbox
	if opts.Accessible {
		// The accessible prompts do not use an inbox.
		if ctx.Err() != nil {
			return interaction.Answer{}, contextError(ctx)
		}
		if err := req.Validate(); err != nil {
			return interaction.Answer{}, err
		}
	} else {
		// The request goes into an inbox before anything else: the inbox
		// refuses an invalid one (and an ended context) before the
		// terminal is touched, and checks it once, which at 100,000
		// options is a cost to count.
		box = inbox.New(nil)
		defer box.Close()
		queued := make(chan struct{})
		var once sync.Once
		queuedCtx := interaction.WithQueued(ctx, func() {
			once.Do(func() { close(queued) })
			interaction.Queued(ctx) // the caller's own, if it asked to know
		})
		go func() {
			ans, err := box.Ask(queuedCtx, req)
			asked <- result{ans, err}
		}()
		select {
		case <-queued:
		case r := <-asked:
			return r.ans, settle(ctx, r.err, nil)
		}
	}
	// ended fails an ask that never reached the screen.
	ended := func(err error) (interaction.Answer, error) {
		if box != nil {
			box.Close()
			<-asked
		}
		return interaction.Answer{}, err
	}

	in, out := opts.Input, opts.Output
	if in == nil || out == nil {
		select {
		case terminalTurn <- struct{}{}:
			defer func() { <-terminalTurn }()
		case <-ctx.Done():
			return ended(contextError(ctx))
		}
		ttyIn, ttyOut, err := controllingTerminal()
		if err != nil {
			return ended(interaction.WrapError(interaction.CodeNoTTY, err,
				"no terminal to ask on (%v): run the program from a terminal; its standard input and output may be pipes", err))
		}
		if in == nil {
			in = ttyIn
		}
		if out == nil {
			out = ttyOut
		}
	}

	p := New(Options{
		Input:      in,
		Output:     out,
		Theme:      opts.theme(),
		Inline:     opts.Inline,
		Accessible: opts.Accessible,
		Environ:    opts.Environ,
		Inbox:      box, // the program shows the request waiting there
		// The size of a terminal bubbletea cannot measure (a test's
		// writer); a real one's own size wins.
		Width: 80, Height: 24,
		// A one-shot question is on screen briefly: draw it and each key
		// as soon as bubbletea can.
		FPS: app.MaxFPS,
	})
	if askStarted != nil {
		askStarted(p, req)
	}
	done := make(chan result, 1)
	go func() {
		var r result
		if box != nil {
			r = <-asked
		} else {
			r.ans, r.err = p.Provider().Ask(ctx, req)
		}
		done <- r
		p.Quit()
	}()
	// Run ends when the ask does (Quit), when the human presses Ctrl+C,
	// or when the UI fails; closing the inbox then ends the ask with
	// PROVIDER_CLOSED.
	runErr := p.Run(context.Background())
	if box != nil {
		box.Close()
	}
	r := <-done
	return r.ans, settle(ctx, r.err, runErr)
}

// theme is the palette to draw with: the one asked for, or, for the
// automatic one, none when the NO_COLOR convention (https://no-color.org)
// asks for output without colour, as the command line does.
func (o AskOptions) theme() styles.Theme {
	if o.Theme != "" && o.Theme != styles.ThemeAuto {
		return o.Theme
	}
	environ := o.Environ
	if environ == nil {
		environ = os.Environ()
	}
	noColor := ""
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == "NO_COLOR" {
			noColor = v // the last one wins, as in the shell
		}
	}
	if noColor != "" {
		return styles.ThemeMono
	}
	return styles.ThemeAuto
}

// settle decides the error of an ask from the request's own error and
// the UI's: an answer always wins; then Ctrl+C; then the end of ctx; then
// a failure of the UI; then the request's error.
func settle(ctx context.Context, askErr, runErr error) error {
	switch {
	case askErr == nil:
		return nil
	case errors.Is(runErr, ErrInterrupted):
		return interaction.WrapError(interaction.CodeProviderClosed, runErr,
			"interrupted: %s was pressed before the questions were answered", keys.Name(keys.Default().Global.Quit))
	case ctx.Err() != nil:
		return contextError(ctx)
	case runErr != nil && interaction.CodeOf(askErr) == interaction.CodeProviderClosed:
		return interaction.WrapError(interaction.CodeInternal, runErr, "the terminal UI failed: %v", runErr)
	default:
		return askErr
	}
}

// contextError is the error of an ask whose ctx has ended: as
// [interaction.ContextError], but a deadline that passed is ASK_TIMEOUT,
// which is what a caller of context.WithTimeout means.
func contextError(ctx context.Context) error {
	if cause := context.Cause(ctx); interaction.CodeOf(cause) == "" && errors.Is(cause, context.DeadlineExceeded) {
		return interaction.WrapError(interaction.CodeTimeout, cause, "no answer before the context's deadline")
	}
	return interaction.ContextError(ctx)
}

// terminalTurn lets one Ask at a time draw on the controlling terminal.
var terminalTurn = make(chan struct{}, 1)

// The controlling terminal, opened by the first Ask that needs it and
// kept for the rest of the process: bubbletea may still ask it for its
// size from a goroutine of its own after a program ends, and every later
// Ask reuses it instead of opening another.
var tty struct {
	sync.Mutex
	in  io.Reader
	out io.Writer
}

func controllingTerminal() (io.Reader, io.Writer, error) {
	tty.Lock()
	defer tty.Unlock()
	if tty.in == nil {
		in, out, err := openTerminal()
		if err != nil {
			return nil, nil, err
		}
		tty.in, tty.out = in, out
	}
	return tty.in, tty.out, nil
}

// Tests replace these: how the controlling terminal is opened, and a
// hook told of each program Ask starts, to play the human's side.
var (
	openTerminal = openTTY
	askStarted   func(*Program, interaction.Request)
)

// openTTY opens the controlling terminal: /dev/tty, or the console on
// Windows.
func openTTY() (io.Reader, io.Writer, error) {
	in, out, err := tea.OpenTTY()
	if err != nil {
		return nil, nil, err
	}
	return in, out, nil
}

// AnswerMsg is the message of the command [AskCmd] returns: the answer,
// or the coded error, exactly as [Ask] returns them.
type AnswerMsg struct {
	// Answer is the human's answer when Err is nil.
	Answer interaction.Answer
	// Err is nil, or an *interaction.Error (see Ask).
	Err error
}

// AskCmd returns a command for a bubbletea program of your own that hands
// the terminal over to the question UI, as tea.Exec does for an editor:
// your program leaves the screen, [Ask] puts req to the human on your
// program's terminal (unless opts names another), and when it returns
// your program takes the screen back and receives an [AnswerMsg]. Your
// program's event loop waits meanwhile, as it does for any tea.Exec.
//
// When the human answered, the message carries the answer even if your
// program then fails to take its terminal back; when the terminal could
// not be handed over, its Err is INTERNAL.
func AskCmd(ctx context.Context, req interaction.Request, opts AskOptions) tea.Cmd {
	c := &askExec{ctx: ctx, req: req, opts: opts}
	return tea.Exec(c, func(err error) tea.Msg {
		switch {
		case c.ran:
			return AnswerMsg{Answer: c.ans, Err: c.err}
		case err != nil:
			err = interaction.WrapError(interaction.CodeInternal, err,
				"could not hand the terminal over to the question UI: %v", err)
		}
		return AnswerMsg{Err: err}
	})
}

// askExec is Ask as a tea.ExecCommand.
type askExec struct {
	ctx  context.Context
	req  interaction.Request
	opts AskOptions
	// Run's outcome, read by the callback after Run returned.
	ran bool
	ans interaction.Answer
	err error
}

// SetStdin takes the program's input as the terminal's, unless the
// options name one.
func (c *askExec) SetStdin(r io.Reader) {
	if c.opts.Input == nil {
		c.opts.Input = r
	}
}

// SetStdout takes the program's output as the terminal's, unless the
// options name one.
func (c *askExec) SetStdout(w io.Writer) {
	if c.opts.Output == nil {
		c.opts.Output = w
	}
}

// SetStderr ignores standard error: the UI draws on the terminal.
func (c *askExec) SetStderr(io.Writer) {}

// Run asks.
func (c *askExec) Run() error {
	c.ans, c.err = Ask(c.ctx, c.req, c.opts)
	c.ran = true
	return c.err
}
