package tui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// sub is where the keys go inside the question panel.
type sub int

const (
	subForm     sub = iota // the question's form, or the review step
	subConfirm             // a confirmation dialog over the panel
	subNote                // the note editor over the panel
	subRemember            // the remember dialog over the panel
)

// follow closes the panel's dialog or note editor when the request they
// were about is no longer the one shown, whatever took it away.
func (p *questionPane) follow() {
	r := p.m.activeRequest()
	if r != nil && p.request == r.id {
		if p.sub == subNote && r.current() != p.note.q {
			p.sub = subForm
		}
		return
	}
	switch p.sub {
	case subNote:
		p.note.Blur()
	case subRemember:
		p.remember.input.Blur()
	default:
	}
	p.sub = subForm
	if r != nil {
		p.request = r.id
	} else {
		p.request = 0
	}
}

// actions are the panel's keys: the form of the question shown (or the
// review step), a dialog's, or the note editor's.
func (p *questionPane) actions() []action {
	m := p.m
	r := m.activeRequest()
	switch p.sub {
	case subConfirm:
		return p.confirmActions(r)
	case subNote:
		return p.noteActions()
	case subRemember:
		return p.rememberActions()
	default: // subForm
	}
	if r.reviewing() {
		return append(p.reviewActions(r), m.globals(focusPanel, false)...)
	}
	q := r.current()
	typing := q.typing()
	return append(p.questionActions(r, q, typing), m.globals(focusPanel, typing)...)
}

func (p *questionPane) typist() func(tea.Msg) tea.Cmd {
	r := p.m.activeRequest()
	switch {
	case p.sub == subNote:
		return p.note.typeKey
	case p.sub == subRemember:
		return p.rememberTypist()
	case p.sub != subForm || r.reviewing():
		return nil
	case r.current().typing():
		return p.m.typeAnswer
	}
	return nil
}

// fieldActions are the keys of question q's option list, each sent to it
// by do. A plan under review scrolls by the page with the keys that
// would page its few choices, which the list does not get (nor a
// filter).
func (p *questionPane) fieldActions(q *question, do func(keyMsg) tea.Cmd) []action {
	k := p.m.keys
	var out []action
	for i, b := range q.choice.Bindings() {
		if q.planReview() && (keysOverlap(b.Key, k.Question.PageUp) || keysOverlap(b.Key, k.Question.PageDown) || keysOverlap(b.Key, k.Choice.Filter)) {
			continue
		}
		a := action{key: b.Key, do: do, grade: gradeMove, section: "Options"}
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
	return out
}

// questionActions are the keys of a question: its field's, then the
// panel's (tabs, decline, scrolling, raw, note).
func (p *questionPane) questionActions(r *request, q *question, typing bool) []action {
	m := p.m
	k := m.keys.Question
	var out []action
	toField := func(msg keyMsg) tea.Cmd { return m.typeAnswer(msg) }
	plan := q.planReview()
	switch {
	case q.choice != nil:
		out = p.fieldActions(q, toField)
	case q.free():
		out = append(out,
			answer(k.TextSubmit, func(keyMsg) tea.Cmd { return m.questionDone(r) }).kept().in("Answer"),
			answer(k.NewLine, toField).inBar().in("Answer"),
		)
	}
	if !r.single() {
		out = append(out,
			move(k.NextTab, func(keyMsg) tea.Cmd { m.gotoTab(r, r.tab+1); return nil }).inBar(k.Tabs).in("Question"),
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
		out = append(out, answer(k.Note, func(keyMsg) tea.Cmd { return p.openNote(r, q) }).inBar().in("Question"))
		if m.canRemember(r, q) {
			out = append(out, answer(k.Remember, func(keyMsg) tea.Cmd { return p.openRemember(r, q) }).kept().in("Question").
				explain("on a permission: answer it and make the answer stand, a rule saved for later ones (rules on)"))
		}
	}
	if q.choice == nil || !q.choice.Filtering() { // esc clears the filter first
		decline := k.Decline
		if plan {
			// Not the plan's Decline, an answer: the whole request.
			decline = relabel(decline, keyName(decline), "decline the request")
		}
		out = append(out, answer(decline, func(keyMsg) tea.Cmd { p.openConfirm(r, confirmDecline); return nil }).kept().in("Question"))
	}
	if p.lay.moreText {
		out = append(out,
			move(k.ScrollUp, func(keyMsg) tea.Cmd { r.scroll = max(r.scroll-1, 0); return nil }).inBar(k.Scroll).in("Question"),
			move(k.ScrollDown, func(keyMsg) tea.Cmd { r.scroll++; return nil }).in("Question"),
		)
	}
	if plan && p.lay.moreText {
		page := max(p.lay.textRows-1, 1)
		out = append(out,
			move(k.PageDown, func(keyMsg) tea.Cmd { r.scroll += page; return nil }).inBar(k.Page).in("Question"),
			move(k.PageUp, func(keyMsg) tea.Cmd { r.scroll = max(r.scroll-page, 0); return nil }).in("Question"),
		)
	}
	if q.detail != "" || q.previews != nil {
		out = append(out, move(k.Raw, func(keyMsg) tea.Cmd { p.raw = !p.raw; return nil }).in("Question"))
	}
	return out
}

// reviewActions are the keys of the review step.
func (p *questionPane) reviewActions(r *request) []action {
	m := p.m
	k := m.keys.Review
	out := []action{
		answer(k.Submit, func(keyMsg) tea.Cmd {
			if r.unanswered() > 0 {
				p.openConfirm(r, confirmSubmit)
				return nil
			}
			return m.submit(r)
		}).kept().in("Review"),
	}
	if n := len(r.questions); n <= 9 {
		jump := digitKeys(k.Jump, n)
		out = append(out, move(jump, func(msg keyMsg) tea.Cmd {
			m.gotoTab(r, int(msg.String()[0]-'1'))
			return nil
		}).inBar().in("Review"))
	}
	out = append(out,
		move(k.NextTab, func(keyMsg) tea.Cmd { m.gotoTab(r, 0); return nil }).inBar(k.Tabs).in("Review"),
		move(k.PrevTab, func(keyMsg) tea.Cmd { m.gotoTab(r, len(r.questions)-1); return nil }).in("Review"),
		answer(k.Decline, func(keyMsg) tea.Cmd { p.openConfirm(r, confirmDecline); return nil }).kept().in("Review"),
	)
	if len(r.questions)+4 > p.lay.formRows {
		out = append(out,
			move(k.ScrollUp, func(keyMsg) tea.Cmd { r.scroll = max(r.scroll-1, 0); return nil }).in("Review"),
			move(k.ScrollDown, func(keyMsg) tea.Cmd { r.scroll++; return nil }).in("Review"),
		)
	}
	return out
}

// confirmActions are a dialog's keys; only quit works beside them.
func (p *questionPane) confirmActions(r *request) []action {
	m := p.m
	k := m.keys.Confirm
	d := &p.confirm
	closeWith := func(yes bool) tea.Cmd {
		p.sub = subForm
		if !yes {
			return nil
		}
		return p.confirmed(r)
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
// Declining a plan, keeping the note sends the decline.
func (p *questionPane) noteActions() []action {
	m := p.m
	k := m.keys.Note
	n := &p.note
	save, cancel := k.Save, k.Cancel
	if n.declining {
		save = relabel(save, keyName(save), "decline the plan, with the note")
		cancel = relabel(cancel, keyName(cancel), "back to the plan")
	}
	return []action{
		answer(save, func(keyMsg) tea.Cmd {
			n.save()
			p.sub = subForm
			if r := m.activeRequest(); n.declining && r != nil && r.current() == n.q {
				return m.moveOn(r)
			}
			return nil
		}).kept().in("Note"),
		answer(k.NewLine, func(msg keyMsg) tea.Cmd { return n.typeKey(msg) }).inBar().in("Note"),
		move(cancel, func(keyMsg) tea.Cmd {
			n.Blur()
			p.sub = subForm
			return nil
		}).kept().in("Note"),
		m.quitAction(),
	}
}

// openNote edits the note on question q of r.
func (p *questionPane) openNote(r *request, q *question) tea.Cmd {
	p.sub = subNote
	p.request = r.id
	return p.note.open(q, false)
}

// openDeclineNote asks for a note on why the plan under review is
// declined: the decline is sent once the note is kept, with or without
// text, and going back leaves the plan on screen, the decline chosen.
func (p *questionPane) openDeclineNote(r *request, q *question) tea.Cmd {
	p.sub = subNote
	p.request = r.id
	return p.note.open(q, true)
}

// openConfirm opens a confirmation of kind about r, its focus on the
// safe button for a decline.
func (p *questionPane) openConfirm(r *request, kind confirmKind) {
	d := &p.confirm
	d.kind = kind
	d.focus = 0
	if kind == confirmDecline {
		d.focus = 1
	}
	p.sub = subConfirm
	p.request = r.id
}

// confirmed takes the action the human confirmed about r.
func (p *questionPane) confirmed(r *request) tea.Cmd {
	m := p.m
	if m.indexOf(r.id) < 0 {
		return nil
	}
	switch p.confirm.kind {
	case confirmDecline:
		return m.decline(r)
	default:
		return m.submit(r)
	}
}

// keysOverlap reports whether bindings a and b share a key.
func keysOverlap(a, b key.Binding) bool {
	for _, k := range a.Keys() {
		if slices.Contains(b.Keys(), k) {
			return true
		}
	}
	return false
}
