package tui

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
	"github.com/asktui/asktui/internal/markdown"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/ui"
)

// maxEntries bounds the activity log; the oldest entries go first.
const maxEntries = 2000

// maxResultLines caps how much of a tool result the log shows.
const maxResultLines = 6

// maxNameColumn is the most columns the agents' name column takes: long
// enough to tell "Project scaffolder" from "Project reviewer".
const maxNameColumn = 20

// entryKind says how an activity entry is drawn.
type entryKind int

const (
	entryMessage entryKind = iota
	entryTool
	entryResult
	entryAsked
	entryAnswered
	entryDeclined
	entryWithdrawn
	entryInfo
)

// entry is one line item of the activity log, already sanitized.
type entry struct {
	kind   entryKind
	agent  string // the agent's key in the log's table
	text   string
	failed bool
}

// agentState is what the session knows of one agent.
type agentState struct {
	name      string // display name, safe to draw
	color     int
	connected bool
	thinking  bool
	note      string // what it is thinking about
	entries   int    // log entries naming it
	waiting   int    // requests of it on screen
}

// activityLog is the session's transcript: what every agent said and did,
// the questions it asked and what became of them. It renders only when
// its width changes or an entry is added.
//
// Agents are keyed by their id (their session, for MCP clients), so two
// sessions of one client are two agents, and an agent is forgotten once
// it has left, has no request on screen and no entry in the log: a
// server running for weeks does not keep every client it ever saw.
type activityLog struct {
	entries []entry
	agents  map[string]*agentState
	colors  int // the next colour to hand out
	widest  int // cells of the longest agent name; -1 when stale

	// layouts are the entries rendered at the two widths drawn last
	// (the pane beside the panel, and the whole screen when nothing
	// waits), newest first, kept up to date as entries come and go, so
	// switching between the two never renders the whole log again.
	layouts [2]*logLayout
	scroll  int // lines from the bottom; 0 follows the newest
}

// logLayout is the log rendered at one width.
type logLayout struct {
	width  int
	nw     int      // name column width the lines were rendered with
	lines  []string // rendered entries
	counts []int    // lines each entry rendered to, in step with entries
}

func newActivityLog() *activityLog {
	return &activityLog{agents: map[string]*agentState{}}
}

// agentKey is how the log knows an agent: its id, else its name.
func agentKey(a interaction.Agent) string {
	if strings.TrimSpace(a.ID) != "" {
		return "id:" + a.ID
	}
	return "name:" + a.DisplayName()
}

// agent returns the state of the agent with key k, adding it (named name)
// if new.
func (l *activityLog) agent(k, name string) *agentState {
	if a, ok := l.agents[k]; ok {
		return a
	}
	a := &agentState{name: name, color: l.colors}
	l.colors++
	l.agents[k] = a
	if w := cell.Width(name); l.widest >= 0 && w > l.widest {
		l.widest = w
	}
	return a
}

// color is the colour index of the agent with key k.
func (l *activityLog) color(k string) int {
	if a, ok := l.agents[k]; ok {
		return a.color
	}
	return 0
}

// forget drops the agent with key k when nothing refers to it any more.
func (l *activityLog) forget(k string) {
	a, ok := l.agents[k]
	if !ok || a.connected || a.thinking || a.entries > 0 || a.waiting > 0 {
		return
	}
	delete(l.agents, k)
	l.widest = -1
}

// connected counts the agents connected now: those whose session is open
// (reported by their front end), and those known only by their questions
// (a socket client, an MCP sub-agent) while one waits.
func (l *activityLog) connected() int {
	n := 0
	for _, a := range l.agents {
		if a.connected || a.waiting > 0 {
			n++
		}
	}
	return n
}

// thinking lists the agents thinking now, in the order they arrived.
func (l *activityLog) thinking() []*agentState {
	var out []*agentState
	for _, a := range l.agents {
		if a.thinking {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b *agentState) int { return a.color - b.color })
	return out
}

// report records an agent's activity.
func (l *activityLog) report(a interaction.Activity, st *styles.Styles) {
	k := agentKey(a.Agent)
	ag := l.agent(k, cell.DisplayLine(a.Agent.DisplayName()))
	if a.Kind != interaction.ActivityThinking {
		ag.thinking = false
	}
	switch a.Kind {
	case interaction.ActivityConnected:
		ag.connected = true
		l.add(entry{kind: entryInfo, agent: k, text: "connected"}, st)
	case interaction.ActivityDisconnected:
		ag.connected = false
		l.add(entry{kind: entryInfo, agent: k, text: "disconnected"}, st)
		l.forget(k)
	case interaction.ActivityMessage:
		l.add(entry{kind: entryMessage, agent: k, text: cell.Sanitize(a.Text)}, st)
	case interaction.ActivityThinking:
		ag.connected = true
		ag.thinking, ag.note = true, cell.SanitizeLine(a.Text)
	case interaction.ActivityIdle:
		l.forget(k)
	case interaction.ActivityToolCall:
		l.add(entry{kind: entryTool, agent: k, text: toolLine(a.Tool, a.Args)}, st)
	case interaction.ActivityToolResult:
		l.add(entry{kind: entryResult, agent: k, text: cell.Sanitize(a.Text), failed: a.Failed}, st)
	}
}

// toolLine shows a tool call the way a person reads one: the tool, then
// its main argument bare ("read_file payments/charge.go"), then any other
// arguments as key=value. Arguments that are not a JSON object are shown
// as they are, on one line.
func toolLine(tool, args string) string {
	name := cell.SanitizeLine(tool)
	var obj map[string]any
	if err := json.Unmarshal([]byte(args), &obj); err != nil || len(obj) == 0 {
		if strings.TrimSpace(args) == "" || strings.TrimSpace(args) == "{}" {
			return name
		}
		return name + " " + cell.SanitizeLine(args)
	}
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	slices.Sort(names)
	main := ""
	for _, k := range []string{"command", "cmd", "path", "file_path", "file", "filename", "pattern", "query", "url", "name"} {
		if _, ok := obj[k]; ok {
			main = k
			break
		}
	}
	if main == "" && len(names) == 1 {
		main = names[0]
	}
	parts := []string{name}
	if main != "" {
		parts = append(parts, argValue(obj[main], false))
	}
	for _, k := range names {
		if k != main {
			parts = append(parts, cell.SanitizeLine(k)+"="+argValue(obj[k], true))
		}
	}
	return strings.Join(parts, " ")
}

// argValue shows one argument on one line: a string as it is (quoted
// when it has spaces and quote is set), a multi-line string by its first
// line, anything else as compact JSON.
func argValue(v any, quote bool) string {
	s, ok := v.(string)
	if !ok {
		b, err := jsonl.Marshal(v)
		if err != nil {
			return "?"
		}
		return cell.SanitizeLine(string(b))
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	s = cell.SanitizeLine(s)
	if quote && strings.ContainsAny(s, " \t") {
		return strconv.Quote(s)
	}
	return s
}

// add appends an entry and renders it in every layout kept.
func (l *activityLog) add(e entry, st *styles.Styles) {
	if a, ok := l.agents[e.agent]; ok {
		a.entries++
	}
	l.entries = append(l.entries, e)
	nw := l.nameWidth()
	for i, lay := range l.layouts {
		if lay == nil {
			continue
		}
		if lay.nw != nw {
			l.layouts[i] = nil // a longer name widened the name column: re-render
			continue
		}
		rendered := l.renderEntry(e, lay.width, st)
		lay.lines = append(lay.lines, rendered...)
		lay.counts = append(lay.counts, len(rendered))
		if i == 0 && l.scroll > 0 {
			l.scroll += len(rendered) // keep the view still while scrolled back
		}
	}
	if drop := len(l.entries) - maxEntries; drop > 0 {
		// The oldest entries go with their rendered lines, so a full log
		// costs the same per entry as a short one.
		for _, old := range l.entries[:drop] {
			if a, ok := l.agents[old.agent]; ok {
				a.entries--
				l.forget(old.agent)
			}
		}
		l.entries = l.entries[drop:]
		for _, lay := range l.layouts {
			if lay == nil {
				continue
			}
			n := 0
			for _, c := range lay.counts[:drop] {
				n += c
			}
			lay.counts = lay.counts[drop:]
			lay.lines = lay.lines[n:]
		}
	}
}

// layout returns the entries rendered at width: a layout kept, or a new
// one that replaces the older of the two.
func (l *activityLog) layout(width int, st *styles.Styles) *logLayout {
	nw := l.nameWidth()
	for i, lay := range l.layouts {
		if lay != nil && lay.width == width && lay.nw == nw {
			if i == 1 {
				l.layouts[0], l.layouts[1] = lay, l.layouts[0]
			}
			return lay
		}
	}
	lay := &logLayout{width: width, nw: nw, counts: make([]int, 0, len(l.entries))}
	for _, e := range l.entries {
		rendered := l.renderEntry(e, width, st)
		lay.lines = append(lay.lines, rendered...)
		lay.counts = append(lay.counts, len(rendered))
	}
	l.layouts[1], l.layouts[0] = l.layouts[0], lay
	return lay
}

// restyle drops the rendered lines, after a theme change.
func (l *activityLog) restyle() { l.layouts = [2]*logLayout{} }

// nameWidth is the column the agents' names take.
func (l *activityLog) nameWidth() int {
	if l.widest < 0 {
		l.widest = 0
		for _, a := range l.agents {
			l.widest = max(l.widest, cell.Width(a.name))
		}
	}
	return min(l.widest, maxNameColumn)
}

func (l *activityLog) renderEntry(e entry, width int, st *styles.Styles) []string {
	nw := min(l.nameWidth(), max(width/4, 6))
	name, color := "agent", 0
	if a, ok := l.agents[e.agent]; ok {
		name, color = a.name, a.color
	}
	glyph, body := "•", st.Activity.Message
	switch e.kind {
	case entryTool:
		glyph, body = "⚙", st.Activity.Tool
	case entryResult:
		glyph, body = "↳", st.Activity.Result
		if e.failed {
			glyph, body = "✗", st.Activity.Failed
		}
	case entryAsked:
		glyph, body = "?", st.Activity.Asked
	case entryAnswered:
		glyph, body = "✓", st.Activity.Answered
	case entryDeclined:
		glyph, body = "✗", st.Activity.Failed
	case entryWithdrawn:
		glyph, body = "⊘", st.Activity.Withdrawn
	case entryInfo:
		glyph, body = "·", st.Activity.Info
	default: // entryMessage
	}
	name = ansi.Truncate(name, nw, "…")
	prefix := st.Activity.Glyph.Render(glyph) + " " + st.AgentStyle(color).Render(name) + strings.Repeat(" ", max(nw-cell.Width(name), 0)) + " "
	pw := 2 + nw + 1
	indent := strings.Repeat(" ", pw)
	textW := max(width-pw, 8)
	var wrapped []string
	switch e.kind {
	case entryMessage:
		wrapped = markdown.RenderIn(e.text, textW, st, body)
		if len(wrapped) == 0 {
			wrapped = []string{""}
		}
	case entryResult:
		wrapped = strings.Split(ansi.Wrap(cell.StyleLines(cell.CapLines(e.text, maxResultLines), body), textW, ""), "\n")
	default:
		wrapped = strings.Split(ansi.Wrap(cell.StyleLines(e.text, body), textW, ""), "\n")
	}
	out := make([]string, len(wrapped))
	for i, line := range wrapped {
		p := indent
		if i == 0 {
			p = prefix
		}
		out[i] = ansi.Truncate(p+line, width, "…")
	}
	return out
}

// view draws the last height lines (or the scrolled-back ones).
func (l *activityLog) view(width, height int, st *styles.Styles, follow key.Binding) string {
	lines := l.layout(width, st).lines
	if height <= 0 {
		return ""
	}
	maxScroll := max(len(lines)-height, 0)
	l.scroll = min(max(l.scroll, 0), maxScroll)
	end := len(lines) - l.scroll
	start := max(end-height, 0)
	rows := append([]string(nil), lines[start:end]...)
	if l.scroll > 0 && len(rows) > 0 {
		rows[len(rows)-1] = st.Question.ScrollHint.Render(ansi.Truncate("↓ "+cell.Plural(l.scroll, "newer line", "newer lines")+" · "+keys.Name(follow)+" to follow", width, "…"))
	}
	return strings.Join(rows, "\n")
}

// scrollBy moves the view back (positive) or forward (negative).
func (l *activityLog) scrollBy(n int) { l.scroll = max(l.scroll+n, 0) }

// activityPane is the session's activity pane: the log and who is
// thinking.
type activityPane struct {
	ui.Box
	*ui.Common
	host activityHost
	log  *activityLog
}

// activityHost is what the activity pane asks of the program.
type activityHost interface {
	ui.Globals
	// Spinner is the spinner's frame beside who is thinking.
	Spinner() string
	// Page is the rows a page key scrolls.
	Page() int
	// ShowPanel gives the question panel the keys (esc).
	ShowPanel()
}

func newActivityPane(com *ui.Common, host activityHost, log *activityLog) activityPane {
	return activityPane{Common: com, host: host, log: log}
}

// View draws the pane: a title, the log and who is thinking.
func (p *activityPane) View() string {
	st, width, height := p.Styles, p.Width(), p.Height()
	title := st.Activity.Title.Render("Activity")
	hint := ""
	if p.Focused() {
		title = st.Activity.TitleFocused.Render("Activity")
		k := p.Keys.Activity
		hint = st.Activity.Info.Render("  " + keys.Name(k.Scroll) + " scroll · " + keys.Name(k.Back) + " back")
	}
	var live []string
	spinner := p.host.Spinner()
	for _, a := range p.log.thinking() {
		note := "thinking…"
		if a.note != "" {
			note = "thinking… " + a.note
		}
		live = append(live, ansi.Truncate(spinner+" "+st.AgentStyle(a.color).Render(a.name)+" "+st.Activity.Thinking.Render(note), width, "…"))
	}
	rows := height - 1 - len(live)
	var body string
	if len(p.log.entries) == 0 && len(live) == 0 {
		body = st.App.Empty.Render("No agent activity yet.")
	} else {
		body = p.log.view(width, max(rows, 0), st, p.Keys.Activity.End)
	}
	out := []string{ansi.Truncate(title+hint, width, "…")}
	if body != "" {
		out = append(out, body)
	}
	out = append(out, live...)
	return strings.Join(out, "\n")
}

// actions are the pane's keys: scrolling, and back to the panel.
func (p *activityPane) Actions() []ui.Action {
	k := p.Keys.Activity
	out := p.scrollActions(true)
	out = append(out, ui.Move(k.Back, func(ui.KeyMsg) tea.Cmd {
		p.host.ShowPanel()
		p.log.scroll = 0 // follow the newest again
		return nil
	}).InBar().In("Activity"))
	return append(out, p.host.Globals(false)...)
}

func (*activityPane) Typist() func(tea.Msg) tea.Cmd { return nil }

// ShortHelp implements help.KeyMap.
func (p *activityPane) ShortHelp() []key.Binding { return ui.ShortHelp(p) }

// FullHelp implements help.KeyMap.
func (p *activityPane) FullHelp() [][]key.Binding { return ui.FullHelp(p) }

// scrollActions are the keys that scroll the log: in its pane, and on the
// idle screen, where it fills the body. End shows only when the log is
// scrolled back.
func (p *activityPane) scrollActions(bar bool) []ui.Action {
	k := p.Keys.Activity
	l := p.log
	out := []ui.Action{
		ui.Move(k.Up, func(ui.KeyMsg) tea.Cmd { l.scrollBy(1); return nil }).In("Activity"),
		ui.Move(k.Down, func(ui.KeyMsg) tea.Cmd { l.scrollBy(-1); return nil }).In("Activity"),
		ui.Move(k.PageUp, func(ui.KeyMsg) tea.Cmd { l.scrollBy(p.host.Page()); return nil }).In("Activity"),
		ui.Move(k.PageDown, func(ui.KeyMsg) tea.Cmd { l.scrollBy(-p.host.Page()); return nil }).In("Activity"),
	}
	if bar {
		out[0] = out[0].InBar(k.Scroll)
		out[2] = out[2].InBar()
	}
	if l.scroll > 0 {
		out = append(out, ui.Move(k.End, func(ui.KeyMsg) tea.Cmd { l.scroll = 0; return nil }).InBar().In("Activity"))
	}
	return out
}
