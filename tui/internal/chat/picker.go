package chat

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/ui"
)

// RowKind says what a row of the agent picker does.
type RowKind int

// What a row of the picker does, chosen.
const (
	RowSwitch  RowKind = iota // show a running conversation
	RowStart                  // start an agent
	RowResume                 // list an agent's past sessions
	RowSession                // resume a past session
)

// Row is one row of the agent picker: what choosing it asks the program
// to do (Kind), and of what.
type Row struct {
	Kind    RowKind // what choosing the row does
	Conv    string  // RowSwitch: the conversation's id
	Agent   string  // RowStart, RowResume, RowSession: the launcher's name
	Session string  // RowSession: the session to resume

	label    string
	desc     string
	disabled bool
}

// Picker is the agent picker: the running conversations, the agents
// that can be started, and an agent's past sessions to resume.
type Picker struct {
	ui.Box
	com     *ui.Common
	host    PickerHost
	cursor  int
	rows    []Row
	loading string // the agent whose sessions are being listed
	err     string
}

// PickerHost is what the agent picker asks of the program.
type PickerHost interface {
	ui.Globals
	// Pick acts on the row chosen: shows its conversation, starts its
	// agent, or lists the agent's past sessions (back in ShowSessions).
	Pick(row *Row) tea.Cmd
	// ToPrompt gives the keys to the prompt of the conversation shown,
	// as the human chose.
	ToPrompt()
}

var _ ui.Pane = (*Picker)(nil)

// NewPicker is the agent picker, which asks the program through host.
func NewPicker(com *ui.Common, host PickerHost) Picker {
	return Picker{com: com, host: host}
}

// Open fills the picker: the conversations running (convs, the one
// shown at active), then every agent the launcher knows, each startable
// and resumable.
func (p *Picker) Open(convs []*Chat, active int, launcher conversation.Launcher) {
	p.rows, p.err, p.loading = nil, "", ""
	for _, c := range convs {
		desc := "idle"
		switch {
		case c.over:
			desc = "ended"
		case c.turn:
			desc = "working"
		}
		if c.info.Title != "" {
			desc = cell.SanitizeLine(c.info.Title) + " · " + desc
		}
		if c.info.Session != "" {
			desc += " · session " + cell.SanitizeLine(c.info.Session)
		}
		p.rows = append(p.rows, Row{Kind: RowSwitch, Conv: c.id, label: c.name, desc: desc})
	}
	if launcher != nil {
		for _, a := range launcher.Agents() {
			name := cell.SanitizeLine(a.Name)
			r := Row{Kind: RowStart, Agent: a.Name, label: "start " + name, desc: cell.SanitizeLine(a.Description)}
			if a.Missing != "" {
				r.disabled, r.desc = true, cell.SanitizeLine(a.Missing)
			}
			p.rows = append(p.rows, r)
			// Resuming is offered wherever the agent can start; where it is
			// known that its sessions cannot be resumed, the row says why,
			// and only here: the transcript does not.
			switch {
			case a.Missing != "":
			case a.NoResume != "":
				p.rows = append(p.rows, Row{Kind: RowResume, Agent: a.Name, label: "resume " + name + "…", desc: cell.SanitizeLine(a.NoResume), disabled: true})
			default:
				p.rows = append(p.rows, Row{Kind: RowResume, Agent: a.Name, label: "resume " + name + "…", desc: "a past session"})
			}
		}
	}
	p.cursor = min(max(active, 0), max(len(p.rows)-1, 0))
}

// SetLoading says the past sessions of agent are being listed.
func (p *Picker) SetLoading(agent string) { p.loading = agent }

// Loading is the agent whose past sessions are being listed, or "".
func (p *Picker) Loading() string { return p.loading }

// Rows are the picker's rows, top to bottom.
func (p *Picker) Rows() []Row { return p.rows }

// Cursor is the row under the cursor.
func (p *Picker) Cursor() int { return p.cursor }

// ShowSessions replaces the rows with agent's past sessions.
func (p *Picker) ShowSessions(agent string, sessions []conversation.PastSession, err error) {
	p.loading = ""
	if err != nil {
		p.err = cell.SanitizeLine(err.Error())
		return
	}
	p.rows = nil
	for _, s := range sessions {
		title := cell.SanitizeLine(s.Title)
		if title == "" {
			title = cell.SanitizeLine(s.Session)
		}
		desc := cell.SanitizeLine(s.Cwd)
		if title != cell.SanitizeLine(s.Session) {
			desc = "session " + cell.SanitizeLine(s.Session) + " · " + desc
		}
		if !s.Updated.IsZero() {
			desc = s.Updated.Format("2006-01-02 15:04") + " · " + desc
		}
		p.rows = append(p.rows, Row{Kind: RowSession, Agent: agent, Session: s.Session, label: title, desc: desc})
	}
	if len(p.rows) == 0 {
		p.err = "no past sessions of " + cell.SanitizeLine(agent)
	}
	p.cursor = 0
}

// choose returns the row under the cursor to act on (nil when it cannot
// be chosen) and whether the picker closes: listing past sessions keeps
// it open.
func (p *Picker) choose() (*Row, bool) {
	if p.cursor >= len(p.rows) || p.rows[p.cursor].disabled {
		return nil, false
	}
	r := p.rows[p.cursor]
	return &r, r.Kind != RowResume
}

// View draws the picker in its size.
func (p *Picker) View() string {
	st, width := p.com.Styles, p.Width()
	lines := []string{st.Review.Title.Render("Agents"), ""}
	switch {
	case p.loading != "":
		lines = append(lines, st.Conversation.Status.Render("listing "+cell.SanitizeLine(p.loading)+"'s past sessions…"))
	case p.err != "":
		lines = append(lines, st.App.Error.Render(ansi.Truncate(p.err, width, "…")))
	}
	room := max(p.Height()-len(lines), 1)
	first := max(p.cursor-room+1, 0)
	for i := first; i < len(p.rows) && i < first+room; i++ {
		r := p.rows[i]
		mark, style := "  ", st.Inbox.Item
		if r.disabled {
			style = st.App.Bar
		}
		if i == p.cursor {
			mark, style = st.Option.Cursor.String()+" ", st.Inbox.Active
		}
		line := mark + style.Render(r.label)
		if r.desc != "" {
			line += st.Inbox.Meta.Render(" · " + r.desc)
		}
		lines = append(lines, ansi.Truncate(line, width, "…"))
	}
	return strings.Join(lines, "\n")
}

// Actions are the picker's keys; the help and quitting work beside them.
func (p *Picker) Actions() []ui.Action {
	k := p.com.Keys.Agents
	return []ui.Action{
		ui.Move(k.Open, func(ui.KeyMsg) tea.Cmd {
			row, done := p.choose()
			if done {
				p.host.ToPrompt() // switching shows where the human left it (enter)
			}
			if row != nil {
				return p.host.Pick(row)
			}
			return nil
		}).InBar().In("Agents"),
		ui.Move(k.Up, func(ui.KeyMsg) tea.Cmd { p.cursor = max(p.cursor-1, 0); return nil }).InBar(k.Move).In("Agents"),
		ui.Move(k.Down, func(ui.KeyMsg) tea.Cmd { p.cursor = min(p.cursor+1, max(len(p.rows)-1, 0)); return nil }).In("Agents"),
		ui.Move(k.Back, func(ui.KeyMsg) tea.Cmd { p.host.ToPrompt(); return nil }).InBar().In("Agents"),
		p.host.Help(false).InBar().In("Everywhere"),
		p.host.Quit(),
	}
}

// Typist is nil: the picker takes no text.
func (*Picker) Typist() func(tea.Msg) tea.Cmd { return nil }

// ShortHelp implements help.KeyMap.
func (p *Picker) ShortHelp() []key.Binding { return ui.ShortHelp(p) }

// FullHelp implements help.KeyMap.
func (p *Picker) FullHelp() [][]key.Binding { return ui.FullHelp(p) }
