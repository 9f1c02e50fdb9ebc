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
	// rows are the rows drawn last, by what they depend on: a view over
	// SSH redraws the inbox for every arrival, and most rows are as they
	// were.
	rows   map[inboxRowKey]string
	styles *styles.Styles
}

// inboxRowKey is what one row of the inbox looks like.
type inboxRowKey struct {
	r       *request
	marked  bool
	width   int
	color   int
	waited  string
	focused bool
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
	if p.styles != st || len(p.rows) > 4*(show+1) {
		p.rows, p.styles = map[inboxRowKey]string{}, st
	}
	for i := first; i < len(reqs) && i < first+show; i++ {
		r := reqs[i]
		k := inboxRowKey{r: r, marked: i == mark, width: width, color: color(r), waited: age(now.Sub(r.arrived)), focused: focused}
		line, ok := p.rows[k]
		if !ok {
			line = inboxRow(r, k, st)
			p.rows[k] = line
		}
		lines = append(lines, line)
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

// inboxRow draws one row of the inbox: the cursor, the agent, what it
// asks (its inline Markdown drawn), how many questions and how long ago.
func inboxRow(r *request, k inboxRowKey, st *styles.Styles) string {
	cursor, style := "  ", st.Inbox.Item
	if k.marked {
		cursor, style = st.Option.Cursor.String()+" ", st.Inbox.Active
	}
	meta := st.Inbox.Meta.Render(" · " + plural(len(r.questions), "question", "questions") + " · " + k.waited)
	name := st.AgentStyle(k.color).Render(ansi.Truncate(r.agent, maxNameColumn, "…"))
	room := k.width - cellWidth(cursor) - cellWidth(name) - cellWidth(meta) - 3
	what := ""
	if room >= 4 {
		what = st.Inbox.Meta.Render(" · ") + ansi.Truncate(inlineMarkdown(r.what(), style, st.Question.Code), room, "…")
	}
	return ansi.Truncate(cursor+name+what+meta, k.width, "…")
}
