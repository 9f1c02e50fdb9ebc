package tui

import (
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/styles"
)

// confirmKind names what a confirmation decides.
type confirmKind int

const (
	confirmDecline confirmKind = iota // decline the whole request
	confirmSubmit                     // submit with unanswered questions
)

// confirmDialog asks before an action that sends nothing the human typed
// or that cannot be undone. Backing out of it changes nothing.
type confirmDialog struct {
	kind  confirmKind
	focus int // 0 = the action, 1 = go back
}

// view draws the dialog for request r within width×height: framed, with
// its explanation, when there is room; else its question and buttons
// alone.
func (d *confirmDialog) view(r *request, width, height int, st *styles.Styles, k confirmKeyMap) string {
	var title, body, action string
	titleStyle := st.Dialog.Title
	switch d.kind {
	case confirmDecline:
		title, action = "Decline "+r.agent+"'s question?", "Decline"
		if !r.single() {
			title = "Decline " + r.agent + "'s " + plural(len(r.questions), "question", "questions") + "?"
		}
		body = "The agent is told you declined. Your drafts stay if you go back."
		titleStyle = st.Dialog.Danger
	case confirmSubmit:
		n := r.unanswered()
		title, action = "Submit with "+plural(n, "question", "questions")+" unanswered?", "Submit"
		body = "Unanswered questions are sent as skipped."
	}
	btn := func(i int, s string) string {
		if d.focus == i {
			return st.Dialog.ActiveButton.Render(s)
		}
		return st.Dialog.Button.Render(s)
	}
	inner := max(min(width-4, 56), 10)
	yes, no := action+" ("+firstKeyName(k.Yes)+")", "Go back ("+firstKeyName(k.No)+")"
	buttons := btn(0, yes) + " " + btn(1, no)
	if cellWidth(buttons) > inner {
		buttons = btn(0, yes) + "\n" + btn(1, no)
	}
	full := lipgloss.JoinVertical(lipgloss.Left,
		titleStyle.Render(ansi.Wrap(title, inner, "")),
		"",
		st.Dialog.Body.Render(ansi.Wrap(body, inner, "")),
		"",
		buttons,
	)
	if box := st.Dialog.Box.Render(full); lineCount(box) <= height {
		return box
	}
	compact := lipgloss.JoinVertical(lipgloss.Left, titleStyle.Render(ansi.Wrap(title, width, "")), buttons)
	if box := st.Dialog.Box.Render(compact); lineCount(box) <= height && cellWidth(firstLine(box)) <= width {
		return box
	}
	return compact
}
