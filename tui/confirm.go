package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
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
	box
	*common
	globals globals
	kind    confirmKind
	focus   int      // 0 = the action, 1 = go back
	r       *request // the request it is about
	// decide is what the panel does with the human's choice: yes, the
	// action; no, back to the question.
	decide func(yes bool) tea.Cmd
}

// open asks about request r; decide takes the answer. The focus starts
// on the safe button for a decline.
func (d *confirmDialog) open(r *request, kind confirmKind, decide func(yes bool) tea.Cmd) {
	d.r, d.kind, d.decide = r, kind, decide
	d.focus = 0
	if kind == confirmDecline {
		d.focus = 1
	}
}

// actions are the dialog's keys; only quit works beside them.
func (d *confirmDialog) actions() []action {
	k := d.keys.Confirm
	return []action{
		answer(k.Yes, func(keyMsg) tea.Cmd { return d.decide(true) }).kept().in("Dialog"),
		answer(k.No, func(keyMsg) tea.Cmd { return d.decide(false) }).kept().in("Dialog"),
		answer(k.Press, func(keyMsg) tea.Cmd { return d.decide(d.focus == 0) }).inBar().in("Dialog"),
		move(k.Switch, func(keyMsg) tea.Cmd { d.focus = 1 - d.focus; return nil }).inBar().in("Dialog"),
		d.globals.Quit(),
	}
}

func (*confirmDialog) typist() func(tea.Msg) tea.Cmd { return nil }

// ShortHelp implements help.KeyMap.
func (d *confirmDialog) ShortHelp() []key.Binding { return shortHelp(d) }

// FullHelp implements help.KeyMap.
func (d *confirmDialog) FullHelp() [][]key.Binding { return fullHelp(d) }

// View draws the dialog in its size: framed, with its explanation, when
// there is room; else its question and buttons alone.
func (d *confirmDialog) View() string {
	r, width, height, st, k := d.r, d.width, d.height, d.styles, d.keys.Confirm
	var title, body, action string
	titleStyle := st.Dialog.Title
	switch d.kind {
	case confirmDecline:
		title, action = "Decline "+r.agent+"'s question?", "Decline"
		if !r.single() {
			title = "Decline " + r.agent + "'s " + cell.Plural(len(r.questions), "question", "questions") + "?"
		}
		body = "The agent is told you declined. Your drafts stay if you go back."
		titleStyle = st.Dialog.Danger
	case confirmSubmit:
		n := r.unanswered()
		title, action = "Submit with "+cell.Plural(n, "question", "questions")+" unanswered?", "Submit"
		body = "Unanswered questions are sent as skipped."
	}
	btn := func(i int, s string) string {
		if d.focus == i {
			return st.Dialog.ActiveButton.Render(s)
		}
		return st.Dialog.Button.Render(s)
	}
	inner := max(min(width-4, 56), 10)
	yes, no := action+" ("+keys.FirstName(k.Yes)+")", "Go back ("+keys.FirstName(k.No)+")"
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
