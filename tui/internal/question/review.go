package question

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/request"
)

// reviewRoom is the rows the review step's answers get in height rows:
// under its title (and a gap, with room) and above its footer.
func reviewRoom(height int) int {
	head := 1
	if height >= 6 {
		head = 2
	}
	return max(height-head-2, 1)
}

// reviewView draws the review of r in width×height, the last tab of a
// request with several questions: the questions' titles in one column,
// their answers aligned in the next, unanswered ones flagged.
func (p *Pane) reviewView(r *request.Request, width, height int) string {
	st := p.com.Styles
	rows := []string{st.Review.Title.Render("Review your answers")}
	if height >= 6 {
		rows = append(rows, "")
	}
	numbered := len(r.Questions) <= 9
	col := 0
	for _, q := range r.Questions {
		col = max(col, cell.Width(q.Title))
	}
	col = min(col, max(width/3, 8), 24)
	var lines []string
	for i, q := range r.Questions {
		label := ansi.Truncate(q.Title, col, "…")
		label += strings.Repeat(" ", col-cell.Width(label))
		if numbered {
			label = strconv.Itoa(i+1) + "  " + label
		}
		a := q.Answer()
		var ans string
		switch {
		case a.Custom != "":
			ans = st.Review.Custom.Render("“" + cell.FirstLine(cell.SanitizeLine(a.Custom)) + "”")
		case len(a.Selected) > 0:
			ans = st.Review.Answer.Render(request.ItemText(a))
		default:
			ans = st.Review.Unanswered.Render("! unanswered (sent as skipped)")
		}
		if a.Note != "" {
			ans += st.Question.Hint.Render(" ✎ " + cell.FirstLine(cell.SanitizeLine(a.Note)))
		}
		lines = append(lines, ansi.Truncate(st.Review.Question.Render(label)+"  "+ans, width, "…"))
	}
	k := p.com.Keys.Review
	footer := keys.Name(k.Submit) + " submits"
	if numbered {
		footer += " · " + keys.Name(keys.Digits(k.Jump, len(r.Questions))) + " changes an answer"
	}
	if n := r.Unanswered(); n > 0 {
		footer = cell.Plural(n, "question", "questions") + " unanswered · " + footer
	}
	room := reviewRoom(height)
	scroll := min(r.Scroll, max(len(lines)-room, 0))
	end := min(scroll+room, len(lines))
	if scroll > 0 {
		lines[scroll] = st.Question.ScrollHint.Render("↑ " + cell.Plural(scroll+1, "more", "more"))
	}
	rows = append(rows, lines[scroll:end]...)
	if end < len(lines) {
		rows = append(rows, st.Question.ScrollHint.Render("↓ "+cell.Plural(len(lines)-end, "more", "more")))
	} else {
		rows = append(rows, "")
	}
	rows = append(rows, st.Question.Hint.Render(ansi.Truncate(footer, width, "…")))
	return strings.Join(rows, "\n")
}
