package rules

import (
	"context"
	"strconv"
	"sync"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/history"
	"github.com/asktui/asktui/interaction/inbox"
)

// Wrap returns a provider that answers, by the rules in store, the
// permission requests they decide, and hands every other request to p
// (the human).
//
// A request is answered by a rule only when it carries an
// [interaction.Permission] (questions never do), is valid, its context has
// not ended (a timeout never decides), the rules file is usable, and the
// rules decide it: then the answer is the option the human would have
// chosen (the permission's Allow or Deny label; a deny without a Deny
// label declines, ASK_DECLINED), the rule's count goes up, and when p
// shows activity
// ([interaction.ActivitySink]) it shows "allowed by rule 3
// (Bash(go test:*)): go test ./..." under the asking agent
// ([Decision.Activity]). An allow is answered exactly
// as the human's would be; a deny carries a note that names the rule
// ([RuleDenied]…), so that the agent is told the call was refused by a
// standing rule of the user's, not in the moment, and the decline's
// message names it too. When the rules file cannot be used, p shows why
// (once per change), and the human is asked.
//
// The returned provider is a [history.Ruler], so [history.Wrap] around it
// records the rule, or the rule the human saved from a request while
// answering it ([Store.Remembered]); it forwards Report to p when p is an
// ActivitySink, and asks p through AskSettlement when p is a
// [history.Settler] (an inbox), so the history still records the view
// that answered. With a nil store Wrap returns p itself.
func Wrap(p interaction.Provider, store *Store) interaction.Provider {
	if store == nil {
		return p
	}
	w := &wrapper{p: p, store: store}
	if sink, ok := p.(interaction.ActivitySink); ok {
		w.sink = sink
		return &sinkWrapper{w}
	}
	return w
}

// wrapper is the provider Wrap returns.
type wrapper struct {
	p     interaction.Provider
	store *Store
	sink  interaction.ActivitySink // nil when p shows no activity

	mu      sync.Mutex
	problem string // the last rules-file problem shown
}

// sinkWrapper is the provider Wrap returns for a provider that shows
// activity.
type sinkWrapper struct{ *wrapper }

// Report forwards a to the wrapped provider.
func (s *sinkWrapper) Report(a interaction.Activity) { s.sink.Report(a) }

// Ask answers req by a rule, or asks the wrapped provider.
func (w *wrapper) Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
	s, _ := w.AskRuled(ctx, req)
	return s.Answer, s.Err
}

// AskRuled is Ask, also saying which rule answered, if one did, or else
// which rule the human saved from the request while answering it.
func (w *wrapper) AskRuled(ctx context.Context, req interaction.Request) (inbox.Settlement, *history.Ruling) {
	perm := req.Permission
	if perm == nil || interaction.ContextError(ctx) != nil || req.Validate() != nil {
		return w.human(ctx, req)
	}
	d, err := w.store.Decide(perm)
	if err != nil {
		w.showProblem(req, err)
		return w.human(ctx, req)
	}
	w.showProblem(req, nil)
	var s inbox.Settlement
	switch {
	case d.Verdict == Allowed && perm.Allow != "":
		s.Answer = choose(perm.Question, perm.Allow)
	case d.Verdict == Denied && perm.Deny != "":
		s.Answer = choose(perm.Question, perm.Deny)
		s.Answer.Answers[0].Note = denyNote(d)
	case d.Verdict == Denied:
		s.Err = interaction.Errorf(interaction.CodeDeclined, "%s", denyNote(d))
	default:
		return w.human(ctx, req)
	}
	_ = w.store.Hit(d) // best effort: a count lost is no answer lost
	w.show(req, d.Activity(perm))
	return s, d.Ruling()
}

// RuleDenied starts the note on a deny answered by a rule: the agent is
// told it met a standing rule of the user's. agent/hook words such a
// deny by it.
const RuleDenied = "Denied by the user's standing rule in asktui"

// denyNote is what the caller of a permission denied by d is told:
// "Denied by the user's standing rule in asktui (rule 3: Bash(rm:*)).
// Do not try to run it another way."
func denyNote(d Decision) string {
	rule := ""
	if len(d.Rules) > 0 {
		// A rule's text is at most 4 KiB: the note stays far within
		// interaction.MaxNoteLen.
		n := d.Rules[0]
		rule = " (rule " + strconv.Itoa(n.Number) + ": " + n.Rule.Spec.String() + ")"
	}
	return RuleDenied + rule + ". Do not try to run it another way."
}

// choose is the answer selecting label for question id.
func choose(id, label string) interaction.Answer {
	return interaction.Answer{Answers: []interaction.AnswerItem{{ID: id, Selected: []string{label}}}}
}

// human asks the wrapped provider, through AskSettlement when it has
// several views, and says which rules the human saved from the request
// while it waited (Store.Remembered), if any.
func (w *wrapper) human(ctx context.Context, req interaction.Request) (inbox.Settlement, *history.Ruling) {
	done := w.store.asking(req.Permission)
	var s inbox.Settlement
	if settler, ok := w.p.(history.Settler); ok {
		s = settler.AskSettlement(ctx, req)
	} else {
		s.Answer, s.Err = w.p.Ask(ctx, req)
	}
	return s, done() // once answered: a rule saved before the answer is in
}

// show reports text as activity of the request's agent.
func (w *wrapper) show(req interaction.Request, text string) {
	if w.sink == nil || text == "" {
		return
	}
	a := interaction.Activity{Kind: interaction.ActivityMessage, Text: text}
	if req.Agent != nil {
		a.Agent = *req.Agent
	}
	w.sink.Report(a)
}

// showProblem shows why the rules file cannot be used, once until the
// problem changes; a nil err clears it.
func (w *wrapper) showProblem(req interaction.Request, err error) {
	msg := ""
	if err != nil {
		msg = "rules not used, asking you: " + err.Error()
	}
	w.mu.Lock()
	changed := msg != w.problem
	w.problem = msg
	w.mu.Unlock()
	if changed && msg != "" {
		w.show(req, msg)
	}
}
