package tui

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/interaction"
)

// Provider is the interaction.Provider of a running [Program]. It is safe
// for concurrent use: every Ask waits independently, and the program shows
// the waiting requests in arrival order.
type Provider struct {
	prog   *tea.Program
	done   <-chan struct{} // closed when the program has exited
	nextID atomic.Uint64
	now    func() time.Time
	// withdrawAck bounds how long a withdrawn Ask waits for the program
	// to hand back the human's draft; tests lengthen it.
	withdrawAck time.Duration

	// Messages for the program queue here and one dispatcher goroutine,
	// living as long as the program, delivers them with Program.Send in
	// order. Ask itself never blocks on Send, and no goroutine is started
	// per request, so nothing outlives a request; the order guarantees a
	// withdrawal never overtakes its request.
	mu      sync.Mutex
	queue   []tea.Msg
	wake    chan struct{}
	started sync.Once
}

var _ interaction.Provider = (*Provider)(nil)

func newProvider(prog *tea.Program, done <-chan struct{}, now func() time.Time) *Provider {
	return &Provider{prog: prog, done: done, now: now, withdrawAck: withdrawAck, wake: make(chan struct{}, 1)}
}

// Ask shows req and waits for the human. It returns the answer, or an
// *interaction.Error: ASK_DECLINED when the human declines, ASK_ABORTED (or
// the context's own *interaction.Error cause, such as ASK_TIMEOUT) when ctx
// ends first, in which case the question is withdrawn from the screen, and
// PROVIDER_CLOSED when the program exits first.
func (p *Provider) Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
	if err := ctx.Err(); err != nil {
		return interaction.Answer{}, interaction.ContextError(ctx)
	}
	select {
	case <-p.done:
		return interaction.Answer{}, errClosed()
	default:
	}
	reply := make(chan askResult, 1) // room for one: the program never blocks on a caller that left
	settled := new(atomic.Bool)
	id := p.nextID.Add(1)
	deadline, _ := ctx.Deadline()
	p.enqueue(askMsg{id: id, ctx: ctx, req: req, reply: reply, settled: settled, deadline: deadline, arrived: p.now()})

	select {
	case r := <-reply:
		return r.answer, r.err
	case <-ctx.Done():
		// An answer submitted in the same instant is kept, never dropped.
		select {
		case r := <-reply:
			return r.answer, r.err
		default:
		}
		err := interaction.ContextError(ctx)
		p.enqueue(withdrawMsg{id: id, err: err})
		// The program answers the withdrawal with the human's draft (or
		// with an answer given at that very moment); wait for it briefly,
		// never longer than withdrawAck.
		ack := time.NewTimer(p.withdrawAck)
		defer ack.Stop()
		select {
		case r := <-reply:
			return r.answer, r.err
		case <-p.done:
		case <-ack.C:
		}
		// Stop waiting, unless the program has just replied: then the
		// reply is on its way, and the human was told it was sent.
		if !settled.CompareAndSwap(false, true) {
			r := <-reply
			return r.answer, r.err
		}
		return interaction.Answer{}, err
	case <-p.done:
		select {
		case r := <-reply:
			return r.answer, r.err
		default:
		}
		return interaction.Answer{}, errClosed()
	}
}

// Report shows an agent's activity in the session view. It never blocks.
func (p *Provider) Report(a interaction.Activity) {
	select {
	case <-p.done:
		return
	default:
	}
	p.enqueue(activityMsg{activity: a})
}

var _ interaction.ActivitySink = (*Provider)(nil)

// withdrawAck is how long a withdrawn Ask waits for the program to hand
// back the human's draft, unless a test changes Provider.withdrawAck.
const withdrawAck = 250 * time.Millisecond

// withdrawnError is a withdrawal (ASK_ABORTED or the context's own coded
// cause) that carries what the human had answered so far, so a history can
// keep it.
type withdrawnError struct {
	err   error
	draft *interaction.Answer
}

func (e *withdrawnError) Error() string { return e.err.Error() }
func (e *withdrawnError) Unwrap() error { return e.err }

// Draft returns the human's answers at the moment of the withdrawal, or nil
// when nothing was answered yet.
func (e *withdrawnError) Draft() *interaction.Answer { return e.draft }

func errClosed() error {
	return interaction.Errorf(interaction.CodeProviderClosed, "the asktui window was closed before the question was answered")
}

func (p *Provider) enqueue(msg tea.Msg) {
	p.started.Do(func() { go p.dispatch() })
	p.mu.Lock()
	p.queue = append(p.queue, msg)
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// dispatch delivers queued messages until the program exits. Program.Send
// returns once the event loop takes the message or the program ends, so
// this goroutine ends with the program.
func (p *Provider) dispatch() {
	for {
		select {
		case <-p.done:
			return
		case <-p.wake:
		}
		for {
			p.mu.Lock()
			if len(p.queue) == 0 {
				p.mu.Unlock()
				break
			}
			msg := p.queue[0]
			p.queue[0] = nil
			p.queue = p.queue[1:]
			p.mu.Unlock()
			p.prog.Send(msg)
			select {
			case <-p.done:
				return
			default:
			}
		}
	}
}
