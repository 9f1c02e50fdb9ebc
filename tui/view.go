package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// helpHeight is the help bar: one line, always (the panes' keys that do
// not fit are left out, and the ? overlay lists them all), so the body's
// height never depends on which keys act.
const helpHeight = 1

// statusHeight is the rows of the notice line above the help bar: one,
// except on a short screen (as chromeTop counts it) while there is no
// notice, where every row goes to the body before anything in it is cut.
func (m *model) statusHeight() int {
	if m.notice == "" && m.height < 16 {
		return 0
	}
	return 1
}

// chromeTop is the rows above the body: the title bar, and a gap under it
// when the screen has rows to spare.
func (m *model) chromeTop() int {
	if m.height < 16 {
		return 1
	}
	return 2
}

// bodyHeight is the rows between the title bar and the status line. An
// inline prompt takes only the rows its panel needs.
func (m *model) bodyHeight() int {
	if m.embedded {
		return max(m.height, 1)
	}
	h := max(m.height-m.chromeTop()-m.statusHeight()-helpHeight, 1)
	if m.inline && m.kind == kindOneShot {
		if r := m.activeRequest(); r != nil && m.mode() != modeHelp {
			return min(h, max(m.layout(r, m.contentWidth(), h).used(), 1))
		}
		return min(h, 4)
	}
	return h
}

// render draws the whole screen: the title bar, the body, the status line
// and the help bar, each line exactly as wide as the screen.
func (m *model) render() string {
	st := m.styles
	w := m.contentWidth()
	help := m.helpView()
	status := ""
	if m.notice != "" {
		status = st.App.Notice.Render(ansi.Truncate(m.notice, w, "…"))
	}
	bodyHeight := m.bodyHeight()
	var body string
	switch {
	case m.mode() == modeHelp:
		body = m.help.overlayView(m.helpLines(), m.helpScroll, w, bodyHeight)
	case m.kind == kindRun:
		body = m.runBody(w, bodyHeight)
	case m.kind == kindSession:
		body = m.sessionView(w, bodyHeight)
	default:
		body = m.panelView(w, bodyHeight)
	}

	lines := make([]string, 0, m.height)
	lines = append(lines, fitLine(m.titleBar(), w))
	if m.chromeTop() > 1 {
		lines = append(lines, fitLine("", w))
	}
	lines = append(lines, fitBlock(body, w, bodyHeight)...)
	if m.statusHeight() > 0 {
		lines = append(lines, fitLine(status, w))
	}
	lines = append(lines, fitBlock(help, w, helpHeight)...)
	lines = lines[:min(len(lines), max(m.height, 1))]
	for i, l := range lines {
		l = " " + l + " " // one column of margin on each side
		if m.width < 3 {
			l = fitLine(l, max(m.width, 0))
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// sessionView lays out the inbox, the activity pane and the question
// panel: side by side when wide, stacked when narrow. A pane with the
// focus on a narrow screen takes the whole body.
func (m *model) sessionView(w, h int) string {
	f := m.frame()
	mode := m.mode()
	st := m.styles
	switch {
	case mode == modePast && !f.wide:
		return m.past.View(w, h, st, m.log.color)
	case mode == modeActivity && !f.wide, len(m.requests) == 0:
		return m.idleView(w, h)
	case mode == modeInbox && f.inboxRows == 0:
		return m.inboxView(w, h, true)
	}
	if f.wide {
		var left []string
		rows := h
		if f.inboxRows > 0 {
			left = append(left, m.inboxView(f.sideW, f.inboxRows, mode == modeInbox), "")
			rows -= f.inboxRows + 1
		}
		left = append(left, m.acts.View(f.sideW, max(rows, 1), mode == modeActivity, m.spin.View(), st))
		col := fitBlock(strings.Join(left, "\n"), f.sideW, h)
		div := " " + st.Divider.Render("│") + " "
		var right string
		if mode == modePast {
			right = m.past.View(f.panelW, f.panelH, st, m.log.color)
		} else {
			right = m.panelView(f.panelW, f.panelH)
		}
		panel := fitBlock(right, f.panelW, h)
		for i := range col {
			col[i] += div + panel[i]
		}
		return strings.Join(col, "\n")
	}
	var parts []string
	if f.inboxRows > 0 {
		parts = append(parts, fitBlock(m.inboxView(w, f.inboxRows, mode == modeInbox), w, f.inboxRows)...)
		parts = append(parts, "")
	}
	parts = append(parts, fitBlock(m.panelView(f.panelW, f.panelH), f.panelW, f.panelH)...)
	if f.activityRows > 0 {
		parts = append(parts, "", m.acts.View(w, f.activityRows, false, m.spin.View(), st))
	}
	return strings.Join(parts, "\n")
}

// idleView is the session with the activity in the whole body: where the
// requests come from, then the log.
func (m *model) idleView(w, h int) string {
	var parts []string
	if len(m.requests) == 0 && m.status != "" {
		status := m.styles.App.Bar.Render(ansi.Wrap(m.status, w, ""))
		parts = append(parts, status, "")
		h -= lineCount(status) + 1
	}
	parts = append(parts, m.acts.View(w, max(h, 1), m.mode() == modeActivity, m.spin.View(), m.styles))
	return strings.Join(parts, "\n")
}

// inboxView draws the inbox block in w×rows (its title included).
func (m *model) inboxView(w, rows int, focused bool) string {
	mark := m.active
	if focused {
		mark = m.inbox.cursor
	}
	return m.inbox.View(m.requests, mark, w, max(rows-1, 1), focused, m.now(), m.styles, m.agentColor)
}
