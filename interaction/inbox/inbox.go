// Package inbox keeps the requests that wait for a human, for every view
// that shows them.
//
// An [Inbox] is the [interaction.Provider] behind an asktui process: each
// Ask waits in it until one of its views answers or declines the request,
// the caller withdraws it (its context ends), or the inbox closes. Views
// (the local terminal, and any other screen on the same inbox) attach with
// [Inbox.Attach] and see every request arrive and leave as [Event]s; they
// answer through the [Handle] Attach returns. The first view to answer or
// decline a request wins; every view then learns how it ended and from
// where, so nothing a human answered is lost or sent twice.
//
// Drafts belong to views: a view saves what its human has typed so far
// with [Handle.SaveDraft], and a request that is withdrawn returns the most
// recent draft with its error (see [DraftOf]), so a history can keep it.
//
// The package imports only the standard library and the interaction
// vocabulary.
package inbox

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/asktui/asktui/interaction"
)

// Request is a request waiting in the inbox, as views see it. It is never
// changed once it has been handed to a view.
type Request struct {
	// ID identifies the request within its inbox; it is never reused.
	ID uint64
	// Request is the request as its caller sent it.
	Request interaction.Request
	// Arrived is when the request reached the inbox.
	Arrived time.Time
	// Deadline is when the caller's context ends, if it has a deadline.
	Deadline time.Time
}

// EventKind says what an [Event] reports.
type EventKind int

// The kinds of event a view receives.
const (
	// Arrived: Request waits for an answer.
	Arrived EventKind = iota
	// Settled: Request left the inbox; Settlement says how.
	Settled
	// Activity: an agent reported Activity.
	Activity
)

// Settlement is how a request ended.
type Settlement struct {
	// Answer is the human's answer; it is meaningful only when Err is nil.
	Answer interaction.Answer
	// Err is nil for an answer, and otherwise the coded error the caller
	// got: ASK_DECLINED, ASK_ABORTED, ASK_TIMEOUT, PROVIDER_CLOSED.
	Err error
	// By names the view that answered or declined; it is empty when the
	// caller withdrew the request or the inbox closed.
	By string
	// Drafts are what the other views had drafted when it ended, by view
	// name: a history keeps them, so nothing typed on a view that lost
	// the race is lost silently.
	Drafts map[string]interaction.Answer
}

// Event is one thing that happened in the inbox.
type Event struct {
	// Kind says what happened.
	Kind EventKind
	// Request is the request that arrived or settled.
	Request *Request
	// Settlement says how a Settled request ended.
	Settlement Settlement
	// Activity is the agent's activity, for an Activity event.
	Activity interaction.Activity
}

// View receives the inbox's events, in the order they happen. Notify is
// called with the inbox locked: it must return at once, and must not call
// back into the inbox. A view typically queues the event for its own
// goroutine.
type View interface {
	Notify(Event)
}

// Inbox holds the waiting requests. It implements [interaction.Provider]
// and [interaction.ActivitySink]; it is safe for concurrent use.
type Inbox struct {
	now func() time.Time

	mu      sync.Mutex
	seq     uint64
	order   []*pending // waiting, in arrival order
	byID    map[uint64]*pending
	views   []*Handle
	closed  bool
	agents  map[string]interaction.Agent // connected agents, by id
	agentOr []string                     // their ids in order of connection
	recent  []interaction.Activity       // the last recentActivity reports, oldest first
	// ended remembers how the latest requests ended, so a view whose
	// answer comes too late learns why; endedOrder evicts the oldest.
	ended      map[uint64]Settlement
	endedOrder []uint64
}

// rememberEnded is how many settled requests the inbox remembers.
const rememberEnded = 1024

var (
	_ interaction.Provider     = (*Inbox)(nil)
	_ interaction.ActivitySink = (*Inbox)(nil)
)

// recentActivity is how many activity reports a view attaching late is
// shown, so it starts with the context of the questions waiting.
const recentActivity = 256

// pending is a waiting request and what its views drafted.
type pending struct {
	req     *Request
	reply   chan Settlement // room for one: whoever settles never blocks
	settled *Settlement
	drafts  map[*Handle]*interaction.Answer
	last    *interaction.Answer // the draft saved most recently
}

// New returns an empty inbox. now is the clock; nil means time.Now.
func New(now func() time.Time) *Inbox {
	if now == nil {
		now = time.Now
	}
	return &Inbox{now: now, byID: map[uint64]*pending{}, agents: map[string]interaction.Agent{}, ended: map[uint64]Settlement{}}
}

// Ask puts req in the inbox and waits for the first of: a view's answer
// (returned), a view's decline (ASK_DECLINED), the end of ctx (the request
// is withdrawn from every view and the context's error is returned,
// carrying the latest draft, see [DraftOf]) and [Inbox.Close]
// (PROVIDER_CLOSED). An answer given in the same instant as the withdrawal
// wins: it was shown to the human as sent.
//
// Like [interaction.Service.Ask], Ask first fails fast when ctx has ended
// and when req is not valid ([interaction.Request.Validate]:
// EMPTY_QUESTIONS or INVALID_REQUEST, saying what to fix): whichever way a
// request comes in, no view is ever handed one it cannot show.
func (in *Inbox) Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
	s := in.AskSettlement(ctx, req)
	return s.Answer, s.Err
}

// AskSettlement is [Inbox.Ask] returning the whole settlement: besides
// the answer or error, which view settled the request and what the other
// views had drafted (a history records them).
func (in *Inbox) AskSettlement(ctx context.Context, req interaction.Request) Settlement {
	if err := interaction.ContextError(ctx); err != nil {
		return Settlement{Err: err}
	}
	if err := req.Validate(); err != nil {
		return Settlement{Err: err}
	}
	deadline, _ := ctx.Deadline()
	in.mu.Lock()
	if in.closed {
		in.mu.Unlock()
		return Settlement{Err: closedError()}
	}
	in.seq++
	p := &pending{
		req:   &Request{ID: in.seq, Request: req, Arrived: in.now(), Deadline: deadline},
		reply: make(chan Settlement, 1),
	}
	in.order = append(in.order, p)
	in.byID[p.req.ID] = p
	in.notify(Event{Kind: Arrived, Request: p.req})
	in.mu.Unlock()
	interaction.Queued(ctx) // in line: a request asked now comes after it

	var s Settlement
	select {
	case s = <-p.reply:
	case <-ctx.Done():
		err := interaction.ContextError(ctx)
		in.mu.Lock()
		if p.settled == nil {
			in.settle(p, Settlement{Err: &withdrawnError{err: err, draft: p.last}})
		}
		in.mu.Unlock()
		s = <-p.reply
	}
	return s
}

// Report shows an agent's activity on every view. The inbox remembers the
// agents connected and the latest reports, for views that attach later.
func (in *Inbox) Report(a interaction.Activity) {
	in.mu.Lock()
	defer in.mu.Unlock()
	switch a.Kind {
	case interaction.ActivityConnected:
		if _, ok := in.agents[a.Agent.ID]; !ok {
			in.agentOr = append(in.agentOr, a.Agent.ID)
		}
		in.agents[a.Agent.ID] = a.Agent
	case interaction.ActivityDisconnected:
		if _, ok := in.agents[a.Agent.ID]; ok {
			delete(in.agents, a.Agent.ID)
			for i, id := range in.agentOr {
				if id == a.Agent.ID {
					in.agentOr = append(in.agentOr[:i], in.agentOr[i+1:]...)
					break
				}
			}
		}
	default:
		if len(in.recent) == recentActivity {
			copy(in.recent, in.recent[1:])
			in.recent = in.recent[:recentActivity-1]
		}
		in.recent = append(in.recent, a)
	}
	in.notify(Event{Kind: Activity, Activity: a})
}

// Attach adds a view named name (shown to the other views as where an
// answer came from) and returns the handle it answers with. The view is
// first told of the agents connected, the latest activity and every
// request waiting, then of everything that happens until it detaches.
func (in *Inbox) Attach(name string, v View) *Handle {
	h := &Handle{in: in, name: name, view: v}
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, id := range in.agentOr {
		v.Notify(Event{Kind: Activity, Activity: interaction.Activity{Agent: in.agents[id], Kind: interaction.ActivityConnected}})
	}
	for _, a := range in.recent {
		v.Notify(Event{Kind: Activity, Activity: a})
	}
	for _, p := range in.order {
		v.Notify(Event{Kind: Arrived, Request: p.req})
	}
	in.views = append(in.views, h)
	return h
}

// Close fails every waiting request with PROVIDER_CLOSED, and every later
// Ask too. It is safe to call more than once.
func (in *Inbox) Close() {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.closed = true
	for len(in.order) > 0 {
		in.settle(in.order[0], Settlement{Err: closedError()})
	}
}

// Waiting returns the requests waiting now, in arrival order.
func (in *Inbox) Waiting() []*Request {
	in.mu.Lock()
	defer in.mu.Unlock()
	out := make([]*Request, len(in.order))
	for i, p := range in.order {
		out[i] = p.req
	}
	return out
}

// notify tells every view of e; in.mu is held.
func (in *Inbox) notify(e Event) {
	for _, h := range in.views {
		h.view.Notify(e)
	}
}

// settle ends p with s, takes it out of the inbox and tells the views;
// in.mu is held and p is not settled yet. It returns s with the other
// views' drafts.
func (in *Inbox) settle(p *pending, s Settlement) Settlement {
	for h, d := range p.drafts {
		if d == nil || (s.By != "" && h.name == s.By) {
			continue
		}
		if s.Drafts == nil {
			s.Drafts = map[string]interaction.Answer{}
		}
		s.Drafts[h.name] = *d
	}
	p.settled = &s
	delete(in.byID, p.req.ID)
	for i, q := range in.order {
		if q == p {
			in.order = append(in.order[:i], in.order[i+1:]...)
			break
		}
	}
	if len(in.endedOrder) == rememberEnded {
		delete(in.ended, in.endedOrder[0])
		in.endedOrder = in.endedOrder[1:]
	}
	in.ended[p.req.ID] = s
	in.endedOrder = append(in.endedOrder, p.req.ID)
	// Every view hears first, so that by the time the caller has its
	// answer no view still counts the request as waiting.
	in.notify(Event{Kind: Settled, Request: p.req, Settlement: s})
	p.reply <- s
	return s
}

// Handle is a view's hold on an inbox: it answers, declines and keeps the
// view's drafts. Its methods are safe for concurrent use.
type Handle struct {
	in   *Inbox
	name string
	view View
}

// Name returns the view's name.
func (h *Handle) Name() string { return h.name }

// Answer answers request id. It reports true when the answer reached the
// caller; otherwise the request had already ended and the returned
// Settlement says how (withdrawn by its caller, answered or declined on
// another view), so the view can tell its human.
func (h *Handle) Answer(id uint64, a interaction.Answer) (Settlement, bool) {
	return h.end(id, Settlement{Answer: a, By: h.name})
}

// Decline declines request id on the human's behalf: the caller gets
// ASK_DECLINED. The result is as for [Handle.Answer].
func (h *Handle) Decline(id uint64) (Settlement, bool) {
	return h.end(id, Settlement{Err: interaction.Declined(), By: h.name})
}

func (h *Handle) end(id uint64, s Settlement) (Settlement, bool) {
	in := h.in
	in.mu.Lock()
	defer in.mu.Unlock()
	p, ok := in.byID[id]
	if !ok {
		if prev, ok := in.ended[id]; ok {
			return prev, false
		}
		return Settlement{Err: interaction.Errorf(interaction.CodeAborted, "the request is no longer waiting")}, false
	}
	return in.settle(p, s), true
}

// SaveDraft records what the view's human has answered so far to request
// id; nil clears it. A withdrawn request returns the most recent draft any
// view saved. Drafts of requests no longer waiting are ignored.
func (h *Handle) SaveDraft(id uint64, a *interaction.Answer) {
	in := h.in
	in.mu.Lock()
	defer in.mu.Unlock()
	p, ok := in.byID[id]
	if !ok {
		return
	}
	if a == nil {
		delete(p.drafts, h)
		if p.last != nil {
			p.last = nil
			for _, d := range p.drafts {
				p.last = d
				break
			}
		}
		return
	}
	if p.drafts == nil {
		p.drafts = map[*Handle]*interaction.Answer{}
	}
	p.drafts[h] = a
	p.last = a
}

// Detach removes the view: it receives no more events. Its drafts stay
// with their requests. Detach is idempotent.
func (h *Handle) Detach() {
	in := h.in
	in.mu.Lock()
	defer in.mu.Unlock()
	for i, v := range in.views {
		if v == h {
			in.views = append(in.views[:i], in.views[i+1:]...)
			return
		}
	}
}

// withdrawnError is a withdrawal (ASK_ABORTED, or the context's own coded
// cause such as ASK_TIMEOUT) carrying the latest draft.
type withdrawnError struct {
	err   error
	draft *interaction.Answer
}

func (e *withdrawnError) Error() string { return e.err.Error() }
func (e *withdrawnError) Unwrap() error { return e.err }

// Draft returns the human's answers when the request was withdrawn, or nil
// when nothing was drafted; history records keep it.
func (e *withdrawnError) Draft() *interaction.Answer { return e.draft }

// DraftOf returns the draft a withdrawal error carries, or nil.
func DraftOf(err error) *interaction.Answer {
	var w *withdrawnError
	if errors.As(err, &w) {
		return w.draft
	}
	return nil
}

func closedError() error {
	return interaction.Errorf(interaction.CodeProviderClosed, "the asktui window was closed before the question was answered")
}
