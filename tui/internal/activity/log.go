package activity

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
	"github.com/asktui/asktui/internal/markdown"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
)

// MaxEntries bounds the activity log; the oldest entries go first.
const MaxEntries = 2000

// maxResultLines caps how much of a tool result the log shows.
const maxResultLines = 6

// EntryKind says how an activity entry is drawn.
type EntryKind int

// The kinds of entry: what an agent said, a tool it called and what the
// tool returned, a question it asked and what became of it, and the
// log's own notes (connected, a turn ended).
const (
	EntryMessage EntryKind = iota
	EntryTool
	EntryResult
	EntryAsked
	EntryAnswered
	EntryDeclined
	EntryWithdrawn
	EntryInfo
)

// Entry is one line item of the activity log, already sanitized.
type Entry struct {
	Kind   EntryKind // what happened
	Agent  string    // the agent's key in the log's table
	Text   string    // what the line says, sanitized by whoever adds it
	Failed bool      // a tool call that failed
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

// Log is the session's transcript: what every agent said and did,
// the questions it asked and what became of them. It renders only when
// its width changes or an entry is added.
//
// Agents are keyed by their id (their session, for MCP clients), so two
// sessions of one client are two agents, and an agent is forgotten once
// it has left, has no request on screen and no entry in the log: a
// server running for weeks does not keep every client it ever saw.
type Log struct {
	entries []Entry
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

// NewLog is an empty log.
func NewLog() *Log {
	return &Log{agents: map[string]*agentState{}}
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
func (l *Log) agent(k, name string) *agentState {
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

// Entries are the entries the log holds, oldest first.
func (l *Log) Entries() []Entry { return l.entries }

// Know knows the agent with key k, named name, from now on (a
// conversation's agent).
func (l *Log) Know(k, name string) { l.agent(k, name) }

// Asks notes a request of the agent with key k (named name) waiting on
// screen: the agent counts as connected while it waits.
func (l *Log) Asks(k, name string) {
	a := l.agent(k, name)
	a.thinking = false
	a.waiting++
}

// Answered notes that a request of the agent with key k left the screen;
// the agent is forgotten when nothing refers to it any more.
func (l *Log) Answered(k string) {
	if a, ok := l.agents[k]; ok {
		a.waiting--
	}
	l.forget(k)
}

// AnyThinking reports whether an agent is thinking now.
func (l *Log) AnyThinking() bool { return len(l.thinking()) > 0 }

// AgentCount is the number of agents the log knows.
func (l *Log) AgentCount() int { return len(l.agents) }

// Scrolled is how far the log is scrolled back, in lines from the
// bottom; 0 follows the newest.
func (l *Log) Scrolled() int { return l.scroll }

// Color is the colour index of the agent with key k.
func (l *Log) Color(k string) int {
	if a, ok := l.agents[k]; ok {
		return a.color
	}
	return 0
}

// forget drops the agent with key k when nothing refers to it any more.
func (l *Log) forget(k string) {
	a, ok := l.agents[k]
	if !ok || a.connected || a.thinking || a.entries > 0 || a.waiting > 0 {
		return
	}
	delete(l.agents, k)
	l.widest = -1
}

// Connected counts the agents connected now: those whose session is open
// (reported by their front end), and those known only by their questions
// (a socket client, an MCP sub-agent) while one waits.
func (l *Log) Connected() int {
	n := 0
	for _, a := range l.agents {
		if a.connected || a.waiting > 0 {
			n++
		}
	}
	return n
}

// thinking lists the agents thinking now, in the order they arrived.
func (l *Log) thinking() []*agentState {
	var out []*agentState
	for _, a := range l.agents {
		if a.thinking {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b *agentState) int { return a.color - b.color })
	return out
}

// Report records an agent's activity.
func (l *Log) Report(a interaction.Activity, st *styles.Styles) {
	k := agentKey(a.Agent)
	ag := l.agent(k, cell.DisplayLine(a.Agent.DisplayName()))
	if a.Kind != interaction.ActivityThinking {
		ag.thinking = false
	}
	switch a.Kind {
	case interaction.ActivityConnected:
		ag.connected = true
		l.Add(Entry{Kind: EntryInfo, Agent: k, Text: "connected"}, st)
	case interaction.ActivityDisconnected:
		ag.connected = false
		l.Add(Entry{Kind: EntryInfo, Agent: k, Text: "disconnected"}, st)
		l.forget(k)
	case interaction.ActivityMessage:
		l.Add(Entry{Kind: EntryMessage, Agent: k, Text: cell.Sanitize(a.Text)}, st)
	case interaction.ActivityThinking:
		ag.connected = true
		ag.thinking, ag.note = true, cell.SanitizeLine(a.Text)
	case interaction.ActivityIdle:
		l.forget(k)
	case interaction.ActivityToolCall:
		l.Add(Entry{Kind: EntryTool, Agent: k, Text: toolLine(a.Tool, a.Args)}, st)
	case interaction.ActivityToolResult:
		l.Add(Entry{Kind: EntryResult, Agent: k, Text: cell.Sanitize(a.Text), Failed: a.Failed}, st)
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

// Add appends an entry and renders it in every layout kept.
func (l *Log) Add(e Entry, st *styles.Styles) {
	if a, ok := l.agents[e.Agent]; ok {
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
	if drop := len(l.entries) - MaxEntries; drop > 0 {
		// The oldest entries go with their rendered lines, so a full log
		// costs the same per entry as a short one.
		for _, old := range l.entries[:drop] {
			if a, ok := l.agents[old.Agent]; ok {
				a.entries--
				l.forget(old.Agent)
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
func (l *Log) layout(width int, st *styles.Styles) *logLayout {
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

// Restyle drops the rendered lines, after a theme change.
func (l *Log) Restyle() { l.layouts = [2]*logLayout{} }

// nameWidth is the column the agents' names take.
func (l *Log) nameWidth() int {
	if l.widest < 0 {
		l.widest = 0
		for _, a := range l.agents {
			l.widest = max(l.widest, cell.Width(a.name))
		}
	}
	return min(l.widest, cell.NameColumn)
}

func (l *Log) renderEntry(e Entry, width int, st *styles.Styles) []string {
	nw := min(l.nameWidth(), max(width/4, 6))
	name, color := "agent", 0
	if a, ok := l.agents[e.Agent]; ok {
		name, color = a.name, a.color
	}
	glyph, body := "•", st.Activity.Message
	switch e.Kind {
	case EntryTool:
		glyph, body = "⚙", st.Activity.Tool
	case EntryResult:
		glyph, body = "↳", st.Activity.Result
		if e.Failed {
			glyph, body = "✗", st.Activity.Failed
		}
	case EntryAsked:
		glyph, body = "?", st.Activity.Asked
	case EntryAnswered:
		glyph, body = "✓", st.Activity.Answered
	case EntryDeclined:
		glyph, body = "✗", st.Activity.Failed
	case EntryWithdrawn:
		glyph, body = "⊘", st.Activity.Withdrawn
	case EntryInfo:
		glyph, body = "·", st.Activity.Info
	default: // EntryMessage
	}
	name = ansi.Truncate(name, nw, "…")
	prefix := st.Activity.Glyph.Render(glyph) + " " + st.AgentStyle(color).Render(name) + strings.Repeat(" ", max(nw-cell.Width(name), 0)) + " "
	pw := 2 + nw + 1
	indent := strings.Repeat(" ", pw)
	textW := max(width-pw, 8)
	var wrapped []string
	switch e.Kind {
	case EntryMessage:
		wrapped = markdown.RenderIn(e.Text, textW, st, body)
		if len(wrapped) == 0 {
			wrapped = []string{""}
		}
	case EntryResult:
		wrapped = strings.Split(ansi.Wrap(cell.StyleLines(cell.CapLines(e.Text, maxResultLines), body), textW, ""), "\n")
	default:
		wrapped = strings.Split(ansi.Wrap(cell.StyleLines(e.Text, body), textW, ""), "\n")
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
func (l *Log) view(width, height int, st *styles.Styles, follow key.Binding) string {
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
func (l *Log) scrollBy(n int) { l.scroll = max(l.scroll+n, 0) }
