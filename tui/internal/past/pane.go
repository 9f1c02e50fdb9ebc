// Package past is the past answers pane: the answers given in this
// session, newest last, each copied again as JSON on a key (an agent's
// client may have given up waiting for one).
package past

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/ui"
)

// Answer is an answer the human gave, kept to be looked at or copied
// again (an agent's client may have given up waiting for it).
type Answer struct {
	Agent    string    // display name
	AgentKey string    // the agent's key in the activity log, for its colour
	Question string    // what was asked, one line
	Summary  string    // what was answered, one line
	JSON     string    // the answer as the agent got it, for copying
	At       time.Time // when it was answered
}

// maxAnswers bounds the answers kept in the list; the history file keeps
// every one.
const maxAnswers = 500

// Pane lists the answers given in this session, newest last, and
// copies one's JSON to the clipboard.
type Pane struct {
	ui.Box
	com     *ui.Common
	host    Host
	answers []Answer
	cursor  int
}

// Host is what the past answers ask of the program.
type Host interface {
	ui.Globals
	// GoBack closes the list: the keys go back to where it was opened
	// from.
	GoBack()
	// Notice shows text on the status line.
	Notice(text string) tea.Cmd
	// AgentColor is the colour of the agent with key agentKey.
	AgentColor(agentKey string) int
}

var _ ui.Pane = (*Pane)(nil)

// New is the pane, drawing with com and asking host.
func New(com *ui.Common, host Host) Pane {
	return Pane{com: com, host: host}
}

// Add keeps an answer, dropping the oldest past maxAnswers.
func (p *Pane) Add(a Answer) {
	p.answers = append(p.answers, a)
	if len(p.answers) > maxAnswers {
		p.answers = p.answers[len(p.answers)-maxAnswers:]
	}
}

// Open puts the cursor on the newest answer.
func (p *Pane) Open() { p.cursor = max(len(p.answers)-1, 0) }

// copy puts the focused answer's JSON on the clipboard (OSC 52).
func (p *Pane) copy(notice func(string) tea.Cmd) tea.Cmd {
	if p.cursor >= len(p.answers) {
		return nil
	}
	a := p.answers[p.cursor]
	return tea.Batch(tea.SetClipboard(a.JSON), notice("⧉ Copied "+a.Agent+"'s answer to the clipboard"))
}

// View draws the list in its size: each answer's time, agent and
// question, and under it what was answered.
func (p *Pane) View() string {
	st, width := p.com.Styles, p.Width()
	rows := []string{st.Review.Title.Render("Past answers · " + cell.Plural(len(p.answers), "answer", "answers")), ""}
	if len(p.answers) == 0 {
		rows = append(rows, st.App.Empty.Render("No answers given yet in this session."))
		return strings.Join(rows, "\n")
	}
	room := max((p.Height()-len(rows))/2, 1) // two lines per answer
	first := max(p.cursor-room+1, 0)
	for i := first; i < len(p.answers) && i < first+room; i++ {
		a := p.answers[i]
		mark, style := "  ", st.Inbox.Item
		if i == p.cursor {
			mark, style = st.Option.Cursor.String()+" ", st.Inbox.Active
		}
		head := mark + st.Inbox.Meta.Render(a.At.Format("15:04")) + " " + st.AgentStyle(p.host.AgentColor(a.AgentKey)).Render(a.Agent) + " " + style.Render(a.Question)
		rows = append(rows, ansi.Truncate(head, width, "…"), ansi.Truncate("    "+st.Review.Answer.Render("→ "+a.Summary), width, "…"))
	}
	return strings.Join(rows, "\n")
}

// Actions are the list's keys: moving, copying, closing.
func (p *Pane) Actions() []ui.Action {
	k := p.com.Keys.Past
	var out []ui.Action
	if len(p.answers) > 0 {
		out = append(out,
			ui.Move(k.Copy, func(ui.KeyMsg) tea.Cmd { return p.copy(p.host.Notice) }).InBar().In("Past answers"),
			ui.Move(k.Up, func(ui.KeyMsg) tea.Cmd { p.cursor = max(p.cursor-1, 0); return nil }).InBar(k.Move).In("Past answers"),
			ui.Move(k.Down, func(ui.KeyMsg) tea.Cmd { p.cursor = min(p.cursor+1, max(len(p.answers)-1, 0)); return nil }).In("Past answers"),
		)
	}
	out = append(out, ui.Move(k.Back, func(ui.KeyMsg) tea.Cmd { p.host.GoBack(); return nil }).InBar().In("Past answers"))
	return append(out, p.host.Globals(false)...)
}

// Typist implements ui.Pane: the list types nothing.
func (*Pane) Typist() func(tea.Msg) tea.Cmd { return nil }

// ShortHelp implements help.KeyMap.
func (p *Pane) ShortHelp() []key.Binding { return ui.ShortHelp(p) }

// FullHelp implements help.KeyMap.
func (p *Pane) FullHelp() [][]key.Binding { return ui.FullHelp(p) }
