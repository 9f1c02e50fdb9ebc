package tui

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
)

// ErrInterrupted is returned by [Program.Run] when the human pressed
// Ctrl+C (or the process got SIGINT): the caller should exit with 130.
var ErrInterrupted = errors.New("interrupted")

// Options configure a [Program].
type Options struct {
	// Input and Output are the terminal. Nil means stdin and stdout; a
	// one-shot `asktui ask` passes the tty so stdout stays free for the
	// answer.
	Input  io.Reader
	Output io.Writer
	// Theme picks the palette; the zero value detects the background.
	Theme styles.Theme
	// Inline draws in the normal screen instead of the alternate one.
	Inline bool
	// Accessible asks with huh's plain, linear prompts instead of the full
	// screen: one question at a time, options by number.
	Accessible bool
	// Session shows the full session view: the inbox of waiting requests,
	// the agents' activity and the question panel. Without it the screen
	// shows only the question panel, as a one-shot `ask` wants.
	Session bool
	// Alerts says how the session tells the human a request arrived.
	Alerts Alerts
	// Status is a line about where requests come from (the MCP address,
	// the socket), shown while no question waits.
	Status string
	// Width and Height fix the screen size for headless runs (tests,
	// recordings without a terminal); zero means the terminal's size.
	Width, Height int
	// Environ is the environment the terminal is described by (TERM,
	// COLORTERM, NO_COLOR …); nil means the process environment.
	Environ []string
	// FPS is how many times a second the screen may be redrawn, at most
	// 120; zero means 60. A higher rate shows the first frame and each
	// key's effect sooner at the cost of more wakeups while idle: worth it
	// for a one-shot question, not for an inbox left open all day.
	FPS int

	// programOptions are extra bubbletea options, for tests.
	programOptions []tea.ProgramOption
	// now is the clock, for tests.
	now func() time.Time
}

// maxFPS is bubbletea's highest frame rate.
const maxFPS = 120

// Alerts are the ways the session view announces a new request; each is
// switchable because terminals and people differ.
type Alerts struct {
	// Bell rings the terminal bell.
	Bell bool
	// Title shows the number of waiting requests in the window title.
	Title bool
	// Notify sends a desktop notification (OSC 9 and OSC 777), which
	// terminals that support either show; others ignore it.
	Notify bool
}

// Program is asktui's terminal UI: run it with [Program.Run] and hand its
// [Program.Provider] to an interaction.Service.
type Program struct {
	prog     *tea.Program
	model    *model
	provider interaction.Provider
	done     chan struct{}
	quit     chan struct{}
	quitOnce sync.Once
	access   bool
}

// New builds the program; nothing is drawn until Run.
func New(opts Options) *Program {
	now := opts.now
	if now == nil {
		now = time.Now
	}
	p := &Program{done: make(chan struct{}), quit: make(chan struct{}), access: opts.Accessible}
	if opts.Accessible {
		p.provider = newAccessibleProvider(opts, p.done)
		return p
	}
	p.model = newModel(opts.Theme, true, !opts.Inline, now)
	p.model.session = opts.Session
	p.model.alerts = opts.Alerts
	p.model.status = Sanitize(opts.Status)
	teaOpts := []tea.ProgramOption{tea.WithoutSignalHandler()}
	if opts.FPS > 0 {
		fps := min(opts.FPS, maxFPS)
		p.model.frameEvery = time.Second / time.Duration(fps)
		teaOpts = append(teaOpts, tea.WithFPS(fps))
	}
	if opts.Input != nil {
		teaOpts = append(teaOpts, tea.WithInput(opts.Input))
	}
	if opts.Output != nil {
		teaOpts = append(teaOpts, tea.WithOutput(opts.Output))
	}
	if opts.Environ != nil {
		teaOpts = append(teaOpts, tea.WithEnvironment(opts.Environ))
	}
	if opts.Width > 0 && opts.Height > 0 {
		teaOpts = append(teaOpts, tea.WithWindowSize(opts.Width, opts.Height))
	}
	teaOpts = append(teaOpts, opts.programOptions...)
	p.prog = tea.NewProgram(p.model, teaOpts...)
	p.provider = newProvider(p.prog, p.done, now)
	return p
}

// Provider returns the interaction.Provider that asks through this
// program. It may be used before Run starts; every Ask still waiting when
// Run returns fails with PROVIDER_CLOSED.
func (p *Program) Provider() interaction.Provider { return p.provider }

// Run draws the UI and handles input until ctx ends, Quit is called or the
// human presses Ctrl+C (ErrInterrupted). It may be called once.
func (p *Program) Run(ctx context.Context) error {
	defer close(p.done)
	if p.access {
		select {
		case <-ctx.Done():
		case <-p.quit:
		}
		return nil
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-ctx.Done():
		case <-p.quit:
		case <-stop:
			return
		}
		// Send returns once the event loop takes the message or the
		// program has ended.
		p.prog.Send(quitMsg{})
	}()
	_, err := p.prog.Run()
	switch {
	case errors.Is(err, tea.ErrInterrupted), err == nil && p.model.interrupted:
		// The model is no longer touched once Run has returned.
		return ErrInterrupted
	case err != nil:
		return err
	}
	return nil
}

// Quit ends Run. It is safe to call at any time, more than once, and
// before Run.
func (p *Program) Quit() { p.quitOnce.Do(func() { close(p.quit) }) }

// Press types keys into the program as if the human pressed them: key
// names such as "enter", "down", "shift+tab", "space", or any other text,
// typed rune by rune. Demos use it to play the human's side. The presses
// are queued behind every request already handed to the program.
func (p *Program) Press(keys ...string) error {
	var msgs []tea.KeyPressMsg
	for _, k := range keys {
		m, err := parseKeys(k)
		if err != nil {
			return err
		}
		msgs = append(msgs, m...)
	}
	prov, ok := p.provider.(*Provider)
	if !ok {
		return errors.New("keys cannot be pressed in accessible mode")
	}
	for _, m := range msgs {
		prov.enqueue(pressMsg{key: m})
	}
	return nil
}

// Focus brings the oldest waiting request of agent a to the front, as the
// human would with the inbox keys. When none has arrived yet, keys given
// to Press wait until one does, so scripted keys never answer another
// agent's question.
func (p *Program) Focus(a interaction.Agent) error {
	prov, ok := p.provider.(*Provider)
	if !ok {
		return errors.New("requests cannot be focused in accessible mode")
	}
	prov.enqueue(focusMsg{agentID: a.ID})
	return nil
}

// Screen returns the screen as last drawn, without styling. Call it only
// after Run has returned; it is for transcripts and tests.
func (p *Program) Screen() string {
	if p.model == nil {
		return ""
	}
	return ansi.Strip(p.model.render())
}
