// Command panels hosts two of asktui's question panels (tui.Panel) in
// one bubbletea program: two agents ask at once, each in a panel of its
// own, and tab moves the keys between them. Every message goes to both
// panels, as a host does; a key reaches only the one with the focus.
// The answers are written into the program's log; q quits once both are
// answered, ctrl+c at any time.
//
//	go run ./examples/panels
package main

import (
	"fmt"
	"os"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/tui"
)

// asked is one panel and the agent it asks for.
type asked struct {
	agent string
	panel *tui.Panel
}

// app is the host program: its log, and the panels still asking.
type app struct {
	log           []string
	panels        []asked // still open, in screen order
	focus         int     // index in panels of the one with the keys
	help          help.Model
	width, height int
}

var (
	// The host routes these before any panel sees a key: tab is the
	// host's here, not the panels' (their requests have one question
	// each, where tab does nothing).
	nextKey = key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "other panel"))
	quitKey = key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit"))
	doneKey = key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit"))
	title   = lipgloss.NewStyle().Bold(true)
	marked  = lipgloss.NewStyle().Bold(true).Reverse(true)
)

func newApp() (*app, error) {
	a := &app{help: help.New(), width: 80, height: 24}
	for _, r := range []interaction.Request{
		{Agent: &interaction.Agent{ID: "deployer", Name: "deployer"}, Questions: []interaction.Question{{
			ID: "env", Question: "Where should build 1.8.0 go?",
			Options: []interaction.Option{{Label: "Staging"}, {Label: "Production"}},
		}}},
		{Agent: &interaction.Agent{ID: "migrator", Name: "migrator"}, Questions: []interaction.Question{{
			ID: "when", Question: "When should the migration run?",
			Options: []interaction.Option{{Label: "Now"}, {Label: "Tonight"}},
		}}},
	} {
		// Chosen: the human started this program to answer them.
		p, err := tui.NewPanel(r, tui.PanelOptions{Chosen: true})
		if err != nil {
			return nil, err
		}
		a.panels = append(a.panels, asked{agent: r.Agent.Name, panel: p})
	}
	return a, nil
}

func (a *app) Init() tea.Cmd {
	var cmds []tea.Cmd
	for _, p := range a.panels {
		cmds = append(cmds, p.panel.Init())
	}
	return tea.Batch(append(cmds, a.panels[0].panel.Focus())...)
}

func (a *app) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
		a.help.SetWidth(msg.Width)
		a.resize()
	case tui.PanelDoneMsg:
		return a, a.done(msg)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, quitKey), len(a.panels) == 0 && key.Matches(msg, doneKey):
			return a, tea.Quit
		case key.Matches(msg, nextKey) && len(a.panels) > 1:
			return a, a.moveFocus((a.focus + 1) % len(a.panels))
		}
	}
	// Every panel gets every message; only the focused one takes keys.
	var cmds []tea.Cmd
	for _, p := range a.panels {
		cmds = append(cmds, p.panel.Update(msg))
	}
	return a, tea.Batch(cmds...)
}

// moveFocus gives the keys to panel i, taking them from the one that had
// them.
func (a *app) moveFocus(i int) tea.Cmd {
	if a.focus < len(a.panels) {
		a.panels[a.focus].panel.Blur()
	}
	a.focus = i
	return a.panels[i].panel.Focus()
}

// done writes a panel's answer into the log and closes it; the keys go to
// the panel left, if any.
func (a *app) done(msg tui.PanelDoneMsg) tea.Cmd {
	for i, p := range a.panels {
		if p.panel != msg.Panel {
			continue
		}
		if msg.Err != nil {
			a.log = append(a.log, p.agent+": "+string(interaction.CodeOf(msg.Err)))
		} else {
			item := msg.Answer.Answers[0]
			a.log = append(a.log, p.agent+": "+strings.Join(item.Selected, ", ")+item.Custom)
		}
		a.panels = append(a.panels[:i], a.panels[i+1:]...)
		a.resize()
		if len(a.panels) == 0 {
			return nil
		}
		return a.moveFocus(0)
	}
	return nil
}

// logRows is the rows of the log: its title and its last three lines.
const logRows = 5

// resize shares the rows under the log between the panels.
func (a *app) resize() {
	if len(a.panels) == 0 {
		return
	}
	h := max((a.height-logRows-1)/len(a.panels)-1, 3)
	for _, p := range a.panels {
		p.panel.SetSize(a.width, h)
	}
}

func (a *app) View() tea.View {
	var b strings.Builder
	b.WriteString(title.Render("answers") + "\n")
	from := max(len(a.log)-3, 0)
	for _, l := range a.log[from:] {
		b.WriteString("  " + l + "\n")
	}
	for range 3 - (len(a.log) - from) {
		b.WriteString("\n")
	}
	b.WriteString("\n")
	keys := []key.Binding{doneKey}
	for i, p := range a.panels {
		name := " " + p.agent + " "
		if i == a.focus {
			name = marked.Render(name)
			keys = append(p.panel.ShortHelp(), quitKey)
			if len(a.panels) > 1 {
				keys = append(keys, nextKey)
			}
		}
		b.WriteString(name + "\n" + p.panel.View() + "\n")
	}
	b.WriteString(a.help.ShortHelpView(keys))
	v := tea.NewView(b.String())
	v.AltScreen = true
	return v
}

func main() {
	a, err := newApp()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if _, err := tea.NewProgram(a).Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, l := range a.log {
		fmt.Println(l)
	}
}
