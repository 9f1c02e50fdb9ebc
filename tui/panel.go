package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/app"
	"github.com/asktui/asktui/tui/internal/ui"
)

// Panel is asktui's question UI for one request, as a component that a
// bubbletea program of your own hosts in its Update and View: the same
// panel asktui draws (tabs, the review step, Other, notes, details and
// previews, filtering, the decline dialog), without asktui's title bar,
// status line or help bar, which are your program's to draw. It is the
// root model of asktui in an embedded mode, so its keys, its layout and
// its arrival hold are asktui's own.
//
// Host it like a bubbles component:
//
//   - Init once, and batch its command with yours.
//   - Focus to give it the keys, Blur to take them back: a new Panel
//     takes none, like a bubbles text input. Several Panels can live in
//     one program; give the keys to one at a time.
//   - Update with every message your program gets, and run the command
//     it returns. A Panel takes a key or a paste only while focused, and
//     of the other messages only its own (its timers, its cursor), so
//     every Panel can be fed everything.
//   - SetSize when your layout changes; View draws it in that size.
//   - ShortHelp and FullHelp (a help.KeyMap) list the keys that act now:
//     none while it is blurred.
//
// When the human answers or declines, the Panel's command delivers one
// [PanelDoneMsg]; the Panel then takes no more keys. ctrl+c is left to
// your program, and so is any key your program routes on (Tab between
// Panels, say): take it before the Panels see it. A Panel is not safe
// for concurrent use: call it from your program's Update, as any
// component.
type Panel struct {
	m       *app.Model
	done    *panelAnswerer
	sent    bool
	focused bool
	start   tea.Cmd // the commands of building it, for Init
}

// A Panel keeps the contract of every part of asktui's screen.
var _ ui.Component = (*Panel)(nil)

// PanelOptions configure a [Panel].
type PanelOptions struct {
	// Theme picks the palette; the zero value draws for a dark terminal
	// (styles.For(theme, isDark) and ThemeAuto need to know the
	// background: pass the one your program detected with
	// styles.ThemeDark or styles.ThemeLight, or ThemeMono for NO_COLOR).
	Theme styles.Theme
	// Agent names the asker on screen when the request names none.
	Agent string
	// Chosen says the human opened the panel himself (a key of your
	// program): keys act at once. Otherwise it appeared by itself, and
	// the keys that answer wait until it has been on screen for half a
	// second with the keyboard quiet, as in asktui, so a key pressed for
	// something else never answers it.
	Chosen bool
	// Width and Height are the first size; zero means 80×24 until
	// SetSize.
	Width, Height int
}

// PanelDoneMsg is sent once when the human is done with a [Panel]: the
// answer, one item per question in request order, or the coded error
// (ASK_DECLINED: [interaction.ErrDeclined]).
type PanelDoneMsg struct {
	// Panel is the panel that is done, for a program hosting several.
	Panel *Panel
	// Answer is the human's answer when Err is nil.
	Answer interaction.Answer
	// Err is nil, or an *interaction.Error.
	Err error
}

// panelMsg carries a message a Panel's command produced back to the same
// Panel, so that several Panels in one program never take each other's.
type panelMsg struct {
	p   *Panel
	msg tea.Msg
}

// panelAnswerer is a Panel's answerer: it keeps how the one request
// ended.
type panelAnswerer struct {
	s  *inbox.Settlement
	id uint64
}

func (a *panelAnswerer) end(id uint64, s inbox.Settlement) (inbox.Settlement, bool) {
	if a.s != nil || id != a.id {
		return inbox.Settlement{}, false
	}
	a.s = &s
	return s, true
}

func (a *panelAnswerer) Answer(id uint64, ans interaction.Answer) (inbox.Settlement, bool) {
	return a.end(id, inbox.Settlement{Answer: ans, By: a.Name()})
}

func (a *panelAnswerer) Decline(id uint64) (inbox.Settlement, bool) {
	return a.end(id, inbox.Settlement{Err: interaction.Declined(), By: a.Name()})
}

func (*panelAnswerer) SaveDraft(uint64, *interaction.Answer) {}
func (*panelAnswerer) Name() string                          { return "this panel" }

// NewPanel builds the panel for req. A request that breaks a rule of
// [interaction.Request.Validate] is refused with its coded error
// (EMPTY_QUESTIONS or INVALID_REQUEST), as asktui refuses it.
func NewPanel(req interaction.Request, opts PanelOptions) (*Panel, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if req.Agent == nil && opts.Agent != "" {
		req.Agent = &interaction.Agent{ID: opts.Agent, Name: opts.Agent}
	}
	theme := opts.Theme
	if theme == "" || theme == styles.ThemeAuto {
		theme = styles.ThemeDark
	}
	done := &panelAnswerer{id: 1}
	w, h := opts.Width, opts.Height
	if w <= 0 || h <= 0 {
		w, h = 80, 24
	}
	m, cmd := app.Embed(req, theme, done, w, h, opts.Chosen)
	p := &Panel{m: m, done: done}
	p.start = p.wrap(cmd)
	return p, nil
}

// Init returns the panel's first commands (the form's cursor, the timer
// of the arrival hold).
func (p *Panel) Init() tea.Cmd {
	cmd := p.start
	p.start = nil
	return cmd
}

// Focus gives the panel the keys: its cursor shows, and keys and pastes
// reach it. It returns the command that starts a text cursor, if any.
func (p *Panel) Focus() tea.Cmd {
	if p.focused {
		return nil
	}
	p.focused = true
	return p.wrap(p.m.SetAway(false))
}

// Blur takes the keys from the panel: it keeps drawing, without its
// cursor, and ignores keys and pastes until Focus.
func (p *Panel) Blur() {
	p.focused = false
	p.m.SetAway(true)
}

// Focused reports whether the panel has the keys.
func (p *Panel) Focused() bool { return p.focused }

// SetSize gives the panel width×height cells.
func (p *Panel) SetSize(width, height int) {
	p.m.Resize(width, height)
}

// Update handles a message: the keys while the panel is not done, and
// the panel's own messages. It returns the commands to run; one of them
// delivers a [PanelDoneMsg] when the human is done.
func (p *Panel) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case panelMsg:
		if msg.p != p {
			return nil
		}
		return p.update(msg.msg)
	case tea.KeyPressMsg:
		if !p.focused || p.done.s != nil || key.Matches(msg, p.m.Keys.Global.Quit) {
			return nil // another panel's, or the host's (ctrl+c)
		}
		return p.update(msg)
	case tea.PasteMsg:
		if !p.focused || p.done.s != nil {
			return nil
		}
		return p.update(msg)
	case tea.BackgroundColorMsg:
		return p.update(msg)
	}
	return nil // another component's message, or the host's
}

func (p *Panel) update(msg tea.Msg) tea.Cmd {
	_, cmd := p.m.Update(msg)
	cmd = p.wrap(cmd)
	if p.done.s != nil && !p.sent {
		p.sent = true
		s := *p.done.s
		done := PanelDoneMsg{Panel: p, Answer: s.Answer, Err: s.Err}
		cmd = tea.Batch(cmd, func() tea.Msg { return done })
	}
	return cmd
}

// wrap tags what cmd produces as this panel's, so that it comes back here
// and nowhere else; bubbletea's own messages pass as they are.
func (p *Panel) wrap(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch msg := cmd().(type) {
		case nil:
			return nil
		case tea.BatchMsg:
			out := make(tea.BatchMsg, len(msg))
			for i, c := range msg {
				out[i] = p.wrap(c)
			}
			return out
		case tea.QuitMsg:
			return nil // the host's to quit, not the panel's
		default:
			if ownMsg(msg) {
				return panelMsg{p: p, msg: msg}
			}
			return msg
		}
	}
}

// ownMsg reports whether msg is one of the tui's own messages (the
// program's, a huh form's, a text cursor's), not a terminal's.
func ownMsg(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg, tea.WindowSizeMsg, tea.BackgroundColorMsg:
		return false
	}
	return true
}

// View draws the panel in the size SetSize gave it.
func (p *Panel) View() string { return p.m.PanelView(p.done.s != nil) }

// Done reports whether the human answered or declined.
func (p *Panel) Done() bool { return p.done.s != nil }

// ShortHelp returns the keys that act now, for a help bar (help.KeyMap);
// none while the panel is blurred or done.
func (p *Panel) ShortHelp() []key.Binding {
	if !p.focused || p.done.s != nil {
		return nil
	}
	return p.m.ShortHelp()
}

// FullHelp returns every key that acts now, grouped (help.KeyMap); none
// while the panel is blurred or done.
func (p *Panel) FullHelp() [][]key.Binding {
	if !p.focused || p.done.s != nil {
		return nil
	}
	return p.m.FullHelp()
}
