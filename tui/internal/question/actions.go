package question

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/request"
	"github.com/asktui/asktui/tui/internal/ui"
)

// TypeAnswer hands a key or paste to the field of the question shown,
// and moves on when it confirmed its question: in this Update, so keys
// typed meanwhile belong to the next question. Other messages the field
// owns (its cursor's blink) reach it too.
func (p *Pane) TypeAnswer(msg tea.Msg) tea.Cmd {
	r := p.host.Request()
	if r == nil {
		return nil
	}
	q := r.Current()
	if q == nil || q != p.shown {
		return nil
	}
	cmd, confirmed := q.Handle(msg)
	if confirmed {
		return tea.Batch(cmd, p.questionDone(r))
	}
	return cmd
}

// questionDone moves on after the human confirmed a question: a lone
// question is answered at once when it holds an answer (Enter on empty
// free text does nothing), otherwise the next tab opens. A plan review
// declined first asks for a note on why (moveOn once it is written).
func (p *Pane) questionDone(r *request.Request) tea.Cmd {
	if q := r.Current(); q != nil && q.DeclinesPlan() {
		return p.openDeclineNote(r, q)
	}
	return p.moveOn(r)
}

// moveOn answers a lone question, or opens the next tab (see
// questionDone).
func (p *Pane) moveOn(r *request.Request) tea.Cmd {
	if r.Single() {
		if !r.Questions[0].Answered() {
			return nil
		}
		return p.submit(r)
	}
	r.GotoTab(r.Tab + 1)
	return nil
}

// submit sends the request's answer.
func (p *Pane) submit(r *request.Request) tea.Cmd {
	return p.host.Answer(r, r.Answer(), "✓ Answer sent to "+r.Agent)
}

// decline tells the agent the human declined.
func (p *Pane) decline(r *request.Request) tea.Cmd {
	return p.host.Decline(r, "✗ Declined "+r.Agent+"'s question")
}

// Actions are the panel's keys: the form of the question shown (or the
// review step), a dialog's, or the note editor's.
func (p *Pane) Actions() []ui.Action {
	r := p.host.Request()
	switch p.layer {
	case OnConfirm:
		return p.confirm.Actions()
	case OnNote:
		return p.note.Actions()
	case OnRemember:
		return p.remember.Actions()
	default: // OnForm
	}
	if r.Reviewing() {
		return append(p.reviewActions(r), p.host.Globals(false)...)
	}
	q := r.Current()
	typing := q.Typing()
	return append(p.questionActions(r, q, typing), p.host.Globals(typing)...)
}

// Typist is where typed text goes: the note editor, the remember
// dialog's rule field, or the field of the question shown when it takes
// text.
func (p *Pane) Typist() func(tea.Msg) tea.Cmd {
	r := p.host.Request()
	switch {
	case p.layer == OnNote:
		return p.note.Typist()
	case p.layer == OnRemember:
		return p.remember.Typist()
	case p.layer != OnForm || r.Reviewing():
		return nil
	case r.Current().Typing():
		return p.TypeAnswer
	}
	return nil
}

// fieldActions are the keys of question q's option list, each sent to it
// by do. A plan under review scrolls by the page with the keys that
// would page its few choices, which the list does not get (nor a
// filter).
func (p *Pane) fieldActions(q *request.Question, do func(ui.KeyMsg) tea.Cmd) []ui.Action {
	k := p.com.Keys
	var out []ui.Action
	for i, b := range q.Choice.Bindings() {
		if q.PlanReview() && (keys.Overlap(b.Key, k.Question.PageUp) || keys.Overlap(b.Key, k.Question.PageDown) || keys.Overlap(b.Key, k.Choice.Filter)) {
			continue
		}
		a := ui.Action{Key: b.Key, Do: do, Grade: ui.GradeMove, Section: "Options"}
		if b.Answers {
			a.Grade = ui.GradeAnswer
		}
		if b.Bar != nil {
			a = a.InBar(*b.Bar)
			// The field's first key (Enter, toggling, typing) stays
			// on a narrow screen, and Enter when it comes second.
			a.Keep = i == 0 || i == 1 && key.Matches(ui.KeyMsg{Code: tea.KeyEnter}, b.Key)
		}
		out = append(out, a)
	}
	return out
}

// questionActions are the keys of a question: its field's, then the
// panel's (tabs, decline, scrolling, raw, note).
func (p *Pane) questionActions(r *request.Request, q *request.Question, typing bool) []ui.Action {
	k := p.com.Keys.Question
	var out []ui.Action
	toField := func(msg ui.KeyMsg) tea.Cmd { return p.TypeAnswer(msg) }
	plan := q.PlanReview()
	switch {
	case q.Choice != nil:
		out = p.fieldActions(q, toField)
	case q.Free():
		out = append(out,
			ui.Answer(k.TextSubmit, func(ui.KeyMsg) tea.Cmd { return p.questionDone(r) }).Kept().In("Answer"),
			ui.Answer(k.NewLine, toField).InBar().In("Answer"),
		)
	}
	if !r.Single() {
		out = append(out,
			ui.Move(k.NextTab, func(ui.KeyMsg) tea.Cmd { r.GotoTab(r.Tab + 1); return nil }).InBar(k.Tabs).In("Question"),
			ui.Move(k.PrevTab, func(ui.KeyMsg) tea.Cmd { r.GotoTab(r.Tab - 1); return nil }).In("Question"),
		)
		if !typing {
			out = append(out,
				ui.Move(k.NextArrow, func(ui.KeyMsg) tea.Cmd { r.GotoTab(r.Tab + 1); return nil }).In("Question"),
				ui.Move(k.PrevArrow, func(ui.KeyMsg) tea.Cmd { r.GotoTab(r.Tab - 1); return nil }).In("Question"),
			)
		}
	}
	if !typing && !q.Free() {
		out = append(out, ui.Answer(k.Note, func(ui.KeyMsg) tea.Cmd { return p.openNote(r, q) }).InBar().In("Question"))
		if p.canRemember(r, q) {
			out = append(out, ui.Answer(k.Remember, func(ui.KeyMsg) tea.Cmd { return p.openRemember(r, q) }).Kept().In("Question").
				Explain("on a permission: answer it and make the answer stand, a rule saved for later ones (rules on)"))
		}
	}
	if q.Choice == nil || !q.Choice.Filtering() { // esc clears the filter first
		decline := k.Decline
		if plan {
			// Not the plan's Decline, an answer: the whole request.
			decline = keys.Relabel(decline, keys.Name(decline), "decline the request")
		}
		out = append(out, ui.Answer(decline, func(ui.KeyMsg) tea.Cmd { p.openConfirm(r, confirmDecline); return nil }).Kept().In("Question"))
	}
	if p.lay.moreText {
		out = append(out,
			ui.Move(k.ScrollUp, func(ui.KeyMsg) tea.Cmd { r.Scroll = max(r.Scroll-1, 0); return nil }).InBar(k.Scroll).In("Question"),
			ui.Move(k.ScrollDown, func(ui.KeyMsg) tea.Cmd { r.Scroll++; return nil }).In("Question"),
		)
	}
	if plan && p.lay.moreText {
		page := max(p.lay.textRows-1, 1)
		out = append(out,
			ui.Move(k.PageDown, func(ui.KeyMsg) tea.Cmd { r.Scroll += page; return nil }).InBar(k.Page).In("Question"),
			ui.Move(k.PageUp, func(ui.KeyMsg) tea.Cmd { r.Scroll = max(r.Scroll-page, 0); return nil }).In("Question"),
		)
	}
	if q.Detail != "" || q.Previews != nil {
		out = append(out, ui.Move(k.Raw, func(ui.KeyMsg) tea.Cmd { p.raw = !p.raw; return nil }).In("Question"))
	}
	return out
}

// reviewActions are the keys of the review step.
func (p *Pane) reviewActions(r *request.Request) []ui.Action {
	k := p.com.Keys.Review
	out := []ui.Action{
		ui.Answer(k.Submit, func(ui.KeyMsg) tea.Cmd {
			if r.Unanswered() > 0 {
				p.openConfirm(r, confirmSubmit)
				return nil
			}
			return p.submit(r)
		}).Kept().In("Review"),
	}
	if n := len(r.Questions); n <= 9 {
		jump := keys.Digits(k.Jump, n)
		out = append(out, ui.Move(jump, func(msg ui.KeyMsg) tea.Cmd {
			r.GotoTab(int(msg.String()[0] - '1'))
			return nil
		}).InBar().In("Review"))
	}
	out = append(out,
		ui.Move(k.NextTab, func(ui.KeyMsg) tea.Cmd { r.GotoTab(0); return nil }).InBar(k.Tabs).In("Review"),
		ui.Move(k.PrevTab, func(ui.KeyMsg) tea.Cmd { r.GotoTab(len(r.Questions) - 1); return nil }).In("Review"),
		ui.Answer(k.Decline, func(ui.KeyMsg) tea.Cmd { p.openConfirm(r, confirmDecline); return nil }).Kept().In("Review"),
	)
	if len(r.Questions)+4 > p.lay.formRows {
		out = append(out,
			ui.Move(k.ScrollUp, func(ui.KeyMsg) tea.Cmd { r.Scroll = max(r.Scroll-1, 0); return nil }).In("Review"),
			ui.Move(k.ScrollDown, func(ui.KeyMsg) tea.Cmd { r.Scroll++; return nil }).In("Review"),
		)
	}
	return out
}

// openNote edits the note on question q of r.
func (p *Pane) openNote(r *request.Request, q *request.Question) tea.Cmd {
	p.layer = OnNote
	p.request = r.ID
	return p.note.open(q, false, p.noteDone)
}

// openDeclineNote asks for a note on why the plan under review is
// declined: the decline is sent once the note is kept, with or without
// text, and going back leaves the plan on screen, the decline chosen.
func (p *Pane) openDeclineNote(r *request.Request, q *request.Question) tea.Cmd {
	p.layer = OnNote
	p.request = r.ID
	return p.note.open(q, true, p.noteDone)
}

// noteDone closes the note editor, kept or dropped. Declining a plan,
// keeping the note sends the decline.
func (p *Pane) noteDone(kept bool) tea.Cmd {
	p.layer = OnForm
	n := &p.note
	if r := p.host.Request(); kept && n.declining && r != nil && r.Current() == n.q {
		return p.moveOn(r)
	}
	return nil
}

// openConfirm opens a confirmation of kind about r, its focus on the
// safe button for a decline.
func (p *Pane) openConfirm(r *request.Request, kind confirmKind) {
	p.confirm.open(r, kind, func(yes bool) tea.Cmd {
		p.layer = OnForm
		if !yes {
			return nil
		}
		return p.confirmed(r)
	})
	p.layer = OnConfirm
	p.request = r.ID
}

// confirmed takes the action the human confirmed about r.
func (p *Pane) confirmed(r *request.Request) tea.Cmd {
	if p.host.Find(r.ID) == nil {
		return nil
	}
	switch p.confirm.kind {
	case confirmDecline:
		return p.decline(r)
	default:
		return p.submit(r)
	}
}
