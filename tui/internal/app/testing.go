package app

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/activity"
)

// What package tui's tests read of a Model and send to it, beside what
// its API does: the palette picked, the activity log (what the screen
// told the human), the timer of the arrival hold, and a redraw now.

// Theme is the palette the Model was built for.
func (m *Model) Theme() styles.Theme { return m.theme }

// Log is the session's activity log.
func (m *Model) Log() *activity.Log { return m.log }

// SetClock replaces the clock of key timing.
func (m *Model) SetClock(clock func() time.Time) { m.clock = clock }

// HoldTimer is the message the arrival hold's timer delivers when due.
func (m *Model) HoldTimer() tea.Msg { return holdMsg{seq: m.hold.seq} }

// RedrawMsg makes the Model draw at once rather than at its next frame.
func RedrawMsg() tea.Msg { return redrawMsg{} }
