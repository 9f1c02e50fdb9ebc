package app

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/tui/internal/request"
)

// The arrival hold, and where the screen may go by itself.
//
// The keys act on one thing at a time, the target: the request the panel
// shows, or the prompt editor of the conversation shown. Two rules keep a
// key on what the human looked at.
//
// The human's choice of place stands. What is on screen changes only
// along the paths below; every other change is the human's own key.
//
//	path                                       view         the keys
//	1 a request arrives on an idle panel        session,     held
//	  (nothing shown before it)                  one-shot
//	2 a request arrives while something else    all          nothing moves; the
//	  is shown                                               inbox count grows (run:
//	                                                         announced on the status line)
//	3 a new arrival of the conversation on      run          held
//	  screen opens: never shown before, the
//	  prompt editor empty, the keyboard quiet
//	  for holdQuiet and no move of the human's
//	  for placeGrace (openWaiting)
//	4 the request shown ends (answered here or  session      the next never-shown
//	  on another view, withdrawn, timed out)                 request, held; else the
//	                                                         inbox list, where no key
//	                                                         answers
//	                                            run          the next never-shown request
//	                                                         of the conversation on
//	                                                         screen, held; else its prompt,
//	                                                         held unless the human answered
//	                                                         the last one
//	5 an agent the human started is ready       run          its prompt, held; only if the
//	                                                         human has not moved since
//	                                                         starting it (else announced)
//
// A request once shown and left (by switching agents, opening another
// pane, or going back to the prompt) is never brought back by the
// program: it waits, counted in the inbox and on the status line, until
// the human opens it (ctrl+g, the inbox, ctrl+n/p, or switching back to
// its conversation, which returns to where the human left it). Across
// conversations nothing switches by itself.
//
// The arrival hold. Whenever the target changes without the human
// choosing it (the paths above), keys that answer or type are held:
// dropped, never delivered later, until the new target has been on
// screen for holdShown and the keyboard has been quiet for holdQuiet.
// There is no upper bound: a human who keeps typing keeps the hold on.
// Navigation (arrows, scrolling, opening a pane) acts at once. The
// human's own moves (opening a request from the inbox, ctrl+n/p, ctrl+g
// on the one question waiting, going to the prompt) are not held, and
// nor are scripted keys (tui.Program.Press), which are aimed. Nor are the
// rules pane's, which act on the rules file, never on the target.
//
//	       program changes the target             quiet ≥ holdQuiet and
//	free ─────────────────────────────▶ held ───▶ on screen ≥ holdShown ──▶ free
//	 ▲                                   │  ▲
//	 │        the human chooses it       │  │ a key or paste: dropped,
//	 └───────────────────────────────────┘  └ the quiet starts again
//
// Browsers treat permission prompts the same way (an input delay after a
// prompt appears, whatever came before); crush's OpenDialogWithGrace is
// the model. The time on screen counts only while the target is drawn:
// a request that arrived behind the help overlay starts counting when the
// overlay closes. One frame is added, since a change is drawn at the next
// frame at the latest.
//
// Every Update ends in observe, which notices a change of target
// whatever caused it, so no path that swaps what is shown can skip the
// hold; it also marks a request seen once it has been on screen, or
// under the cursor of the inbox list.
const (
	holdShown = 500 * time.Millisecond
	holdQuiet = 400 * time.Millisecond
	// placeGrace is how long after a move of the human's (switching
	// agents, opening or closing a pane) no question opens by itself:
	// someone who has just chosen where to be is not yet looking for
	// what might appear there.
	placeGrace = 3 * time.Second
)

// targetKind says what the keys act on.
type targetKind int

const (
	targetNone    targetKind = iota
	targetRequest            // the request shown in the panel
	targetPrompt             // the prompt editor of a conversation
)

// target is what the keys act on: a request by id, or the prompt editor
// of a conversation by its id.
type target struct {
	kind targetKind
	req  uint64
	conv string
}

// hold is the state of the arrival hold.
type hold struct {
	target target    // what the keys act on
	held   bool      // answering and typing keys are dropped
	since  time.Time // when the target came on screen; zero while it is not
	seq    int       // tells the timer that checks the hold apart from older ones
	timer  bool      // a check is scheduled for seq
}

// target names what the keys act on now: the request shown, when the
// panel shows one; the prompt editor of the conversation shown; or
// nothing.
func (m *Model) target() target {
	if r := m.activeRequest(); r != nil && m.focus != focusPrompt {
		return target{kind: targetRequest, req: r.ID}
	}
	if m.kind == kindRun {
		if c := m.conv(); c != nil && m.mode() == modePrompt {
			return target{kind: targetPrompt, conv: c.ID()}
		}
	}
	return target{}
}

// targetVisible reports whether the target is on screen now.
func (m *Model) targetVisible() bool {
	if m.hold.target.kind == targetNone {
		return false
	}
	mode := m.mode()
	switch mode {
	case modeQuestion, modeReview, modeConfirm, modeNote, modeRemember, modePrompt:
		return true
	case modeInbox:
		// The inbox list sits above the panel, except on a narrow session
		// screen, where it takes the whole body.
		return m.kind == kindRun || m.lay.frame.inboxRows > 0
	case modeActivity:
		return m.lay.frame.wide
	default:
		return false
	}
}

// observe ends every Update: it notices a change of target, starts the
// hold when the program made it, and counts the time on screen. chose is
// set by the human's own moves during the Update.
func (m *Model) observe() tea.Cmd {
	defer m.seeCall() // with the hold as this Update leaves it
	h := &m.hold
	now := m.clock()
	if t := m.target(); t != h.target {
		first := h.target.kind == targetNone && t.kind == targetPrompt && !m.promptSeen
		h.target, h.since = t, time.Time{}
		h.held = t.kind != targetNone && !first
		h.seq++
		h.timer = false
		if t.kind == targetPrompt {
			m.promptSeen = true
		}
	}
	if h.target.kind == targetRequest && m.targetVisible() {
		if r := m.activeRequest(); r != nil && r.ID == h.target.req {
			r.Seen = true
		}
	}
	if m.mode() == modeInbox && m.inbox.Cursor() < len(m.requests) {
		// The row under the cursor was looked at, and not opened.
		m.requests[m.inbox.Cursor()].Seen = true
	}
	if m.chose {
		m.chose = false
		if h.held {
			h.held = false
			h.seq++
		}
	}
	if !h.held {
		return nil
	}
	visible := m.targetVisible()
	switch {
	case visible && h.since.IsZero():
		h.since = now
		h.seq++
		h.timer = false
	case !visible && !h.since.IsZero():
		h.since = time.Time{}
		h.seq++
		h.timer = false
	}
	if m.release(now) {
		return nil
	}
	return m.holdTimer(now)
}

// release ends the hold when its target has been on screen long enough
// and the keyboard has been quiet; it reports whether it did (or none was
// on).
func (m *Model) release(now time.Time) bool {
	h := &m.hold
	if !h.held {
		return true
	}
	if h.since.IsZero() || now.Sub(h.since) < holdShown+m.frameEvery || now.Sub(m.lastKey) < holdQuiet {
		return false
	}
	h.held = false
	h.seq++
	return true
}

// holding reports whether keys that answer or type are dropped now,
// ending a hold whose time is up first. It is asked when a key comes in,
// after lastKey was set by it, so the quiet is measured to the key
// before.
func (m *Model) holding() bool {
	if !m.hold.held {
		return false
	}
	saved := m.lastKey
	m.lastKey = m.prevKey
	released := m.release(m.clock())
	m.lastKey = saved
	return !released
}

// drop swallows a key while the hold is on; the quiet starts again from
// it, so the timer is set anew.
func (m *Model) drop() tea.Cmd {
	m.hold.seq++
	m.hold.timer = false
	return m.holdTimer(m.clock())
}

// holdTimer wakes the program when the hold could end, to take the cue off
// the screen; one timer per state of the hold.
func (m *Model) holdTimer(now time.Time) tea.Cmd {
	h := &m.hold
	if !h.held || h.since.IsZero() || h.timer {
		return nil
	}
	end := h.since.Add(holdShown + m.frameEvery)
	if q := m.lastKey.Add(holdQuiet); q.After(end) {
		end = q
	}
	h.timer = true
	seq := h.seq
	wait := max(end.Sub(now), time.Millisecond)
	return tea.Tick(wait, func(time.Time) tea.Msg { return holdMsg{seq: seq} })
}

// checkHold ends the hold when its time is up, or waits again.
func (m *Model) checkHold(msg holdMsg) tea.Cmd {
	h := &m.hold
	if msg.seq != h.seq {
		return nil
	}
	h.timer = false
	now := m.clock()
	if m.release(now) {
		return nil
	}
	return m.holdTimer(now)
}

// The call on screen. A question that comes with a detail (for a
// permission, the call it approves: the command, the file, the URL) is
// not answered before the detail's first line has been seen: the layout
// gives that line rows before the options' descriptions, the inbox list
// and the transcript (question.Pane's layout and RoomFor); where even then it cannot
// show (a tiny screen, a long question), or the screen changed under it
// before the human saw it, the keys that answer or type are held while
// it is off screen, the panel says to scroll to it, and the scroll keys
// bring it into view. It counts as seen once it has been on screen with
// the keys free: past the arrival hold, or at once when the human opened
// the question. Like the arrival hold it is decided here, for every view,
// and holds no scripted keys; unlike it, time does not end it.

// callHeld reports whether the keys that answer request r's question
// shown are held because the first line of its call is off screen and
// has not been seen.
func (m *Model) callHeld(r *request.Request) bool {
	if r == nil || m.mode() != modeQuestion || r != m.activeRequest() {
		return false
	}
	q := r.Current()
	return q != nil && !q.CallSeen && !m.qpane.ShowsCall(r.Scroll)
}

// seeCall marks the call of the question shown seen when the panel
// shows its first line and the arrival hold is off. observe calls it
// after the layout pass, so the line is on the screen drawn next.
func (m *Model) seeCall() {
	r := m.activeRequest()
	if r == nil || m.hold.held || m.mode() != modeQuestion || !m.targetVisible() {
		return
	}
	if q := r.Current(); q != nil && m.qpane.HasCall() && m.qpane.ShowsCall(r.Scroll) {
		q.CallSeen = true
	}
}

// heldFor reports whether the keys held are request r's, for the cue on
// screen.
func (m *Model) heldFor(r *request.Request) bool {
	return m.hold.held && m.hold.target == target{kind: targetRequest, req: r.ID}
}
