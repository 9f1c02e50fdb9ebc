// Package question is the question panel: the request shown, one question
// at a time (its text, the call approved, its field and the preview of
// the option under the cursor), its review step or plan review, and the
// dialogs over it (confirmation, note, remember). The program owns the
// requests; the panel reads and answers them through its Host.
package question

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/request"
	"github.com/asktui/asktui/tui/internal/rulebook"
	"github.com/asktui/asktui/tui/internal/ui"
)

// Pane is the question panel: the request shown, one question at
// a time (its text, its field and the preview of the option under the
// cursor), or its review step, with a confirmation dialog or the note
// editor over it. Each request keeps its own tab, scroll and drafts; the
// pane keeps where its keys go and its layout for the request shown.
type Pane struct {
	ui.Box
	com      *ui.Common
	host     Host
	layer    Layer
	request  uint64 // the request layer belongs to
	confirm  confirmDialog
	note     noteEditor
	remember rulebook.Dialog
	// raw shows details and previews as the agent sent them, not
	// rendered as Markdown (to approve exact bytes).
	raw bool
	lay panelLayout // the request shown, laid out in the pane's size
	// shown is the question whose field has the keys (ReadyField).
	shown *request.Question
}

// The panel and its two dialogs keep the contract of every pane.
var (
	_ ui.Pane = (*Pane)(nil)
	_ ui.Pane = (*confirmDialog)(nil)
	_ ui.Pane = (*noteEditor)(nil)
)

// Host is what the question panel asks of the program, which
// owns the requests, answers them and holds the keys.
type Host interface {
	ui.Globals
	// Request is the request shown; nil while none waits.
	Request() *request.Request
	// Find is the waiting request with that id; nil once it has ended.
	Find(id uint64) *request.Request
	// Answer sends a as r's answer and takes r off the screen, saying
	// notice; Decline declines r so.
	Answer(r *request.Request, a interaction.Answer, notice string) tea.Cmd
	Decline(r *request.Request, notice string) tea.Cmd
	// Notice shows text on the status line.
	Notice(text string) tea.Cmd
	// Rules are the human's rules; nil when there are none to keep.
	Rules() rulebook.Rules
	// CallHeld reports whether the keys that answer r are held until
	// its call has been on screen; ArrivalHeld, whether they are held
	// because r just came up (the program's arrival hold, app/hold.go).
	CallHeld(r *request.Request) bool
	ArrivalHeld(r *request.Request) bool
	// AgentColor is the colour of the agent with key agentKey.
	AgentColor(agentKey string) int
	// Many reports whether requests come and go (the session and
	// conversation views), where the panel says who asks.
	Many() bool
	// Inline reports whether the screen is an inline prompt: the panel
	// takes only the rows it needs.
	Inline() bool
	// ScreenWidth is the screen's width: from previewSideFrom columns a
	// preview goes beside the options.
	ScreenWidth() int
}

// New is the question panel of the program host, drawing in com's look.
func New(com *ui.Common, host Host) Pane {
	return Pane{
		com:      com,
		host:     host,
		confirm:  confirmDialog{com: com, globals: host},
		note:     newNoteEditor(com, host),
		remember: rulebook.NewDialog(com, host),
	}
}

// SetSize lays the request shown out in width×height and sizes its field
// and the note editor to it. The layout pass calls it whenever what is
// shown may have changed, not only the size: a tab, a filter, the raw
// toggle and the request shown all change the layout.
func (p *Pane) SetSize(width, height int) {
	p.Box.SetSize(width, height)
	r := p.host.Request()
	if r == nil {
		p.lay = panelLayout{width: p.Width(), height: p.Height()}
		return
	}
	p.lay = p.layoutFor(r, p.Width(), p.Height(), p.host.Inline())
	if q := r.Current(); q != nil && q.Built() {
		// The field's rows decide the layout's and its width theirs: a
		// second pass settles both.
		q.SizeField(p.lay.listW, p.lay.formRows-p.lay.previewRows)
		again := p.layoutFor(r, p.Width(), p.Height(), p.host.Inline())
		if again.listW != p.lay.listW || again.formRows != p.lay.formRows || again.previewRows != p.lay.previewRows {
			q.SizeField(again.listW, again.formRows-again.previewRows)
		}
		p.lay = again
		p.spareToText(q)
	}
	room := p.Height()
	for _, on := range []bool{p.lay.who, p.lay.tabs, p.lay.tabsGap} {
		if on {
			room--
		}
	}
	p.confirm.SetSize(p.Width(), max(room, 1))
	p.note.SetSize(p.Width(), max(room, 1))
	p.remember.SetSize(p.Width(), max(room, 1))
	// Where the text (or the review) is scrolled to stays in range.
	if r.Current() != nil {
		r.Scroll = min(max(r.Scroll, 0), max(len(p.lay.text)-p.lay.textRows, 0))
	} else {
		r.Scroll = min(max(r.Scroll, 0), max(len(r.Questions)-reviewRoom(room), 0))
	}
}

// RoomFor reports whether a panel of width×height shows the request
// shown as it first shows: its call, and as many rows of options as the
// form wants before the rest of the text. A screen the panel shares (the
// inbox list above it, a transcript) gives way until it does.
func (p *Pane) RoomFor(width, height int) bool {
	r := p.host.Request()
	if r == nil || r.Current() == nil {
		return true
	}
	q := r.Current()
	l := p.layoutFor(r, width, height, false)
	if !l.hasCall {
		return true
	}
	return l.showsCall(0) && l.formRows >= min(naturalRows(q, l.listW), formWantRows)
}

// Need is the rows the request shown would use in width×height, its
// field taking only the rows it needs: what a screen it shares gives it.
func (p *Pane) Need(width, height int) int {
	r := p.host.Request()
	if r == nil {
		return 0
	}
	n := p.layoutFor(r, width, height, true).used()
	if p.layer == OnRemember && p.request == r.ID {
		l := p.layoutFor(r, width, height, true)
		top := 0
		for _, on := range []bool{l.who, l.tabs, l.tabsGap} {
			if on {
				top++
			}
		}
		n = max(n, top+p.remember.Need())
	}
	return n
}

// View draws the request shown in the pane's size.
func (p *Pane) View() string {
	r := p.host.Request()
	if r == nil {
		return ""
	}
	return p.requestView(r)
}

// ShortHelp implements help.KeyMap.
func (p *Pane) ShortHelp() []key.Binding { return ui.ShortHelp(p) }

// FullHelp implements help.KeyMap.
func (p *Pane) FullHelp() [][]key.Binding { return ui.FullHelp(p) }

// requestView draws request r's panel as laid out.
func (p *Pane) requestView(r *request.Request) string {
	l, st := p.lay, p.com.Styles
	var rows []string
	if l.who {
		who := st.AgentStyle(p.host.AgentColor(r.AgentKey())).Render(r.Agent) + st.App.Bar.Render(" asks · "+cell.Age(p.com.Now().Sub(r.Arrived)))
		rows = append(rows, ansi.Truncate(who, l.width, "…"))
	}
	if l.tabs {
		rows = append(rows, p.TabsView(r, l.width))
		if l.tabsGap {
			rows = append(rows, "")
		}
	}
	room := max(l.height-len(rows), 1)
	q := r.Current()
	// A dialog is drawn while the panel has the keys: beside the inbox
	// list or the activity that has them, the panel shows its question.
	dialog := Layer(OnForm)
	if p.Focused() {
		dialog = p.layer
	}
	switch {
	case dialog == OnNote:
		rows = append(rows, lipgloss.Place(l.width, room, lipgloss.Center, lipgloss.Center, p.note.View()))
	case dialog == OnRemember:
		rows = append(rows, lipgloss.Place(l.width, room, lipgloss.Center, lipgloss.Center, p.remember.View()))
	case dialog == OnConfirm:
		rows = append(rows, lipgloss.Place(l.width, room, lipgloss.Center, lipgloss.Center, p.confirm.View()))
	case q == nil:
		rows = append(rows, p.reviewView(r, l.width, l.height-len(rows)))
	default:
		rows = append(rows, p.questionRows(r, q)...)
		if l.formGap {
			rows = append(rows, "")
		}
		rows = append(rows, p.formRows(q)...)
	}
	return strings.Join(rows, "\n")
}

// spareToText gives question q's text the rows its field, as drawn,
// leaves empty (an option list that shows only whole options stops short
// of its rows), so that no row stays blank while the text is cut.
func (p *Pane) spareToText(q *request.Question) {
	l := &p.lay
	if !q.Built() || !l.moreText {
		return
	}
	if spare := l.formRows - len(p.formRows(q)); spare > 0 {
		give := min(spare, len(l.text)-l.textRows)
		l.textRows += give
		l.formRows -= give
		l.moreText = l.textRows < len(l.text)
	}
}

// questionRows are question q's header, the rows of its text shown (with
// where it is scrolled to when it does not fit) and the hint, or the
// hold's cue in the hint's place.
func (p *Pane) questionRows(r *request.Request, q *request.Question) []string {
	l, st, k := p.lay, p.com.Styles, p.com.Keys
	var rows []string
	if l.header {
		rows = append(rows, st.Question.Header.Render(ansi.Truncate(q.Header, l.width, "…")))
	}
	text := append([]string(nil), l.text[r.Scroll:r.Scroll+l.textRows]...)
	hint := answerHint(r, q, k)
	if q.Note != "" {
		hint = "✎ note: " + cell.FirstLine(cell.SanitizeLine(q.Note)) + " · " + hint
	}
	if l.moreText {
		scroll := keys.Name(k.Question.Scroll)
		if q.PlanReview() {
			scroll += ", " + keys.Name(k.Question.Page)
		}
		where := fmt.Sprintf("↕ lines %d–%d of %d · %s scroll", r.Scroll+1, r.Scroll+l.textRows, len(l.text), scroll)
		if l.hint {
			hint = where
		} else {
			// No row to spare: the last text row makes room for the mark.
			below := len(l.text) - r.Scroll - l.textRows
			mark := st.Question.ScrollHint.Render(fmt.Sprintf(" %s +%d", keys.Name(k.Question.ScrollDown), below))
			last := len(text) - 1
			text[last] = ansi.Truncate(text[last], max(l.width-cell.Width(mark), 1), "…") + mark
		}
	}
	rows = append(rows, text...)
	cue := ""
	switch {
	case p.host.CallHeld(r):
		what := "the details"
		if r.Perm != nil {
			what = "the call"
		}
		cue = "⏸ scroll to see " + what + ": " + keys.Name(k.Question.ScrollDown)
	case p.host.ArrivalHeld(r):
		cue = "⏸ keys held a moment: " + r.Agent + "'s question just came up"
		if cell.Width(cue) > l.width {
			cue = "⏸ keys held a moment: new question"
		}
	}
	switch {
	case cue != "":
		cue = ansi.Truncate(st.App.Notice.Render(cue), l.width, "…")
		if l.hint {
			rows = append(rows, cue)
			break
		}
		// No row to spare: the cue takes the first row, or the last
		// when the first is the call's, which no cue covers.
		at, call := 0, -1
		if l.hasCall && l.showsCall(r.Scroll) {
			call = l.callAt - r.Scroll
			if l.header {
				call++
			}
		}
		if call == 0 {
			at = len(rows) - 1
		}
		if at != call && at >= 0 && at < len(rows) {
			rows[at] = cue
		}
	case l.hint:
		rows = append(rows, st.Question.Hint.Render(ansi.Truncate(hint, l.width, "…")))
	}
	return rows
}

// formRows are question q's field, and the preview of the option under
// the cursor beside it or below it.
func (p *Pane) formRows(q *request.Question) []string {
	if !q.Built() {
		return nil
	}
	l, st := p.lay, p.com.Styles
	listRows := l.formRows - l.previewRows
	form := strings.Split(q.FieldView(), "\n")
	form = form[:min(len(form), listRows)]
	cursor := -1
	if q.Draft != nil {
		cursor = q.Draft.Cursor
	}
	switch {
	case l.previewW > 0:
		for len(form) < listRows && !p.host.Inline() {
			form = append(form, "") // the divider runs the panel's height
		}
		prev := q.PreviewLines(cursor, l.previewW, listRows, st, p.com.Markdown, p.raw)
		div := st.Divider.Render(" │ ")
		rows := make([]string, 0, max(len(form), len(prev)))
		for i := range max(len(form), len(prev)) {
			left, right := "", ""
			if i < len(form) {
				left = form[i]
			}
			if i < len(prev) {
				right = prev[i]
			}
			rows = append(rows, cell.FitLine(left, l.listW)+div+right)
		}
		return rows
	case l.previewRows > 0:
		if prev := q.PreviewLines(cursor, l.width, l.previewRows-1, st, p.com.Markdown, p.raw); prev != nil {
			form = append(form, st.Divider.Render(strings.Repeat("┈", min(l.width, 20))+" preview"))
			form = append(form, prev...)
		}
	}
	return form
}

// answerHint says what kind of answer the question takes, and with
// which keys.
func answerHint(r *request.Request, q *request.Question, k keys.Map) string {
	c := k.Choice
	switch {
	case q.Free():
		return "Type your answer · " + keys.Name(k.Question.TextSubmit) + " to confirm, " + keys.Name(k.Question.NewLine) + " for a new line"
	case q.Raw.MultiSelect:
		return "Pick any · " + keys.Name(c.Toggle) + " toggles, " + keys.Name(c.Confirm) + " confirms"
	}
	// What acts is what the field's state lets act: a digit picks only
	// among the rows shown (one match of a filter is "1"), and not at
	// all while the keys type text.
	rows := len(q.Raw.Options)
	if !q.Raw.NoOther {
		rows++
	}
	acts := keys.Name(c.Confirm) + " or " + keys.DigitRange(rows)
	if f := q.Choice; f != nil {
		switch n := f.PickRows(); {
		case f.EditingFilter():
			return "Pick one · type to filter, " + keys.Name(c.AcceptFilter) + " applies"
		case n == 0:
			acts = "type your own answer, " + keys.Name(c.Confirm)
		default:
			acts = keys.Name(c.Confirm) + " or " + keys.DigitRange(n)
		}
	}
	what := "Pick one · "
	if q.PlanReview() {
		what = "Approve or decline the plan · "
	}
	if r.Single() {
		return what + acts + " answers at once"
	}
	return what + acts
}

// TabsView draws one tab per question and the review tab, scrolled so the
// active tab is visible. Each tab is drawn in one style from edge to edge,
// so the active tab's pill covers its mark and title alike.
func (p *Pane) TabsView(r *request.Request, width int) string {
	st := p.com.Styles
	tabs := make([]string, 0, len(r.Questions)+1)
	// Titles whole when every tab fits; else each cut to an equal share
	// of the row (never under 8 columns: the row scrolls instead).
	cut := 0
	full := 8 // "Review" and its padding
	for _, q := range r.Questions {
		full += cell.Width(q.Title) + 6 // mark, padding, separator, note
	}
	if full > width {
		cut = max(width/(len(r.Questions)+1)-5, 8)
	}
	for i, q := range r.Questions {
		mark, markStyle := "○", st.Tabs.Pending
		if q.Answered() {
			mark, markStyle = "✓", st.Tabs.Answered
		}
		title := q.Title
		if cut > 0 {
			title = ansi.Truncate(title, cut, "…")
		}
		if strings.TrimSpace(q.Note) != "" {
			title += " ✎"
		}
		tabs = append(tabs, tab(st, mark, markStyle, title, i == r.Tab))
	}
	tabs = append(tabs, tab(st, "", lipgloss.Style{}, "Review", r.Reviewing()))

	sep := st.Tabs.Separator.Render("│")
	// Show as many tabs as fit, keeping the active one in view.
	first, last := r.Tab, r.Tab
	used := cell.Width(tabs[r.Tab])
	for grown := true; grown; {
		grown = false
		if last+1 < len(tabs) && used+cell.Width(tabs[last+1])+3 <= width {
			last++
			used += cell.Width(tabs[last]) + 1
			grown = true
		}
		if first > 0 && used+cell.Width(tabs[first-1])+3 <= width {
			first--
			used += cell.Width(tabs[first]) + 1
			grown = true
		}
	}
	out := strings.Join(tabs[first:last+1], sep)
	if first > 0 {
		out = st.Tabs.Scroll.Render("‹") + out
	}
	if last < len(tabs)-1 {
		out += st.Tabs.Scroll.Render("›")
	}
	return ansi.Truncate(out, width, "…")
}

// tab draws one tab: " ✓ Title ". The active tab is one pill, its mark in
// the pill's colours; an inactive tab shows its mark in the mark's colour.
func tab(st *styles.Styles, mark string, markStyle lipgloss.Style, title string, active bool) string {
	if active {
		text := title
		if mark != "" {
			text = mark + " " + title
		}
		return st.Tabs.Active.Render(text)
	}
	plain := st.Tabs.Inactive.UnsetPadding()
	out := " "
	if mark != "" {
		out += markStyle.UnsetString().Render(mark) + " "
	}
	return out + plain.Render(title) + " "
}

// Layer is where the keys go inside the question panel: its form or a
// dialog over it.
type Layer int

// The layers of the panel.
const (
	OnForm     Layer = iota // the question's form, or the review step
	OnConfirm               // a confirmation dialog over the panel
	OnNote                  // the note editor over the panel
	OnRemember              // the remember dialog over the panel
)

// Follow closes the panel's dialog or note editor when the request they
// were about is no longer the one shown, whatever took it away.
func (p *Pane) Follow() {
	r := p.host.Request()
	if r != nil && p.request == r.ID {
		if p.layer == OnNote && r.Current() != p.note.q {
			p.layer = OnForm
		}
		return
	}
	switch p.layer {
	case OnNote:
		p.note.Blur()
	case OnRemember:
		p.remember.Blur()
	default:
	}
	p.layer = OnForm
	if r != nil {
		p.request = r.ID
	} else {
		p.request = 0
	}
}

// ReadyField builds and styles the field of the question shown the first
// time it is shown, and moves the keys to it from the question shown
// before; the layout pass sizes it. away says the panel's host program
// took the keys (a Panel blurred): no field has them.
func (p *Pane) ReadyField(away bool) tea.Cmd {
	var q *request.Question
	r := p.host.Request()
	if r != nil {
		q = r.Current()
	}
	if q != nil {
		verb := "submit"
		if !r.Single() {
			verb = "next"
		}
		q.ReadyField(p.com.Styles, p.com.Keys, verb)
	}
	if away {
		q = nil
	}
	if q == p.shown {
		return nil
	}
	if p.shown != nil {
		p.shown.BlurField()
	}
	p.shown = q
	if q == nil {
		return nil
	}
	return q.FocusField()
}

// Restyle gives the panel's text fields st's look.
func (p *Pane) Restyle(st *styles.Styles) { p.remember.Restyle(st) }

// Layer is where the keys go inside the panel: its form or a dialog over
// it.
func (p *Pane) Layer() Layer { return p.layer }

// ShowsCall reports whether the panel, scrolled to scroll, shows the
// first line of the call of the question shown; HasCall, whether that
// question has a call (a detail) at all.
func (p *Pane) ShowsCall(scroll int) bool { return p.lay.showsCall(scroll) }

// HasCall reports whether the question shown has a call to show.
func (p *Pane) HasCall() bool { return p.lay.hasCall }
