// Package inboxlist is the inbox list: the waiting requests, one row
// each (the agent, what it asks, how many questions, how long it has
// waited). With the keys it has a cursor of its own, and the request
// shown changes only when the human opens one.
package inboxlist

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/internal/markdown"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/request"
	"github.com/asktui/asktui/tui/internal/ui"
)

// Pane lists the waiting requests: agent, what it asks, how many
// questions, and how long it has waited. With the focus it has a cursor
// of its own; the request shown is not switched until the human opens
// one.
type Pane struct {
	ui.Box
	com    *ui.Common
	host   Host
	cursor int
	// rows are the rows drawn last, by what they depend on: a view over
	// SSH redraws the inbox for every arrival, and most rows are as they
	// were (rowStyles, the look they were drawn in).
	rows      map[rowKey]string
	rowStyles *styles.Styles
}

// Host is what the inbox list asks of the program, which owns the
// requests and the one shown.
type Host interface {
	ui.Globals
	// Requests are the waiting requests, in arrival order.
	Requests() []*request.Request
	// Active is the index of the request the panel shows.
	Active() int
	// AgentColor is the colour of the agent with key agentKey.
	AgentColor(agentKey string) int
	// Open shows request i in the panel and gives the panel the keys,
	// as the human chose.
	Open(i int)
	// GoBack returns the keys to where the list was opened from.
	GoBack()
}

var _ ui.Pane = (*Pane)(nil)

// New is the list, drawing with com and asking host.
func New(com *ui.Common, host Host) Pane {
	return Pane{com: com, host: host}
}

// rowKey is what one row of the inbox looks like.
type rowKey struct {
	r       *request.Request
	marked  bool
	width   int
	color   int
	waited  string
	focused bool
}

// Cursor is the row under the cursor, while the list has the keys.
func (p *Pane) Cursor() int { return p.cursor }

// SetCursor puts the cursor on row i.
func (p *Pane) SetCursor(i int) { p.cursor = i }

// View draws the inbox in its size: a title and one row per request,
// scrolled to keep the mark (the request shown, or the cursor when the
// inbox has the keys) in view, with the rows cut off above and below
// counted.
func (p *Pane) View() string {
	reqs, st, width := p.host.Requests(), p.com.Styles, p.Width()
	mark := p.host.Active()
	if p.Focused() {
		mark = p.cursor
	}
	title := st.Inbox.Title.Render("Inbox · " + cell.Plural(len(reqs), "request", "requests"))
	if p.Focused() {
		title = st.Activity.TitleFocused.Render("Inbox") + st.Inbox.Title.Render(" · "+cell.Plural(len(reqs), "request", "requests")+" · "+keys.Name(p.com.Keys.Inbox.Open)+" opens")
	}
	lines := []string{ansi.Truncate(title, width, "…")}
	rows := max(p.Height()-1, 1)
	first := 0
	show := rows
	if len(reqs) > rows {
		// One row says what is cut; keep the marked request in view.
		show = max(rows-1, 1)
		first = min(max(mark-show+1, 0), len(reqs)-show)
	}
	if p.rowStyles != st || len(p.rows) > 4*(show+1) {
		p.rows, p.rowStyles = map[rowKey]string{}, st
	}
	now := p.com.Now()
	for i := first; i < len(reqs) && i < first+show; i++ {
		r := reqs[i]
		k := rowKey{r: r, marked: i == mark, width: width, color: p.host.AgentColor(r.AgentKey()), waited: cell.Age(now.Sub(r.Arrived)), focused: p.Focused()}
		line, ok := p.rows[k]
		if !ok {
			line = row(r, k, st)
			p.rows[k] = line
		}
		lines = append(lines, line)
	}
	if cut := len(reqs) - show; cut > 0 {
		above, below := first, len(reqs)-first-show
		var parts []string
		if above > 0 {
			parts = append(parts, "↑ "+cell.Plural(above, "more", "more"))
		}
		if below > 0 {
			parts = append(parts, "↓ +"+cell.Plural(below, "more", "more"))
		}
		lines = append(lines, "  "+st.Option.Scroll.Render(strings.Join(parts, " · ")))
	}
	return strings.Join(lines, "\n")
}

// Actions are the inbox's keys: its cursor moves without switching the
// request shown, which changes only when the human opens one.
func (p *Pane) Actions() []ui.Action {
	k := p.com.Keys.Inbox
	out := []ui.Action{
		ui.Move(k.Open, func(ui.KeyMsg) tea.Cmd { p.host.Open(p.cursor); return nil }).InBar().In("Inbox"),
		ui.Move(k.Up, func(ui.KeyMsg) tea.Cmd { p.cursor = max(p.cursor-1, 0); return nil }).InBar(k.Move).In("Inbox"),
		ui.Move(k.Down, func(ui.KeyMsg) tea.Cmd { p.cursor = min(p.cursor+1, max(len(p.host.Requests())-1, 0)); return nil }).In("Inbox"),
		ui.Move(k.Back, func(ui.KeyMsg) tea.Cmd { p.host.GoBack(); return nil }).InBar().In("Inbox"),
	}
	return append(out, p.host.Globals(false)...)
}

// Typist implements ui.Pane: the list types nothing.
func (*Pane) Typist() func(tea.Msg) tea.Cmd { return nil }

// ShortHelp implements help.KeyMap.
func (p *Pane) ShortHelp() []key.Binding { return ui.ShortHelp(p) }

// FullHelp implements help.KeyMap.
func (p *Pane) FullHelp() [][]key.Binding { return ui.FullHelp(p) }

// row draws one row of the inbox: the cursor, the agent, what it
// asks (its Markdown drawn on the line: for a permission, the call),
// how many questions and how long ago. A permission is one question,
// and its row gives the call the room the count would take.
func row(r *request.Request, k rowKey, st *styles.Styles) string {
	cursor, style := "  ", st.Inbox.Item
	if k.marked {
		cursor, style = st.Option.Cursor.String()+" ", st.Inbox.Active
	}
	count := cell.Plural(len(r.Questions), "question", "questions") + " · "
	if r.Call() != "" {
		count = ""
	}
	meta := st.Inbox.Meta.Render(" · " + count + k.waited)
	name := st.AgentStyle(k.color).Render(ansi.Truncate(r.Agent, cell.NameColumn, "…"))
	room := k.width - cell.Width(cursor) - cell.Width(name) - cell.Width(meta) - 3
	what := ""
	if room >= 4 {
		what = st.Inbox.Meta.Render(" · ") + ansi.Truncate(markdown.Line(r.What(), st, style), room, "…")
	}
	return ansi.Truncate(cursor+name+what+meta, k.width, "…")
}
