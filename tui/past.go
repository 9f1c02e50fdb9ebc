package tui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/styles"
)

// pastAnswer is an answer the human gave, kept to be looked at or copied
// again (an agent's client may have given up waiting for it).
type pastAnswer struct {
	agent    string // display name
	agentKey string
	question string // what was asked, one line
	summary  string // what was answered, one line
	json     string
	at       time.Time
}

// maxPast bounds the answers kept in the list; the history file keeps
// every one.
const maxPast = 500

// pastPane lists the answers given in this session, newest last, and
// copies one's JSON to the clipboard.
type pastPane struct {
	keys    PastKeyMap
	answers []pastAnswer
	cursor  int
}

// add keeps an answer, dropping the oldest past maxPast.
func (p *pastPane) add(a pastAnswer) {
	p.answers = append(p.answers, a)
	if len(p.answers) > maxPast {
		p.answers = p.answers[len(p.answers)-maxPast:]
	}
}

// open puts the cursor on the newest answer.
func (p *pastPane) open() { p.cursor = max(len(p.answers)-1, 0) }

// HandleKey moves or copies; it returns the copy command (if any) and
// whether the human closed the list.
func (p *pastPane) HandleKey(msg keyMsg, notice func(string) tea.Cmd) (tea.Cmd, bool) {
	k := p.keys
	switch {
	case key.Matches(msg, k.Back):
		return nil, true
	case key.Matches(msg, k.Up):
		p.cursor = max(p.cursor-1, 0)
	case key.Matches(msg, k.Down):
		p.cursor = min(p.cursor+1, max(len(p.answers)-1, 0))
	case key.Matches(msg, k.Copy):
		if p.cursor < len(p.answers) {
			a := p.answers[p.cursor]
			return tea.Batch(tea.SetClipboard(a.json), notice("⧉ Copied "+a.agent+"'s answer to the clipboard")), false
		}
	}
	return nil, false
}

// ShortHelp lists the list's keys.
func (p *pastPane) ShortHelp() []key.Binding {
	k := p.keys
	if len(p.answers) == 0 {
		return []key.Binding{k.Back}
	}
	return []key.Binding{pair(k.Up, k.Down, "↑/↓", "move"), k.Copy, k.Back}
}

// FullHelp lists the list's keys, all of them.
func (p *pastPane) FullHelp() [][]key.Binding {
	k := p.keys
	return [][]key.Binding{{k.Up, k.Down, k.Copy, k.Back}}
}

// View draws the list in width×height: each answer's time, agent and
// question, and under it what was answered.
func (p *pastPane) View(width, height int, st *styles.Styles, color func(string) int) string {
	rows := []string{st.Review.Title.Render("Past answers · " + plural(len(p.answers), "answer", "answers")), ""}
	if len(p.answers) == 0 {
		rows = append(rows, st.App.Empty.Render("No answers given yet in this session."))
		return strings.Join(rows, "\n")
	}
	room := max((height-len(rows))/2, 1) // two lines per answer
	first := max(p.cursor-room+1, 0)
	for i := first; i < len(p.answers) && i < first+room; i++ {
		a := p.answers[i]
		mark, style := "  ", st.Inbox.Item
		if i == p.cursor {
			mark, style = st.Option.Cursor.String()+" ", st.Inbox.Active
		}
		head := mark + st.Inbox.Meta.Render(a.at.Format("15:04")) + " " + st.AgentStyle(color(a.agentKey)).Render(a.agent) + " " + style.Render(a.question)
		rows = append(rows, ansi.Truncate(head, width, "…"), ansi.Truncate("    "+st.Review.Answer.Render("→ "+a.summary), width, "…"))
	}
	return strings.Join(rows, "\n")
}
