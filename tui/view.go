package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// render draws the whole screen as the layout pass laid it out: the
// title bar, the body, the status line and the help bar, each line
// exactly as wide as the screen.
func (m *model) render() string {
	st := m.styles
	l := m.lay
	w := l.width
	status := ""
	if m.notice != "" {
		status = st.App.Notice.Render(ansi.Truncate(m.notice, w, "…"))
	}
	var body string
	switch {
	case m.mode() == modeHelp:
		body = m.overlay.View()
	case m.kind == kindRun:
		body = m.runBody()
	case m.kind == kindSession:
		body = m.sessionBody()
	case m.activeRequest() == nil:
		body = m.idle.View()
	default:
		body = m.qpane.View()
	}

	lines := make([]string, 0, m.height)
	lines = append(lines, fitLine(m.titleBar(), w))
	if l.top > 1 {
		lines = append(lines, fitLine("", w))
	}
	lines = append(lines, fitBlock(body, w, l.bodyH)...)
	if l.status > 0 {
		lines = append(lines, fitLine(status, w))
	}
	lines = append(lines, fitBlock(m.bar.View(), w, helpHeight)...)
	lines = lines[:min(len(lines), max(m.height, 1))]
	for i, line := range lines {
		line = " " + line + " " // one column of margin on each side
		if m.width < 3 {
			line = fitLine(line, max(m.width, 0))
		}
		lines[i] = line
	}
	return strings.Join(lines, "\n")
}

// sessionBody composes the session view's body as laid out: the inbox,
// the activity pane and the question panel side by side when wide,
// stacked when narrow; a pane with the focus on a narrow screen takes
// the whole body.
func (m *model) sessionBody() string {
	f, h, w := m.lay.frame, m.lay.bodyH, m.lay.width
	mode := m.mode()
	st := m.styles
	switch {
	case mode == modeRules:
		return m.rulebook.View()
	case mode == modePast && !f.wide:
		return m.past.View()
	case mode == modeActivity && !f.wide, len(m.requests) == 0:
		return m.idle.View()
	case mode == modeInbox && f.inboxRows == 0:
		return m.inbox.View()
	}
	if f.wide {
		var left []string
		if f.inboxRows > 0 {
			left = append(left, m.inbox.View(), "")
		}
		left = append(left, m.activity.View())
		col := fitBlock(strings.Join(left, "\n"), f.sideW, h)
		div := " " + st.Divider.Render("│") + " "
		var right string
		if mode == modePast {
			right = m.past.View()
		} else {
			right = m.qpane.View()
		}
		panel := fitBlock(right, f.panelW, h)
		for i := range col {
			col[i] += div + panel[i]
		}
		return strings.Join(col, "\n")
	}
	var parts []string
	if f.inboxRows > 0 {
		parts = append(parts, fitBlock(m.inbox.View(), w, f.inboxRows)...)
		parts = append(parts, "")
	}
	parts = append(parts, fitBlock(m.qpane.View(), f.panelW, f.panelH)...)
	if f.activityRows > 0 {
		parts = append(parts, "", m.activity.View())
	}
	return strings.Join(parts, "\n")
}

// idlePane is the screen while nothing waits: the session's activity,
// in the whole body, under where the requests come from; or the one-shot
// panel's note that nothing waits. It has the keys of the program as a
// whole, and in the session the activity's scrolling.
type idlePane struct {
	box
	m *model
}

// statusLines is where the requests come from, wrapped, above the log:
// shown while none waits.
func (p *idlePane) statusLines() string {
	m := p.m
	if len(m.requests) > 0 || m.status == "" {
		return ""
	}
	return m.styles.App.Bar.Render(ansi.Wrap(m.status, p.width, ""))
}

// SetSize sizes the pane, and in the session the activity it shows.
func (p *idlePane) SetSize(width, height int) {
	p.box.SetSize(width, height)
	if p.m.kind != kindSession {
		return
	}
	if s := p.statusLines(); s != "" {
		height -= lineCount(s) + 1
	}
	p.m.activity.SetSize(width, max(height, 1))
}

// View draws the idle screen.
func (p *idlePane) View() string {
	m := p.m
	st := m.styles
	if m.kind == kindSession {
		var parts []string
		if s := p.statusLines(); s != "" {
			parts = append(parts, s, "")
		}
		parts = append(parts, m.activity.View())
		return strings.Join(parts, "\n")
	}
	lines := []string{
		st.App.Empty.Render("No questions waiting."),
		st.App.Bar.Render("Questions from agents appear here."),
	}
	if m.status != "" {
		lines = append(lines, "", st.App.Bar.Render(ansi.Wrap(m.status, max(p.width-2, 10), "")))
	}
	if m.inline {
		return lipgloss.JoinVertical(lipgloss.Left, lines...)
	}
	return lipgloss.Place(p.width, p.height, lipgloss.Center, lipgloss.Center, lipgloss.JoinVertical(lipgloss.Center, lines...))
}

// actions are the keys while nothing waits: the session scrolls its
// activity; the one-shot view only waits.
func (p *idlePane) actions() []action {
	m := p.m
	var out []action
	if m.kind == kindSession {
		out = m.activity.scrollActions(false)
	}
	return append(out, m.globals(focusPanel, false)...)
}

func (*idlePane) typist() func(tea.Msg) tea.Cmd { return nil }

// ShortHelp implements help.KeyMap.
func (p *idlePane) ShortHelp() []key.Binding { return shortHelp(p) }

// FullHelp implements help.KeyMap.
func (p *idlePane) FullHelp() [][]key.Binding { return fullHelp(p) }
