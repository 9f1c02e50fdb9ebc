package question

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/request"
	"github.com/asktui/asktui/tui/internal/ui"
)

// noteEditor edits the human's note on a question ("yes, but…"): it goes
// with the answer, beside the selection or the text, never in their
// place.
type noteEditor struct {
	ui.Box
	com     *ui.Common
	globals ui.Globals
	ta      textarea.Model
	q       *request.Question
	// declining says the note is on why a plan under review is
	// declined: keeping it sends the decline.
	declining bool
	// done is what the panel does once the note is kept, or the edit
	// dropped.
	done func(kept bool) tea.Cmd
}

func newNoteEditor(com *ui.Common, g ui.Globals) noteEditor {
	newLine := com.Keys.Note.NewLine
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = ""
	ta.Placeholder = "Yes, but…"
	ta.CharLimit = interaction.MaxNoteLen
	ta.SetHeight(3)
	ta.KeyMap.InsertNewline.SetKeys(newLine.Keys()...)
	s := ta.Styles()
	s.Cursor.Blink = false
	ta.SetStyles(s)
	return noteEditor{com: com, globals: g, ta: ta}
}

// open edits q's note; declining, the note on why its plan is declined.
// done takes the outcome.
func (n *noteEditor) open(q *request.Question, declining bool, done func(kept bool) tea.Cmd) tea.Cmd {
	n.q, n.declining, n.done = q, declining, done
	n.ta.Placeholder = "Yes, but…"
	if declining {
		n.ta.Placeholder = "What to change…"
	}
	n.ta.SetValue(q.Note)
	n.ta.CursorEnd()
	return n.Focus()
}

// save keeps the text as the question's note.
func (n *noteEditor) save() {
	n.q.Note = n.ta.Value()
	n.Blur()
}

// Focus gives the editor the keys, its text area the cursor.
func (n *noteEditor) Focus() tea.Cmd {
	n.Box.Focus()
	return n.ta.Focus()
}

// Blur drops the edit's cursor: the editor closed.
func (n *noteEditor) Blur() {
	n.Box.Blur()
	n.ta.Blur()
}

// Actions are the editor's keys; it types everything else. Declining a
// plan, keeping the note sends the decline.
func (n *noteEditor) Actions() []ui.Action {
	k := n.com.Keys.Note
	save, cancel := k.Save, k.Cancel
	if n.declining {
		save = keys.Relabel(save, keys.Name(save), "decline the plan, with the note")
		cancel = keys.Relabel(cancel, keys.Name(cancel), "back to the plan")
	}
	return []ui.Action{
		ui.Answer(save, func(ui.KeyMsg) tea.Cmd {
			n.save()
			return n.done(true)
		}).Kept().In("Note"),
		ui.Answer(k.NewLine, func(msg ui.KeyMsg) tea.Cmd { return n.typeKey(msg) }).InBar().In("Note"),
		ui.Move(cancel, func(ui.KeyMsg) tea.Cmd {
			n.Blur()
			return n.done(false)
		}).Kept().In("Note"),
		n.globals.Quit(),
	}
}

func (n *noteEditor) Typist() func(tea.Msg) tea.Cmd { return n.typeKey }

// ShortHelp implements help.KeyMap.
func (n *noteEditor) ShortHelp() []key.Binding { return ui.ShortHelp(n) }

// FullHelp implements help.KeyMap.
func (n *noteEditor) FullHelp() [][]key.Binding { return ui.FullHelp(n) }

// typeKey edits the note with a key or paste no action took.
func (n *noteEditor) typeKey(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	n.ta, cmd = n.ta.Update(msg)
	return cmd
}

// SetSize gives the editor the panel's room below its tabs, and its text
// area the rows of that it can have.
func (n *noteEditor) SetSize(width, height int) {
	n.Box.SetSize(width, height)
	n.ta.SetWidth(n.inner())
	n.ta.SetHeight(max(min(3, height-4), 1))
}

// inner is the width inside the editor's frame.
func (n *noteEditor) inner() int { return max(min(n.Width()-4, 60), 10) }

// View draws the editor, framed, for the middle of the panel.
func (n *noteEditor) View() string {
	st, inner := n.com.Styles, n.inner()
	title, body := "Note on "+n.q.Title, "sent with your answer, beside it"
	if n.declining {
		title, body = "Decline the plan", "why, or what to change; sent with your answer"
	}
	content := lipgloss.JoinVertical(lipgloss.Left,
		st.Dialog.Title.Render(ansi.Truncate(title, inner, "…")),
		st.Dialog.Body.Render(ansi.Truncate(body, inner, "…")),
		n.ta.View(),
	)
	return st.Dialog.Box.Render(content)
}
