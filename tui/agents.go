package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/styles"
)

// pickKind says what a row of the agent picker does.
type pickKind int

const (
	pickSwitch  pickKind = iota // show a running conversation
	pickStart                   // start an agent
	pickResume                  // list an agent's past sessions
	pickSession                 // resume a past session
)

// pickRow is one row of the agent picker.
type pickRow struct {
	kind     pickKind
	conv     string // pickSwitch
	agent    string // pickStart, pickResume, pickSession
	session  string // pickSession
	label    string
	desc     string
	disabled bool
}

// agentPicker lists the running conversations, the agents that can be
// started, and an agent's past sessions to resume.
type agentPicker struct {
	cursor  int
	rows    []pickRow
	loading string // the agent whose sessions are being listed
	err     string
}

// open fills the picker: the conversations running, then every agent
// the launcher knows, each startable and resumable.
func (p *agentPicker) open(convs []*chat, active int, launcher conversation.Launcher) {
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
			desc = SanitizeLine(c.info.Title) + " · " + desc
		}
		if c.info.Session != "" {
			desc += " · session " + SanitizeLine(c.info.Session)
		}
		p.rows = append(p.rows, pickRow{kind: pickSwitch, conv: c.id, label: c.name, desc: desc})
	}
	if launcher != nil {
		for _, a := range launcher.Agents() {
			name := SanitizeLine(a.Name)
			r := pickRow{kind: pickStart, agent: a.Name, label: "start " + name, desc: SanitizeLine(a.Description)}
			if a.Missing != "" {
				r.disabled, r.desc = true, SanitizeLine(a.Missing)
			}
			p.rows = append(p.rows, r)
			if a.Missing == "" && a.NoResume == "" {
				p.rows = append(p.rows, pickRow{kind: pickResume, agent: a.Name, label: "resume " + name + "…", desc: "a past session"})
			}
		}
	}
	p.cursor = min(max(active, 0), max(len(p.rows)-1, 0))
}

// showSessions replaces the rows with agent's past sessions.
func (p *agentPicker) showSessions(agent string, sessions []conversation.PastSession, err error) {
	p.loading = ""
	if err != nil {
		p.err = SanitizeLine(err.Error())
		return
	}
	p.rows = nil
	for _, s := range sessions {
		title := SanitizeLine(s.Title)
		if title == "" {
			title = SanitizeLine(s.Session)
		}
		desc := SanitizeLine(s.Cwd)
		if title != SanitizeLine(s.Session) {
			desc = "session " + SanitizeLine(s.Session) + " · " + desc
		}
		if !s.Updated.IsZero() {
			desc = s.Updated.Format("2006-01-02 15:04") + " · " + desc
		}
		p.rows = append(p.rows, pickRow{kind: pickSession, agent: agent, session: s.Session, label: title, desc: desc})
	}
	if len(p.rows) == 0 {
		p.err = "no past sessions of " + SanitizeLine(agent)
	}
	p.cursor = 0
}

// choose returns the row under the cursor to act on (nil when it cannot
// be chosen) and whether the picker closes: listing past sessions keeps
// it open.
func (p *agentPicker) choose() (*pickRow, bool) {
	if p.cursor >= len(p.rows) || p.rows[p.cursor].disabled {
		return nil, false
	}
	r := p.rows[p.cursor]
	return &r, r.kind != pickResume
}

// View draws the picker in width×height.
func (p *agentPicker) View(width, height int, st *styles.Styles) string {
	lines := []string{st.Review.Title.Render("Agents"), ""}
	switch {
	case p.loading != "":
		lines = append(lines, st.Conversation.Status.Render("listing "+SanitizeLine(p.loading)+"'s past sessions…"))
	case p.err != "":
		lines = append(lines, st.App.Error.Render(ansi.Truncate(p.err, width, "…")))
	}
	room := max(height-len(lines), 1)
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
