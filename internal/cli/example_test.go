package cli

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/tui"
)

// Example_library is the README's Go example: asktui's terminal UI as the
// provider of an interaction.Service. It needs a terminal, so it is
// compiled but not run (it has no Output comment).
func Example_library() {
	ctx := context.Background()

	// The UI on stdin/stdout; pass Input and Output to use another terminal.
	ui := tui.New(tui.Options{})
	svc := interaction.NewService()
	unregister, err := svc.Register(ui.Provider())
	if err != nil {
		log.Fatal(err)
	}
	defer unregister()

	type result struct {
		answer interaction.Answer
		err    error
	}
	done := make(chan result, 1)
	go func() {
		ans, err := svc.Ask(ctx, interaction.Request{
			Agent: &interaction.Agent{ID: "example", Name: "Example agent"},
			Questions: []interaction.Question{{
				ID:       "db",
				Header:   "Database",
				Question: "Which database should the service use?",
				Options: []interaction.Option{
					{Label: "PostgreSQL (Recommended)", Description: "Managed, in the same region"},
					{Label: "SQLite", Description: "A file next to the binary"},
				},
			}},
		})
		done <- result{ans, err}
		ui.Quit() // one question, then close the UI
	}()

	if err := ui.Run(ctx); err != nil && !errors.Is(err, tui.ErrInterrupted) {
		log.Fatal(err)
	}
	r := <-done
	switch interaction.CodeOf(r.err) {
	case "":
		item, _ := r.answer.Get("db")
		fmt.Println("selected:", item.Selected, "custom:", item.Custom)
	case interaction.CodeDeclined:
		fmt.Println("the human declined")
	default:
		fmt.Println("no answer:", r.err)
	}
}
