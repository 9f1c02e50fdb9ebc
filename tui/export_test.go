package tui

import (
	"io"
	"strings"

	"github.com/asktui/asktui/interaction"
)

// The examples call Ask as a program would, on the controlling terminal,
// and go test runs them headless: in this test binary the "controlling
// terminal" is an input that has ended and an output that goes nowhere,
// and the human is played by Program.Press. Nothing is drawn on the
// terminal go test runs in, and no example waits for a person.
func init() {
	openTerminal = func() (io.Reader, io.Writer, error) { return strings.NewReader(""), io.Discard, nil }
	askStarted = exampleHuman
}

// exampleKeys are what the human of the examples presses for a request,
// by the id of its first question. A request not listed here is left
// unanswered (until its context ends).
var exampleKeys = map[string][]string{
	// Example (the README's): the first option.
	"db": {"enter"},
	// ExampleAsk_batch: Production; PostgreSQL; Metrics, confirmed; a
	// note typed; and on the review, submit.
	"env": {"down", "enter", "enter", "space", "enter", "ship it", "enter", "enter"},
	// ExampleAsk_goroutines: each agent's question by number.
	"tests": {"1"},
	"lint":  {"2"},
	"docs":  {"3"},
}

// exampleHuman presses the keys of req once it is on screen.
func exampleHuman(p *Program, req interaction.Request) {
	keys, ok := exampleKeys[req.Questions[0].ID]
	if !ok {
		return
	}
	var agent interaction.Agent
	if req.Agent != nil {
		agent = *req.Agent
	}
	// Focus holds the keys until the request is on screen.
	_ = p.Focus(agent)
	_ = p.Press(keys...)
}
