package app

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/tui/internal/activity"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/ui"
)

var _ ui.Pane = (*idlePane)(nil)

// idlePane is the screen while nothing waits: the session's activity,
// in the whole body, under where the requests come from; or the one-shot
// panel's note that nothing waits. It has the keys of the program as a
// whole, and in the session the activity's scrolling.
type idlePane struct {
	ui.Box
	com      *ui.Common
	host     idleHost
	activity *activity.Pane // the session's, drawn in the whole body
}

// idleHost is what the idle screen asks of the program.
type idleHost interface {
	ui.Globals
	// Session reports whether this is the session view, where the idle
	// screen is the activity.
	Session() bool
	// Waiting is the number of requests waiting.
	Waiting() int
	// Status is where requests come from, shown while none waits.
	Status() string
	// Inline reports whether the screen is an inline prompt, which takes
	// only the rows it draws.
	Inline() bool
}

func newIdlePane(com *ui.Common, host idleHost, activity *activity.Pane) idlePane {
	return idlePane{com: com, host: host, activity: activity}
}

// statusLines is where the requests come from, wrapped, above the log:
// shown while none waits.
func (p *idlePane) statusLines() string {
	status := p.host.Status()
	if p.host.Waiting() > 0 || status == "" {
		return ""
	}
	return p.com.Styles.App.Bar.Render(ansi.Wrap(status, p.Width(), ""))
}

// SetSize sizes the pane, and in the session the activity it shows.
func (p *idlePane) SetSize(width, height int) {
	p.Box.SetSize(width, height)
	if !p.host.Session() {
		return
	}
	if s := p.statusLines(); s != "" {
		height -= cell.LineCount(s) + 1
	}
	p.activity.SetSize(width, max(height, 1))
}

// View draws the idle screen.
func (p *idlePane) View() string {
	st := p.com.Styles
	if p.host.Session() {
		var parts []string
		if s := p.statusLines(); s != "" {
			parts = append(parts, s, "")
		}
		parts = append(parts, p.activity.View())
		return strings.Join(parts, "\n")
	}
	lines := []string{
		st.App.Empty.Render("No questions waiting."),
		st.App.Bar.Render("Questions from agents appear here."),
	}
	if status := p.host.Status(); status != "" {
		lines = append(lines, "", st.App.Bar.Render(ansi.Wrap(status, max(p.Width()-2, 10), "")))
	}
	if p.host.Inline() {
		return lipgloss.JoinVertical(lipgloss.Left, lines...)
	}
	return lipgloss.Place(p.Width(), p.Height(), lipgloss.Center, lipgloss.Center, lipgloss.JoinVertical(lipgloss.Center, lines...))
}

// Actions are the keys while nothing waits: the session scrolls its
// activity; the one-shot view only waits.
func (p *idlePane) Actions() []ui.Action {
	var out []ui.Action
	if p.host.Session() {
		out = p.activity.ScrollActions(false)
	}
	return append(out, p.host.Globals(false)...)
}

func (*idlePane) Typist() func(tea.Msg) tea.Cmd { return nil }

// ShortHelp implements help.KeyMap.
func (p *idlePane) ShortHelp() []key.Binding { return ui.ShortHelp(p) }

// FullHelp implements help.KeyMap.
func (p *idlePane) FullHelp() [][]key.Binding { return ui.FullHelp(p) }
