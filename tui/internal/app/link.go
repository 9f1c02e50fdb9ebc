package app

import (
	"context"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/tui/internal/chat"
)

// Link is this program's view of an inbox: it turns the inbox's events
// into messages for the program, in order, and carries scripted keys.
//
// Messages queue here and one dispatcher goroutine, living as long as the
// program, delivers them with Program.Send, which blocks until the event
// loop takes each. Notify and the scripted keys never block on Send, and
// no goroutine is started per request; the single queue keeps a
// settlement behind its arrival and a scripted key behind the request it
// was written for.
type Link struct {
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
	// convBatchMsg in the queue at most. They are coalesced as they come:
	// consecutive chunks of one message become one (tail gathers the last
	// event's text), a tool call's states and a conversation's usage
	// replace the one still waiting. convBytes is about what they hold;
	// taken is closed, and replaced, each time the model takes them.
	conv       []conversation.Event
	tail       strings.Builder
	tailOpen   bool // tail holds the text of the last event in conv
	tools      map[convKey]int
	usage      map[string]int
	convBytes  int64
	convQueued bool
	taken      chan struct{}
	// loads are spilled transcript text read back for the model.
	loads []chat.Load
	// takenAt is when the model last took them (the model's own).
	takenAt time.Time
}

// convKey names a tool call of a conversation.
type convKey struct{ conv, id string }

// The queue's bounds: while the events waiting for the model stay under
// both, a conversation's agent is not slowed (Pace returns at once).
const (
	paceEvents = 1024
	paceBytes  = 1 << 20
)

// waitingRequest is a request the program shows, and who asked it.
type waitingRequest struct {
	id    uint64
	agent string
}

var (
	_ inbox.View         = (*Link)(nil)
	_ conversation.Pacer = (*Link)(nil)
)

// NewLink is the link of prog, which has exited once done is closed.
func NewLink(prog *tea.Program, done <-chan struct{}) *Link {
	return &Link{prog: prog, done: done, wake: make(chan struct{}, 1), taken: make(chan struct{})}
}

// Notify queues an inbox event for the program. It never blocks.
func (l *Link) Notify(e inbox.Event) {
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

// Focus aims the scripted keys that follow at the oldest waiting request
// of agent, showing it; when none waits yet, the keys are held until one
// arrives (tui.Program.Focus).
func (l *Link) Focus(agent string) {
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
func (l *Link) aim(id uint64) {
	l.holdFor = nil
	l.targetID = id
	l.push(focusMsg{id: id})
	for _, k := range l.held {
		l.push(pressMsg{key: k, target: id})
	}
	l.held = nil
}

// Press queues scripted keys, or holds them while a focus waits
// (tui.Program.Press).
func (l *Link) Press(keys []tea.KeyPressMsg) {
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
// never blocks: events gather, coalesced, until the model takes them.
func (l *Link) ConversationEvent(e conversation.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.convBytes += chat.EventBytes(e)
	n := len(l.conv)
	switch e.Kind {
	case conversation.EventMessageChunk, conversation.EventThoughtChunk, conversation.EventUserChunk:
		if n > 0 {
			last := &l.conv[n-1]
			if last.Kind == e.Kind && last.Conversation == e.Conversation && last.MessageID == e.MessageID {
				if !l.tailOpen {
					l.tail.Reset()
					l.tail.WriteString(last.Text)
					l.tailOpen = true
				}
				l.tail.WriteString(e.Text)
				return
			}
		}
	case conversation.EventToolCall:
		if e.Tool != nil {
			k := convKey{e.Conversation, e.Tool.ID}
			if i, ok := l.tools[k]; ok {
				l.conv[i].Tool = e.Tool // the whole state: the newest wins
				return
			}
			if l.tools == nil {
				l.tools = map[convKey]int{}
			}
			l.tools[k] = n
		}
	case conversation.EventUsage:
		if i, ok := l.usage[e.Conversation]; ok {
			l.conv[i].Usage = e.Usage
			return
		}
		if l.usage == nil {
			l.usage = map[string]int{}
		}
		l.usage[e.Conversation] = n
	default: // queued as it is
	}
	l.closeTail()
	l.conv = append(l.conv, e)
	l.queueConv()
}

// closeTail puts the gathered text into the last event; l.mu is held.
func (l *Link) closeTail() {
	if l.tailOpen {
		l.conv[len(l.conv)-1].Text = l.tail.String()
		l.tail = strings.Builder{}
		l.tailOpen = false
	}
}

// queueConv makes sure a convBatchMsg waits in the queue; l.mu is held.
func (l *Link) queueConv() {
	if !l.convQueued {
		l.convQueued = true
		l.push(convBatchMsg{link: l})
	}
}

// Pace waits while more events wait for the model than the queue's
// bounds, until the model has taken them (conversation.Pacer): an agent
// that sends faster than the screen takes is slowed down instead.
func (l *Link) Pace(ctx context.Context) {
	l.mu.Lock()
	if len(l.conv) <= paceEvents && l.convBytes <= paceBytes {
		l.mu.Unlock()
		return
	}
	taken := l.taken
	l.mu.Unlock()
	select {
	case <-taken:
	case <-ctx.Done():
	case <-l.done:
	}
}

// loaded queues spilled text read back for the model.
func (l *Link) loaded(s chat.Load) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.loads = append(l.loads, s)
	l.queueConv()
}

// takeConv hands the gathered conversation events, and the spilled text
// read back, to the model.
func (l *Link) takeConv() ([]conversation.Event, []chat.Load) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closeTail()
	events, loads := l.conv, l.loads
	l.conv, l.loads, l.convQueued = nil, nil, false
	clear(l.tools)
	clear(l.usage)
	l.convBytes = 0
	close(l.taken)
	l.taken = make(chan struct{})
	return events, loads
}

// Send queues any message for the program.
func (l *Link) Send(msg tea.Msg) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.push(msg)
}

// push queues msg and wakes the dispatcher; l.mu is held.
func (l *Link) push(msg tea.Msg) {
	l.started.Do(func() { go l.dispatch() })
	l.queue = append(l.queue, msg)
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// inboxEvent reports whether msg is news from the inbox, which comes in
// floods: consecutive ones are handed to the program as one linkBatchMsg.
func inboxEvent(msg tea.Msg) bool {
	switch msg.(type) {
	case askMsg, settledMsg, activityMsg:
		return true
	}
	return false
}

// dispatch delivers queued messages until the program exits. Program.Send
// returns once the event loop takes the message or the program ends, so
// this goroutine ends with the program.
func (l *Link) dispatch() {
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
			n := 1
			if inboxEvent(l.queue[0]) {
				for n < len(l.queue) && inboxEvent(l.queue[n]) {
					n++
				}
			}
			taken := make([]tea.Msg, n)
			copy(taken, l.queue)
			clear(l.queue[:n])
			l.queue = l.queue[n:]
			l.mu.Unlock()
			if n == 1 {
				l.prog.Send(taken[0])
			} else {
				l.prog.Send(linkBatchMsg(taken))
			}
			select {
			case <-l.done:
				return
			default:
			}
		}
	}
}
