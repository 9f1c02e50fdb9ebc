package question

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/request"
	"github.com/asktui/asktui/tui/internal/rulebook"
	"github.com/asktui/asktui/tui/internal/ui"
)

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
		q.ReadyField(p.Styles, p.Keys, verb)
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
	k := p.Keys
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
	k := p.Keys.Question
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
	k := p.Keys.Review
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

// Restyle gives the panel's text fields st's look.
func (p *Pane) Restyle(st *styles.Styles) { p.remember.Restyle(st) }

// canRemember reports whether question q of r can be answered with a
// rule: the permission's own question, with rules to keep, while the
// panel has the keys.
func (p *Pane) canRemember(r *request.Request, q *request.Question) bool {
	return p.host.Rules() != nil && r.Perm != nil && q.Raw.ID == r.Perm.Question && q.Draft != nil && p.Focused()
}

// openRemember opens the remember dialog about question q of r, its
// answer the one under the cursor of q: deny on the deny option, else
// allow.
func (p *Pane) openRemember(r *request.Request, q *request.Question) tea.Cmd {
	p.layer = OnRemember
	p.request = r.ID
	deny := false
	if c := q.Draft.Cursor; r.Perm.Deny != "" && c >= 0 && c < len(q.Raw.Options) && q.Raw.Options[c].Label == r.Perm.Deny {
		deny = true
	}
	return p.remember.Open(r.ID, r.Perm, deny, p.host.Rules(), func() { p.layer = OnForm })
}

// RulePlanned brings where a rule would stand to the dialog still open
// about its request.
func (p *Pane) RulePlanned(msg rulebook.PlanMsg) tea.Cmd {
	if p.layer != OnRemember {
		return nil
	}
	return p.remember.Planned(msg)
}

// RuleCovered brings whether the rule covers the call to the dialog
// still open about its request, when the rule is still the one asked
// about.
func (p *Pane) RuleCovered(msg rulebook.CoverMsg) {
	if p.layer != OnRemember {
		return
	}
	p.remember.Covered(msg)
}

// RuleSaved finishes a save: on failure the dialog says why and nothing
// is answered; else the dialog closes, and the question, when it still
// waits and the dialog was still open, is answered as its once-option
// would be (or declined, for a deny without one) only if the rules, with
// the rule kept, answer it so. Otherwise it stays for the human, and the
// notice says why.
func (p *Pane) RuleSaved(msg rulebook.SavedMsg) tea.Cmd {
	open := p.layer == OnRemember && p.remember.About(msg.Req)
	if msg.Err != nil {
		if open {
			p.remember.SaveFailed(msg.Err)
			return nil
		}
		return p.host.Notice("✗ the rule was not saved: " + cell.SanitizeLine(msg.Err.Error()))
	}
	if open {
		p.remember.Blur()
		p.layer = OnForm
	}
	n := strconv.Itoa(msg.Entry.Number)
	saved := "✓ Saved rule " + n
	if !msg.Added {
		saved = "✓ Rule " + n + " is already there"
	}
	r := p.host.Find(msg.Req)
	switch {
	case r == nil:
		return p.host.Notice(saved + "; the question had already ended")
	case !open:
		// The human went back to the question while it was saved: it is
		// theirs to answer.
		return p.host.Notice(saved + "; the question still waits for you")
	case msg.CoverErr != nil || !msg.Cover.Covers:
		// The rule leaves some of the call to the human: answering it
		// would allow (or deny) more than the rule says.
		return p.host.Notice(saved + "; it does not cover this call: answer it")
	}
	label := r.Perm.Allow
	if msg.Deny {
		label = r.Perm.Deny
	}
	if label == "" {
		return p.host.Decline(r, saved+": declined "+r.Agent+"'s request")
	}
	a := r.Answer()
	for j, q := range r.Questions {
		if q.Raw.ID == r.Perm.Question {
			a.Answers[j].Selected, a.Answers[j].Custom = []string{label}, ""
		}
	}
	return p.host.Answer(r, a, saved+": answered "+r.Agent+" "+cell.SanitizeLine(label))
}

// Layer is where the keys go inside the panel: its form or a dialog over
// it.
func (p *Pane) Layer() Layer { return p.layer }

// ShowsCall reports whether the panel, scrolled to scroll, shows the
// first line of the call of the question shown; HasCall, whether that
// question has a call (a detail) at all.
func (p *Pane) ShowsCall(scroll int) bool { return p.lay.showsCall(scroll) }

// HasCall reports whether the question shown has a call to show.
func (p *Pane) HasCall() bool { return p.lay.hasCall }

// Remember is the remember dialog of the panel.
func (p *Pane) Remember() *rulebook.Dialog { return &p.remember }
