package tui

import (
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/interaction/inbox"
)

// link is this program's view of an inbox: it turns the inbox's events
// into messages for the program, in order, and carries scripted keys.
//
// Messages queue here and one dispatcher goroutine, living as long as the
// program, delivers them with Program.Send, which blocks until the event
// loop takes each. Notify and the scripted keys never block on Send, and
// no goroutine is started per request; the single queue keeps a
// settlement behind its arrival and a scripted key behind the request it
// was written for.
type link struct {
	prog *tea.Program
	done <-chan struct{} // closed when the program has exited

	mu      sync.Mutex
	queue   []tea.Msg
	wake    chan struct{}
	started sync.Once

	// Autoplay: the requests handed to the program and not settled yet
	// (in arrival order), the agent whose request scripted keys wait for,
	// the keys held meanwhile, and the request those keys are aimed at.
	waiting  []waitingRequest
	holdFor  *string
	held     []tea.KeyPressMsg
	targetID uint64

	// Conversation events wait here until the model takes them, with one
	// convBatchMsg in the queue at most.
	conv       []conversation.Event
	convQueued bool
}

// waitingRequest is a request the program shows, and who asked it.
type waitingRequest struct {
	id    uint64
	agent string
}

var _ inbox.View = (*link)(nil)

func newLink(prog *tea.Program, done <-chan struct{}) *link {
	return &link{prog: prog, done: done, wake: make(chan struct{}, 1)}
}

// Notify queues an inbox event for the program. It never blocks.
func (l *link) Notify(e inbox.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch e.Kind {
	case inbox.Arrived:
		agent := agentID(e.Request)
		l.waiting = append(l.waiting, waitingRequest{id: e.Request.ID, agent: agent})
		l.push(askMsg{req: e.Request})
		if l.holdFor != nil && *l.holdFor == agent {
			l.aim(e.Request.ID)
		}
	case inbox.Settled:
		for i, w := range l.waiting {
			if w.id == e.Request.ID {
				l.waiting = append(l.waiting[:i], l.waiting[i+1:]...)
				break
			}
		}
		l.push(settledMsg{id: e.Request.ID, s: e.Settlement})
	case inbox.Activity:
		l.push(activityMsg{activity: e.Activity})
	}
}

func agentID(r *inbox.Request) string {
	if a := r.Request.Agent; a != nil {
		return a.ID
	}
	return ""
}

// focus aims the scripted keys that follow at the oldest waiting request
// of agent, showing it; when none waits yet, the keys are held until one
// arrives.
func (l *link) focus(agent string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, w := range l.waiting {
		if w.agent == agent {
			l.aim(w.id)
			return
		}
	}
	l.holdFor = &agent
}

// aim shows request id and releases the held keys at it; l.mu is held.
func (l *link) aim(id uint64) {
	l.holdFor = nil
	l.targetID = id
	l.push(focusMsg{id: id})
	for _, k := range l.held {
		l.push(pressMsg{key: k, target: id})
	}
	l.held = nil
}

// press queues scripted keys, or holds them while a focus waits.
func (l *link) press(keys []tea.KeyPressMsg) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holdFor != nil {
		l.held = append(l.held, keys...)
		return
	}
	for _, k := range keys {
		l.push(pressMsg{key: k, target: l.targetID})
	}
}

// ConversationEvent queues a conversation's event for the program. It
// never blocks: events gather until the model takes them.
func (l *link) ConversationEvent(e conversation.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.conv = append(l.conv, e)
	if !l.convQueued {
		l.convQueued = true
		l.push(convBatchMsg{link: l})
	}
}

// takeConv hands the gathered conversation events to the model.
func (l *link) takeConv() []conversation.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	events := l.conv
	l.conv, l.convQueued = nil, false
	return events
}

// send queues any message for the program.
func (l *link) send(msg tea.Msg) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.push(msg)
}

// push queues msg and wakes the dispatcher; l.mu is held.
func (l *link) push(msg tea.Msg) {
	l.started.Do(func() { go l.dispatch() })
	l.queue = append(l.queue, msg)
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// dispatch delivers queued messages until the program exits. Program.Send
// returns once the event loop takes the message or the program ends, so
// this goroutine ends with the program.
func (l *link) dispatch() {
	for {
		select {
		case <-l.done:
			return
		case <-l.wake:
		}
		for {
			l.mu.Lock()
			if len(l.queue) == 0 {
				l.mu.Unlock()
				break
			}
			msg := l.queue[0]
			l.queue[0] = nil
			l.queue = l.queue[1:]
			l.mu.Unlock()
			l.prog.Send(msg)
			select {
			case <-l.done:
				return
			default:
			}
		}
	}
}
