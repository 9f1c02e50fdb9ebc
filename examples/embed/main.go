// Command embed is a small bubbletea program of its own that hosts
// asktui's question panel (tui.Panel) beside its own content: a deploy
// log where d asks where to deploy, in the same screen, and the answer
// is written into the log. q quits.
//
//	go run ./examples/embed
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

// app is the host program: its own log, and the panel while it asks.
type app struct {
	log           []string
	panel         *tui.Panel
	help          help.Model
	width, height int
}

var (
	askKey  = key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "deploy…"))
	quitKey = key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit"))
	title   = lipgloss.NewStyle().Bold(true)
)

func (a *app) Init() tea.Cmd { return nil }

func (a *app) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
		a.help.SetWidth(msg.Width)
		if a.panel != nil {
			a.panel.SetSize(a.width, a.panelHeight())
		}
	case tui.PanelDoneMsg:
		switch {
		case msg.Err != nil:
			a.log = append(a.log, "not deployed: "+string(interaction.CodeOf(msg.Err)))
		default:
			item := msg.Answer.Answers[0]
			where := strings.Join(item.Selected, ", ") + item.Custom
			a.log = append(a.log, "deploying to "+where)
		}
		a.panel = nil
		return a, nil
	case tea.KeyPressMsg:
		switch {
		case a.panel == nil && key.Matches(msg, askKey):
			return a, a.ask()
		case key.Matches(msg, quitKey) && (a.panel == nil || msg.String() == "ctrl+c"):
			return a, tea.Quit
		}
	}
	if a.panel != nil {
		return a, a.panel.Update(msg)
	}
	return a, nil
}

// ask opens the panel: the human pressed d, so its keys act at once.
func (a *app) ask() tea.Cmd {
	p, err := tui.NewPanel(interaction.Request{
		Agent: &interaction.Agent{ID: "deployer", Name: "deployer"},
		Questions: []interaction.Question{{
			ID: "env", Header: "Deploy", Question: "Where should build 1.8.0 go?",
			Options: []interaction.Option{
				{Label: "Staging (Recommended)", Description: "every check passed"},
				{Label: "Production", Description: "customers see it at once"},
			},
		}},
	}, tui.PanelOptions{Chosen: true, Width: a.width, Height: a.panelHeight()})
	if err != nil {
		a.log = append(a.log, "cannot ask: "+err.Error())
		return nil
	}
	a.panel = p
	return tea.Batch(p.Init(), p.Focus()) // the only panel: it has the keys
}

// panelHeight is the rows under the title and the log's last lines.
func (a *app) panelHeight() int { return max(a.height-6, 3) }

func (a *app) View() tea.View {
	var b strings.Builder
	b.WriteString(title.Render("deploy log") + "\n")
	from := max(len(a.log)-3, 0)
	for _, l := range a.log[from:] {
		b.WriteString("  " + l + "\n")
	}
	for range 3 - (len(a.log) - from) {
		b.WriteString("\n")
	}
	b.WriteString("\n")
	var keys []key.Binding
	if a.panel != nil {
		b.WriteString(a.panel.View() + "\n")
		keys = append(a.panel.ShortHelp(), key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")))
	} else {
		keys = []key.Binding{askKey, quitKey}
	}
	b.WriteString(a.help.ShortHelpView(keys))
	v := tea.NewView(b.String())
	v.AltScreen = true
	return v
}

func main() {
	a := &app{log: []string{"build 1.8.0 is ready"}, help: help.New()}
	if _, err := tea.NewProgram(a).Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, l := range a.log {
		fmt.Println(l)
	}
}
