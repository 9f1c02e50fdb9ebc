package app

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/tui/internal/cell"
)

// render draws the whole screen as the layout pass laid it out: the
// title bar, the body, the status line and the help bar, each line
// exactly as wide as the screen.
func (m *Model) render() string {
	st := m.Styles
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
	lines = append(lines, cell.FitLine(m.titleBar(), w))
	if l.top > 1 {
		lines = append(lines, cell.FitLine("", w))
	}
	lines = append(lines, cell.FitBlock(body, w, l.bodyH)...)
	if l.status > 0 {
		lines = append(lines, cell.FitLine(status, w))
	}
	lines = append(lines, cell.FitBlock(m.bar.View(), w, helpHeight)...)
	lines = lines[:min(len(lines), max(m.height, 1))]
	for i, line := range lines {
		line = " " + line + " " // one column of margin on each side
		if m.width < 3 {
			line = cell.FitLine(line, max(m.width, 0))
		}
		lines[i] = line
	}
	return strings.Join(lines, "\n")
}

// sessionBody composes the session view's body as laid out: the inbox,
// the activity pane and the question panel side by side when wide,
// stacked when narrow; a pane with the focus on a narrow screen takes
// the whole body.
func (m *Model) sessionBody() string {
	f, h, w := m.lay.frame, m.lay.bodyH, m.lay.width
	mode := m.mode()
	st := m.Styles
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
		col := cell.FitBlock(strings.Join(left, "\n"), f.sideW, h)
		div := " " + st.Divider.Render("│") + " "
		var right string
		if mode == modePast {
			right = m.past.View()
		} else {
			right = m.qpane.View()
		}
		panel := cell.FitBlock(right, f.panelW, h)
		for i := range col {
			col[i] += div + panel[i]
		}
		return strings.Join(col, "\n")
	}
	var parts []string
	if f.inboxRows > 0 {
		parts = append(parts, cell.FitBlock(m.inbox.View(), w, f.inboxRows)...)
		parts = append(parts, "")
	}
	parts = append(parts, cell.FitBlock(m.qpane.View(), f.panelW, f.panelH)...)
	if f.activityRows > 0 {
		parts = append(parts, "", m.activity.View())
	}
	return strings.Join(parts, "\n")
}
