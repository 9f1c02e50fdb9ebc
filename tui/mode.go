package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// keyMsg is a key press, from the keyboard or from Program.Press.
type keyMsg = tea.KeyPressMsg

// focus is where the keys go. It is the one stored value of the state
// machine: mode() refines it with the request shown (question or review)
// and is what both the key routing and the help bar read.
type focus int

const (
	focusPanel      focus = iota // the question panel (question or review)
	focusConfirm                 // a confirmation dialog over the panel
	focusInbox                   // the list of waiting requests
	focusActivity                // the activity pane
	focusPast                    // the past answers
	focusHelp                    // the ? overlay
	focusPrompt                  // the prompt editor (asktui run)
	focusTranscript              // an agent's transcript (asktui run)
	focusAgents                  // the agent picker (asktui run)
	focusNote                    // the note editor over the panel
)

// mode is what the screen is doing, derived from focus.
//
//	idle ──ask──▶ question ◀──tab──▶ review
//	  question/review ──esc, empty enter, submit with gaps──▶ confirm ──y/n──▶ back
//	  any ──?──▶ help ──esc──▶ back
//	  question/review/idle ──ctrl+g──▶ inbox ──enter/esc──▶ question
//	  question/review/idle ──ctrl+t──▶ activity ──esc──▶ back
//	  question/review/idle ──ctrl+o──▶ past ──esc──▶ back
type mode int

const (
	modeIdle       mode = iota // nothing waits: the session's activity, or an empty panel
	modeQuestion               // a question of the request shown
	modeReview                 // the review step of the request shown
	modeConfirm                // a confirmation dialog
	modeInbox                  // moving through the waiting requests
	modeActivity               // scrolling the activity
	modePast                   // browsing past answers
	modeHelp                   // the full help
	modePrompt                 // writing to an agent (asktui run)
	modeTranscript             // moving through an agent's transcript
	modeAgents                 // choosing an agent
	modeNote                   // writing a note on an answer
)

// mode returns the current mode.
func (m *model) mode() mode { return m.modeFor(m.focus) }

// modeFor returns the mode the screen would be in with focus f.
func (m *model) modeFor(f focus) mode {
	switch f {
	case focusHelp:
		return modeHelp
	case focusConfirm:
		return modeConfirm
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
	case focusNote:
		if r := m.activeRequest(); r != nil && r.current() == m.note.q {
			return modeNote
		}
	case focusPrompt:
		if m.run() {
			return modePrompt
		}
	}
	r := m.activeRequest()
	switch {
	case r == nil && m.run():
		return modePrompt
	case r == nil:
		return modeIdle
	case r.reviewing():
		return modeReview
	default:
		return modeQuestion
	}
}

// typing reports whether keys go to a text input on screen.
func (m *model) typing() bool {
	if m.mode() != modeQuestion {
		return false
	}
	q := m.activeRequest().current()
	return q.typing()
}

// handleKey routes a key by mode. A scripted key (Program.Press) is aimed
// and skips the arrival grace.
func (m *model) handleKey(msg keyMsg, scripted bool) tea.Cmd {
	g := m.keys.Global
	if key.Matches(msg, g.Quit) {
		// A clean quit, reported as an interruption by Program.Run: a
		// tea.Interrupt would tear the program down as killed.
		m.quitting, m.interrupted = true, true
		return tea.Quit
	}
	if !scripted && m.graceHolds() {
		return m.absorb()
	}
	mode := m.mode()
	switch mode {
	case modeHelp:
		if key.Matches(msg, m.keys.Overlay.Close) {
			m.focus = m.back
		}
		return nil
	case modeConfirm:
		done, yes := m.confirm.HandleKey(msg)
		if !done {
			return nil
		}
		m.focus = focusPanel
		if yes {
			return m.confirmed()
		}
		return nil
	case modePast:
		cmd, leave := m.past.HandleKey(msg, m.setNotice)
		if leave {
			m.focus = focusPanel
		}
		return cmd
	case modeInbox:
		open, leave := m.inbox.HandleKey(msg, len(m.requests))
		if open >= 0 {
			m.show(open)
		}
		if leave {
			m.focus = focusPanel
		}
		return nil
	case modeActivity:
		if m.acts.HandleKey(msg, m.page()) {
			m.focus = focusPanel
			m.log.scroll = 0 // follow the newest again
		}
		return nil
	case modeTranscript:
		if m.tpane.HandleKey(msg, m.conv(), m.page(), m.contentWidth(), m.styles, m.md) {
			m.focus = focusPrompt
		}
		return nil
	case modeNote:
		cmd, done := m.note.HandleKey(msg)
		if done {
			m.focus = focusPanel
		}
		return cmd
	case modeAgents:
		row, done := m.picker.HandleKey(msg)
		if done {
			m.focus = focusPrompt
		}
		if row != nil {
			return m.pick(row)
		}
		return nil
	case modePrompt:
		if m.runKey(msg) {
			return nil
		}
		return m.promptKey(msg)
	}
	if m.globalKey(msg) {
		return nil
	}
	switch mode {
	case modeQuestion:
		return m.questionKey(msg)
	case modeReview:
		r := m.activeRequest()
		switch act, tab := m.review.HandleKey(msg, r); act {
		case reviewSubmit:
			if r.unanswered() > 0 {
				m.openConfirm(r, confirmSubmit)
				return nil
			}
			return m.submit(r)
		case reviewDecline:
			m.openConfirm(r, confirmDecline)
		case reviewJump:
			m.gotoTab(r, tab)
		}
		return nil
	case modeIdle:
		if m.session {
			m.acts.HandleKey(msg, m.page())
		}
	}
	return nil
}

// run reports whether this is the conversation view (asktui run).
func (m *model) run() bool { return m.launcher != nil || len(m.convs) > 0 }

// runKey handles the conversation view's own global keys, in the prompt
// and (through globalKey) the question modes; it reports whether msg was
// one of them.
func (m *model) runKey(msg keyMsg) bool {
	g := m.keys.Global
	switch {
	case key.Matches(msg, g.Activity) && m.conv() != nil:
		m.focus = focusTranscript
		c := m.conv()
		c.view.cursor = max(len(c.items)-1, 0)
	case key.Matches(msg, g.Agents):
		m.focus = focusAgents
		m.picker.open(m.convs, m.activeConv, m.launcher)
	case key.Matches(msg, g.Inbox) && len(m.requests) > 0:
		m.focus = focusInbox
		m.inbox.cursor = m.active
	case key.Matches(msg, g.Past):
		m.focus = focusPast
		m.past.open()
	case key.Matches(msg, g.Prompt) && m.conv() != nil:
		m.focus = focusPrompt
	case key.Matches(msg, g.Help) && msg.String() != "?":
		m.back, m.focus = m.focus, focusHelp
	default:
		return false
	}
	return true
}

// page is the rows a page scroll moves in the activity.
func (m *model) page() int { return max(m.bodyHeight()-2, 1) }

// globalKey handles the keys shared by the question, review and idle
// modes; it reports whether msg was one of them.
func (m *model) globalKey(msg keyMsg) bool {
	g := m.keys.Global
	switch {
	case key.Matches(msg, g.Help) && (msg.String() != "?" || !m.typing()):
		m.back, m.focus = m.focus, focusHelp
		return true
	case m.run() && (key.Matches(msg, g.NextRequest) || key.Matches(msg, g.PrevRequest)):
		if key.Matches(msg, g.NextRequest) {
			m.switchRequest(+1)
		} else {
			m.switchRequest(-1)
		}
		m.followRequest()
		return true
	case m.run():
		return m.runKey(msg)
	case !m.session:
		return false
	case key.Matches(msg, g.NextRequest):
		m.switchRequest(+1)
		return true
	case key.Matches(msg, g.PrevRequest):
		m.switchRequest(-1)
		return true
	case key.Matches(msg, g.Inbox) && len(m.requests) > 0:
		m.focus = focusInbox
		m.inbox.cursor = m.active
		return true
	case key.Matches(msg, g.Activity):
		m.focus = focusActivity
		return true
	case key.Matches(msg, g.Past):
		m.focus = focusPast
		m.past.open()
		return true
	}
	return false
}

// questionKey handles a key on a question: the panel's own keys first,
// then the form's.
func (m *model) questionKey(msg keyMsg) tea.Cmd {
	k := m.keys.Question
	r := m.activeRequest()
	q := r.current()
	typing := q.typing()
	switch {
	case key.Matches(msg, k.NextTab):
		m.gotoTab(r, r.tab+1)
	case key.Matches(msg, k.PrevTab):
		m.gotoTab(r, r.tab-1)
	case !typing && !r.single() && key.Matches(msg, k.NextArrow):
		m.gotoTab(r, r.tab+1)
	case !typing && !r.single() && key.Matches(msg, k.PrevArrow):
		m.gotoTab(r, r.tab-1)
	case key.Matches(msg, k.Decline) && (q.choice == nil || !q.choice.Filtering()):
		m.openConfirm(r, confirmDecline)
	case key.Matches(msg, k.ScrollUp):
		r.scroll = max(r.scroll-1, 0)
	case key.Matches(msg, k.ScrollDown):
		r.scroll++ // clamped when drawn
	case key.Matches(msg, k.Raw):
		m.raw = !m.raw
	case !typing && key.Matches(msg, k.Note):
		m.focus = focusNote
		return m.note.open(q)
	case q.free() && key.Matches(msg, k.TextSubmit):
		// Enter confirms free text here and now; huh's own Enter would
		// move on only after a round trip through the event loop.
		return m.questionDone(r)
	default:
		return m.updateForm(msg)
	}
	return nil
}

// openConfirm opens a confirmation of kind about r, its focus on the
// safe button for a decline.
func (m *model) openConfirm(r *request, kind confirmKind) {
	m.confirm.kind, m.confirm.request = kind, r.id
	m.confirm.focus = 0
	if kind == confirmDecline {
		m.confirm.focus = 1
	}
	m.focus = focusConfirm
}

// confirmed takes the action the human confirmed.
func (m *model) confirmed() tea.Cmd {
	i := m.indexOf(m.confirm.request)
	if i < 0 {
		return nil
	}
	r := m.requests[i]
	switch m.confirm.kind {
	case confirmDecline:
		return m.decline(r)
	default:
		return m.submit(r)
	}
}

// helpKeys returns the bindings of the current mode, for the help bar and
// the overlay: only keys that work now.
func (m *model) helpKeys() helpKeys {
	return m.helpKeysFor(m.mode())
}

func (m *model) helpKeysFor(mode mode) helpKeys {
	g := m.keys.Global
	switch mode {
	case modeHelp:
		b := []key.Binding{m.keys.Overlay.Close, g.Quit}
		return helpKeys{short: b, full: [][]key.Binding{b}, keep: []int{0, 1}}
	case modeConfirm:
		b := append(m.confirm.ShortHelp(), g.Quit)
		return helpKeys{short: b, full: [][]key.Binding{b}, keep: []int{0, 1}}
	case modePast:
		b := append(m.past.ShortHelp(), g.Quit)
		return helpKeys{short: b, full: append(m.past.FullHelp(), []key.Binding{g.Quit}), keep: []int{len(b) - 2, len(b) - 1}}
	case modeInbox:
		b := append(m.inbox.ShortHelp(), g.Quit)
		return helpKeys{short: b, full: append(m.inbox.FullHelp(), []key.Binding{g.Quit}), keep: []int{1, 2}}
	case modeActivity:
		b := append(m.acts.ShortHelp(), g.Quit)
		return helpKeys{short: b, full: append(m.acts.FullHelp(), []key.Binding{g.Quit}), keep: []int{len(b) - 2, len(b) - 1}}
	case modePrompt, modeTranscript, modeAgents:
		return m.runHelpKeys(mode)
	case modeNote:
		b := append(m.note.ShortHelp(), g.Quit)
		return helpKeys{short: b, full: [][]key.Binding{b}, keep: []int{0, 2}}
	}

	// The question, review and idle modes share the global keys.
	help := g.Help
	if m.typing() {
		help = relabel(help, "f1", "help")
	}
	var nav, global []key.Binding
	if m.run() {
		if len(m.requests) > 1 {
			nav = append(nav, pair(g.NextRequest, g.PrevRequest, "ctrl+n/p", "switch request"))
		}
		global = append(global, g.Inbox, g.Prompt, relabel(g.Activity, g.Activity.Help().Key, "transcript"), g.Agents, g.Past)
	} else if m.session {
		if len(m.requests) > 1 {
			nav = append(nav, pair(g.NextRequest, g.PrevRequest, "ctrl+n/p", "switch request"))
		}
		if len(m.requests) > 0 {
			global = append(global, g.Inbox)
		}
		global = append(global, g.Activity, g.Past)
	}
	global = append(global, help, g.Quit)

	var short []key.Binding
	var full [][]key.Binding
	var keep []int
	r := m.activeRequest()
	switch mode {
	case modeIdle:
		if m.session {
			short = []key.Binding{pair(m.keys.Activity.Up, m.keys.Activity.Down, "↑/↓", "scroll"), m.keys.Activity.End}
			full = [][]key.Binding{{m.keys.Activity.Up, m.keys.Activity.Down, m.keys.Activity.PageUp, m.keys.Activity.PageDown, m.keys.Activity.End}}
		}
		short = append(short, g.Quit)
	case modeReview:
		short = m.review.ShortHelp(r)
		full = m.review.FullHelp()
		keep = append(keep, 0)
	case modeQuestion:
		k := m.keys.Question
		q := r.current()
		switch {
		case q.free():
			short = []key.Binding{k.TextSubmit, k.NewLine}
			full = [][]key.Binding{{k.TextSubmit, k.NewLine}}
		case q.choice != nil:
			short = q.choice.ShortHelp()
			full = q.choice.FullHelp()
		}
		// The field's first key (Enter, toggling, typing) matters most.
		// Its second matters next when it is Enter (after toggling or
		// typing), after decline when it is only moving.
		secondIsEnter := q.choice != nil && (q.raw.MultiSelect || q.choice.Typing())
		keep = append(keep, 0)
		if secondIsEnter {
			keep = append(keep, 1)
		}
		var tabs []key.Binding
		if !r.single() {
			if q.typing() {
				tabs = []key.Binding{pair(k.NextTab, k.PrevTab, "tab/⇧tab", "questions")}
			} else {
				tabs = []key.Binding{pair(k.NextTab, k.PrevTab, "tab/⇧tab", "questions"), pair(k.NextArrow, k.PrevArrow, "←/→", "questions")}
			}
			short = append(short, tabs[0])
		}
		panelKeys := append(tabs, k.ScrollUp, k.ScrollDown, k.Raw)
		if !q.free() {
			panelKeys = append(panelKeys, k.Note)
			if !q.typing() {
				short = append(short, k.Note)
			}
		}
		if q.choice == nil || !q.choice.Filtering() { // esc clears the filter first
			keep = append(keep, len(short))
			short = append(short, k.Decline)
			panelKeys = append(panelKeys, k.Decline)
		}
		if !secondIsEnter {
			keep = append(keep, 1)
		}
		full = append(full, panelKeys)
	}
	short = append(short, nav...)
	// What stays when the bar is narrow, in this order: the mode's first
	// key, the help key, then the rest of keep, then the others.
	helpAt := len(short)
	short = append(short, help)
	if len(keep) > 0 {
		keep = append([]int{keep[0], helpAt}, keep[1:]...)
	} else {
		keep = []int{helpAt}
	}
	full = append(full, append(nav, global...))
	return helpKeys{short: short, full: full, keep: keep}
}
