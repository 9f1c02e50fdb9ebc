package app

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/tui/field"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/question"
	"github.com/asktui/asktui/tui/internal/ui"
)

// This file is the focus model: which kind of program this is, which
// pane has the keys, and the one table from focus to pane that both
// dispatches keys and draws the help. A key acts only through an action
// the focused pane lists now, so the help bar and the ? overlay list
// exactly the keys that act; the arrival hold (hold.go) sits in the one
// place every key goes through, handleKey.

// kind is which program this is, set once at construction.
type kind int

const (
	// kindOneShot is `asktui ask`: the question panel alone, one request.
	kindOneShot kind = iota
	// kindSession is the session view (`serve`, `demo`, SSH views): the
	// inbox of waiting requests, the agents' activity and the panel.
	kindSession
	// kindRun is the conversation view (`asktui run`): the agents'
	// transcripts and prompt editor, and the inbox of their questions.
	kindRun
)

// many reports whether requests come and go while the program runs (the
// session and conversation views), as opposed to the one-shot question.
func (k kind) many() bool { return k != kindOneShot }

// focus is the pane that has the keys: the one stored value of the state
// machine. mode() refines it with what the panel shows.
type focus int

const (
	focusPanel      focus = iota // the question panel (its form, review, dialog or note)
	focusInbox                   // the list of waiting requests
	focusActivity                // the activity pane (session view)
	focusPast                    // the past answers
	focusHelp                    // the ? overlay, over the pane in m.back
	focusPrompt                  // the prompt editor (conversation view)
	focusTranscript              // an agent's transcript (conversation view)
	focusAgents                  // the agent picker (conversation view)
	focusRules                   // the rules pane
)

// mode is what the screen is doing: the focus, refined by the panel's own
// focus (its form, the review step, a dialog, the note editor) and by
// whether anything waits.
//
//	idle ──arrival──▶ question ◀──tab──▶ review
//	  question/review ──esc, submit with gaps──▶ confirm ──y/n──▶ back
//	  question ──n──▶ note ──enter/esc──▶ question
//	  permission ──a──▶ remember ──enter (saved: answered)/esc──▶ question
//	  any ──ctrl+k──▶ rules ──esc──▶ back
//	  any ──?/f1──▶ help ──esc──▶ back
//	  question/review/idle ──ctrl+g──▶ inbox ──enter/esc──▶ question
//	  question/review/idle ──ctrl+t──▶ activity (transcript in run) ──esc──▶ back
//	  question/review/idle ──ctrl+o──▶ past ──esc──▶ back
//	  run: prompt ◀──ctrl+e / ctrl+g──▶ question; ctrl+l agents
type mode int

const (
	modeIdle       mode = iota // nothing waits: the session's activity, or an empty panel
	modeQuestion               // a question of the request shown
	modeReview                 // the review step of the request shown
	modeConfirm                // a confirmation dialog over the panel
	modeNote                   // the note editor over the panel
	modeRemember               // the remember dialog over the panel
	modeInbox                  // moving through the waiting requests
	modeActivity               // scrolling the activity
	modePast                   // browsing past answers
	modeHelp                   // the full help
	modePrompt                 // writing to an agent (asktui run)
	modeTranscript             // moving through an agent's transcript
	modeAgents                 // choosing an agent
	modeRules                  // the rules pane
)

// mode returns the current mode.
func (m *Model) mode() mode { return m.modeFor(m.focus) }

// modeFor returns the mode the screen would be in with focus f.
func (m *Model) modeFor(f focus) mode {
	switch f {
	case focusHelp:
		return modeHelp
	case focusPast:
		return modePast
	case focusActivity:
		return modeActivity
	case focusInbox:
		if len(m.requests) > 0 {
			return modeInbox
		}
	case focusTranscript:
		if m.conv() != nil {
			return modeTranscript
		}
	case focusAgents:
		return modeAgents
	case focusRules:
		return modeRules
	case focusPrompt:
		if m.kind == kindRun {
			return modePrompt
		}
	default: // focusPanel: the request's own mode, below
	}
	r := m.activeRequest()
	switch {
	case r == nil && m.kind == kindRun:
		return modePrompt
	case r == nil:
		return modeIdle
	}
	switch m.qpane.Layer() {
	case question.OnConfirm:
		return modeConfirm
	case question.OnNote:
		return modeNote
	case question.OnRemember:
		return modeRemember
	default: // question.OnForm
	}
	if r.Reviewing() {
		return modeReview
	}
	return modeQuestion
}

// paneFor is the one table from focus to pane. Everything that acts on a
// key, and everything the help shows, goes through it.
func (m *Model) paneFor(f focus) ui.Pane {
	switch m.modeFor(f) {
	case modeHelp:
		return &m.overlay
	case modeQuestion, modeReview, modeConfirm, modeNote, modeRemember:
		return &m.qpane
	case modeInbox:
		return &m.inbox
	case modeActivity:
		return &m.activity
	case modePast:
		return &m.past
	case modePrompt:
		if c := m.conv(); c != nil {
			return c.Prompt()
		}
		return &m.idle // no agent yet: the keys of the program only
	case modeTranscript:
		return m.conv().Transcript()
	case modeAgents:
		return &m.picker
	case modeRules:
		return &m.rulebook
	default: // modeIdle
		return &m.idle
	}
}

// handleKey is the one place a key goes through: quit first, then the
// focused pane's actions, then its text input. A key that would answer or
// type is dropped while the hold is on (see hold.go). A scripted key
// (tui.Program.Press) is aimed at what it was written for and skips the hold.
func (m *Model) handleKey(msg ui.KeyMsg, scripted bool) tea.Cmd {
	if key.Matches(msg, m.Keys.Global.Quit) {
		// A clean quit, reported as an interruption by tui.Program.Run when
		// it leaves questions unanswered: a tea.Interrupt would tear the
		// program down as killed.
		m.quitting = true
		m.interrupted = len(m.requests) > 0
		return tea.Quit
	}
	p := m.paneFor(m.focus)
	for _, a := range ui.Acting(p) {
		if !key.Matches(msg, a.Key) {
			continue
		}
		if !scripted && m.holds(p) && (a.Grade == ui.GradeAnswer || field.IsText(msg)) {
			return m.drop()
		}
		before, at := m.place(), m.clock()
		cmd := a.Do(msg)
		if a.Grade == ui.GradeMove && m.place() != before {
			// The human moved (see placeGrace), at the key: what the move
			// started (an agent, say) comes after it.
			m.placed = at
		}
		return cmd
	}
	if t := p.Typist(); t != nil {
		if !scripted && m.holds(p) {
			return m.drop()
		}
		return t(msg)
	}
	return nil
}

// holds reports whether the hold drops p's answering and typing keys
// now: the arrival hold, or the panel's while the call of the question
// shown has not been on screen. The rules pane's keys act on the rules
// file, never on a request: a question arriving while a rule is edited
// does not take the typing.
func (m *Model) holds(p ui.Pane) bool {
	if p == ui.Pane(&m.qpane) && m.callHeld(m.activeRequest()) {
		return true
	}
	return p != ui.Pane(&m.rulebook) && m.holding()
}

// place is where the human is: the pane with the keys, the conversation
// shown and the request shown. A move changes it.
type place struct {
	focus focus
	conv  int
	req   uint64
}

func (m *Model) place() place {
	p := place{focus: m.focus, conv: m.activeConv}
	if r := m.activeRequest(); r != nil {
		p.req = r.ID
	}
	return p
}

// homeFocus is the pane with the keys when no other is chosen: the
// prompt in the conversation view (a question there opens only when the
// human or openWaiting opens it), else the panel.
func (m *Model) homeFocus() focus {
	if m.kind == kindRun {
		return focusPrompt
	}
	return focusPanel
}

// spot is where a pane was opened from: the pane, and the request the
// panel showed when it was the panel.
type spot struct {
	focus focus
	req   uint64
}

// here is the spot the keys are at now.
func (m *Model) here() spot {
	s := spot{focus: m.focus}
	if r := m.activeRequest(); r != nil && m.focus == focusPanel {
		s.req = r.ID
	}
	return s
}

// goBack returns the keys from a pane (the inbox, the past answers) to
// where it was opened from: the panel when it still shows the request it
// showed then (in the session view, the panel whatever it shows), else
// the prompt in the conversation view, the human's own choice of it. It
// never opens a question the human had not.
func (m *Model) goBack() {
	o := m.origin
	m.origin = spot{}
	if r := m.activeRequest(); r != nil && o.focus == focusPanel && (m.kind != kindRun || r.ID == o.req) {
		m.focus = focusPanel
		return
	}
	if m.kind == kindRun {
		m.toPrompt()
		return
	}
	m.focus = m.homeFocus()
}

// toPrompt gives the keys to the prompt editor of the conversation shown,
// as the human chose: not held.
func (m *Model) toPrompt() {
	m.focus = focusPrompt
	m.chose = true
}

// paste hands pasted text to the focused pane's text input, if it has one
// with the keys; it is typing, so the hold drops it.
func (m *Model) paste(msg tea.PasteMsg) tea.Cmd {
	p := m.paneFor(m.focus)
	t := p.Typist()
	switch {
	case t == nil:
		return nil
	case m.holds(p):
		return m.drop()
	}
	return t(msg)
}

// globals are the keys of the program as a whole, after the focused
// pane's own: switching panes and requests, the help, quitting. typing
// says a text input has the keys, so "?" is text and only F1 opens the
// help. They are offered from the panel, the idle screen, the prompt and
// the panes the human moves through; a dialog, the note editor, the
// overlay and the agent picker offer only quit.
func (m *Model) globals(f focus, typing bool) []ui.Action {
	if m.embedded {
		return nil // the host program's help and quitting
	}
	g := m.Keys.Global
	var out []ui.Action
	n := len(m.requests)
	if m.kind.many() && n > 1 {
		out = append(out,
			ui.Move(g.NextRequest, func(ui.KeyMsg) tea.Cmd { return m.switchRequest(+1) }).InBar(g.SwitchRequest),
			ui.Move(g.PrevRequest, func(ui.KeyMsg) tea.Cmd { return m.switchRequest(-1) }),
		)
	}
	switch m.kind {
	case kindSession:
		if n > 0 && f != focusInbox {
			out = append(out, ui.Move(g.Inbox, func(ui.KeyMsg) tea.Cmd { return m.openInbox() }).InBar().Explain("the waiting requests (session view); with one waiting, open it"))
		}
		if f != focusActivity {
			out = append(out, ui.Move(g.Activity, func(ui.KeyMsg) tea.Cmd { m.focus = focusActivity; return nil }).InBar().Explain("the agents' activity (session view)"))
		}
		if f != focusPast {
			out = append(out, ui.Move(g.Past, func(ui.KeyMsg) tea.Cmd { m.openPast(); return nil }).Explain("the answers given in this session"))
		}
		out = append(out, m.rulesAction(f)...)
	case kindRun:
		if n > 0 && f != focusInbox {
			help := "inbox"
			if n == 1 {
				help = "open the question"
			}
			out = append(out, ui.Move(g.Inbox, func(ui.KeyMsg) tea.Cmd { return m.openInbox() }).InBar(keys.Relabel(g.Inbox, g.Inbox.Help().Key, help)).Explain("answer the questions waiting (asktui run): a question never takes the keys from the prompt while you type, and one you left never comes back by itself"))
		}
		if m.modeFor(f) != modePrompt && m.conv() != nil {
			out = append(out, ui.Move(g.Prompt, func(ui.KeyMsg) tea.Cmd { m.toPrompt(); return nil }).InBar().Explain("back to the prompt while questions wait (asktui run)"))
		}
		if f != focusTranscript && m.conv() != nil {
			out = append(out, ui.Move(keys.Relabel(g.Activity, g.Activity.Help().Key, "transcript"), func(ui.KeyMsg) tea.Cmd { return m.openTranscript() }).InBar().Explain("move through the transcript (asktui run)"))
		}
		out = append(out, ui.Move(g.Agents, func(ui.KeyMsg) tea.Cmd { return m.openAgents() }).InBar().Explain("agents (asktui run): switch, start another, resume a past session"))
		if f != focusPast {
			out = append(out, ui.Move(g.Past, func(ui.KeyMsg) tea.Cmd { m.openPast(); return nil }).Explain("the answers given in this session"))
		}
		out = append(out, m.rulesAction(f)...)
	default: // kindOneShot: one request, no other pane
	}
	out = append(out, m.helpAction(typing).Kept(), m.quitAction())
	for i := range out {
		out[i].Section = "Everywhere"
	}
	return out
}

// helpAction opens the overlay; while typing only F1 does.
func (m *Model) helpAction(typing bool) ui.Action {
	b := m.Keys.Global.Help
	if typing {
		b = m.Keys.Global.HelpTyping
	}
	a := ui.Move(b, func(ui.KeyMsg) tea.Cmd {
		m.back, m.focus = m.focus, focusHelp
		m.overlay.scroll = 0
		return nil
	})
	a.IsHelp = true
	if typing {
		return a.Explain("the keys that act now, where a text field takes " + keys.Name(m.Keys.Global.Help))
	}
	return a.Explain("the keys that act now, listed in full")
}

// quitAction is shown in the help only: handleKey quits before any pane
// sees the key. A view over SSH only closes itself.
func (m *Model) quitAction() ui.Action {
	b := m.Keys.Global.Quit
	if m.remote {
		b = keys.Relabel(b, b.Help().Key, "close this view")
	}
	return ui.Move(b, ui.Nothing).In("Everywhere").Explain("quit: the exit status is 130 when a question is left unanswered, 0 when none waits; over SSH, close that view")
}

// openInbox moves the keys to the list of waiting requests; with one
// request waiting it opens that one, as the human asked for it.
func (m *Model) openInbox() tea.Cmd {
	switch len(m.requests) {
	case 0:
		return nil
	case 1:
		m.show(0)
		m.focus = focusPanel
		return nil
	}
	m.origin = m.here()
	m.focus = focusInbox
	m.inbox.SetCursor(m.active)
	if c := m.conv(); c != nil && m.kind == kindRun {
		// The cursor starts on a question of the conversation on screen.
		for i, r := range m.requests {
			if r.AgentID == c.ID() {
				m.inbox.SetCursor(i)
				break
			}
		}
	}
	return nil
}

func (m *Model) openPast() {
	if m.focus != focusInbox {
		m.origin = m.here()
	}
	m.focus = focusPast
	m.past.Open()
}

// rulesAction opens the rules pane, when there are rules to keep and it
// is not open already.
func (m *Model) rulesAction(f focus) []ui.Action {
	if m.rules == nil || f == focusRules {
		return nil
	}
	return []ui.Action{ui.Move(m.Keys.Global.Rules, func(ui.KeyMsg) tea.Cmd { return m.openRules() }).Explain("your standing answers to permissions: list, edit, remove (session and conversation views)")}
}

// openRules opens the rules pane and reads the rules afresh.
func (m *Model) openRules() tea.Cmd {
	if m.focus != focusInbox {
		m.origin = m.here()
	}
	m.focus = focusRules
	return m.rulebook.Open()
}

func (m *Model) openTranscript() tea.Cmd {
	c := m.conv()
	if c == nil {
		return nil
	}
	m.focus = focusTranscript
	c.Transcript().CursorLast()
	return nil
}

// openAgents opens the agent picker, noting where the human leaves the
// conversation shown: switching back returns there.
func (m *Model) openAgents() tea.Cmd {
	m.leave()
	m.focus = focusAgents
	m.picker.Open(m.convs, m.activeConv, m.launcher)
	return nil
}

// page is the rows a page scroll moves in the activity and the
// transcript.
func (m *Model) page() int { return max(m.lay.bodyH-2, 1) }

// syncFocus gives the keys to the pane m.focus names and takes them from
// the one that had them, whatever moved the focus (a key, an arrival, a
// request ending, a conversation switched): one pane has them at a time.
func (m *Model) syncFocus() tea.Cmd {
	p := m.paneFor(m.focus)
	if p == m.focused {
		return nil
	}
	if m.focused != nil {
		m.focused.Blur()
	}
	m.focused = p
	return p.Focus()
}
