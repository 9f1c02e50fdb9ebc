package app

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/interaction/inbox"
)

// The program's own messages. Requests, settlements and activity arrive
// from the inbox through the link; scripted keys and focus from
// tui.Program.Press and tui.Program.Focus; the rest are produced by Cmds.
type (
	// askMsg brings a request waiting in the inbox onto this view.
	askMsg struct{ req *inbox.Request }

	// settledMsg says a request left the inbox: answered (here or on
	// another view), declined, withdrawn by its caller or closed.
	settledMsg struct {
		id uint64
		s  inbox.Settlement
	}

	// activityMsg brings an agent's activity into the session log.
	activityMsg struct{ activity interaction.Activity }

	// pressMsg is a key pressed through tui.Program.Press, not the keyboard. A
	// scripted key is aimed: it never waits out the arrival hold, and
	// with a target it is dropped unless that request is on screen.
	pressMsg struct {
		key    tea.KeyPressMsg
		target uint64
	}

	// focusMsg shows request id, as the human would from the inbox.
	focusMsg struct{ id uint64 }

	// statusMsg replaces the line about where requests come from.
	statusMsg struct{ text string }

	// tickMsg refreshes countdowns and ages once a second.
	tickMsg time.Time

	// quitMsg ends the program from outside, clearing the screen first.
	quitMsg struct{}

	// clearNoticeMsg drops a transient notice if it is still the one shown.
	clearNoticeMsg struct{ seq int }

	// redrawMsg ends a frame in which the screen was not redrawn.
	redrawMsg struct{}

	// holdMsg checks whether the arrival hold can end: the target on
	// screen long enough, the keyboard quiet (see hold.go).
	holdMsg struct{ seq int }

	// openMsg looks again, at the time it is due, whether a question
	// waiting in the conversation view may open (openWaiting).
	openMsg struct{ at time.Time }

	// alertMsg sends the alerts held back while they were coalesced.
	alertMsg struct{}

	// linkBatchMsg is the inbox's news (askMsg, settledMsg, activityMsg)
	// that waited in the link's queue, in order: under load (a thousand
	// calls arriving at once) the program takes it in one hand-over
	// instead of one each, and so waits for the scheduler once a batch.
	linkBatchMsg []tea.Msg

	// convBatchMsg says conversation events wait in the link: the model
	// takes them all at once, so a stream of chunks costs one message a
	// batch, not one each.
	convBatchMsg struct{ link *Link }

	// convStartedMsg brings a conversation the launcher started, or why
	// it could not start.
	convStartedMsg struct {
		agent string
		// chosen says the human started it (the agent picker), at
		// asked: it is shown unless the human has moved since. One
		// started with the program is shown only when none is.
		chosen bool
		asked  time.Time
		conv   conversation.Conversation
		err    error
	}

	// turnDoneMsg says a prompt's turn ended.
	turnDoneMsg struct {
		conv string
		stop conversation.StopReason
		err  error
	}

	// sessionsMsg brings an agent's past sessions for the picker.
	sessionsMsg struct {
		agent    string
		sessions []conversation.PastSession
		err      error
	}

	// convErrorMsg reports a conversation request that failed.
	convErrorMsg struct{ text string }
)
