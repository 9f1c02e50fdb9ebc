package tui

import (
	"context"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/interaction"
)

// The program's own messages. Requests and withdrawals arrive from
// Provider.Ask through the dispatcher; the rest are produced by Cmds.
type (
	// askMsg brings a new request into the program.
	askMsg struct {
		id       uint64
		ctx      context.Context
		req      interaction.Request
		reply    chan<- askResult
		settled  *atomic.Bool // claimed by whichever settles the request first: the program replying, or a withdrawn Ask that stopped waiting
		deadline time.Time
		arrived  time.Time
	}

	// withdrawMsg says the request's context ended: its caller left.
	withdrawMsg struct {
		id  uint64
		err error
	}

	// activityMsg brings an agent's activity into the session log.
	activityMsg struct{ activity interaction.Activity }

	// pressMsg is a key pressed through Program.Press, not the keyboard:
	// it waits while a focus request is pending.
	pressMsg struct{ key tea.KeyPressMsg }

	// focusMsg brings the oldest waiting request of an agent to the front,
	// holding pressMsgs until one is there.
	focusMsg struct{ agentID string }

	// tickMsg refreshes countdowns and ages once a second.
	tickMsg time.Time

	// quitMsg ends the program from outside, clearing the screen first.
	quitMsg struct{}

	// clearNoticeMsg drops a transient notice if it is still the one shown.
	clearNoticeMsg struct{ seq int }

	// redrawMsg ends a frame in which the screen was not redrawn.
	redrawMsg struct{}
)

// askResult is what the program sends back on a request's reply channel:
// exactly one of an answer or an error.
type askResult struct {
	answer interaction.Answer
	err    error
}
