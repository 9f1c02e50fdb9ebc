package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// sub is where the keys go inside the question panel.
type sub int

const (
	subForm    sub = iota // the question's form, or the review step
	subConfirm            // a confirmation dialog over the panel
	subNote               // the note editor over the panel
)

// panelState is the question panel's own state, beside the request it
// shows (each request keeps its tab, scroll and drafts): where its keys
// go, its dialog and note editor, and the raw/rendered toggle.
type panelState struct {
	sub     sub
	request uint64 // the request sub belongs to
	confirm confirmDialog
	note    noteEditor
	review  reviewStep
	// raw shows details and previews as the agent sent them, not
	// rendered as Markdown (to approve exact bytes).
	raw bool
}

// syncPanel closes the panel's dialog or note editor when the request
// they were about is no longer the one shown, whatever took it away.
func (m *model) syncPanel() {
	r := m.activeRequest()
	p := &m.panel
	if r != nil && p.request == r.id {
		if p.sub == subNote && r.current() != p.note.q {
			p.sub = subForm
		}
		return
	}
	if p.sub == subNote {
		p.note.ta.Blur()
	}
	p.sub = subForm
	if r != nil {
		p.request = r.id
	} else {
		p.request = 0
	}
}

// panelPane is the question panel with the keys: the form of the question
// shown (or the review step), a dialog, or the note editor.
type panelPane struct {
	m *model
	f focus // the focus it has the keys for
}

func (p panelPane) actions() []action {
	m := p.m
	r := m.activeRequest()
	switch m.panel.sub {
	case subConfirm:
		return m.confirmActions(r)
	case subNote:
		return m.noteActions()
	default: // subForm
	}
	if r.reviewing() {
		return append(m.reviewActions(r), m.globals(p.f, false)...)
	}
	q := r.current()
	typing := q.typing()
	return append(m.questionActions(r, q, typing), m.globals(p.f, typing)...)
}

func (p panelPane) typist() func(tea.Msg) tea.Cmd {
	m := p.m
	r := m.activeRequest()
	switch {
	case m.panel.sub == subNote:
		return m.panel.note.typeKey
	case m.panel.sub != subForm || r.reviewing():
		return nil
	case r.current().typing():
		return m.updateForm
	}
	return nil
}

// questionActions are the keys of a question: its field's, then the
// panel's (tabs, decline, scrolling, raw, note).
func (m *model) questionActions(r *request, q *question, typing bool) []action {
	k := m.keys.Question
	var out []action
	toForm := func(msg keyMsg) tea.Cmd { return m.updateForm(msg) }
	switch {
	case q.choice != nil:
		for i, b := range q.choice.Bindings() {
			a := action{key: b.Key, do: toForm, grade: gradeMove, section: "Options"}
			if b.Answers {
				a.grade = gradeAnswer
			}
			if b.Bar != nil {
				a = a.inBar(*b.Bar)
				// The field's first key (Enter, toggling, typing) stays
				// on a narrow screen, and Enter when it comes second.
				a.keep = i == 0 || i == 1 && key.Matches(keyMsg{Code: tea.KeyEnter}, b.Key)
			}
			out = append(out, a)
		}
	case q.free():
		// Enter confirms here and now: huh's Text moves on with Enter only
		// through a NextField command that comes back through the event
		// loop, and keys typed meanwhile would land on this question
		// (TestKeysTypedBeforeCommandsRunGoToTheNextQuestion).
		out = append(out,
			answer(k.TextSubmit, func(keyMsg) tea.Cmd { return m.questionDone(r) }).kept().in("Answer"),
			answer(k.NewLine, toForm).inBar().in("Answer"),
		)
	}
	if !r.single() {
		tabs := pair(k.NextTab, k.PrevTab, "tab/⇧tab", "questions")
		out = append(out,
			move(k.NextTab, func(keyMsg) tea.Cmd { m.gotoTab(r, r.tab+1); return nil }).inBar(tabs).in("Question"),
			move(k.PrevTab, func(keyMsg) tea.Cmd { m.gotoTab(r, r.tab-1); return nil }).in("Question"),
		)
		if !typing {
			out = append(out,
				move(k.NextArrow, func(keyMsg) tea.Cmd { m.gotoTab(r, r.tab+1); return nil }).in("Question"),
				move(k.PrevArrow, func(keyMsg) tea.Cmd { m.gotoTab(r, r.tab-1); return nil }).in("Question"),
			)
		}
	}
	if !typing && !q.free() {
		out = append(out, answer(k.Note, func(keyMsg) tea.Cmd { return m.openNote(r, q) }).inBar().in("Question"))
	}
	if q.choice == nil || !q.choice.Filtering() { // esc clears the filter first
		out = append(out, answer(k.Decline, func(keyMsg) tea.Cmd { m.openConfirm(r, confirmDecline); return nil }).kept().in("Question"))
	}
	if m.textScrolls(r) {
		out = append(out,
			move(k.ScrollUp, func(keyMsg) tea.Cmd { r.scroll = max(r.scroll-1, 0); return nil }).inBar(pair(k.ScrollUp, k.ScrollDown, "⇧↑/⇧↓", "scroll the question")).in("Question"),
			move(k.ScrollDown, func(keyMsg) tea.Cmd { r.scroll++; return nil }).in("Question"),
		)
	}
	if q.detail != "" || q.previews != nil {
		out = append(out, move(k.Raw, func(keyMsg) tea.Cmd { m.panel.raw = !m.panel.raw; return nil }).in("Question"))
	}
	return out
}

// textScrolls reports whether request r's question text (or review) is
// longer than the rows it has, so the scroll keys do something.
func (m *model) textScrolls(r *request) bool {
	w, h := m.panelSize()
	p := m.layout(r, w, h)
	if q := r.current(); q != nil {
		p, _ = m.spareToText(q, p)
	}
	return p.moreText
}

// reviewActions are the keys of the review step.
func (m *model) reviewActions(r *request) []action {
	k := m.keys.Review
	out := []action{
		answer(k.Submit, func(keyMsg) tea.Cmd {
			if r.unanswered() > 0 {
				m.openConfirm(r, confirmSubmit)
				return nil
			}
			return m.submit(r)
		}).kept().in("Review"),
	}
	if n := len(r.questions); n <= 9 {
		jump := key.NewBinding(key.WithKeys(pickDigits[:n]...), key.WithHelp("1-"+pickDigits[n-1], k.Jump.Help().Desc))
		out = append(out, move(jump, func(msg keyMsg) tea.Cmd {
			m.gotoTab(r, int(msg.String()[0]-'1'))
			return nil
		}).inBar().in("Review"))
	}
	out = append(out,
		move(k.NextTab, func(keyMsg) tea.Cmd { m.gotoTab(r, 0); return nil }).inBar(pair(k.NextTab, k.PrevTab, "tab/⇧tab", "questions")).in("Review"),
		move(k.PrevTab, func(keyMsg) tea.Cmd { m.gotoTab(r, len(r.questions)-1); return nil }).in("Review"),
		answer(k.Decline, func(keyMsg) tea.Cmd { m.openConfirm(r, confirmDecline); return nil }).kept().in("Review"),
	)
	if m.reviewScrolls(r) {
		out = append(out,
			move(k.ScrollUp, func(keyMsg) tea.Cmd { r.scroll = max(r.scroll-1, 0); return nil }).in("Review"),
			move(k.ScrollDown, func(keyMsg) tea.Cmd { r.scroll++; return nil }).in("Review"),
		)
	}
	return out
}

// pickDigits are the keys 1–9.
var pickDigits = []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}

// reviewScrolls reports whether the review has more rows than fit.
func (m *model) reviewScrolls(r *request) bool {
	w, h := m.panelSize()
	p := m.layout(r, w, h)
	return len(r.questions)+4 > p.formRows
}

// confirmActions are a dialog's keys; only quit works beside them.
func (m *model) confirmActions(r *request) []action {
	k := m.keys.Confirm
	d := &m.panel.confirm
	closeWith := func(yes bool) tea.Cmd {
		m.panel.sub = subForm
		if !yes {
			return nil
		}
		return m.confirmed(r)
	}
	return []action{
		answer(k.Yes, func(keyMsg) tea.Cmd { return closeWith(true) }).kept().in("Dialog"),
		answer(k.No, func(keyMsg) tea.Cmd { return closeWith(false) }).kept().in("Dialog"),
		answer(k.Press, func(keyMsg) tea.Cmd { return closeWith(d.focus == 0) }).inBar().in("Dialog"),
		move(k.Switch, func(keyMsg) tea.Cmd { d.focus = 1 - d.focus; return nil }).inBar().in("Dialog"),
		m.quitAction(),
	}
}

// noteActions are the note editor's keys; it types everything else.
func (m *model) noteActions() []action {
	k := m.keys.Note
	n := &m.panel.note
	return []action{
		answer(k.Save, func(keyMsg) tea.Cmd {
			n.save()
			m.panel.sub = subForm
			return nil
		}).kept().in("Note"),
		answer(k.NewLine, func(msg keyMsg) tea.Cmd { return n.typeKey(msg) }).inBar().in("Note"),
		move(k.Cancel, func(keyMsg) tea.Cmd {
			n.ta.Blur()
			m.panel.sub = subForm
			return nil
		}).kept().in("Note"),
		m.quitAction(),
	}
}

// openNote edits the note on question q of r.
func (m *model) openNote(r *request, q *question) tea.Cmd {
	m.panel.sub = subNote
	m.panel.request = r.id
	return m.panel.note.open(q)
}

// openConfirm opens a confirmation of kind about r, its focus on the
// safe button for a decline.
func (m *model) openConfirm(r *request, kind confirmKind) {
	d := &m.panel.confirm
	d.kind = kind
	d.focus = 0
	if kind == confirmDecline {
		d.focus = 1
	}
	m.panel.sub = subConfirm
	m.panel.request = r.id
}

// confirmed takes the action the human confirmed about r.
func (m *model) confirmed(r *request) tea.Cmd {
	if m.indexOf(r.id) < 0 {
		return nil
	}
	switch m.panel.confirm.kind {
	case confirmDecline:
		return m.decline(r)
	default:
		return m.submit(r)
	}
}
