package tui

import (
	"context"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/charmbracelet/x/ansi"
)

// The conversations with agents the human drives (asktui run) live here:
// starting agents, their events, prompts, turns and the view that shows
// them. Their questions are ordinary requests in the inbox.

// startTimeout bounds starting an agent (its process, initialize and the
// new session), so a silent agent is an error, never a hang. It is a
// backstop: a Launcher bounds each step itself (agent/acp gives an agent
// 2 minutes, enough for a first npx download), and this leaves it room.
const startTimeout = 5 * time.Minute

// StartSpec is an agent to start when the program starts.
type StartSpec struct {
	// Agent is the name the Launcher knows it by.
	Agent string
	// Resume is a past session to resume; empty starts a new one.
	Resume string
}

// conv returns the conversation shown, or nil.
func (m *model) conv() *chat {
	if m.activeConv < 0 || m.activeConv >= len(m.convs) {
		return nil
	}
	return m.convs[m.activeConv]
}

// convByID returns the conversation with id, adding it when new (its
// events can overtake the Start that created it).
func (m *model) convByID(id string) *chat {
	for _, c := range m.convs {
		if c.id == id {
			return c
		}
	}
	c := newConversation(id, m.spill)
	c.editor.restyle(m.styles)
	m.convs = append(m.convs, c)
	if len(m.convs) == 1 {
		m.activeConv = 0
	}
	return c
}

// applyConvEvents takes a batch of conversation events.
func (m *model) applyConvEvents(events []conversation.Event) {
	for _, e := range events {
		c := m.convByID(e.Conversation)
		wasTurn := c.turn
		c.apply(e)
		if e.Kind == conversation.EventStarted && !c.editor.ta.Focused() && c == m.conv() {
			c.editor.ta.Focus()
		}
		if wasTurn && !c.turn {
			m.log.add(entry{kind: entryInfo, agent: m.convAgentKey(c), text: "turn ended"}, m.styles)
		}
	}
}

// convAgentKey is the conversation's agent in the activity log.
func (m *model) convAgentKey(c *chat) string {
	k := "id:" + c.id
	m.log.agent(k, c.name)
	return k
}

// startAgent starts agent name (resuming session resume) through the
// launcher, in a command: starting a process is I/O.
func (m *model) startAgent(name, resume string) tea.Cmd {
	if m.launcher == nil {
		return m.setNotice("⚠ no agents can be started here")
	}
	launcher, sink := m.launcher, m.sink
	notice := m.setNotice("starting " + SanitizeLine(name) + "…")
	return tea.Batch(notice, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		conv, err := launcher.Start(ctx, name, resume, sink)
		return convStartedMsg{agent: name, conv: conv, err: err}
	})
}

// started binds a started conversation to its state, and shows it.
func (m *model) started(msg convStartedMsg) tea.Cmd {
	if msg.err != nil {
		return m.startFailed(msg.agent, msg.err)
	}
	info := msg.conv.Info()
	c := m.convByID(info.ID)
	c.conv = msg.conv
	c.setInfo(info)
	m.showConv(c)
	return c.editor.ta.Focus()
}

// showConv makes c the conversation shown, its editor focused.
func (m *model) showConv(c *chat) {
	for i, x := range m.convs {
		if x == c {
			m.activeConv = i
		}
	}
	for _, x := range m.convs {
		if x != c {
			x.editor.ta.Blur()
		}
	}
}

// followRequest shows the conversation a request belongs to, when it
// belongs to one: ctrl+n/p and the inbox move between agents too.
func (m *model) followRequest() {
	r := m.activeRequest()
	if r == nil {
		return
	}
	for _, c := range m.convs {
		if c.id == r.agentID && c != m.conv() {
			m.showConv(c)
		}
	}
}

// sendPrompt sends the editor's prompt to the conversation shown.
func (m *model) sendPrompt() tea.Cmd {
	c := m.conv()
	if c == nil || c.conv == nil || c.over {
		return m.setNotice("⚠ this agent is not running: ctrl+l starts one")
	}
	if c.turn {
		return m.setNotice("⏳ " + c.name + " is still working: wait, or esc to cancel")
	}
	text := c.editor.take()
	c.userPrompt(text)
	c.turn, c.started = true, m.now()
	c.view.scroll = 0
	conv, id, parts := c.conv, c.id, promptParts(text, c.info.Cwd)
	return tea.Batch(m.spinIfThinking(), func() tea.Msg {
		stop, err := conv.Prompt(context.Background(), parts)
		return turnDoneMsg{conv: id, stop: stop, err: err}
	})
}

// turnDone ends a turn whose Prompt returned (its events may have ended
// it already).
func (m *model) turnDone(msg turnDoneMsg) {
	m.flushConv() // the conversation's own end of the turn comes first
	c := m.convByID(msg.conv)
	if !c.turn {
		return
	}
	c.apply(conversation.Event{Conversation: msg.conv, Kind: conversation.EventTurnEnded, Stop: msg.stop, Err: msg.err})
}

// cancelTurn asks the conversation shown to stop its turn.
func (m *model) cancelTurn() tea.Cmd {
	c := m.conv()
	if c == nil || c.conv == nil || !c.turn {
		return nil
	}
	conv := c.conv
	return tea.Batch(m.setNotice("cancelling "+c.name+"'s turn…"), func() tea.Msg {
		conv.Cancel()
		return nil
	})
}

// nextMode switches the conversation shown to its next mode.
func (m *model) nextMode() tea.Cmd {
	c := m.conv()
	if c == nil || c.conv == nil || len(c.info.Modes) < 2 {
		return nil
	}
	next := c.info.Modes[0].ID
	for i, md := range c.info.Modes {
		if md.ID == c.info.Mode {
			next = c.info.Modes[(i+1)%len(c.info.Modes)].ID
		}
	}
	conv := c.conv
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := conv.SetMode(ctx, next); err != nil {
			return convErrorMsg{text: "could not switch mode: " + err.Error()}
		}
		return nil
	}
}

// promptKey handles a key in the prompt editor.
func (m *model) promptKey(msg keyMsg) tea.Cmd {
	c := m.conv()
	if c == nil {
		return nil
	}
	act, cmd := c.editor.HandleKey(msg, m.keys.Prompt, c.id, c.info.Cwd)
	switch act {
	case promptSend:
		return tea.Batch(cmd, m.sendPrompt())
	case promptCancel:
		return tea.Batch(cmd, m.cancelTurn())
	case promptMode:
		return tea.Batch(cmd, m.nextMode())
	}
	return cmd
}

// pick acts on the agent picker's choice.
func (m *model) pick(r *pickRow) tea.Cmd {
	switch r.kind {
	case pickSwitch:
		for _, c := range m.convs {
			if c.id == r.conv {
				m.showConv(c)
			}
		}
	case pickStart:
		return m.startAgent(r.agent, "")
	case pickSession:
		return m.startAgent(r.agent, r.session)
	case pickResume:
		m.picker.loading = r.agent
		launcher, agent := m.launcher, r.agent
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
			defer cancel()
			s, err := launcher.Sessions(ctx, agent)
			return sessionsMsg{agent: agent, sessions: s, err: err}
		}
	}
	return nil
}

// runBody draws the body of the conversation view: the agents (when
// several), the transcript, and below it the question panel while a
// question has the focus, else the prompt editor.
func (m *model) runBody(w, h int) string {
	st := m.styles
	mode := m.mode()
	switch mode {
	case modeAgents:
		return m.picker.View(w, h, st)
	case modePast:
		return m.past.View(w, h, st, m.log.color)
	}
	c := m.conv()
	var top []string
	if len(m.convs) > 1 {
		var tabs []string
		for i, x := range m.convs {
			name := x.name
			if x.turn {
				name += " …"
			}
			if i == m.activeConv {
				tabs = append(tabs, st.Tabs.Active.Render(name))
			} else {
				tabs = append(tabs, st.Tabs.Inactive.Render(name))
			}
		}
		top = append(top, ansi.Truncate(strings.Join(tabs, st.Tabs.Separator.Render("│")), w, "›"))
	}
	var bottom []string
	questions := mode == modeQuestion || mode == modeReview || mode == modeConfirm || mode == modeInbox
	if questions {
		f := frame{panelW: w, panelH: h}
		if len(m.requests) > 1 {
			rows := min(len(m.requests)+1, 4)
			bottom = append(bottom, fitBlock(m.inboxView(w, rows, mode == modeInbox), w, rows)...)
		}
		room := max(h*3/5-len(bottom), min(h-len(bottom)-2, 8))
		panelH := room
		if r := m.activeRequest(); r != nil {
			panelH = min(room, max(m.layoutFit(r, w, room, true).used(), 4))
		}
		f.panelH = panelH
		bottom = append(bottom, fitBlock(m.panelView(w, panelH), w, panelH)...)
	} else if c != nil {
		status := m.turnStatus(c)
		if n := len(m.requests); n > 0 {
			status = plural(questionCount(m.requests), "question waits", "questions wait") + " · ctrl+g answers · " + status
		}
		bottom = append(bottom, c.editor.View(w, status, mode == modePrompt, st)...)
	} else {
		bottom = append(bottom, st.App.Empty.Render("No agent is running: ctrl+l starts one."))
	}
	rows := max(h-len(top)-len(bottom)-1, 1)
	var mid []string
	if c != nil {
		mid = c.transcriptView(w, rows, mode == modeTranscript, st, m.md)
	}
	lines := append(top, fitBlock(strings.Join(mid, "\n"), w, rows)...)
	lines = append(lines, "")
	lines = append(lines, bottom...)
	return strings.Join(lines, "\n")
}

// turnStatus says what the conversation is doing.
func (m *model) turnStatus(c *chat) string {
	switch {
	case c.failed:
		return c.name + " did not start · ctrl+l starts an agent"
	case c.over:
		return c.name + " has ended · ctrl+l starts an agent"
	case c.conv == nil:
		return "starting " + c.name + "…"
	case c.turn:
		return m.spin.View() + " " + c.name + " is working · " + age(m.now().Sub(c.started)) + " · esc cancels"
	}
	s := "enter sends · alt+enter new line"
	if len(c.info.Modes) > 1 {
		s = "mode " + modeName(c.info, c.info.Mode) + " (⇧tab) · " + s
	}
	return s
}

// runTitle is the title bar's left part in the conversation view.
func (m *model) runTitle() (left, right string) {
	st := m.styles
	c := m.conv()
	left = st.App.Name.Render("asktui")
	if c == nil {
		return left, ""
	}
	left += " " + st.App.Agent.Render(c.name)
	if c.info.Title != "" {
		left += st.App.Bar.Render(" · " + SanitizeLine(c.info.Title))
	}
	var parts []string
	if u := c.usage; u != nil && u.Size > 0 {
		parts = append(parts, tokens(u.Used)+"/"+tokens(u.Size)+" tokens")
		if u.Cost > 0 {
			parts = append(parts, strconv.FormatFloat(u.Cost, 'f', 2, 64)+" "+SanitizeLine(u.Currency))
		}
	}
	return left, st.App.Bar.Render(strings.Join(parts, " · "))
}

// tokens formats a token count: 950, 12k, 1.2M.
func tokens(n int) string {
	switch {
	case n >= 1_000_000:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
	case n >= 10_000:
		return strconv.Itoa(n/1000) + "k"
	case n >= 1000:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + "k"
	}
	return strconv.Itoa(n)
}

// runHelpKeys are the help of the conversation modes.
func (m *model) runHelpKeys(mode mode) helpKeys {
	g := m.keys.Global
	switch mode {
	case modeTranscript:
		b := append(m.tpane.ShortHelp(), g.Quit)
		return helpKeys{short: b, full: append(m.tpane.FullHelp(), []key.Binding{g.Quit}), keep: []int{1, len(b) - 2}}
	case modeAgents:
		b := append(m.picker.ShortHelp(), g.Quit)
		return helpKeys{short: b, full: append(m.picker.FullHelp(), []key.Binding{g.Quit}), keep: []int{1, 2}}
	}
	// The prompt.
	k := m.keys.Prompt
	short := []key.Binding{k.Send}
	c := m.conv()
	if c != nil && c.editor.pop.kind != 0 {
		short = []key.Binding{k.Complete, pair(k.CompleteUp, k.CompleteDown, "↑/↓", "choose"), k.Dismiss}
	} else {
		if c != nil && c.turn {
			short = append(short, k.Cancel)
		}
		short = append(short, k.NewLine, k.Mention)
		if c != nil && len(c.info.Commands) > 0 {
			short = append(short, k.Command)
		}
		if c != nil && len(c.info.Modes) > 1 {
			short = append(short, k.Mode)
		}
	}
	global := []key.Binding{relabel(g.Activity, g.Activity.Help().Key, "transcript"), g.Agents}
	if len(m.requests) > 0 {
		global = append(global, g.Inbox)
	}
	global = append(global, g.Past, relabel(g.Help, "f1", "help"), g.Quit)
	short = append(short, global[:2]...)
	helpAt := len(short)
	short = append(short, relabel(g.Help, "f1", "help"))
	full := [][]key.Binding{
		{k.Send, k.NewLine, k.HistoryPrev, k.HistoryNext, k.Cancel, k.Mode},
		{k.Mention, k.Command, k.Complete, k.CompleteUp, k.CompleteDown, k.Dismiss},
		global,
	}
	return helpKeys{short: short, full: full, keep: []int{0, helpAt, 1}}
}
