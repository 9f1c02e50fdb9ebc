package question

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/request"
	"github.com/asktui/asktui/tui/internal/ui"
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
	ui.Box
	com     *ui.Common
	globals ui.Globals
	kind    confirmKind
	focus   int              // 0 = the action, 1 = go back
	r       *request.Request // the request it is about
	// decide is what the panel does with the human's choice: yes, the
	// action; no, back to the question.
	decide func(yes bool) tea.Cmd
}

// open asks about request r; decide takes the answer. The focus starts
// on the safe button for a decline.
func (d *confirmDialog) open(r *request.Request, kind confirmKind, decide func(yes bool) tea.Cmd) {
	d.r, d.kind, d.decide = r, kind, decide
	d.focus = 0
	if kind == confirmDecline {
		d.focus = 1
	}
}

// Actions are the dialog's keys; only quit works beside them.
func (d *confirmDialog) Actions() []ui.Action {
	k := d.com.Keys.Confirm
	return []ui.Action{
		ui.Answer(k.Yes, func(ui.KeyMsg) tea.Cmd { return d.decide(true) }).Kept().In("Dialog"),
		ui.Answer(k.No, func(ui.KeyMsg) tea.Cmd { return d.decide(false) }).Kept().In("Dialog"),
		ui.Answer(k.Press, func(ui.KeyMsg) tea.Cmd { return d.decide(d.focus == 0) }).InBar().In("Dialog"),
		ui.Move(k.Switch, func(ui.KeyMsg) tea.Cmd { d.focus = 1 - d.focus; return nil }).InBar().In("Dialog"),
		d.globals.Quit(),
	}
}

func (*confirmDialog) Typist() func(tea.Msg) tea.Cmd { return nil }

// ShortHelp implements help.KeyMap.
func (d *confirmDialog) ShortHelp() []key.Binding { return ui.ShortHelp(d) }

// FullHelp implements help.KeyMap.
func (d *confirmDialog) FullHelp() [][]key.Binding { return ui.FullHelp(d) }

// View draws the dialog in its size: framed, with its explanation, when
// there is room; else its question and buttons alone.
func (d *confirmDialog) View() string {
	r, width, height, st, k := d.r, d.Width(), d.Height(), d.com.Styles, d.com.Keys.Confirm
	var title, body, act string
	titleStyle := st.Dialog.Title
	switch d.kind {
	case confirmDecline:
		title, act = "Decline "+r.Agent+"'s question?", "Decline"
		if !r.Single() {
			title = "Decline " + r.Agent + "'s " + cell.Plural(len(r.Questions), "question", "questions") + "?"
		}
		body = "The agent is told you declined. Your drafts stay if you go back."
		titleStyle = st.Dialog.Danger
	case confirmSubmit:
		n := r.Unanswered()
		title, act = "Submit with "+cell.Plural(n, "question", "questions")+" unanswered?", "Submit"
		body = "Unanswered questions are sent as skipped."
	}
	btn := func(i int, s string) string {
		if d.focus == i {
			return st.Dialog.ActiveButton.Render(s)
		}
		return st.Dialog.Button.Render(s)
	}
	inner := max(min(width-4, 56), 10)
	yes, no := act+" ("+keys.FirstName(k.Yes)+")", "Go back ("+keys.FirstName(k.No)+")"
	buttons := btn(0, yes) + " " + btn(1, no)
	if cell.Width(buttons) > inner {
		buttons = btn(0, yes) + "\n" + btn(1, no)
	}
	full := lipgloss.JoinVertical(lipgloss.Left,
		titleStyle.Render(ansi.Wrap(title, inner, "")),
		"",
		st.Dialog.Body.Render(ansi.Wrap(body, inner, "")),
		"",
		buttons,
	)
	if box := st.Dialog.Box.Render(full); cell.LineCount(box) <= height {
		return box
	}
	compact := lipgloss.JoinVertical(lipgloss.Left, titleStyle.Render(ansi.Wrap(title, width, "")), buttons)
	if box := st.Dialog.Box.Render(compact); cell.LineCount(box) <= height && cell.Width(cell.FirstLine(box)) <= width {
		return box
	}
	return compact
}
