// Package app is asktui's program: the one tea.Model (Model), which owns
// the waiting requests, the conversations of asktui run and every pane,
// and the link (Link) that brings the inbox's and the conversations'
// news into it. Which pane has the keys is one value (focus.go); the
// arrival hold and the human's choice of place are kept in one place
// (hold.go); one layout pass sizes every pane (layout.go); the help bar
// and the ? overlay list the keys of the pane with them (help.go).
//
// The panes live in rooms of their own (tui/internal/question, inboxlist,
// past, activity, rulebook, chat) and keep the contract of
// tui/internal/ui; none holds the Model: each asks it for what it needs
// through a host of its own, which hosts.go implements. Package tui
// builds the Model for its public API (Program, Panel, Ask).
package app

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/chat"
	"github.com/asktui/asktui/tui/internal/rulebook"
)

// Alerts are the ways the session view announces a new request
// (tui.Alerts).
type Alerts struct {
	// Bell rings the terminal bell.
	Bell bool
	// Title shows the number of waiting questions in the window title.
	Title bool
	// Notify sends a desktop notification (OSC 9 and OSC 777).
	Notify bool
}

// Config is the program a Model is, fixed at construction (tui.Options
// less what concerns the terminal).
type Config struct {
	// Theme is the palette; styles.ThemeAuto asks the terminal.
	Theme styles.Theme
	// Inline draws in the normal screen, taking only the rows needed.
	Inline bool
	// Now is the clock of ages and countdowns; Clock, when set, the
	// clock of key timing (tests).
	Now, Clock func() time.Time
	// Run makes the conversation view of asktui run; Session the session
	// view of serve, demo and SSH; neither, the one-shot view of ask.
	Run, Session bool
	// Remote is a view over SSH: ctrl+c closes only it.
	Remote bool
	// Rules are the human's standing answers; nil when there are none.
	Rules rulebook.Rules
	// Alerts say how the session view announces a new request.
	Alerts Alerts
	// Status is the line about where requests come from.
	Status string
	// FPS is bubbletea's frame rate; zero means its default.
	FPS int
}

// MaxFPS is bubbletea's highest frame rate.
const MaxFPS = 120

// New builds the Model cfg describes; it draws nothing until it is run
// by a tea.Program, and answers nothing until Attach.
func New(cfg Config) *Model {
	m := newModel(cfg.Theme, !cfg.Inline, cfg.Now)
	if cfg.Clock != nil {
		m.clock = cfg.Clock
	}
	switch {
	case cfg.Run:
		m.kind = kindRun
		m.focus = focusPrompt
	case cfg.Session:
		m.kind = kindSession
	}
	m.remote = cfg.Remote
	m.rules = cfg.Rules
	m.alerts = cfg.Alerts
	m.status = cell.SanitizeLine(cfg.Status)
	if cfg.FPS > 0 {
		m.frameEvery = time.Second / time.Duration(min(cfg.FPS, MaxFPS))
	}
	return m
}

// Attach makes the Model a view that answers through answers, hears the
// inbox and its conversations through l, starts agents with launcher
// (nil outside asktui run), and starts the agents of start when it runs.
func (m *Model) Attach(answers Answerer, l *Link, launcher conversation.Launcher, start []StartSpec) {
	m.answers = answers
	m.launcher = launcher
	m.sink = l
	m.spill = chat.NewSpill("", l.loaded)
	m.startSpecs = start
}

// Close ends what the Model started: the conversations' agents end with
// the view that drives them, and what the transcripts kept on disk goes
// with them. Call it once the tea.Program has returned.
func (m *Model) Close() {
	for _, c := range m.convs {
		if c.Conv() != nil {
			_ = c.Conv().Close()
		}
	}
	_ = m.spill.Close()
}

// Interrupted reports whether the human quit leaving questions
// unanswered; Summary is the line an inline prompt leaves behind (empty
// on the full screen). Both are read once the tea.Program has returned.
func (m *Model) Interrupted() bool { return m.interrupted }

// Summary is the line an inline prompt leaves behind when it ends; empty
// for the full screen.
func (m *Model) Summary() string {
	if !m.inline {
		return ""
	}
	return m.summary
}

// Screen is the screen as last drawn, without styling.
func (m *Model) Screen() string { return ansi.Strip(m.render()) }

// QuitMsg is the message that ends the program from outside, clearing
// the screen first.
func QuitMsg() tea.Msg { return quitMsg{} }

// Resize tells the program its terminal's new size.
func (l *Link) Resize(width, height int) {
	l.Send(tea.WindowSizeMsg{Width: width, Height: height})
}

// SetStatus replaces the line about where requests come from.
func (l *Link) SetStatus(s string) { l.Send(statusMsg{text: s}) }

// Embed builds the Model of a tui.Panel: request req alone, drawn in
// width×height without the program's chrome or global keys, answered
// through answers (as request 1). chosen says the human chose to answer
// it now: no arrival hold. It returns the Model and its first commands.
func Embed(req interaction.Request, theme styles.Theme, answers Answerer, width, height int, chosen bool) (*Model, tea.Cmd) {
	m := newModel(theme, true, time.Now)
	m.embedded = true
	m.away = true // until Focus
	m.answers = answers
	m.Resize(width, height)
	_, cmd := m.Update(askMsg{req: &inbox.Request{ID: 1, Request: req, Arrived: m.Now()}})
	if chosen {
		m.chose = true // the human's own choice: no hold
		cmd = tea.Batch(cmd, m.settle())
	}
	return m, cmd
}

// SetAway says whether an embedded Model's host took the keys (a Panel
// blurred): the field shown draws without its cursor. It returns the
// command that starts a text cursor, if any.
func (m *Model) SetAway(away bool) tea.Cmd {
	m.away = away
	return m.readyField()
}

// Resize gives an embedded Model width×height cells and lays it out.
func (m *Model) Resize(width, height int) {
	m.resize(max(width, 1), max(height, 1))
	m.relayout()
}

// PanelView draws an embedded Model: its question panel, or once done
// the summary of what was answered.
func (m *Model) PanelView(done bool) string {
	v := m.qpane.View()
	if done {
		v = m.summary
	}
	return strings.Join(cell.FitBlock(v, m.width, m.height), "\n")
}

// ShortHelp returns the keys that act now in the pane with them
// (help.KeyMap).
func (m *Model) ShortHelp() []key.Binding { return m.paneFor(m.focus).ShortHelp() }

// FullHelp returns every key that acts now in the pane with them,
// grouped (help.KeyMap).
func (m *Model) FullHelp() [][]key.Binding { return m.paneFor(m.focus).FullHelp() }
