package question

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/request"
	"github.com/asktui/asktui/tui/internal/rulebook"
)

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

// Remember is the remember dialog of the panel.
func (p *Pane) Remember() *rulebook.Dialog { return &p.remember }
