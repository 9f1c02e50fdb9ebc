package tui

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/chat"
	"github.com/asktui/asktui/tui/internal/keys"
)

// ErrInterrupted is returned by [Program.Run] when the human pressed
// Ctrl+C (or the process got SIGINT): the caller should exit with 130.
// [Ask]'s PROVIDER_CLOSED error for Ctrl+C wraps it.
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
	// Inline draws in the normal screen instead of the alternate one,
	// taking only the rows the question needs, and leaves one line saying
	// what was answered.
	Inline bool
	// Accessible asks with huh's plain, linear prompts instead of the full
	// screen: one question at a time, options by number.
	Accessible bool
	// Session shows the full session view: the inbox of waiting requests,
	// the agents' activity and the question panel. Without it the screen
	// shows only the question panel, as a one-shot `ask` wants.
	Session bool
	// Inbox is the inbox this program is a view of. Nil gives the program
	// an inbox of its own, which [Program.Provider] returns and which
	// closes when Run returns; with an inbox given, the caller closes it.
	Inbox *inbox.Inbox
	// Name is this view's name, shown on other views of the same inbox
	// when an answer comes from here; empty means "this terminal".
	Name string
	// Launcher starts agents for the conversation view (asktui run): with
	// it, the screen shows the agents' transcripts and a prompt editor,
	// and the agent picker (ctrl+l) starts and resumes agents.
	Launcher conversation.Launcher
	// Start lists the agents to start at once, through Launcher.
	Start []StartSpec
	// Rules are the human's standing answers to permissions: with them,
	// a permission's question offers to make its answer stand (a rule
	// saved, then the question answered), and the rules pane lists,
	// edits and removes them. Nil offers neither.
	Rules Rules
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
	// ColorProfile forces the terminal's colour profile; zero detects it
	// (a view over SSH has no terminal to detect from: it passes the
	// profile the client's environment names).
	ColorProfile colorprofile.Profile
	// Remote marks a view that is not on this machine's terminal (an SSH
	// session): ctrl+z does not suspend it.
	Remote bool
	// ClampSize, when set, bounds every size the program is given: Width
	// and Height, [Program.Resize], and the size reports a terminal may
	// send on its input. A remote client can claim any size, and the
	// renderer keeps two cells of memory for every cell of the screen.
	ClampSize func(width, height int) (int, int)
	// FPS is how many times a second the screen may be redrawn, at most
	// 120; zero means 60. A higher rate shows the first frame and each
	// key's effect sooner at the cost of more wakeups while idle: worth it
	// for a one-shot question, not for an inbox left open all day.
	FPS int

	// programOptions are extra bubbletea options, for tests.
	programOptions []tea.ProgramOption
	// now is the clock of ages and countdowns, and clock the clock of key
	// timing, for tests.
	now, clock func() time.Time
}

// xterm's window title stack (XTWINOPS 22 and 23): save the icon name
// and title, and restore them. Terminals without the stack ignore both.
const (
	pushTitle = "\x1b[22;0t"
	popTitle  = "\x1b[23;0t"
)

// maxFPS is bubbletea's highest frame rate.
const maxFPS = 120

// Alerts are the ways the session view announces a new request; each is
// switchable because terminals and people differ. A burst of arrivals
// alerts about once a second.
type Alerts struct {
	// Bell rings the terminal bell.
	Bell bool
	// Title shows the number of waiting questions in the window title.
	Title bool
	// Notify sends a desktop notification (OSC 9 and OSC 777), which
	// terminals that support either show; others ignore it.
	Notify bool
}

// Program is asktui's terminal UI: run it with [Program.Run] and hand its
// [Program.Provider] to an interaction.Service, or make it a view of an
// inbox shared with other views ([Options.Inbox]).
type Program struct {
	prog     *tea.Program
	model    *model
	inbox    *inbox.Inbox
	ownInbox bool
	handle   *inbox.Handle
	link     *link
	provider interaction.Provider
	output   io.Writer // the terminal, when given (for the title stack)
	done     chan struct{}
	quit     chan struct{}
	quitOnce sync.Once
	access   bool
}

// New builds the program and attaches it to its inbox; nothing is drawn
// until Run.
func New(opts Options) *Program {
	now := opts.now
	if now == nil {
		now = time.Now
	}
	if opts.Theme == "" {
		opts.Theme = styles.ThemeAuto // as documented: the zero value detects
	}
	p := &Program{done: make(chan struct{}), quit: make(chan struct{}), access: opts.Accessible, inbox: opts.Inbox}
	if opts.Accessible {
		p.provider = newAccessibleProvider(opts, p.done)
		return p
	}
	if p.inbox == nil {
		p.inbox, p.ownInbox = inbox.New(now), true
	}
	p.provider = p.inbox
	p.model = modelFor(opts, now)
	p.output = opts.Output
	p.prog = tea.NewProgram(p.model, teaOptions(opts)...)
	p.attach(opts)
	return p
}

// modelFor builds the root model of the program opts describe: which
// kind of view it is, its clocks and its frame rate.
func modelFor(opts Options, now func() time.Time) *model {
	m := newModel(opts.Theme, !opts.Inline, now)
	if opts.clock != nil {
		m.clock = opts.clock
	}
	switch {
	case opts.Launcher != nil:
		m.kind = kindRun
		m.focus = focusPrompt
	case opts.Session:
		m.kind = kindSession
	}
	m.remote = opts.Remote
	m.rules = opts.Rules
	m.alerts = opts.Alerts
	m.status = cell.SanitizeLine(opts.Status)
	if opts.FPS > 0 {
		m.frameEvery = time.Second / time.Duration(min(opts.FPS, maxFPS))
	}
	return m
}

// teaOptions are bubbletea's options for the terminal opts describe.
func teaOptions(opts Options) []tea.ProgramOption {
	teaOpts := []tea.ProgramOption{tea.WithoutSignalHandler()}
	if opts.FPS > 0 {
		teaOpts = append(teaOpts, tea.WithFPS(min(opts.FPS, maxFPS)))
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
		w, h := opts.Width, opts.Height
		if opts.ClampSize != nil {
			w, h = opts.ClampSize(w, h)
		}
		teaOpts = append(teaOpts, tea.WithWindowSize(w, h))
	}
	if opts.ColorProfile != 0 {
		teaOpts = append(teaOpts, tea.WithColorProfile(opts.ColorProfile))
	}
	if opts.Remote || opts.ClampSize != nil {
		teaOpts = append(teaOpts, tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			switch m := msg.(type) {
			case tea.SuspendMsg:
				if opts.Remote {
					return tea.ResumeMsg{}
				}
			case tea.WindowSizeMsg:
				if opts.ClampSize != nil {
					m.Width, m.Height = opts.ClampSize(m.Width, m.Height)
					return m
				}
			}
			return msg
		}))
	}
	return append(teaOpts, opts.programOptions...)
}

// attach makes the program a view of its inbox, and the sink of the
// conversations it starts.
func (p *Program) attach(opts Options) {
	p.link = newLink(p.prog, p.done)
	name := opts.Name
	if name == "" {
		name = "this terminal"
	}
	p.handle = p.inbox.Attach(name, p.link)
	m := p.model
	m.answers = p.handle
	m.launcher = opts.Launcher
	m.sink = p.link
	m.spill = chat.NewSpill("", p.link.loaded)
	m.startSpecs = opts.Start
}

// ConversationEvent takes an event of a conversation this program shows
// (the sink given to Launcher.Start). It never blocks.
func (p *Program) ConversationEvent(e conversation.Event) {
	if p.link != nil {
		p.link.ConversationEvent(e)
	}
}

// Pace returns once the program keeps up with the conversations' events
// (conversation.Pacer): a conversation calls it to slow its agent down.
func (p *Program) Pace(ctx context.Context) {
	if p.link != nil {
		p.link.Pace(ctx)
	}
}

var (
	_ conversation.Sink  = (*Program)(nil)
	_ conversation.Pacer = (*Program)(nil)
)

// Provider returns the interaction.Provider that asks through this
// program: its inbox. It may be used before Run starts. When the program
// has its own inbox, every Ask still waiting when Run returns fails with
// PROVIDER_CLOSED.
func (p *Program) Provider() interaction.Provider { return p.provider }

// Run draws the UI and handles input until ctx ends, Quit is called or the
// human presses Ctrl+C. One rule for every kind of view: Ctrl+C that
// leaves a question unanswered is ErrInterrupted (exit 130); Ctrl+C with
// nothing waiting, Quit and ctx ending return nil. It may be called once.
func (p *Program) Run(ctx context.Context) error {
	if p.access {
		defer close(p.done)
		select {
		case <-ctx.Done():
		case <-p.quit:
		}
		return nil
	}
	defer func() {
		// Gone first, then detached: whoever sees PROVIDER_CLOSED sees
		// the program ended.
		close(p.done)
		p.handle.Detach()
		if p.ownInbox {
			p.inbox.Close()
		}
		// The agents end with the view that drives them.
		for _, c := range p.model.convs {
			if conv := c.Conv(); conv != nil {
				_ = conv.Close()
			}
		}
		// What the transcripts kept on disk goes with them.
		_ = p.model.spill.Close()
	}()
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

	// Save the terminal's window title (xterm's title stack), to restore
	// it when done: bubbletea leaves an empty title behind.
	if p.output != nil {
		_, _ = io.WriteString(p.output, pushTitle)
	}
	_, err := p.prog.Run()
	if p.output != nil {
		_, _ = io.WriteString(p.output, popTitle)
		// An inline prompt leaves one line saying what became of it
		// (bubbletea erases its last frame).
		if p.model.inline && p.model.summary != "" {
			_, _ = io.WriteString(p.output, p.model.summary+"\r\n")
		}
	}
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

// Resize tells the program its terminal's new size (a view over SSH
// learns it from the client's window-change requests).
func (p *Program) Resize(width, height int) {
	if p.link != nil && width > 0 && height > 0 {
		p.link.send(tea.WindowSizeMsg{Width: width, Height: height})
	}
}

// SetStatus replaces the line about where requests come from (shown
// while none waits): a demo says it has finished, say.
func (p *Program) SetStatus(s string) {
	if p.link != nil {
		p.link.send(statusMsg{text: s})
	}
}

// Press types keys into the program as if the human pressed them: key
// names such as "enter", "down", "shift+tab", "space", or any other text,
// typed rune by rune. Demos use it to play the human's side. The presses
// are queued behind every request already handed to the program; after
// [Program.Focus], they go only to the request it focused.
func (p *Program) Press(keys ...string) error {
	msgs, err := presses(keys)
	if err != nil {
		return err
	}
	if p.link == nil {
		return errors.New("keys cannot be pressed in accessible mode")
	}
	p.link.press(msgs)
	return nil
}

// presses are the key presses names stand for (keys.Parse).
func presses(names []string) ([]tea.KeyPressMsg, error) {
	var msgs []tea.KeyPressMsg
	for _, name := range names {
		m, err := keys.Parse(name)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m...)
	}
	return msgs, nil
}

// Focus brings the oldest waiting request of agent a to the front, as the
// human would from the inbox, and aims the keys given to Press after it at
// that request. When none has arrived yet, those keys wait until one does,
// so scripted keys never answer another agent's question; they are
// dropped if the request leaves before they are pressed.
func (p *Program) Focus(a interaction.Agent) error {
	if p.link == nil {
		return errors.New("requests cannot be focused in accessible mode")
	}
	p.link.focus(a.ID)
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
