package tui_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/tui"
)

// The examples ask on the controlling terminal, as a program does. Under
// go test a scripted human answers them headless (see export_test.go).

// One question, and its answer printed once the UI is gone. This is the
// README's example: TestREADMEExample fails when the two differ.
func Example() {
	ans, err := tui.Ask(context.Background(), interaction.Request{Questions: []interaction.Question{{
		ID:       "db",
		Question: "Which database should the service use?",
		Options:  []interaction.Option{{Label: "PostgreSQL (Recommended)"}, {Label: "SQLite"}},
	}}}, tui.AskOptions{})
	if err != nil {
		log.Fatal(err) // ASK_DECLINED: declined by the human; PROVIDER_CLOSED (ctrl+c), NO_TTY …
	}
	if db := ans.Answers[0]; db.Custom != "" {
		fmt.Println(db.Custom) // typed on the "Other" row (NoOther: true leaves it out)
	} else {
		fmt.Println(db.Selected)
	}
	// Output: [PostgreSQL (Recommended)]
}

// Several questions in one request: the human answers them in turn (or in
// any order, with tab), reviews the answers and submits them together.
// Free text comes back in Custom; a skipped question has neither.
func ExampleAsk_batch() {
	ans, err := tui.Ask(context.Background(), interaction.Request{
		Agent: &interaction.Agent{ID: "setup", Name: "setup wizard"},
		Questions: []interaction.Question{
			{ID: "env", Header: "Environment", Question: "Where should it run?",
				Options: []interaction.Option{{Label: "Staging"}, {Label: "Production"}}},
			{ID: "db", Header: "Database", Question: "Which database?",
				Options: []interaction.Option{{Label: "PostgreSQL (Recommended)"}, {Label: "SQLite"}}},
			{ID: "extras", Header: "Extras", Question: "Which extras?", MultiSelect: true,
				Options: []interaction.Option{{Label: "Metrics"}, {Label: "Tracing"}, {Label: "Logs"}}},
			{ID: "notes", Header: "Notes", Question: "Anything else?"}, // no options: free text
		},
	}, tui.AskOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, item := range ans.Answers {
		fmt.Printf("%s: %s%s\n", item.ID, strings.Join(item.Selected, ", "), item.Custom)
	}
	// Output:
	// env: Production
	// db: PostgreSQL (Recommended)
	// extras: Metrics
	// notes: ship it
}

// A deadline on the context bounds the wait: the question leaves the
// screen and Ask returns ASK_TIMEOUT. Cancelling the context instead
// withdraws it with ASK_ABORTED.
func ExampleAsk_timeout() {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := tui.Ask(ctx, interaction.Request{Questions: []interaction.Question{{
		ID: "lunch", Question: "Lunch now?", Options: []interaction.Option{{Label: "Yes"}, {Label: "Later"}},
	}}}, tui.AskOptions{})
	switch {
	case errors.Is(err, interaction.ErrTimeout):
		fmt.Println("nobody answered in time:", interaction.CodeOf(err))
	case errors.Is(err, interaction.ErrDeclined):
		fmt.Println("declined")
	case err != nil:
		fmt.Println("could not ask:", err)
	}
	// Output: nobody answered in time: ASK_TIMEOUT
}

// Goroutines may ask at once: their questions take turns on the terminal,
// each shown once the one before it has left the screen, and each Ask
// returns its own answer. (To show them all at once, in one inbox, run a
// tui.Program and ask through its Provider.)
func ExampleAsk_goroutines() {
	checks := []string{"tests", "lint", "docs"}
	answers := make([]string, len(checks))
	var wg sync.WaitGroup
	for i, check := range checks {
		wg.Go(func() {
			ans, err := tui.Ask(context.Background(), interaction.Request{Questions: []interaction.Question{{
				ID:       check,
				Question: "The " + check + " check failed. What now?",
				Options:  []interaction.Option{{Label: "Retry"}, {Label: "Skip"}, {Label: "Stop"}},
			}}}, tui.AskOptions{Agent: check + " agent"})
			if err != nil {
				answers[i] = err.Error()
				return
			}
			answers[i] = ans.Answers[0].Selected[0]
		})
	}
	wg.Wait()
	for i, check := range checks {
		fmt.Printf("%s: %s\n", check, answers[i])
	}
	// Output:
	// tests: Retry
	// lint: Skip
	// docs: Stop
}

// host is a bubbletea program of your own that embeds the question panel
// (examples/embed is a whole one).
type host struct {
	panel  *tui.Panel
	answer []string
}

func (h *host) Init() tea.Cmd { return tea.Batch(h.panel.Init(), h.panel.Focus()) }

func (h *host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		h.panel.SetSize(msg.Width, msg.Height-1) // a line for your own help
	case tui.PanelDoneMsg:
		if msg.Err == nil {
			h.answer = msg.Answer.Answers[0].Selected
		}
		return h, tea.Quit
	}
	return h, h.panel.Update(msg)
}

func (h *host) View() tea.View {
	return tea.NewView(h.panel.View() + "\n" + help.New().ShortHelpView(h.panel.ShortHelp()))
}

// The question panel inside a program of your own: it draws in the space
// you give it, takes the keys you hand it, and sends a PanelDoneMsg with
// the answer.
func ExamplePanel() {
	p, err := tui.NewPanel(interaction.Request{Questions: []interaction.Question{{
		ID:       "db",
		Question: "Which database should the service use?",
		Options:  []interaction.Option{{Label: "PostgreSQL (Recommended)"}, {Label: "SQLite"}},
	}}}, tui.PanelOptions{Chosen: true}) // opened by the human: keys act at once
	if err != nil {
		log.Fatal(err)
	}
	h := &host{panel: p}
	keys, human := io.Pipe() // the terminal's keys, here typed by the example
	go func() { _, _ = human.Write([]byte("2")) }()
	prog := tea.NewProgram(h, tea.WithInput(keys), tea.WithOutput(io.Discard), tea.WithWindowSize(80, 24))
	if _, err := prog.Run(); err != nil {
		log.Fatal(err)
	}
	_ = human.Close() // ends bubbletea's reading of the keys
	fmt.Println(h.answer)
	// Output: [SQLite]
}
