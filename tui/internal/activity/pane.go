// Package activity is the session's activity: the log of what every
// agent said and did, the questions it asked and what became of them
// (Log, which the program writes), and the pane that shows it, with who
// is thinking.
package activity

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/ui"
)

// Pane is the session's activity pane: the log and who is
// thinking.
type Pane struct {
	ui.Box
	com  *ui.Common
	host Host
	log  *Log
}

// Host is what the activity pane asks of the program.
type Host interface {
	ui.Globals
	// Spinner is the spinner's frame beside who is thinking.
	Spinner() string
	// Page is the rows a page key scrolls.
	Page() int
	// ShowPanel gives the question panel the keys (esc).
	ShowPanel()
}

var _ ui.Pane = (*Pane)(nil)

// New is the pane showing log, drawing with com and asking host.
func New(com *ui.Common, host Host, log *Log) Pane {
	return Pane{com: com, host: host, log: log}
}

// View draws the pane: a title, the log and who is thinking.
func (p *Pane) View() string {
	st, width, height := p.com.Styles, p.Width(), p.Height()
	title := st.Activity.Title.Render("Activity")
	hint := ""
	if p.Focused() {
		title = st.Activity.TitleFocused.Render("Activity")
		k := p.com.Keys.Activity
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
		body = p.log.view(width, max(rows, 0), st, p.com.Keys.Activity.End)
	}
	out := []string{ansi.Truncate(title+hint, width, "…")}
	if body != "" {
		out = append(out, body)
	}
	out = append(out, live...)
	return strings.Join(out, "\n")
}

// Actions are the pane's keys: scrolling, and back to the panel.
func (p *Pane) Actions() []ui.Action {
	k := p.com.Keys.Activity
	out := p.ScrollActions(true)
	out = append(out, ui.Move(k.Back, func(ui.KeyMsg) tea.Cmd {
		p.host.ShowPanel()
		p.log.scroll = 0 // follow the newest again
		return nil
	}).InBar().In("Activity"))
	return append(out, p.host.Globals(false)...)
}

// Typist implements ui.Pane: the pane types nothing.
func (*Pane) Typist() func(tea.Msg) tea.Cmd { return nil }

// ShortHelp implements help.KeyMap.
func (p *Pane) ShortHelp() []key.Binding { return ui.ShortHelp(p) }

// FullHelp implements help.KeyMap.
func (p *Pane) FullHelp() [][]key.Binding { return ui.FullHelp(p) }

// ScrollActions are the keys that scroll the log: in its pane, and on the
// idle screen, where it fills the body. End shows only when the log is
// scrolled back.
func (p *Pane) ScrollActions(bar bool) []ui.Action {
	k := p.com.Keys.Activity
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
