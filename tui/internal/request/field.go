package request

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
)

// maxTextRows bounds a free-text answer's box: it scrolls past them.
const maxTextRows = 8

// textField is a free-text question's answer: a text area framed with the
// bar on its left that the option list's huh theme gives a field. The
// panel drives it (sizes it, gives it keys, reads its text); Enter is the
// panel's, which confirms the answer.
type textField struct {
	ta textarea.Model
	st *styles.Styles
}

// newTextField is an empty answer box in st, value its draft so far;
// newLine breaks a line.
func newTextField(st *styles.Styles, newLine key.Binding, value string) *textField {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = ""
	ta.Placeholder = "Type your answer…"
	ta.CharLimit = interaction.MaxCustomLen
	ta.KeyMap.InsertNewline.SetKeys(newLine.Keys()...)
	ta.SetValue(value)
	f := &textField{ta: ta}
	f.restyle(st)
	return f
}

// restyle gives the box st's look.
func (f *textField) restyle(st *styles.Styles) {
	if f.st == st {
		return
	}
	f.st = st
	s := f.ta.Styles()
	q := st.Question
	s.Focused.Text, s.Focused.Placeholder, s.Focused.CursorLine = q.AnswerText, q.AnswerPlaceholder, q.AnswerText
	s.Blurred.Text, s.Blurred.Placeholder, s.Blurred.CursorLine = q.AnswerText, q.AnswerPlaceholder, q.AnswerText
	s.Cursor.Color = lipgloss.NoColor{}
	f.ta.SetStyles(s)
}

// SetSize gives the box w×h cells, at most maxTextRows rows: its frame
// takes two columns.
func (f *textField) SetSize(w, h int) {
	f.ta.SetWidth(max(w-f.st.Question.Answer.GetHorizontalFrameSize(), 1))
	f.ta.SetHeight(max(min(h, maxTextRows), 1))
}

// View draws the box; without the keys, its bar is hidden.
func (f *textField) View() string {
	frame := f.st.Question.Answer
	if !f.ta.Focused() {
		frame = frame.BorderStyle(lipgloss.HiddenBorder())
	}
	return frame.Render(f.ta.View())
}

// update types a key or paste into the box, and hands it what else is
// its own (its cursor's blink).
func (f *textField) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	f.ta, cmd = f.ta.Update(msg)
	return cmd
}

// Value is the text typed.
func (f *textField) Value() string { return f.ta.Value() }
