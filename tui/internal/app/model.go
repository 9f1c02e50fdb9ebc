package app

import (
	"strconv"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/internal/jsonl"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/activity"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/chat"
	"github.com/asktui/asktui/tui/internal/inboxlist"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/past"
	"github.com/asktui/asktui/tui/internal/question"
	"github.com/asktui/asktui/tui/internal/request"
	"github.com/asktui/asktui/tui/internal/rulebook"
	"github.com/asktui/asktui/tui/internal/ui"
)

// Answerer is how the model answers: the inbox handle of this view (a
// fake in tests). Answer and Decline report false when the request had
// already ended, with how it ended.
type Answerer interface {
	// Answer sends a as request id's answer.
	Answer(id uint64, a interaction.Answer) (inbox.Settlement, bool)
	// Decline declines request id for the human.
	Decline(id uint64) (inbox.Settlement, bool)
	// SaveDraft records what the human has answered so far to request
	// id (nil clears it), which a withdrawn request returns.
	SaveDraft(id uint64, a *interaction.Answer)
	// Name is this view's name, shown on other views it answers from.
	Name() string
}

// Model is the one tea.Model of asktui: it owns this view's requests and
// every child pane. Which pane has the keys is one value, m.focus; the one
// table from focus to pane (focus.go) dispatches keys and draws the help.
type Model struct {
	// Common is what the panes share with the program: the look, the
	// key table and the clock of ages and countdowns.
	*ui.Common
	kind  kind // which program this is, set at construction
	theme styles.Theme
	clock func() time.Time // the clock of key timing and alert pacing
	wall  func() time.Time // time.Now, for frame pacing; tests stop it

	answers Answerer
	// rules are the human's standing answers (Options.Rules); nil when
	// there are none to keep.
	rules rulebook.Rules

	// drawn is the screen last drawn, at drawnAt; while redrawing, a
	// redrawMsg is on its way and View reuses it.
	drawn      string
	drawnAt    time.Time
	redrawing  bool
	frameEvery time.Duration // bubbletea's frame: 1/FPS

	width, height int
	sized         bool
	altScreen     bool
	inline        bool
	remote        bool // a view over SSH: ctrl+c closes only it
	embedded      bool // a Panel in a program of someone else's: no chrome, no global keys
	away          bool // a Panel its host blurred: the field shown draws without its cursor

	requests []*request.Request // in arrival order
	active   int                // index of the request shown

	// The panes (tui/internal/ui's contract): focus names the one with the keys, and
	// focused is the one syncFocus gave them to; back is where the help
	// overlay returns to. lay is the screen as the layout pass (layout.go)
	// last laid it out.
	focus    focus
	back     focus
	focused  ui.Pane
	lay      screenLayout
	qpane    question.Pane
	inbox    inboxlist.Pane
	activity activity.Pane
	past     past.Pane
	rulebook rulebook.Pane
	overlay  overlayPane
	idle     idlePane
	bar      helpBar

	notice    string
	noticeSeq int
	announced int // the notice announcing a question in the conversation view
	ticking   bool
	quitting  bool
	// interrupted records a quit that left questions unanswered; summary
	// is the line an inline prompt leaves behind.
	interrupted bool
	summary     string

	// The session view: the activity log, its spinner, and the alerts
	// sent when a request arrives.
	log      *activity.Log
	spin     spinner.Model
	spinning bool
	alerts   Alerts
	pacing   alertPacing
	status   string // where requests come from, for the empty panel

	// The arrival hold (hold.go): the last key the human pressed and the
	// one before it (clock), whether the human chose what the keys act on
	// in this Update, and whether a prompt editor has had the keys yet.
	lastKey, prevKey time.Time
	chose            bool
	promptSeen       bool
	hold             hold
	// placed is when the human last moved (a key that changed the pane
	// with the keys, the conversation or the request shown): no question
	// opens by itself within placeGrace of it. openAt is when the timer
	// that looks again is due, so one is pending at a time.
	placed time.Time
	openAt time.Time
	// origin is where the pane with the keys was opened from (the inbox,
	// the past answers, the transcript, the agent picker): its esc
	// returns there.
	origin spot

	// The conversations with agents the human drives (asktui run).
	convs      []*chat.Chat
	activeConv int
	// left is where the human left each conversation when another was
	// shown, by its id: the request whose question was open, or 0 for
	// its prompt; a conversation never left is not in it.
	left       map[string]uint64
	launcher   conversation.Launcher
	sink       conversation.Sink
	spill      *chat.Spill // where transcripts keep what they no longer hold
	picker     chat.Picker
	startSpecs []StartSpec
	// starting is the agents being started, in order, each name once per
	// start: the screen says so for as long as they take (a notice
	// fades; Claude Code on a busy machine can take most of a minute).
	starting []string
}

// newModel builds the root model drawing in theme, for a dark background
// until the terminal reports its own (Init asks for it with ThemeAuto).
func newModel(theme styles.Theme, altScreen bool, now func() time.Time) *Model {
	keys := keys.Default()
	m := &Model{
		Common:     &ui.Common{Keys: keys, Now: now},
		theme:      theme,
		clock:      time.Now,
		wall:       time.Now,
		frameEvery: frameInterval,
		altScreen:  altScreen,
		inline:     !altScreen,
		width:      80,
		height:     24,
		log:        activity.NewLog(),
		spin:       spinner.New(spinner.WithSpinner(spinner.MiniDot)),
	}
	m.qpane = question.New(m.Common, forQuestion{m.keysFrom(focusPanel)})
	m.inbox = inboxlist.New(m.Common, forInbox{m.keysFrom(focusInbox)})
	m.activity = activity.New(m.Common, forActivity{m.keysFrom(focusActivity)}, m.log)
	m.past = past.New(m.Common, forPast{m.keysFrom(focusPast)})
	m.rulebook = rulebook.New(m.Common, forRules{m.keysFrom(focusRules)})
	m.overlay = newOverlayPane(m.Common, forOverlay{m.keysFrom(focusHelp)})
	m.idle = newIdlePane(m.Common, forIdle{m.keysFrom(focusPanel)}, &m.activity)
	m.picker = chat.NewPicker(m.Common, forAgents{m.keysFrom(focusAgents)})
	m.bar = newHelpBar(forBar{m})
	m.setStyles(styles.For(theme, true))
	return m
}

func (m *Model) setStyles(st *styles.Styles) {
	m.Styles = st
	m.bar.setStyles(st)
	m.qpane.Restyle(st)
	m.rulebook.Restyle(st)
	m.spin.Style = st.Activity.Thinking
	m.log.Restyle()
	m.Markdown = cell.NewMarkdown(st)
	for _, c := range m.convs {
		c.Restyle(st)
	}
}

// Init asks the terminal for its background so the auto theme can pick
// the dark or light palette.
func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.theme == styles.ThemeAuto {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	for _, s := range m.startSpecs {
		cmds = append(cmds, m.startAgent(s.Agent, s.Resume, false))
	}
	return tea.Batch(cmds...)
}

// Update handles every message of the program, then brings what follows
// from it up to date in one place (settle).
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(redrawMsg); ok {
		m.redrawing = false // View draws afresh
		return m, nil
	}
	if batch, ok := msg.(linkBatchMsg); ok {
		// Each message is taken as if it came alone, settle included
		// (the arrival hold sees every change of what the keys act on),
		// with one frame for all.
		cmds := make([]tea.Cmd, 0, len(batch)+1)
		for _, msg := range batch {
			cmds = append(cmds, m.take(msg))
		}
		return m, tea.Batch(append(cmds, m.pace())...)
	}
	return m, tea.Batch(m.take(msg), m.pace())
}

// take updates the model with msg and brings what follows up to date.
func (m *Model) take(msg tea.Msg) tea.Cmd {
	cmd := m.update(msg)
	switch msg.(type) {
	case tea.KeyPressMsg, pressMsg, tea.PasteMsg:
		m.saveDraft()
	}
	return tea.Batch(cmd, m.settle())
}

// settle brings what follows from a change up to date, in this order: a
// question waiting to open in the conversation view; the panel's dialog
// and note editor (closed when their request left); the field of the
// question shown (built the first time, given the keys); the pane with the
// keys (syncFocus); the layout of every pane (relayout, the one layout
// pass); and the arrival hold, which notices any change of what the keys
// act on.
func (m *Model) settle() tea.Cmd {
	cmd := m.openWaiting()
	m.qpane.Follow()
	cmd = tea.Batch(cmd, m.readyField(), m.syncFocus())
	m.relayout()
	return tea.Batch(cmd, m.observe())
}

// frameInterval is the default least time between two renders of the
// screen, bubbletea's frame. bubbletea renders after every message but
// writes to the terminal at most once a frame, so in a burst (a thousand
// requests arriving at once, a paste) every render but the last of each
// frame was thrown away.
const frameInterval = time.Second / 60

// pace decides whether the View after this message may reuse the last
// screen: when one was drawn less than a frame ago, a redraw is scheduled
// for the end of the frame instead, so the screen is never more than a
// frame behind. A message after a quiet spell, such as a key press, is
// drawn at once.
func (m *Model) pace() tea.Cmd {
	if m.redrawing {
		return nil
	}
	wait := m.frameEvery - m.wall().Sub(m.drawnAt)
	if m.drawn == "" || wait <= 0 {
		return nil
	}
	m.redrawing = true
	return tea.Tick(wait, func(time.Time) tea.Msg { return redrawMsg{} })
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return nil
	case tea.BackgroundColorMsg:
		if m.theme == styles.ThemeAuto {
			m.setStyles(styles.For(m.theme, msg.IsDark()))
		}
		return nil
	case askMsg:
		return m.add(msg.req)
	case settledMsg:
		return m.settled(msg)
	case rulebook.PlanMsg:
		return m.qpane.RulePlanned(msg)
	case rulebook.CoverMsg:
		m.qpane.RuleCovered(msg)
		return nil
	case rulebook.SavedMsg:
		return m.qpane.RuleSaved(msg)
	case rulebook.ListedMsg:
		return m.rulebook.Listed(msg)
	case activityMsg:
		m.log.Report(msg.activity, m.Styles)
		m.convActivity(msg.activity)
		return m.spinIfThinking()
	case spinner.TickMsg:
		if !m.log.AnyThinking() && !m.working() {
			m.spinning = false
			return nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return cmd
	case tickMsg:
		if len(m.requests) == 0 {
			m.ticking = false
			return nil
		}
		return tick()
	case holdMsg:
		return m.checkHold(msg)
	case openMsg:
		if msg.at.Equal(m.openAt) {
			m.openAt = time.Time{}
		}
		return nil
	case alertMsg:
		return m.flushAlerts()
	case statusMsg:
		m.status = cell.SanitizeLine(msg.text)
		return nil
	case quitMsg:
		m.quitting = true
		return tea.Quit
	case clearNoticeMsg:
		if msg.seq == m.noticeSeq {
			m.notice = ""
		}
		return nil
	case focusMsg:
		if i := m.indexOf(msg.id); i >= 0 {
			m.show(i)
			m.focus = focusPanel
		}
		return nil
	case tea.KeyPressMsg:
		m.prevKey, m.lastKey = m.lastKey, m.clock()
		return m.handleKey(msg, false)
	case pressMsg:
		if r := m.activeRequest(); msg.target != 0 && (r == nil || r.ID != msg.target) {
			return nil // aimed at a request no longer on screen
		}
		return m.handleKey(msg.key, true)
	case tea.PasteMsg:
		m.prevKey, m.lastKey = m.lastKey, m.clock()
		return m.paste(msg)
	case convBatchMsg:
		return m.convBatch(msg)
	case convStartedMsg:
		return m.started(msg)
	case turnDoneMsg:
		m.turnDone(msg)
		return nil
	case sessionsMsg:
		m.picker.ShowSessions(msg.agent, msg.sessions, msg.err)
		return nil
	case convErrorMsg:
		return m.setNotice("⚠ " + cell.SanitizeLine(msg.text))
	case chat.FilesMsg:
		for _, c := range m.convs {
			if c.ID() == msg.Conv {
				c.Prompt().SetFiles(msg.Files)
			}
		}
		return nil
	}
	// Anything else (a text cursor's blink) belongs to the field on
	// screen.
	return m.qpane.TypeAnswer(msg)
}

// View draws the screen.
func (m *Model) View() tea.View {
	var v tea.View
	if m.quitting {
		return v // tui.Program.Run prints an inline prompt's summary
	}
	if !m.sized {
		// Nothing is laid out before the terminal's size is known.
		v.AltScreen = m.altScreen
		return v
	}
	if !m.redrawing || m.drawn == "" {
		m.drawn, m.drawnAt = m.render(), m.wall()
	}
	v.SetContent(m.drawn)
	v.AltScreen = m.altScreen
	v.WindowTitle = m.windowTitle()
	return v
}

func (m *Model) activeRequest() *request.Request {
	if m.active < 0 || m.active >= len(m.requests) {
		return nil
	}
	return m.requests[m.active]
}

func (m *Model) indexOf(id uint64) int {
	for i, r := range m.requests {
		if r.ID == id {
			return i
		}
	}
	return -1
}

// add takes a request that arrived in the inbox. In the session view the
// first one waiting is shown in the panel at once (the hold keeps keys off
// it until it has been seen); in the conversation view an arrival moves
// nothing: it is announced, and opens when the human asks or, when it is
// the conversation on screen's, once its editor is empty and the keyboard
// quiet (openWaiting). See hold.go for every path.
func (m *Model) add(req *inbox.Request) tea.Cmd {
	r := request.New(req)
	m.requests = append(m.requests, r)
	k := r.AgentKey()
	m.log.Asks(k, r.Agent)
	m.log.Add(activity.Entry{Kind: activity.EntryAsked, Agent: k, Text: "asks: " + r.Summary()}, m.Styles)
	m.convAsked(r)
	cmds := []tea.Cmd{m.alert(r)}
	if len(m.requests) == 1 {
		m.active = 0
	}
	if m.kind == kindRun {
		cmds = append(cmds, m.setNotice("⚑ "+r.Agent+" asks: "+r.Summary()+" · "+m.Keys.Global.Inbox.Help().Key+" opens"))
		m.announced = m.noticeSeq
	}
	if !m.ticking {
		m.ticking = true
		cmds = append(cmds, tick())
	}
	return tea.Batch(cmds...)
}

// openWaiting opens a new arrival in the conversation view (path 3 in
// hold.go): a request of the conversation on screen that has never been
// shown, while its prompt editor has the keys, is empty, the keyboard has
// been quiet for holdQuiet and the human has not moved for placeGrace.
// It does not take the keys from text being written, never switches
// conversations, and never brings back a question the human left. The
// hold then keeps keys off it until it has been seen; a timer comes back
// when the wait is over.
func (m *Model) openWaiting() tea.Cmd {
	if m.kind != kindRun || len(m.requests) == 0 {
		return nil
	}
	if m.focus == focusPanel && m.activeRequest() == nil {
		m.focus = focusPrompt // nothing to show: the editor has the keys
	}
	c := m.conv()
	if m.focus != focusPrompt || c == nil || c.Prompt().Value() != "" {
		return nil
	}
	i := m.unseenOf(c.ID())
	if i < 0 {
		return nil
	}
	now := m.clock()
	if wait := max(holdQuiet-now.Sub(m.lastKey), placeGrace-now.Sub(m.placed)); wait > 0 {
		at := now.Add(wait)
		if m.openAt.After(now) && !m.openAt.Before(at) {
			return nil // a timer is due by then
		}
		m.openAt = at
		return tea.Tick(wait, func(time.Time) tea.Msg { return openMsg{at: at} })
	}
	m.active = i
	m.focus = focusPanel
	if m.noticeSeq == m.announced {
		m.notice = "" // the announcement's "opens" is done
	}
	return nil
}

// unseenOf returns the index of the first request of conversation id
// that has never been shown, or -1.
func (m *Model) unseenOf(id string) int {
	for i, r := range m.requests {
		if !r.Seen && r.AgentID == id {
			return i
		}
	}
	return -1
}

// nextUnseen returns the index of the first request never shown from
// index i on (wrapping), or -1.
func (m *Model) nextUnseen(i int) int {
	n := len(m.requests)
	for k := range n {
		if j := (i + k) % n; !m.requests[j].Seen {
			return j
		}
	}
	return -1
}

// resize takes the screen's size; the layout pass then fits every pane
// to it.
func (m *Model) resize(width, height int) {
	if !m.sized || width != m.width || height != m.height {
		// The screen drawn for the old size is not reused: the next View
		// draws at once (the first frame waits for the size).
		m.drawn = ""
	}
	m.width, m.height, m.sized = width, height, true
}

// settled takes a request that ended elsewhere off this view: answered or
// declined on another view, withdrawn by its caller, timed out, or the
// inbox closed. A request this view answered is already gone.
func (m *Model) settled(msg settledMsg) tea.Cmd {
	i := m.indexOf(msg.id)
	if i < 0 {
		return nil
	}
	return m.ended(m.requests[i], msg.s)
}

// ended takes r off the screen after it ended as s, and says how.
func (m *Model) ended(r *request.Request, s inbox.Settlement) tea.Cmd {
	k := r.AgentKey()
	m.convSettled(r, s, false)
	var notice string
	switch code := interaction.CodeOf(s.Err); {
	case s.Err == nil:
		notice = "✓ " + r.Agent + "'s question was answered from " + cell.DisplayLine(s.By)
		m.log.Add(activity.Entry{Kind: activity.EntryAnswered, Agent: k, Text: "answered from " + cell.DisplayLine(s.By) + ": " + r.AnswerSummary(s.Answer)}, m.Styles)
	case code == interaction.CodeDeclined:
		notice = "✗ " + r.Agent + "'s question was declined from " + cell.DisplayLine(s.By)
		m.log.Add(activity.Entry{Kind: activity.EntryDeclined, Agent: k, Text: "declined from " + cell.DisplayLine(s.By) + ": " + r.Summary()}, m.Styles)
	case code == interaction.CodeTimeout:
		notice = "⏱ " + r.Agent + "'s question timed out"
		m.log.Add(activity.Entry{Kind: activity.EntryWithdrawn, Agent: k, Text: "timed out: " + r.Summary()}, m.Styles)
	case code == interaction.CodeSettledElsewhere:
		notice = "✓ " + r.Agent + "'s question was answered in its own terminal"
		m.log.Add(activity.Entry{Kind: activity.EntryWithdrawn, Agent: k, Text: "answered elsewhere: " + r.Summary()}, m.Styles)
	case code == interaction.CodeProviderClosed:
		notice = "⊘ the inbox closed"
		m.log.Add(activity.Entry{Kind: activity.EntryWithdrawn, Agent: k, Text: "closed: " + r.Summary()}, m.Styles)
	default:
		notice = "⊘ " + r.Agent + " withdrew its question"
		m.log.Add(activity.Entry{Kind: activity.EntryWithdrawn, Agent: k, Text: "withdrew: " + r.Summary()}, m.Styles)
	}
	return m.remove(m.indexOf(r.ID), notice)
}

// remove takes request i off the screen and shows a notice. When it was
// the one shown, the next one takes its place; the hold (observe) keeps
// keys off it until it has been seen.
func (m *Model) remove(i int, notice string) tea.Cmd {
	if i < 0 {
		return nil
	}
	r := m.requests[i]
	wasActive := i == m.active
	m.requests = append(m.requests[:i], m.requests[i+1:]...)
	m.log.Answered(r.AgentKey())
	if i < m.active {
		m.active--
	}
	if m.active >= len(m.requests) {
		m.active = max(len(m.requests)-1, 0)
	}
	if wasActive {
		m.replace(i)
	}
	if m.focus == focusInbox && len(m.requests) == 0 {
		m.focus = m.homeFocus()
	}
	return m.setNotice(notice)
}

// replace decides what takes the place of the request shown, which has
// just ended at index i (path 4 in hold.go): the next request never
// shown (in the conversation view, of the conversation on screen);
// failing that, where the panel had the keys, the inbox list (session
// view), where no key answers, or the prompt editor (conversation view).
// A request the human has seen and left is not brought back.
func (m *Model) replace(i int) {
	if len(m.requests) == 0 {
		return
	}
	j := -1
	switch m.kind {
	case kindRun:
		if c := m.conv(); c != nil {
			j = m.unseenOf(c.ID())
		}
	case kindSession:
		j = m.nextUnseen(i % len(m.requests))
	default: // kindOneShot: its one request ends the program
	}
	if j >= 0 {
		m.active = j
		return
	}
	if m.focus != focusPanel {
		return
	}
	switch m.kind {
	case kindRun:
		m.focus = focusPrompt
	case kindSession:
		m.focus = focusInbox
		m.inbox.SetCursor(m.active)
		m.origin = spot{focus: focusPanel}
	default:
	}
}

// show makes request i the one on screen, as the human chose it: the hold
// does not apply.
func (m *Model) show(i int) {
	m.active = i
	m.chose = true
	m.followRequest()
}

func (m *Model) setNotice(s string) tea.Cmd {
	m.notice = s
	m.noticeSeq++
	seq := m.noticeSeq
	return tea.Tick(4*time.Second, func(time.Time) tea.Msg { return clearNoticeMsg{seq: seq} })
}

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// readyField readies the field of the question shown (the panel's, see
// question.Pane.ReadyField): the keys go to it unless the host of a Panel
// took them.
func (m *Model) readyField() tea.Cmd { return m.qpane.ReadyField(m.away) }

// submitWith sends answer a to r and takes it off the screen, with
// notice.
func (m *Model) submitWith(r *request.Request, a interaction.Answer, notice string) tea.Cmd {
	s, ok := m.answers.Answer(r.ID, a)
	if !ok {
		return m.ended(r, s) // it ended first: say how
	}
	k := r.AgentKey()
	if b, err := jsonl.Marshal(a); err == nil {
		m.past.Add(past.Answer{Agent: r.Agent, AgentKey: k, Question: r.Summary(), Summary: r.AnswerSummary(a), JSON: string(b), At: m.Now()})
	}
	m.log.Add(activity.Entry{Kind: activity.EntryAnswered, Agent: k, Text: "answered: " + r.AnswerSummary(a)}, m.Styles)
	m.convSettled(r, inbox.Settlement{Answer: a}, true)
	m.summary = m.Styles.Activity.Answered.Render("✓ ") + ansi.Truncate(r.AnswerSummary(a), max(m.width-3, 10), "…")
	cmd := m.remove(m.indexOf(r.ID), notice)
	m.answeredLast()
	return cmd
}

// answeredLast: the human answered or declined the last question
// waiting, and the keys go back to the prompt editor of the conversation
// view. That is his own doing, not a change the program made under his
// keys, so the hold does not apply; the next request taking the panel's
// place would be.
func (m *Model) answeredLast() {
	if len(m.requests) == 0 {
		m.chose = true
	}
}

// declineWith declines r and takes it off the screen, with notice.
func (m *Model) declineWith(r *request.Request, notice string) tea.Cmd {
	s, ok := m.answers.Decline(r.ID)
	if !ok {
		return m.ended(r, s)
	}
	m.log.Add(activity.Entry{Kind: activity.EntryDeclined, Agent: r.AgentKey(), Text: "declined: " + r.Summary()}, m.Styles)
	m.convSettled(r, s, true)
	m.summary = m.Styles.Activity.Failed.Render("✗ declined: ") + ansi.Truncate(r.Summary(), max(m.width-14, 10), "…")
	cmd := m.remove(m.indexOf(r.ID), notice)
	m.answeredLast()
	return cmd
}

// saveDraft hands the shown request's draft to the inbox when it changed,
// so a withdrawal (or another view's answer) keeps what was typed here.
func (m *Model) saveDraft() {
	r := m.activeRequest()
	if r == nil {
		return
	}
	d := r.Draft()
	if r.DraftChanged(d) {
		r.Saved = d
		m.answers.SaveDraft(r.ID, d)
	}
}

// spinIfThinking starts the spinner when an agent thinks and it is not
// running yet.
func (m *Model) spinIfThinking() tea.Cmd {
	if m.spinning || !m.log.AnyThinking() && !m.working() {
		return nil
	}
	m.spinning = true
	return m.spin.Tick
}

// working reports whether an agent of a conversation is in a turn.
func (m *Model) working() bool {
	for _, c := range m.convs {
		if c.Working() {
			return true
		}
	}
	return false
}

// switchRequest shows the next (+1) or previous (-1) waiting request, and
// gives the panel the keys. The drafts stay with each request.
func (m *Model) switchRequest(delta int) tea.Cmd {
	n := len(m.requests)
	if n < 2 {
		return nil
	}
	m.show(((m.active+delta)%n + n) % n)
	m.focus = focusPanel
	return nil
}

func (m *Model) windowTitle() string {
	n := len(m.requests)
	if n == 0 || (m.kind.many() && !m.alerts.Title) {
		return "asktui"
	}
	return "asktui (" + strconv.Itoa(request.QuestionCount(m.requests)) + " waiting)"
}
