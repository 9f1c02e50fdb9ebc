package tui

import (
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/styles"
)

// inboxPane lists the waiting requests: agent, what it asks, how many
// questions, and how long it has waited. With the focus it has a cursor
// of its own; the request shown is not switched until the human opens
// one.
type inboxPane struct {
	cursor int
}

// View draws the inbox in width×rows: a title and one row per request,
// scrolled to keep mark (the request shown, or the cursor) in view, with
// the rows cut off above and below counted.
func (p *inboxPane) View(reqs []*request, mark, width, rows int, focused bool, now time.Time, st *styles.Styles, color func(*request) int) string {
	title := st.Inbox.Title.Render("Inbox · " + plural(len(reqs), "request", "requests"))
	if focused {
		title = st.Activity.TitleFocused.Render("Inbox") + st.Inbox.Title.Render(" · "+plural(len(reqs), "request", "requests")+" · enter opens")
	}
	lines := []string{ansi.Truncate(title, width, "…")}
	rows = max(rows, 1)
	first := 0
	show := rows
	if len(reqs) > rows {
		// One row says what is cut; keep the marked request in view.
		show = max(rows-1, 1)
		first = min(max(mark-show+1, 0), len(reqs)-show)
	}
	for i := first; i < len(reqs) && i < first+show; i++ {
		r := reqs[i]
		cursor, style := "  ", st.Inbox.Item
		if i == mark {
			cursor, style = st.Option.Cursor.String()+" ", st.Inbox.Active
		}
		meta := st.Inbox.Meta.Render(" · " + plural(len(r.questions), "question", "questions") + " · " + age(now.Sub(r.arrived)))
		name := st.AgentStyle(color(r)).Render(ansi.Truncate(r.agent, maxNameColumn, "…"))
		room := width - cellWidth(cursor) - cellWidth(name) - cellWidth(meta) - 3
		what := ""
		if room >= 4 {
			what = st.Inbox.Meta.Render(" · ") + ansi.Truncate(inlineMarkdown(r.what(), style, st.Question.Code), room, "…")
		}
		lines = append(lines, ansi.Truncate(cursor+name+what+meta, width, "…"))
	}
	if cut := len(reqs) - show; cut > 0 {
		above, below := first, len(reqs)-first-show
		var parts []string
		if above > 0 {
			parts = append(parts, "↑ "+plural(above, "more", "more"))
		}
		if below > 0 {
			parts = append(parts, "↓ +"+plural(below, "more", "more"))
		}
		lines = append(lines, "  "+st.Option.Scroll.Render(strings.Join(parts, " · ")))
	}
	return strings.Join(lines, "\n")
}
