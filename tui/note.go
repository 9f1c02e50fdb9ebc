package tui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
)

// noteEditor edits the human's note on a question ("yes, but…"): it goes
// with the answer, beside the selection or the text, never in their
// place.
type noteEditor struct {
	ta            textarea.Model
	q             *question
	st            *styles.Styles
	width, height int
	// declining says the note is on why a plan under review is
	// declined: keeping it sends the decline.
	declining bool
}

func newNoteEditor(newLine key.Binding) noteEditor {
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
	return noteEditor{ta: ta}
}

// open edits q's note; declining, the note on why its plan is declined.
func (n *noteEditor) open(q *question, declining bool) tea.Cmd {
	n.q, n.declining = q, declining
	n.ta.Placeholder = "Yes, but…"
	if declining {
		n.ta.Placeholder = "What to change…"
	}
	n.ta.SetValue(q.note)
	n.ta.CursorEnd()
	return n.ta.Focus()
}

// save keeps the text as the question's note.
func (n *noteEditor) save() {
	n.q.note = n.ta.Value()
	n.ta.Blur()
}

// Blur drops the edit's cursor: the editor closed.
func (n *noteEditor) Blur() { n.ta.Blur() }

// typeKey edits the note with a key or paste no action took.
func (n *noteEditor) typeKey(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	n.ta, cmd = n.ta.Update(msg)
	return cmd
}

// SetSize gives the editor the panel's room below its tabs, and its text
// area the rows of that it can have.
func (n *noteEditor) SetSize(width, height int) {
	n.width, n.height = width, height
	n.ta.SetWidth(n.inner())
	n.ta.SetHeight(max(min(3, height-4), 1))
}

// inner is the width inside the editor's frame.
func (n *noteEditor) inner() int { return max(min(n.width-4, 60), 10) }

// View draws the editor, framed, for the middle of the panel.
func (n *noteEditor) View() string {
	st, inner := n.st, n.inner()
	title, body := "Note on "+n.q.title, "sent with your answer, beside it"
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
