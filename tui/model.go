package tui

import (
	"encoding/json"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
)

// dialogKind names what a confirmation decides.
type dialogKind int

const (
	dialogDecline dialogKind = iota // decline the whole request
	dialogSubmit                    // submit with unanswered questions
)

// dialog is an open confirmation. Backing out of it changes nothing.
type dialog struct {
	kind  dialogKind
	focus int // 0 = the action, 1 = go back
}

// model is the one tea.Model of asktui: it owns the waiting requests and
// every child view.
type model struct {
	keys   KeyMap
	theme  styles.Theme
	styles *styles.Styles
	help   help.Model
	now    func() time.Time

	helpCache helpCache // the help bar last drawn

	// drawn is the screen last drawn, at drawnAt (wall clock, not now);
	// while redrawing, a redrawMsg is on its way and View reuses it.
	drawn      string
	drawnAt    time.Time
	redrawing  bool
	wall       func() time.Time // time.Now; tests stop it
	frameEvery time.Duration    // bubbletea's frame: 1/FPS

	width, height int
	altScreen     bool

	requests []*request // in arrival order
	active   int        // index of the request shown

	fullHelp  bool
	notice    string
	noticeSeq int
	ticking   bool
	quitting  bool
	// focusWait is the agent whose request a focusMsg waits for; held are
	// the pressMsgs that arrived meanwhile.
	focusWait string
	held      []tea.KeyPressMsg

	// interrupted records a Ctrl+C quit; sized that a window size arrived.
	interrupted bool
	sized       bool

	// The session view: the activity log, its spinner and focus, and the
	// alerts sent when a request arrives.
	session       bool
	log           *activityLog
	spin          spinner.Model
	spinning      bool
	focusActivity bool
	alerts        Alerts
	status        string // where requests come from, for the empty panel

	// past holds the answers given in this session, newest last; showPast
	// opens them in the panel, pastCursor is the one focused.
	past       []pastAnswer
	showPast   bool
	pastCursor int
}

// pastAnswer is an answer the human gave, kept to be looked at or copied
// again (an agent's client may have given up waiting for it).
type pastAnswer struct {
	agent   string
	summary string
	json    string
	at      time.Time
}

func newModel(theme styles.Theme, isDark bool, altScreen bool, now func() time.Time) *model {
	m := &model{
		keys:       DefaultKeyMap(),
		theme:      theme,
		help:       help.New(),
		now:        now,
		wall:       time.Now,
		frameEvery: frameInterval,
		altScreen:  altScreen,
		width:      80,
		height:     24,
		log:        newActivityLog(),
		spin:       spinner.New(spinner.WithSpinner(spinner.MiniDot)),
	}
	m.setStyles(styles.For(theme, isDark))
	return m
}

func (m *model) setStyles(st *styles.Styles) {
	m.styles = st
	m.help.Styles = st.Help
	m.helpCache = helpCache{}
	m.spin.Style = st.Activity.Thinking
	m.log.restyle()
}

// Init asks the terminal for its background so the auto theme can pick
// the dark or light palette.
func (m *model) Init() tea.Cmd {
	if m.theme == styles.ThemeAuto {
		return tea.RequestBackgroundColor
	}
	return nil
}

// Update handles every message of the program. The panel's layout
// depends on more than the window (the inbox, the help, the notices), so
// after each message the form is rebuilt when the room it has changed.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(redrawMsg); ok {
		m.redrawing = false // View draws afresh
		return m, nil
	}
	_, cmd := m.update(msg)
	if r := m.activeRequest(); r != nil && r.form != nil {
		if w, h := m.formSize(r); w != r.formW || h != r.formH {
			cmd = tea.Batch(cmd, m.open(r))
		}
	}
	return m, tea.Batch(cmd, m.pace())
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
func (m *model) pace() tea.Cmd {
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

func (m *model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		// huh asks for the window size whenever a form starts; only a real
		// change rebuilds the form, or each answer would ask again, forever.
		if msg.Width == m.width && msg.Height == m.height && m.sized {
			return m, nil
		}
		m.width, m.height, m.sized = msg.Width, msg.Height, true
		return m, m.resize()
	case tea.BackgroundColorMsg:
		if m.theme == styles.ThemeAuto {
			m.setStyles(styles.For(m.theme, msg.IsDark()))
			return m, m.rebuild()
		}
		return m, nil
	case askMsg:
		return m, m.add(msg)
	case activityMsg:
		m.log.report(msg.activity, m.styles)
		return m, m.spinIfThinking()
	case spinner.TickMsg:
		if len(m.log.thinking()) == 0 {
			m.spinning = false
			return m, nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return m, cmd
	case withdrawMsg:
		return m, m.withdraw(msg)
	case tickMsg:
		if len(m.requests) == 0 {
			m.ticking = false
			return m, nil
		}
		return m, tick()
	case quitMsg:
		m.quitting = true
		return m, tea.Quit
	case clearNoticeMsg:
		if msg.seq == m.noticeSeq {
			m.notice = ""
		}
		return m, nil
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case pressMsg:
		if m.focusWait != "" {
			m.held = append(m.held, msg.key)
			return m, nil
		}
		return m, m.handleKey(msg.key)
	case focusMsg:
		return m, m.focus(msg.agentID)
	}
	// Anything else (huh's internal messages, cursor blinks) belongs to the
	// form on screen.
	return m, m.updateForm(msg)
}

// View draws the screen.
func (m *model) View() tea.View {
	var v tea.View
	if m.quitting {
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

func (m *model) activeRequest() *request {
	if m.active < 0 || m.active >= len(m.requests) {
		return nil
	}
	return m.requests[m.active]
}

// add queues a new request; the first one waiting is shown at once.
func (m *model) add(msg askMsg) tea.Cmd {
	r := newRequest(msg)
	if msg.ctx.Err() != nil {
		r.respond(askResult{err: interaction.ContextError(msg.ctx)})
		// The caller left before the request reached the screen; its
		// withdrawal follows and finds nothing, so say it here.
		m.log.add(entry{kind: entryWithdrawn, agent: r.agent, text: "withdrawn by " + r.agent + " before it was shown: " + r.summary()}, m.styles)
		if m.focusWait != "" && m.focusWait == r.agentID {
			m.focusWait, m.held = "", nil // the keys were for this request
		}
		return nil
	}
	m.requests = append(m.requests, r)
	m.log.agent(r.agent).connected = true
	m.log.agent(r.agent).thinking = false
	m.log.add(entry{kind: entryAsked, agent: r.agent, text: "asks: " + r.summary()}, m.styles)
	cmds := []tea.Cmd{m.alert(r)}
	if len(m.requests) == 1 {
		m.active = 0
		cmds = append(cmds, m.open(r))
	}
	if m.focusWait != "" && m.focusWait == r.agentID {
		cmds = append(cmds, m.focus(r.agentID))
	}
	if !m.ticking {
		m.ticking = true
		cmds = append(cmds, tick())
	}
	return tea.Batch(cmds...)
}

// withdraw removes a request whose caller left, and says so.
func (m *model) withdraw(msg withdrawMsg) tea.Cmd {
	i := m.indexOf(msg.id)
	if i < 0 {
		return nil
	}
	r := m.requests[i]
	werr := &withdrawnError{err: msg.err}
	if r.unanswered() < len(r.questions) {
		a := r.answer()
		werr.draft = &a
	}
	r.respond(askResult{err: werr})
	if interaction.CodeOf(msg.err) == interaction.CodeTimeout {
		m.log.add(entry{kind: entryWithdrawn, agent: r.agent, text: "timed out: " + r.summary()}, m.styles)
		return m.remove(i, "⏱ "+r.agent+"'s question timed out")
	}
	m.log.add(entry{kind: entryWithdrawn, agent: r.agent, text: "withdrawn by " + r.agent + ": " + r.summary()}, m.styles)
	return m.remove(i, "⊘ "+r.agent+" withdrew its question")
}

func (m *model) indexOf(id uint64) int {
	for i, r := range m.requests {
		if r.id == id {
			return i
		}
	}
	return -1
}

// remove takes request i off the screen, shows the next one and a notice.
func (m *model) remove(i int, notice string) tea.Cmd {
	wasActive := i == m.active
	m.requests = append(m.requests[:i], m.requests[i+1:]...)
	if i < m.active {
		m.active--
	}
	var cmds []tea.Cmd
	if m.active >= len(m.requests) {
		m.active = max(len(m.requests)-1, 0)
	}
	if wasActive {
		if r := m.activeRequest(); r != nil {
			cmds = append(cmds, m.open(r))
		}
	}
	cmds = append(cmds, m.setNotice(notice))
	return tea.Batch(cmds...)
}

func (m *model) setNotice(s string) tea.Cmd {
	m.notice = s
	m.noticeSeq++
	seq := m.noticeSeq
	return tea.Tick(4*time.Second, func(time.Time) tea.Msg { return clearNoticeMsg{seq: seq} })
}

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// open (re)builds the form of a request's current tab at the current size.
func (m *model) open(r *request) tea.Cmd {
	w, h := m.formSize(r)
	r.formW, r.formH = w, h
	return r.buildForm(m.styles, w, h, false)
}

// rebuild rebuilds the active form, after a theme or size change.
func (m *model) rebuild() tea.Cmd {
	if r := m.activeRequest(); r != nil {
		return m.open(r)
	}
	return nil
}

// resize rebuilds the active form at the new size. A huh group caches its
// rendered content and hands a new height down only to fields taller than
// it, so resizing a live form in place would leave a grown window with a
// stale list; the drafts live outside the form, so nothing is lost.
func (m *model) resize() tea.Cmd {
	return m.rebuild()
}

// updateForm forwards a message to the form on screen and acts on its
// state afterwards.
func (m *model) updateForm(msg tea.Msg) tea.Cmd {
	r := m.activeRequest()
	if r == nil || r.form == nil || r.dialog != nil {
		return nil
	}
	confirms := -1
	if q := r.current(); q != nil && q.choice != nil {
		confirms = q.choice.Confirms
	}
	fm, cmd := r.form.Update(msg)
	if f, ok := fm.(*huh.Form); ok {
		r.form = f
	}
	if q := r.current(); confirms >= 0 && q.choice.Confirms != confirms {
		// Confirmed: move on now. huh's NextField message in cmd would
		// arrive after keys typed meanwhile, and at the next form.
		return m.questionDone(r)
	}
	if r.form.State == huh.StateCompleted {
		return tea.Batch(cmd, m.questionDone(r))
	}
	return cmd
}

// questionDone moves on after the human confirmed a question: a one-question
// request is answered at once, otherwise the next tab opens.
func (m *model) questionDone(r *request) tea.Cmd {
	if r.single() {
		return m.submit(r)
	}
	return m.gotoTab(r, r.tab+1)
}

func (m *model) gotoTab(r *request, tab int) tea.Cmd {
	n := len(r.questions)
	if r.single() {
		return nil
	}
	tab = (tab%(n+1) + n + 1) % (n + 1)
	r.tab, r.scroll = tab, 0
	return m.open(r)
}

// submit sends the request's answer and takes it off the screen.
func (m *model) submit(r *request) tea.Cmd {
	a := r.answer()
	if !r.respond(askResult{answer: a}) {
		return m.withdraw(withdrawMsg{id: r.id, err: interaction.ContextError(r.ctx)}) // the caller left first
	}
	if b, err := json.Marshal(a); err == nil {
		m.past = append(m.past, pastAnswer{agent: r.agent, summary: r.answerSummary(a), json: string(b), at: m.now()})
	}
	m.log.add(entry{kind: entryAnswered, agent: r.agent, text: "answered: " + r.answerSummary(a)}, m.styles)
	return m.remove(m.indexOf(r.id), "✓ Answer sent to "+r.agent)
}

// decline tells the agent the human declined.
func (m *model) decline(r *request) tea.Cmd {
	if !r.respond(askResult{err: interaction.Errorf(interaction.CodeDeclined,
		"the user declined to answer; do not ask the same questions again unless the user asks you to")}) {
		return m.withdraw(withdrawMsg{id: r.id, err: interaction.ContextError(r.ctx)}) // the caller left first
	}
	m.log.add(entry{kind: entryDeclined, agent: r.agent, text: "declined: " + r.summary()}, m.styles)
	return m.remove(m.indexOf(r.id), "✗ Declined "+r.agent+"'s question")
}

func (m *model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, m.keys.Quit) {
		// A clean quit, reported as an interruption by Program.Run: a
		// tea.Interrupt would tear the program down as killed.
		m.quitting, m.interrupted = true, true
		return tea.Quit
	}
	if m.session && (m.showPast || key.Matches(msg, m.keys.Past)) {
		return m.handlePastKey(msg)
	}
	r := m.activeRequest()
	if r == nil {
		switch {
		case key.Matches(msg, m.keys.Help):
			m.fullHelp = !m.fullHelp
		case m.session:
			return m.handleActivityKey(msg)
		}
		return nil
	}
	if m.session {
		switch {
		case key.Matches(msg, m.keys.Activity):
			m.focusActivity = !m.focusActivity
			return nil
		case m.focusActivity:
			return m.handleActivityKey(msg)
		case key.Matches(msg, m.keys.NextRequest):
			return m.switchRequest(+1)
		case key.Matches(msg, m.keys.PrevRequest):
			return m.switchRequest(-1)
		}
	}
	if r.dialog != nil {
		return m.handleDialogKey(r, msg)
	}
	typing := m.typing(r)
	switch {
	case key.Matches(msg, m.keys.NextTab):
		return m.gotoTab(r, r.tab+1)
	case key.Matches(msg, m.keys.PrevTab):
		return m.gotoTab(r, r.tab-1)
	case !typing && key.Matches(msg, m.keys.NextTabArrow):
		return m.gotoTab(r, r.tab+1)
	case !typing && key.Matches(msg, m.keys.PrevTabArrow):
		return m.gotoTab(r, r.tab-1)
	case key.Matches(msg, m.keys.Decline):
		if r.choice != nil && r.choice.Filtering() {
			break // Esc clears the filter first
		}
		r.dialog = &dialog{kind: dialogDecline, focus: 1}
		return nil
	case key.Matches(msg, m.keys.ScrollUp):
		r.scroll = max(r.scroll-1, 0)
		return nil
	case key.Matches(msg, m.keys.ScrollDown):
		r.scroll++ // clamped when drawn
		return nil
	case !typing && key.Matches(msg, m.keys.Help):
		m.fullHelp = !m.fullHelp
		return nil
	case r.current() != nil && r.current().free() && key.Matches(msg, m.keys.TextSubmit):
		// Enter confirms free text here and now; huh's own Enter would
		// move on only after a round trip through the event loop.
		return m.questionDone(r)
	case r.reviewing() && key.Matches(msg, m.keys.Submit):
		if r.unanswered() > 0 {
			r.dialog = &dialog{kind: dialogSubmit, focus: 0}
			return nil
		}
		return m.submit(r)
	}
	return m.updateForm(msg)
}

// typing reports whether keys go to a text input, so letters, digits and
// arrows are text rather than commands.
func (m *model) typing(r *request) bool {
	if q := r.current(); q != nil && q.free() {
		return true
	}
	return r.choice != nil && r.choice.Typing()
}

func (m *model) handleDialogKey(r *request, msg tea.KeyPressMsg) tea.Cmd {
	d := r.dialog
	act := func() tea.Cmd {
		r.dialog = nil
		if d.kind == dialogDecline {
			return m.decline(r)
		}
		return m.submit(r)
	}
	switch {
	case key.Matches(msg, m.keys.Press):
		if d.focus == 0 {
			return act()
		}
		r.dialog = nil
	case key.Matches(msg, m.keys.Confirm):
		return act()
	case key.Matches(msg, m.keys.Back):
		r.dialog = nil
	case key.Matches(msg, m.keys.NextTab, m.keys.PrevTab, m.keys.NextTabArrow, m.keys.PrevTabArrow):
		d.focus = 1 - d.focus
	}
	return nil
}

// spinIfThinking starts the spinner when an agent thinks and it is not
// running yet.
func (m *model) spinIfThinking() tea.Cmd {
	if m.spinning || len(m.log.thinking()) == 0 {
		return nil
	}
	m.spinning = true
	return m.spin.Tick
}

// switchRequest shows the next (+1) or previous (-1) waiting request. The
// drafts stay with each request.
func (m *model) switchRequest(delta int) tea.Cmd {
	n := len(m.requests)
	if n < 2 {
		return nil
	}
	m.active = ((m.active+delta)%n + n) % n
	return m.open(m.requests[m.active])
}

// handleActivityKey scrolls the activity log.
func (m *model) handleActivityKey(msg tea.KeyPressMsg) tea.Cmd {
	page := max(m.bodyHeight()-2, 1)
	switch {
	case key.Matches(msg, m.keys.LogUp):
		m.log.scrollBy(1)
	case key.Matches(msg, m.keys.LogDown):
		m.log.scrollBy(-1)
	case key.Matches(msg, m.keys.LogPageUp):
		m.log.scrollBy(page)
	case key.Matches(msg, m.keys.LogPageDown):
		m.log.scrollBy(-page)
	case key.Matches(msg, m.keys.LogEnd):
		m.log.scroll = 0
	case key.Matches(msg, m.keys.Back):
		m.focusActivity = false
	}
	return nil
}

// alert tells the human a request arrived, in the ways switched on.
func (m *model) alert(r *request) tea.Cmd {
	if !m.session {
		return nil
	}
	var seq strings.Builder
	if m.alerts.Bell {
		seq.WriteByte(ansi.BEL)
	}
	if m.alerts.Notify {
		body := ansi.Truncate(r.summary(), 120, "…")
		title := "asktui: " + r.agent + " asks"
		seq.WriteString(ansi.Notify(title + ": " + body))                                         // OSC 9
		seq.WriteString("\x1b]777;notify;" + notifyText(title) + ";" + notifyText(body) + "\x07") // OSC 777
	}
	if seq.Len() == 0 {
		return nil
	}
	return tea.Raw(seq.String())
}

// notifyText keeps an OSC 777 field from ending early: no ';', and the
// text is already sanitized.
func notifyText(s string) string { return strings.ReplaceAll(SanitizeLine(s), ";", ",") }

// focus shows the oldest waiting request of the agent, then the keys held
// for it. Without one, it waits for the agent's next request.
func (m *model) focus(agentID string) tea.Cmd {
	for i, r := range m.requests {
		if r.agentID != agentID {
			continue
		}
		var cmds []tea.Cmd
		if i != m.active {
			m.active = i
			cmds = append(cmds, m.open(r))
		}
		m.focusWait = ""
		held := m.held
		m.held = nil
		for _, k := range held {
			cmds = append(cmds, m.handleKey(k))
		}
		return tea.Batch(cmds...)
	}
	m.focusWait = agentID
	return nil
}

// handlePastKey runs the past-answers list: move, copy the focused answer
// (its JSON, to the clipboard through OSC 52), close.
func (m *model) handlePastKey(msg tea.KeyPressMsg) tea.Cmd {
	if !m.showPast { // the Past key opens the list at the newest answer
		m.showPast = true
		m.pastCursor = max(len(m.past)-1, 0)
		return nil
	}
	switch {
	case key.Matches(msg, m.keys.Past, m.keys.Back):
		m.showPast = false
	case key.Matches(msg, m.keys.LogUp):
		m.pastCursor = max(m.pastCursor-1, 0)
	case key.Matches(msg, m.keys.LogDown):
		m.pastCursor = min(m.pastCursor+1, max(len(m.past)-1, 0))
	case key.Matches(msg, m.keys.Copy):
		if m.pastCursor < len(m.past) {
			p := m.past[m.pastCursor]
			return tea.Batch(tea.SetClipboard(p.json), m.setNotice("⧉ Copied "+p.agent+"'s answer to the clipboard"))
		}
	}
	return nil
}
