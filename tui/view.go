package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Fixed rows of the screen: the title bar and the gap under it, and the
// status line above the help bar.
const (
	chromeTop    = 2
	statusHeight = 1
	minFormRows  = 5
)

// panel is the vertical layout of a request's panel, computed once per
// frame and shared by View and by the form's sizing.
type panel struct {
	width     int      // content width
	height    int      // rows for the panel (between chrome and status)
	tabs      bool     // a tab row (and a gap) is shown
	header    bool     // a header chip row is shown
	text      []string // the question text, wrapped
	textRows  int      // rows of question text shown
	moreText  bool     // a "more text" hint row is shown
	formRows  int      // rows left for the form
	fixedRows int
}

func (m *model) contentWidth() int { return max(m.width-2, 1) }

// helpView is the help bar. Layout asks for it several times per frame
// (its height sizes the body), so the last one drawn is kept and reused
// while the bindings, the width and the styles stay the same.
func (m *model) helpView() string {
	k := m.helpKeys()
	key := m.helpCacheKey(k)
	if m.helpCache.ok && m.helpCache.key == key {
		return m.helpCache.view
	}
	m.help.SetWidth(m.contentWidth())
	var v string
	if m.fullHelp {
		v = m.fullHelpView(k.full)
	} else {
		v = m.help.ShortHelpView(m.fitHelp(k))
	}
	m.helpCache = helpCache{key: key, view: v, ok: true}
	return v
}

// helpCache is the help bar last drawn and what it was drawn from.
type helpCache struct {
	key  string
	view string
	ok   bool
}

// helpCacheKey names everything the help bar depends on but the styles,
// whose change clears the cache: the width, the mode and each binding's
// help text and state.
func (m *model) helpCacheKey(k helpKeys) string {
	var b strings.Builder
	b.Grow(256)
	fmt.Fprintf(&b, "%d|%t|%v|", m.contentWidth(), m.fullHelp, k.keep)
	add := func(bs []key.Binding) {
		for _, kb := range bs {
			h := kb.Help()
			b.WriteString(h.Key)
			b.WriteByte(0)
			b.WriteString(h.Desc)
			if kb.Enabled() {
				b.WriteByte(1)
			}
			b.WriteByte(2)
		}
	}
	add(k.short)
	if m.fullHelp {
		for _, g := range k.full {
			b.WriteByte(3)
			add(g)
		}
	}
	return b.String()
}

// fullHelpView shows every binding: in its groups when they fit side by
// side, else refolded into as many columns as fit, so no key is cut off on
// a narrow screen.
func (m *model) fullHelpView(groups [][]key.Binding) string {
	width := m.contentWidth()
	h := m.help
	h.SetWidth(0) // measure without truncation
	if v := h.FullHelpView(groups); lipgloss.Width(v) <= width {
		return v
	}
	var flat []key.Binding
	for _, g := range groups {
		flat = append(flat, g...)
	}
	var v string
	for cols := len(groups) - 1; cols >= 1; cols-- {
		per := (len(flat) + cols - 1) / cols
		var folded [][]key.Binding
		for i := 0; i < len(flat); i += per {
			folded = append(folded, flat[i:min(i+per, len(flat))])
		}
		if v = h.FullHelpView(folded); lipgloss.Width(v) <= width {
			return v
		}
	}
	return m.help.FullHelpView([][]key.Binding{flat})
}

// fitHelp drops the short help's least important bindings until the rest
// fits on one row, keeping their order; the bindings in keep go first.
func (m *model) fitHelp(k helpKeys) []key.Binding {
	const sep = 3 // " • "
	width := m.contentWidth()
	on := make([]bool, len(k.short))
	used := 0
	take := func(i int) {
		w := lipgloss.Width(m.help.ShortHelpView(k.short[i : i+1]))
		if !on[i] && used+w+sep <= width+sep {
			on[i] = true
			used += w + sep
		}
	}
	for _, i := range k.keep {
		take(i)
	}
	for i := range k.short {
		take(i)
	}
	out := make([]key.Binding, 0, len(k.short))
	for i, b := range k.short {
		if on[i] {
			out = append(out, b)
		}
	}
	return out
}

// layout computes the panel for request r at the current size.
func (m *model) layout(r *request) panel {
	f := m.frame()
	p := panel{width: f.panelW, height: f.panelH}
	if m.session {
		p.fixedRows++ // "<agent> asks" row
	}
	q := r.current()
	if !r.single() {
		p.tabs = true
		p.fixedRows += 2
	}
	if q == nil {
		return p
	}
	if r.single() && q.header != "" {
		p.header = true
		p.fixedRows++
	}
	p.fixedRows += 2 // the hint row and the gap above the form
	p.text = q.wrapped(p.width, m.styles)
	avail := p.height - p.fixedRows
	p.textRows = min(len(p.text), max(avail-minFormRows, 1))
	if p.textRows < len(p.text) {
		p.moreText = true
		p.textRows = max(p.textRows-1, 1)
	}
	if p.moreText {
		p.fixedRows++
	}
	p.formRows = max(p.height-p.fixedRows-p.textRows, 1)
	return p
}

// formSize is the size the active form is given.
func (m *model) formSize(r *request) (int, int) {
	p := m.layout(r)
	return p.width, p.formRows
}

// bodyHeight is the rows between the title bar and the status line.
func (m *model) bodyHeight() int {
	return max(m.height-chromeTop-statusHeight-lineCount(m.helpView()), 1)
}

// frame is the geometry of the screen's body: where the question panel,
// the inbox and the activity pane go.
type frame struct {
	wide           bool // session columns side by side
	panelW, panelH int  // the question panel
	sideW          int  // the left column (wide session)
	inboxRows      int  // rows of the inbox list (0 = hidden)
	activityRows   int  // rows of the activity pane (narrow session)
}

// wideFrom is the width from which the session shows its panes side by
// side.
const wideFrom = 110

func (m *model) frame() frame {
	w, h := m.contentWidth(), m.bodyHeight()
	f := frame{panelW: w, panelH: h}
	if !m.session {
		return f
	}
	waiting := len(m.requests)
	if m.width >= wideFrom {
		f.wide = true
		f.sideW = max(w*2/5, 36)
		f.panelW = max(w-f.sideW-3, 20) // " │ "
		if waiting > 0 {
			f.inboxRows = min(waiting, max(h/3, 1))
		}
		return f
	}
	if waiting > 1 {
		f.inboxRows = min(waiting, 3)
	}
	used := 0
	if f.inboxRows > 0 {
		used += f.inboxRows + 2 // title and gap
	}
	if waiting > 0 && h-used >= 18 {
		f.activityRows = min((h-used)/4, 8)
		used += f.activityRows + 2
	}
	f.panelH = max(h-used, 1)
	return f
}

func (m *model) render() string {
	st := m.styles
	w := m.contentWidth()
	help := m.helpView()
	status := ""
	if m.notice != "" {
		status = st.App.Notice.Render(ansi.Truncate(m.notice, w, "…"))
	}
	bodyHeight := m.bodyHeight()
	var body string
	if m.session {
		body = m.sessionView()
	} else {
		body = m.panelView(w, bodyHeight)
	}

	lines := make([]string, 0, m.height)
	lines = append(lines, fitLine(m.titleBar(), w), fitLine("", w))
	lines = append(lines, fitBlock(body, w, bodyHeight)...)
	lines = append(lines, fitLine(status, w))
	lines = append(lines, fitBlock(help, w, lineCount(help))...)
	lines = lines[:min(len(lines), max(m.height, 1))]
	for i, l := range lines {
		l = " " + l + " " // one column of margin on each side
		if m.width < 3 {
			l = fitLine(l, max(m.width, 0))
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// panelView is the question panel: the request shown, or a note that
// nothing waits.
func (m *model) panelView(width, height int) string {
	st := m.styles
	if m.showPast {
		return m.pastView(width, height)
	}
	if r := m.activeRequest(); r != nil {
		return m.requestView(r)
	}
	lines := []string{
		st.App.Empty.Render("No questions waiting."),
		st.App.Bar.Render("Questions from agents appear here."),
	}
	if m.status != "" {
		lines = append(lines, "", st.App.Bar.Render(ansi.Wrap(m.status, max(width-2, 10), "")))
	}
	return lipgloss.Place(width, height, lipgloss.Center, lipgloss.Center, lipgloss.JoinVertical(lipgloss.Center, lines...))
}

// sessionView lays out the inbox, the activity pane and the question
// panel: side by side when wide, stacked when narrow.
func (m *model) sessionView() string {
	f := m.frame()
	h := m.bodyHeight()
	if m.showPast && !f.wide {
		return m.pastView(m.contentWidth(), h)
	}
	if m.focusActivity && !f.wide {
		return m.activityView(m.contentWidth(), h)
	}
	if f.wide {
		var left []string
		rows := h
		if f.inboxRows > 0 {
			left = append(left, m.inboxView(f.sideW, f.inboxRows), "")
			rows -= f.inboxRows + 2
		}
		left = append(left, m.activityView(f.sideW, rows))
		col := fitBlock(strings.Join(left, "\n"), f.sideW, h)
		div := " " + m.styles.Divider.Render("│") + " "
		panel := fitBlock(m.panelView(f.panelW, f.panelH), f.panelW, h)
		for i := range col {
			col[i] += div + panel[i]
		}
		return strings.Join(col, "\n")
	}
	var parts []string
	if f.inboxRows > 0 {
		parts = append(parts, m.inboxView(f.panelW, f.inboxRows), "")
	}
	if len(m.requests) == 0 {
		if m.status != "" {
			status := m.styles.App.Bar.Render(ansi.Wrap(m.status, f.panelW, ""))
			parts = append(parts, status, "")
			h -= lipgloss.Height(status) + 1
		}
		parts = append(parts, m.activityView(f.panelW, max(h, 1)))
		return strings.Join(parts, "\n")
	}
	parts = append(parts, fitBlock(m.panelView(f.panelW, f.panelH), f.panelW, f.panelH)...)
	if f.activityRows > 0 {
		parts = append(parts, "", m.activityView(f.panelW, f.activityRows+1))
	}
	return strings.Join(parts, "\n")
}

// pastView lists the answers given in this session, newest last.
func (m *model) pastView(width, height int) string {
	st := m.styles
	rows := []string{st.Review.Title.Render(fmt.Sprintf("Past answers · %d", len(m.past))), ""}
	if len(m.past) == 0 {
		rows = append(rows, st.App.Empty.Render("No answers given yet in this session."))
		return strings.Join(rows, "\n")
	}
	room := max(height-len(rows)-2, 1)
	first := max(m.pastCursor-room+1, 0)
	for i := first; i < len(m.past) && i < first+room; i++ {
		p := m.past[i]
		mark, style := "  ", st.Inbox.Item
		if i == m.pastCursor {
			mark, style = st.Option.Cursor.String()+" ", st.Inbox.Active
		}
		line := mark + st.AgentStyle(m.log.agent(p.agent).color).Render(p.agent) + " " + style.Render(p.summary)
		rows = append(rows, ansi.Truncate(line, width, "…"))
	}
	rows = append(rows, "", st.Question.Hint.Render(ansi.Truncate("enter copies the answer's JSON · esc closes", width, "…")))
	return strings.Join(rows, "\n")
}

// inboxView lists the waiting requests: agent, number of questions, the
// first header or question, and age.
func (m *model) inboxView(width, rows int) string {
	st := m.styles
	title := st.Inbox.Title.Render(fmt.Sprintf("Inbox · %d waiting", len(m.requests)))
	// Keep the active request in view.
	first := 0
	if m.active >= rows {
		first = m.active - rows + 1
	}
	lines := []string{title}
	for i := first; i < len(m.requests) && i < first+rows; i++ {
		r := m.requests[i]
		q := r.questions[0]
		what := q.header
		if what == "" {
			what = firstLine(q.text)
		}
		mark, style := "  ", st.Inbox.Item
		if i == m.active {
			mark, style = st.Option.Cursor.String()+" ", st.Inbox.Active
		}
		meta := st.Inbox.Meta.Render(fmt.Sprintf(" %s · %s", itoaPlural(len(r.questions), "question", "questions"), age(m.now().Sub(r.arrived))))
		name := st.AgentStyle(m.log.agent(r.agent).color).Render(r.agent)
		room := max(width-lipgloss.Width(mark)-lipgloss.Width(name)-lipgloss.Width(meta)-2, 4)
		lines = append(lines, mark+name+st.Inbox.Meta.Render(" · ")+style.Render(ansi.Truncate(what, max(room-3, 1), "…"))+meta)
	}
	return strings.Join(lines, "\n")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// activityView is the activity pane: a title, the log and who is thinking.
func (m *model) activityView(width, height int) string {
	st := m.styles
	title := st.Activity.Title.Render("Activity")
	hint := ""
	if m.focusActivity {
		title = st.Activity.TitleFocused.Render("Activity")
		hint = st.Activity.Info.Render("  ↑/↓ scroll · ctrl+t back")
	}
	var live []string
	for _, a := range m.log.thinking() {
		note := "thinking…"
		if a.note != "" {
			note = "thinking… " + a.note
		}
		live = append(live, ansi.Truncate(m.spin.View()+" "+st.AgentStyle(a.color).Render(a.name)+" "+st.Activity.Thinking.Render(note), width, "…"))
	}
	rows := height - 1 - len(live)
	var body string
	if len(m.log.entries) == 0 && len(live) == 0 {
		body = st.App.Empty.Render("No agent activity yet.")
	} else {
		body = m.log.view(width, max(rows, 0), st)
	}
	out := []string{ansi.Truncate(title+hint, width, "…")}
	if body != "" {
		out = append(out, body)
	}
	out = append(out, live...)
	return strings.Join(out, "\n")
}

// titleBar shows the app, the asking agent, the countdown and the queue.
func (m *model) titleBar() string {
	st := m.styles
	w := m.contentWidth()
	left := st.App.Name.Render("asktui")
	r := m.activeRequest()
	switch {
	case m.session:
		left += st.App.Bar.Render(" " + itoaPlural(m.log.connected(), "agent connected", "agents connected"))
	case r != nil:
		left += " " + st.App.Agent.Render(r.agent) + st.App.Bar.Render(" asks")
	}
	var right []string
	if r != nil && !r.deadline.IsZero() {
		left := r.deadline.Sub(m.now())
		s := st.App.Countdown
		if left < 10*time.Second {
			s = st.App.CountdownUrgent
		}
		right = append(right, s.Render("⏱ "+formatDuration(left)+" left"))
	}
	switch n := len(m.requests); {
	case m.session && n > 0:
		right = append(right, st.App.Queue.Render(itoaPlural(n, "question waiting", "questions waiting")))
	case m.session && m.status != "":
		right = append(right, st.App.Bar.Render(m.status))
	case !m.session && n > 1:
		right = append(right, st.App.Queue.Render(fmt.Sprintf("+%d waiting", n-1))+st.App.Bar.Render(" ("+m.waitingAgents(r)+")"))
	}
	rs := strings.Join(right, st.App.Bar.Render(" · "))
	if rs == "" {
		return ansi.Truncate(left, w, "…")
	}
	space := w - lipgloss.Width(left) - lipgloss.Width(rs)
	if space < 1 {
		rs = ansi.Truncate(rs, max(w-lipgloss.Width(left)-1, 0), "…")
		space = max(w-lipgloss.Width(left)-lipgloss.Width(rs), 1)
	}
	return ansi.Truncate(left+strings.Repeat(" ", space)+rs, w, "…")
}

// waitingAgents lists the agents of the waiting requests other than the
// shown one, each once, in arrival order.
func (m *model) waitingAgents(shown *request) string {
	seen := map[string]bool{}
	var names []string
	for _, r := range m.requests {
		if r == shown || seen[r.agent] {
			continue
		}
		seen[r.agent] = true
		names = append(names, r.agent)
	}
	return strings.Join(names, ", ")
}

func (m *model) windowTitle() string {
	n := len(m.requests)
	if n == 0 || (m.session && !m.alerts.Title) {
		return "asktui"
	}
	return fmt.Sprintf("asktui (%d waiting)", n)
}

func formatDuration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// requestView draws the panel of the request on screen.
func (m *model) requestView(r *request) string {
	p := m.layout(r)
	var rows []string
	if m.session {
		who := m.styles.AgentStyle(m.log.agent(r.agent).color).Render(r.agent) +
			m.styles.App.Bar.Render(" asks · "+age(m.now().Sub(r.arrived)))
		rows = append(rows, ansi.Truncate(who, p.width, "…"))
	}
	if p.tabs {
		rows = append(rows, m.tabsView(r, p.width), "")
	}
	if r.dialog != nil {
		box := m.dialogView(r)
		rows = append(rows, lipgloss.Place(p.width, max(p.height-len(rows), 1), lipgloss.Center, lipgloss.Center, box))
		return strings.Join(rows, "\n")
	}
	q := r.current()
	if q == nil {
		rows = append(rows, m.reviewView(r, p.width, p.height-len(rows)))
		return strings.Join(rows, "\n")
	}
	st := m.styles
	if p.header {
		rows = append(rows, st.Question.Header.Render(ansi.Truncate(q.header, p.width, "…")))
	}
	r.scroll = min(r.scroll, max(len(p.text)-p.textRows, 0))
	rows = append(rows, p.text[r.scroll:r.scroll+p.textRows]...)
	if p.moreText {
		below := len(p.text) - r.scroll - p.textRows
		hint := fmt.Sprintf("↕ lines %d–%d of %d · shift+↑/↓ to scroll", r.scroll+1, r.scroll+p.textRows, len(p.text))
		if below == 0 {
			hint = fmt.Sprintf("↑ %d lines above · shift+↑ to scroll", r.scroll)
		}
		rows = append(rows, st.Question.ScrollHint.Render(ansi.Truncate(hint, p.width, "…")))
	}
	rows = append(rows, st.Question.Hint.Render(ansi.Truncate(m.hint(r, q), p.width, "…")), "")
	if r.form != nil {
		// huh pads a form below its fields; the panel has p.formRows.
		form := strings.Split(r.form.View(), "\n")
		rows = append(rows, form[:min(len(form), p.formRows)]...)
	}
	return strings.Join(rows, "\n")
}

// hint says what kind of answer the question takes.
func (m *model) hint(r *request, q *question) string {
	switch {
	case q.free():
		return "Type your answer · enter to confirm, alt+enter for a new line"
	case q.raw.MultiSelect:
		return "Pick any · space to toggle, enter to confirm"
	case r.single():
		return "Pick one · enter or 1–9 answers at once"
	default:
		return "Pick one · enter or 1–9"
	}
}

// tabsView draws one tab per question and the review tab, scrolled so the
// active tab is visible.
func (m *model) tabsView(r *request, width int) string {
	st := m.styles
	tabs := make([]string, 0, len(r.questions)+1)
	for i, q := range r.questions {
		mark := st.Tabs.Pending.String()
		if q.answered() {
			mark = st.Tabs.Answered.String()
		}
		title := ansi.Truncate(q.title, 16, "…")
		s := st.Tabs.Inactive
		if i == r.tab {
			s = st.Tabs.Active
		}
		tabs = append(tabs, s.Render(mark+" "+title))
	}
	s := st.Tabs.Inactive
	if r.reviewing() {
		s = st.Tabs.Active
	}
	tabs = append(tabs, s.Render("Review"))

	sep := st.Tabs.Separator.Render("│")
	// Show as many tabs as fit, keeping the active one in view.
	first, last := r.tab, r.tab
	used := lipgloss.Width(tabs[r.tab])
	for grown := true; grown; {
		grown = false
		if last+1 < len(tabs) && used+lipgloss.Width(tabs[last+1])+3 <= width {
			last++
			used += lipgloss.Width(tabs[last]) + 1
			grown = true
		}
		if first > 0 && used+lipgloss.Width(tabs[first-1])+3 <= width {
			first--
			used += lipgloss.Width(tabs[first]) + 1
			grown = true
		}
	}
	out := strings.Join(tabs[first:last+1], sep)
	if first > 0 {
		out = st.Tabs.Scroll.Render("‹") + out
	}
	if last < len(tabs)-1 {
		out += st.Tabs.Scroll.Render("›")
	}
	return ansi.Truncate(out, width, "…")
}

// reviewView lists every answer, flagging unanswered questions.
func (m *model) reviewView(r *request, width, height int) string {
	st := m.styles
	rows := []string{st.Review.Title.Render("Review your answers"), ""}
	var lines []string
	for i, q := range r.questions {
		label := fmt.Sprintf("%d. %s", i+1, q.title)
		a := q.answer()
		var ans string
		switch {
		case a.Custom != "":
			ans = st.Review.Custom.Render(SanitizeLine(a.Custom))
		case len(a.Selected) > 0:
			shown := make([]string, len(a.Selected))
			for j, s := range a.Selected {
				shown[j] = SanitizeLine(s)
			}
			ans = st.Review.Answer.Render(strings.Join(shown, ", "))
		default:
			ans = st.Review.Unanswered.Render("! unanswered (sent as skipped)")
		}
		lines = append(lines, ansi.Truncate(st.Review.Question.Render(label)+"  "+ans, width, "…"))
	}
	footer := "enter to submit"
	if n := r.unanswered(); n > 0 {
		footer = fmt.Sprintf("enter to submit · %d unanswered will be sent as skipped", n)
	}
	room := max(height-len(rows)-2, 1)
	r.scroll = min(r.scroll, max(len(lines)-room, 0))
	end := min(r.scroll+room, len(lines))
	rows = append(rows, lines[r.scroll:end]...)
	if end < len(lines) {
		rows = append(rows, st.Question.ScrollHint.Render(fmt.Sprintf("↓ %d more · shift+↓", len(lines)-end)))
	} else {
		rows = append(rows, "")
	}
	rows = append(rows, st.Question.Hint.Render(ansi.Truncate(footer, width, "…")))
	return strings.Join(rows, "\n")
}

// dialogView draws the open confirmation.
func (m *model) dialogView(r *request) string {
	st := m.styles
	d := r.dialog
	var title, body, action string
	titleStyle := st.Dialog.Title
	switch d.kind {
	case dialogDecline:
		title, action = "Decline "+r.agent+"'s question?", "Decline"
		body = "The agent is told you declined. Your drafts stay if you go back."
		titleStyle = st.Dialog.Danger
	case dialogSubmit:
		n := r.unanswered()
		title, action = fmt.Sprintf("Submit with %d unanswered?", n), "Submit"
		body = "Unanswered questions are sent as skipped."
	}
	btn := func(i int, s string) string {
		if d.focus == i {
			return st.Dialog.ActiveButton.Render(s)
		}
		return st.Dialog.Button.Render(s)
	}
	inner := max(min(m.contentWidth()-4, 56), 10)
	content := lipgloss.JoinVertical(lipgloss.Left,
		titleStyle.Render(ansi.Wrap(title, inner, "")),
		"",
		st.Dialog.Body.Render(ansi.Wrap(body, inner, "")),
		"",
		btn(0, action+" (y)")+" "+btn(1, "Go back (n)"),
	)
	return st.Dialog.Box.Render(content)
}

// helpKeys are the bindings the help bar shows for the current state.
func (m *model) helpKeys() helpKeys {
	k := m.keys
	r := m.activeRequest()
	if m.showPast {
		b := []key.Binding{k.LogUp, k.LogDown, k.Copy, k.Back, k.Quit}
		return helpKeys{short: b, full: [][]key.Binding{b}, keep: []int{2, 3}}
	}
	if m.session && (m.focusActivity || r == nil) {
		b := []key.Binding{k.LogUp, k.LogDown, k.LogPageUp, k.LogEnd, k.Past}
		var keep []int
		if r != nil {
			keep = append(keep, len(b))
			b = append(b, k.Activity)
		}
		keep = append(keep, len(b))
		b = append(b, k.Quit)
		return helpKeys{short: b, full: [][]key.Binding{b}, keep: keep}
	}
	if r == nil {
		return helpKeys{short: []key.Binding{k.Quit}, full: [][]key.Binding{{k.Quit}}}
	}
	if r.dialog != nil {
		b := []key.Binding{k.Confirm, k.Back, k.Press}
		return helpKeys{short: b, full: [][]key.Binding{b}}
	}
	nav := []key.Binding{}
	if !r.single() {
		nav = append(nav, k.NextTab)
		if !m.typing(r) {
			nav = append(nav, k.NextTabArrow)
		}
	}
	general := []key.Binding{k.Decline, k.ScrollUp, k.Help, k.Quit}
	if m.session {
		if len(m.requests) > 1 {
			nav = append(nav, k.NextRequest)
		}
		general = append(general, k.NextRequest, k.PrevRequest, k.Activity, k.Past)
	}
	var short []key.Binding
	var full [][]key.Binding
	switch q := r.current(); {
	case q == nil:
		short = append([]key.Binding{k.Submit}, nav...)
		full = [][]key.Binding{{k.Submit}}
	case q.free():
		short = append([]key.Binding{k.TextSubmit, k.NewLine}, nav...)
		full = [][]key.Binding{{k.TextSubmit, k.NewLine}}
	case r.choice != nil:
		short = append(r.choice.ShortHelp(), nav...)
		full = r.choice.FullHelp()
	}
	var keep []int
	if r.choice == nil || !r.choice.Filtering() { // Esc clears the filter first
		keep = append(keep, len(short))
		short = append(short, k.Decline)
	}
	if !m.typing(r) {
		keep = append(keep, len(short))
		short = append(short, k.Help)
	}
	// Question and request keys share one column, so the full help fits
	// 60 columns.
	var col []key.Binding
	seen := map[string]bool{}
	for _, b := range append(append([]key.Binding{}, nav...), general...) {
		if !seen[b.Help().Key] {
			seen[b.Help().Key] = true
			col = append(col, b)
		}
	}
	full = append(full, col)
	return helpKeys{short: short, full: full, keep: keep}
}
