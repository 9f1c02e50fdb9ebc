package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// The arrival grace. A request that takes the screen while the human is
// typing (the one before it was just answered, withdrawn or timed out, or
// it arrived in an empty panel mid-keystroke) absorbs keys until the
// keyboard has been quiet for graceQuiet, and at most for graceMax, so a
// key meant for one question never answers another that the human has
// not seen. Browsers do the same for permission prompts; crush's
// OpenDialogWithGrace is the model. A request the human brings up
// himself (ctrl+n, the inbox) takes keys at once, and so do scripted
// keys.
const (
	graceQuiet = 400 * time.Millisecond
	graceMax   = 1500 * time.Millisecond
)

// grace is the state of the arrival grace: the request it protects
// (0 = none), when it began and the last key it absorbed. seq tells the
// timer that checks it apart from older ones.
type grace struct {
	request      uint64
	opened, last time.Time
	seq          int
}

// startGrace begins the grace for r, which just took the screen, when a
// key was pressed less than graceQuiet ago.
func (m *model) startGrace(r *request) tea.Cmd {
	now := m.clock()
	seq := m.grace.seq + 1
	if m.lastKey.IsZero() || now.Sub(m.lastKey) >= graceQuiet {
		m.grace = grace{seq: seq}
		return nil
	}
	m.grace = grace{request: r.id, opened: now, last: m.lastKey, seq: seq}
	return m.graceTimer()
}

// graceHolds reports whether keys are absorbed now; it ends a grace whose
// time is up.
func (m *model) graceHolds() bool {
	g := &m.grace
	if g.request == 0 {
		return false
	}
	r := m.activeRequest()
	mode := m.mode()
	now := m.clock()
	if r == nil || r.id != g.request || now.Sub(g.opened) >= graceMax || now.Sub(g.last) >= graceQuiet ||
		(mode != modeQuestion && mode != modeReview && mode != modeConfirm) {
		g.request = 0
		return false
	}
	return true
}

// graceFor reports whether r's grace is on, for the cue on screen.
func (m *model) graceFor(r *request) bool {
	return m.grace.request != 0 && m.grace.request == r.id
}

// absorb swallows a key during the grace, which then lasts until the
// keyboard is quiet again.
func (m *model) absorb() tea.Cmd {
	m.grace.last = m.clock()
	m.grace.seq++
	return m.graceTimer()
}

// graceTimer wakes the program when the grace could end, to take the cue
// off the screen.
func (m *model) graceTimer() tea.Cmd {
	g := m.grace
	end := g.last.Add(graceQuiet)
	if hard := g.opened.Add(graceMax); hard.Before(end) {
		end = hard
	}
	wait := max(end.Sub(m.clock()), time.Millisecond)
	return tea.Tick(wait, func(time.Time) tea.Msg { return graceMsg{seq: g.seq} })
}

// checkGrace ends the grace when its time is up, or waits again.
func (m *model) checkGrace(msg graceMsg) tea.Cmd {
	if msg.seq != m.grace.seq || m.grace.request == 0 {
		return nil
	}
	if m.graceHolds() {
		return m.graceTimer()
	}
	return nil
}
