package tui

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
)

// maxEntries bounds the activity log; the oldest entries go first.
const maxEntries = 2000

// maxResultLines caps how much of a tool result the log shows.
const maxResultLines = 6

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
	agent  string
	text   string
	failed bool
}

// agentState is what the session knows of one agent.
type agentState struct {
	name      string
	color     int
	connected bool
	thinking  bool
	note      string // what it is thinking about
}

// activityLog is the session's transcript: what every agent said and did,
// the questions it asked and what became of them. It renders only when
// its width changes or an entry is added.
type activityLog struct {
	entries []entry
	agents  map[string]*agentState
	order   []string // agent keys in arrival order
	widest  int      // cells of the longest agent name

	width  int
	nw     int      // name column width the lines were rendered with
	lines  []string // rendered entries at width
	counts []int    // lines each entry rendered to, in step with entries
	scroll int      // lines from the bottom; 0 follows the newest
}

func newActivityLog() *activityLog {
	return &activityLog{agents: map[string]*agentState{}}
}

// agent returns the state of the agent named name, adding it if new.
func (l *activityLog) agent(name string) *agentState {
	if a, ok := l.agents[name]; ok {
		return a
	}
	a := &agentState{name: name, color: len(l.order)}
	l.agents[name] = a
	l.order = append(l.order, name)
	l.widest = max(l.widest, cellWidth(name))
	return a
}

// connected counts the agents connected now.
func (l *activityLog) connected() int {
	n := 0
	for _, a := range l.agents {
		if a.connected {
			n++
		}
	}
	return n
}

// thinking lists the agents thinking now, in arrival order.
func (l *activityLog) thinking() []*agentState {
	var out []*agentState
	for _, k := range l.order {
		if a := l.agents[k]; a.thinking {
			out = append(out, a)
		}
	}
	return out
}

// report records an agent's activity.
func (l *activityLog) report(a interaction.Activity, st *styles.Styles) {
	name := SanitizeLine(a.Agent.DisplayName())
	ag := l.agent(name)
	if a.Kind != interaction.ActivityThinking {
		ag.thinking = false
	}
	switch a.Kind {
	case interaction.ActivityConnected:
		ag.connected = true
		l.add(entry{kind: entryInfo, agent: name, text: "connected"}, st)
	case interaction.ActivityDisconnected:
		ag.connected = false
		l.add(entry{kind: entryInfo, agent: name, text: "disconnected"}, st)
	case interaction.ActivityMessage:
		l.add(entry{kind: entryMessage, agent: name, text: Sanitize(a.Text)}, st)
	case interaction.ActivityThinking:
		ag.connected = true
		ag.thinking, ag.note = true, SanitizeLine(a.Text)
	case interaction.ActivityToolCall:
		l.add(entry{kind: entryTool, agent: name, text: SanitizeLine(a.Tool) + " " + compactArgs(a.Args)}, st)
	case interaction.ActivityToolResult:
		l.add(entry{kind: entryResult, agent: name, text: Sanitize(a.Text), failed: a.Failed}, st)
	}
}

// compactArgs shows tool arguments on one line: compact JSON when they are
// JSON, else the text.
func compactArgs(args string) string {
	var v any
	if json.Unmarshal([]byte(args), &v) == nil {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // show "&&" as written
		if enc.Encode(v) == nil {
			args = strings.TrimSuffix(b.String(), "\n")
		}
	}
	return SanitizeLine(args)
}

// add appends an entry and renders it at the current width.
func (l *activityLog) add(e entry, st *styles.Styles) {
	l.agent(e.agent) // known before the name column is measured
	l.entries = append(l.entries, e)
	if l.nameWidth() != l.nw {
		l.width = 0 // a longer name widened the name column: re-render
	}
	if l.width > 0 {
		rendered := l.renderEntry(e, l.width, st)
		l.lines = append(l.lines, rendered...)
		l.counts = append(l.counts, len(rendered))
		if l.scroll > 0 {
			l.scroll += len(rendered) // keep the view still while scrolled back
		}
	}
	if drop := len(l.entries) - maxEntries; drop > 0 {
		// The oldest entries go with their rendered lines, so a full log
		// costs the same per entry as a short one.
		l.entries = l.entries[drop:]
		if l.width > 0 {
			n := 0
			for _, c := range l.counts[:drop] {
				n += c
			}
			l.counts = l.counts[drop:]
			l.lines = l.lines[n:]
		}
	}
}

// layout renders every entry at width, when the width changed.
func (l *activityLog) layout(width int, st *styles.Styles) {
	if width == l.width {
		return
	}
	l.width = width
	l.nw = l.nameWidth()
	l.lines, l.counts = nil, make([]int, 0, len(l.entries))
	for _, e := range l.entries {
		rendered := l.renderEntry(e, width, st)
		l.lines = append(l.lines, rendered...)
		l.counts = append(l.counts, len(rendered))
	}
}

// restyle drops the rendered lines, after a theme change.
func (l *activityLog) restyle() { l.width = 0 }

// nameWidth is the column the agents' names take.
func (l *activityLog) nameWidth() int { return min(l.widest, 14) }

func (l *activityLog) renderEntry(e entry, width int, st *styles.Styles) []string {
	nw := l.nameWidth()
	ag := l.agent(e.agent)
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
	}
	name := ansi.Truncate(e.agent, nw, "…")
	prefix := st.Activity.Glyph.Render(glyph) + " " + st.AgentStyle(ag.color).Render(name) + strings.Repeat(" ", nw-lipgloss.Width(name)) + " "
	indent := strings.Repeat(" ", lipgloss.Width(prefix))
	textW := max(width-lipgloss.Width(prefix), 8)
	text := e.text
	if e.kind == entryResult {
		text = capLines(text, maxResultLines)
	}
	var styled string
	if e.kind == entryMessage {
		styled = inlineMarkdown(text, body, st.Activity.Code)
	} else {
		styled = styleLines(text, body)
	}
	var out []string
	for i, line := range strings.Split(ansi.Wrap(styled, textW, ""), "\n") {
		p := indent
		if i == 0 {
			p = prefix
		}
		out = append(out, ansi.Truncate(p+line, width, "…"))
	}
	return out
}

// styleLines styles each line of s on its own, so wrapping never carries
// a style across the prefix of the next row.
func styleLines(s string, st lipgloss.Style) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return strings.Join(lines, "\n")
}

// mdInline finds the inline Markdown an agent message may use: **bold**
// and `code`.
var mdInline = regexp.MustCompile("\\*\\*([^*\n]+)\\*\\*|`([^`\n]+)`")

// inlineMarkdown renders **bold** and `code` in an agent's message; the
// rest stays as written.
func inlineMarkdown(s string, base, code lipgloss.Style) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		last := 0
		for _, m := range mdInline.FindAllStringSubmatchIndex(line, -1) {
			b.WriteString(base.Render(line[last:m[0]]))
			if m[2] >= 0 {
				b.WriteString(base.Bold(true).Render(line[m[2]:m[3]]))
			} else {
				b.WriteString(code.Render(line[m[4]:m[5]]))
			}
			last = m[1]
		}
		b.WriteString(base.Render(line[last:]))
	}
	return b.String()
}

// capLines keeps the first n lines of s and says how many were cut.
func capLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) <= n {
		return strings.Join(lines, "\n")
	}
	return strings.Join(lines[:n], "\n") + "\n… " + itoaPlural(len(lines)-n, "more line", "more lines")
}

// view draws the last height lines (or the scrolled-back ones).
func (l *activityLog) view(width, height int, st *styles.Styles) string {
	l.layout(width, st)
	if height <= 0 {
		return ""
	}
	maxScroll := max(len(l.lines)-height, 0)
	l.scroll = min(max(l.scroll, 0), maxScroll)
	end := len(l.lines) - l.scroll
	start := max(end-height, 0)
	rows := append([]string(nil), l.lines[start:end]...)
	if l.scroll > 0 && len(rows) > 0 {
		rows[len(rows)-1] = st.Question.ScrollHint.Render(ansi.Truncate("↓ "+itoaPlural(l.scroll, "newer line", "newer lines")+" · end to follow", width, "…"))
	}
	return strings.Join(rows, "\n")
}

// scrollBy moves the view back (positive) or forward (negative).
func (l *activityLog) scrollBy(n int) { l.scroll = max(l.scroll+n, 0) }

// age formats how long a request has waited: "now", "45s", "3m", "2h".
func age(d time.Duration) string {
	switch {
	case d < 5*time.Second:
		return "now"
	case d < time.Minute:
		return itoa(int(d/time.Second)) + "s"
	case d < time.Hour:
		return itoa(int(d/time.Minute)) + "m"
	default:
		return itoa(int(d/time.Hour)) + "h"
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// itoaPlural formats "1 more line" or "3 more lines".
func itoaPlural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return itoa(n) + " " + many
}
