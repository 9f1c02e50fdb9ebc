package app

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/tui/internal/activity"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/chat"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/request"
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
func (m *Model) conv() *chat.Chat {
	if m.activeConv < 0 || m.activeConv >= len(m.convs) {
		return nil
	}
	return m.convs[m.activeConv]
}

// convByID returns the conversation with id, adding it when new (its
// events can overtake the Start that created it).
func (m *Model) convByID(id string) *chat.Chat {
	for _, c := range m.convs {
		if c.ID() == id {
			return c
		}
	}
	c := chat.New(id, m.spill, m.Common, forPrompt{m.keysFrom(focusPrompt)}, forTranscript{m.keysFrom(focusTranscript)})
	c.Restyle(m.Styles)
	m.convs = append(m.convs, c)
	if len(m.convs) == 1 {
		m.activeConv = 0
	}
	return c
}

// applyConvEvents takes a batch of conversation events.
func (m *Model) applyConvEvents(events []conversation.Event) {
	for _, e := range events {
		c := m.convByID(e.Conversation)
		wasTurn := c.Working()
		c.Apply(e)
		if wasTurn && !c.Working() {
			m.log.Add(activity.Entry{Kind: activity.EntryInfo, Agent: m.convAgentKey(c), Text: "turn ended"}, m.Styles)
		}
	}
}

// convOf is the conversation whose agent is id, or nil: that agent's
// questions and the activity shown for it belong in its transcript.
// Only a conversation already known has them: a question never starts a
// conversation of its own.
func (m *Model) convOf(id string) *chat.Chat {
	if strings.TrimSpace(id) == "" {
		return nil
	}
	for _, c := range m.convs {
		if !c.Failed() && (c.ID() == id || c.Info().Agent.ID == id) {
			return c
		}
	}
	return nil
}

// convAsked puts request r in its conversation's transcript, when its
// agent is a conversation's: after what the agent sent before asking,
// which may still wait in the link, so that a permission comes below the
// tool call it is about.
func (m *Model) convAsked(r *request.Request) {
	if c := m.convOf(r.AgentID); c != nil {
		m.flushConv()
		c.Asked(r)
	}
}

// convSettled records in its conversation's transcript what became of
// request r: settled as s, here when this view answered or declined it.
func (m *Model) convSettled(r *request.Request, s inbox.Settlement, here bool) {
	if c := m.convOf(r.AgentID); c != nil {
		c.AskEnded(r, s, here)
	}
}

// convActivity shows a conversation's agent's activity in its
// transcript: the rules' answers to its permissions ("allowed by rule 3:
// Bash(go test:*)"), and why the rules were not used. The activity pane,
// where the session view shows them, is not on the conversation view's
// screen.
func (m *Model) convActivity(a interaction.Activity) {
	if a.Kind != interaction.ActivityMessage || strings.TrimSpace(a.Text) == "" {
		return
	}
	if c := m.convOf(a.Agent.ID); c != nil {
		m.flushConv()
		c.Note(cell.Sanitize(a.Text))
	}
}

// convAgentKey is the conversation's agent in the activity log.
func (m *Model) convAgentKey(c *chat.Chat) string {
	k := "id:" + c.ID()
	m.log.Know(k, c.Name())
	return k
}

// startAgent starts agent name (resuming session resume) through the
// launcher, in a command: starting a process is I/O.
func (m *Model) startAgent(name, resume string, chosen bool) tea.Cmd {
	if m.launcher == nil {
		return m.setNotice("⚠ no agents can be started here")
	}
	launcher, sink, asked := m.launcher, m.sink, m.clock()
	m.starting = append(m.starting, name)
	notice := m.setNotice(startingNotice(name))
	return tea.Batch(notice, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		conv, err := launcher.Start(ctx, name, resume, sink)
		return convStartedMsg{agent: name, chosen: chosen, asked: asked, conv: conv, err: err}
	})
}

// startingNotice is the notice while agent name starts.
func startingNotice(name string) string {
	return "starting " + cell.SanitizeLine(name) + "…"
}

// started binds a started conversation to its state. It is shown when it
// is the only one, or when the human started it and has not moved since
// (path 5 in hold.go); otherwise it is announced: an agent starting never
// takes the screen (and the keys) from where the human went.
func (m *Model) started(msg convStartedMsg) tea.Cmd {
	if i := slices.Index(m.starting, msg.agent); i >= 0 {
		m.starting = slices.Delete(m.starting, i, i+1)
	}
	if msg.err != nil {
		return m.startFailed(msg.agent, msg.err)
	}
	if m.notice == startingNotice(msg.agent) {
		m.notice = "" // the conversation's status line takes over
	}
	c := m.convByID(msg.conv.Info().ID)
	c.Started(msg.conv)
	switch {
	case len(m.convs) == 1:
		m.showConv(c)
	case !msg.chosen || c == m.conv():
		return nil
	case m.placed.After(msg.asked):
		return m.setNotice(c.Name() + " is ready · " + m.Keys.Global.Agents.Help().Key + " switches to it")
	default:
		m.leave()
		m.showConv(c)
		m.focus = focusPrompt // held: the program moved the screen
	}
	return nil
}

// showConv makes c the conversation shown; syncFocus gives its editor
// the keys when the prompt has them.
func (m *Model) showConv(c *chat.Chat) {
	for i, x := range m.convs {
		if x == c {
			m.activeConv = i
		}
	}
}

// leave notes where the human leaves the conversation shown, for
// switching back (enter): its question, when one of its requests is
// open, else its prompt.
func (m *Model) leave() {
	c := m.conv()
	if c == nil {
		return
	}
	on := uint64(0)
	switch m.mode() {
	case modeQuestion, modeReview, modeConfirm, modeNote, modeRemember:
		if r := m.activeRequest(); r.AgentID == c.ID() {
			on = r.ID
		}
	default: // the prompt, the transcript or a pane: back to the prompt
	}
	if m.left == nil {
		m.left = map[string]uint64{}
	}
	m.left[c.ID()] = on
}

// enter shows conversation c because the human switched to it: where the
// human left it (its question, when that still waits, or its prompt); a
// conversation never left shows its question waiting, if any. A question
// shown so is held until seen, since the human chose the agent, not the
// question; the prompt is the human's choice.
func (m *Model) enter(c *chat.Chat) {
	m.showConv(c)
	i := -1
	switch on, left := m.left[c.ID()]; {
	case left && on != 0:
		i = m.indexOf(on)
	case !left:
		if i = m.unseenOf(c.ID()); i < 0 {
			for j, r := range m.requests {
				if r.AgentID == c.ID() {
					i = j
					break
				}
			}
		}
	}
	if i < 0 {
		m.toPrompt()
		return
	}
	m.active = i
	m.focus = focusPanel
	m.chose = false
}

// followRequest shows the conversation a request belongs to, when it
// belongs to one: ctrl+n/p and the inbox move between agents too, as the
// human chose.
func (m *Model) followRequest() {
	r := m.activeRequest()
	if r == nil {
		return
	}
	for _, c := range m.convs {
		if c.ID() == r.AgentID && c != m.conv() {
			delete(m.left, c.ID()) // the human came back by its question
			m.showConv(c)
		}
	}
}

// sendPrompt sends the editor's prompt to the conversation shown.
func (m *Model) sendPrompt() tea.Cmd {
	c := m.conv()
	if c == nil || c.Conv() == nil || c.Over() {
		return m.setNotice("⚠ this agent is not running: " + keys.Name(m.Keys.Global.Agents) + " starts one")
	}
	if c.Working() {
		return m.setNotice("⏳ " + c.Name() + " is still working: wait, or " + keys.Name(m.Keys.Prompt.Cancel) + " to cancel")
	}
	parts := c.TakePrompt()
	c.BeginTurn(m.Now())
	conv, id := c.Conv(), c.ID()
	return tea.Batch(m.spinIfThinking(), func() tea.Msg {
		stop, err := conv.Prompt(context.Background(), parts)
		return turnDoneMsg{conv: id, stop: stop, err: err}
	})
}

// turnDone ends a turn whose Prompt returned (its events may have ended
// it already).
func (m *Model) turnDone(msg turnDoneMsg) {
	m.flushConv() // the conversation's own end of the turn comes first
	c := m.convByID(msg.conv)
	if !c.Working() {
		return
	}
	c.Apply(conversation.Event{Conversation: msg.conv, Kind: conversation.EventTurnEnded, Stop: msg.stop, Err: msg.err})
}

// cancelTurn asks the conversation shown to stop its turn.
func (m *Model) cancelTurn() tea.Cmd {
	c := m.conv()
	if c == nil || c.Conv() == nil || !c.Working() {
		return nil
	}
	conv := c.Conv()
	return tea.Batch(m.setNotice("cancelling "+c.Name()+"'s turn…"), func() tea.Msg {
		conv.Cancel()
		return nil
	})
}

// nextMode switches the conversation shown to its next mode.
func (m *Model) nextMode() tea.Cmd {
	c := m.conv()
	if c == nil || c.Conv() == nil || len(c.Info().Modes) < 2 {
		return nil
	}
	info := c.Info()
	next := info.Modes[0].ID
	for i, md := range info.Modes {
		if md.ID == info.Mode {
			next = info.Modes[(i+1)%len(info.Modes)].ID
		}
	}
	conv := c.Conv()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := conv.SetMode(ctx, next); err != nil {
			return convErrorMsg{text: "could not switch mode: " + err.Error()}
		}
		return nil
	}
}

// pick acts on the agent picker's choice.
func (m *Model) pick(r *chat.Row) tea.Cmd {
	switch r.Kind {
	case chat.RowSwitch:
		for _, c := range m.convs {
			if c.ID() == r.Conv {
				m.enter(c)
			}
		}
	case chat.RowStart:
		return m.startAgent(r.Agent, "", true)
	case chat.RowSession:
		return m.startAgent(r.Agent, r.Session, true)
	case chat.RowResume:
		m.picker.SetLoading(r.Agent)
		launcher, agent := m.launcher, r.Agent
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
			defer cancel()
			s, err := launcher.Sessions(ctx, agent)
			return sessionsMsg{agent: agent, sessions: s, err: err}
		}
	}
	return nil
}

// convNames are the conversations' names as their tabs show them: two
// agents of the same name (the same agent started twice) are told apart
// by a number, "gemini", "gemini 2".
func convNames(convs []*chat.Chat) []string {
	names := make([]string, len(convs))
	seen := map[string]int{}
	for i, c := range convs {
		seen[c.Name()]++
		names[i] = c.Name()
		if n := seen[c.Name()]; n > 1 {
			names[i] += " " + strconv.Itoa(n)
		}
	}
	return names
}

// runBody composes the conversation view's body as laid out: the agents
// (when several), the transcript, and below it the question panel while
// a question has the keys, else the prompt editor.
func (m *Model) runBody() string {
	st := m.Styles
	l := m.lay.run
	w := m.lay.width
	switch m.mode() {
	case modeAgents:
		return m.picker.View()
	case modePast:
		return m.past.View()
	case modeRules:
		return m.rulebook.View()
	default: // the transcript, below
	}
	c := m.conv()
	var top []string
	if l.tabs {
		var tabs []string
		names := convNames(m.convs)
		for i, x := range m.convs {
			name := names[i]
			if x.Working() {
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
	switch {
	case l.questions:
		if l.inboxRows > 0 {
			bottom = append(bottom, cell.FitBlock(m.inbox.View(), w, l.inboxRows)...)
		}
		bottom = append(bottom, cell.FitBlock(m.qpane.View(), w, l.panelH)...)
	case c != nil:
		bottom = append(bottom, strings.Split(c.Prompt().View(), "\n")...)
	case len(m.starting) > 0:
		names := make([]string, len(m.starting))
		for i, n := range m.starting {
			names[i] = cell.SanitizeLine(n)
		}
		bottom = append(bottom, st.App.Empty.Render(ansi.Truncate("Starting "+strings.Join(names, ", ")+"…", w, "…")))
	default:
		bottom = append(bottom, st.App.Empty.Render("No agent is running: "+keys.Name(m.Keys.Global.Agents)+" starts one."))
	}
	mid := ""
	if c != nil {
		mid = c.Transcript().View()
	}
	lines := append(top, cell.FitBlock(mid, w, l.midRows)...)
	lines = append(lines, "")
	lines = append(lines, bottom...)
	return strings.Join(lines, "\n")
}

// runTitle is the title bar's left part in the conversation view.
func (m *Model) runTitle() (left, right string) {
	st := m.Styles
	c := m.conv()
	left = st.App.Name.Render("asktui")
	if c == nil {
		return left, ""
	}
	left += " " + st.App.Agent.Render(c.Name())
	if title := c.Info().Title; title != "" {
		left += st.App.Bar.Render(" · " + cell.SanitizeLine(title))
	}
	var parts []string
	if u := c.Usage(); u != nil && u.Size > 0 {
		parts = append(parts, tokens(u.Used)+"/"+tokens(u.Size)+" tokens")
		if u.Cost > 0 {
			parts = append(parts, strconv.FormatFloat(u.Cost, 'f', 2, 64)+" "+cell.SanitizeLine(u.Currency))
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

// startFailed shows an agent that could not start as a conversation of
// its own that has ended, its transcript saying why (with what the agent
// said on its standard error, when it said something): the reason stays
// on screen, where a status line would have cut and then dropped it.
func (m *Model) startFailed(agent string, err error) tea.Cmd {
	n := 1
	for _, x := range m.convs {
		if x.Failed() {
			n++
		}
	}
	c := m.convByID("failed:" + strconv.Itoa(n))
	c.StartFailed(agent, err)
	m.showConv(c)
	return nil
}

// convBatch takes the link's conversation events, at most once a frame:
// until then they wait, coalescing, and the link slows the agents down
// (link.Pace) rather than queueing without end.
func (m *Model) convBatch(msg convBatchMsg) tea.Cmd {
	l := msg.link
	if wait := m.frameEvery - m.wall().Sub(l.takenAt); !l.takenAt.IsZero() && wait > 0 {
		return tea.Tick(wait, func(time.Time) tea.Msg { return msg })
	}
	l.takenAt = m.wall()
	m.takeEvents(l.takeConv())
	return m.spinIfThinking()
}

// takeEvents applies conversation events and spilled text read back,
// then holds every transcript to its budget.
func (m *Model) takeEvents(events []conversation.Event, loads []chat.Load) {
	m.applyConvEvents(events)
	for _, l := range loads {
		for _, c := range m.convs {
			c.ApplyLoad(l) // the chat it is of takes it
		}
	}
	for _, c := range m.convs {
		c.EnforceBudget()
	}
}

// flushConv applies the events waiting in the link at once: a turn's
// end, say, before the return of its Prompt.
func (m *Model) flushConv() {
	if l, ok := m.sink.(*Link); ok {
		m.takeEvents(l.takeConv())
	}
}
