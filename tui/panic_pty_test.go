//go:build !windows

package tui

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/ptytest"
	"github.com/asktui/asktui/styles"
)

// panicEnv, set in a child test process, makes it run panicChild instead
// of the tests; its value says where the program panics.
const panicEnv = "ASKTUI_TEST_PANIC"

// init runs before the tests (and TestMain's leak check): a child is only
// the program that panics.
func init() {
	if where := os.Getenv(panicEnv); where != "" {
		os.Exit(panicChild(where))
	}
}

// panicKey, typed on the terminal, makes the child's program panic: the
// release binary has no way to panic on purpose, the test filter does.
const panicKey = "\x07" // ctrl+g

// panicReport is what the child prints on standard output once its
// program has ended.
type panicReport struct {
	RunErr     string   // what Run returned
	Panicked   bool     // Run's error is tea.ErrProgramPanic
	AskCodes   []string // the code of each Ask's error, "" for none
	AskTimeout bool     // an Ask still waited a minute after Run returned
}

// panicChild runs a program on the terminal that is its standard input,
// with two requests waiting, and makes it panic on panicKey: in Update
// (where "update") or in a command (where "command"). It prints a
// panicReport and exits.
func panicChild(where string) int {
	boom := func() tea.Msg { panic("test panic in Update") }
	if where == "command" {
		boom = func() tea.Msg {
			return tea.BatchMsg{func() tea.Msg { panic("test panic in a command") }}
		}
	}
	p := New(Options{
		Input: os.Stdin, Output: os.Stdin, Theme: styles.ThemeDark, Environ: os.Environ(),
		programOptions: []tea.ProgramOption{tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "ctrl+g" {
				return boom()
			}
			return msg
		})},
	})
	asked := make(chan error, 2)
	for _, text := range []string{"Deploy now?", "Which region?"} {
		go func() {
			_, err := p.Provider().Ask(context.Background(), interaction.Request{Questions: []interaction.Question{{
				ID: "q", Question: text, Options: []interaction.Option{{Label: "Yes"}, {Label: "No"}},
			}}})
			asked <- err
		}()
	}
	err := p.Run(context.Background())
	r := panicReport{Panicked: errors.Is(err, tea.ErrProgramPanic)}
	if err != nil {
		r.RunErr = err.Error()
	}
	for range 2 {
		select {
		case err := <-asked:
			r.AskCodes = append(r.AskCodes, string(interaction.CodeOf(err)))
		case <-time.After(time.Minute):
			r.AskTimeout = true
		}
	}
	_ = json.NewEncoder(os.Stdout).Encode(r)
	return 0
}

// TestPTYPanicRestoresTerminalAndFailsAsks panics inside a program running
// on a pseudo-terminal, in Update and in a command. bubbletea recovers
// either (unless WithoutCatchPanics), restores the terminal, prints the
// panic on stderr and makes Run fail with ErrProgramPanic; every waiting
// Ask must then end with a coded error, and the terminal must be as it
// was: its modes reset and stty -g unchanged.
//
// The program runs in a child process, as in asktui: after a panic
// bubbletea shuts down as killed, closing its input reader under the
// goroutine still reading, which can stay blocked on the terminal (failing
// this package's leak check) and which the race detector reports inside
// bubbletea and cancelreader.
func TestPTYPanicRestoresTerminalAndFailsAsks(t *testing.T) {
	if raceEnabled {
		t.Skip("skipped under -race: the child would be a race binary, and bubbletea's shutdown after a panic races with its own input reader (run by .ci/run without -race)")
	}
	for _, where := range []string{"update", "command"} {
		t.Run(where, func(t *testing.T) {
			t.Parallel()
			term := ptytest.New(t, ptytest.Options{})
			before := term.Stty()
			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.CommandContext(context.Background(), exe) //nolint:gosec // the test runs a command of its own choosing
			cmd.Env = []string{panicEnv + "=" + where, "TERM=xterm-256color", "PATH=" + os.Getenv("PATH")}
			child := ptytest.Start(t, term, cmd)

			// The title counts the requests once both are in the program.
			term.WaitForBytes(0, "asktui (2 waiting)")
			term.Type(panicKey)
			child.Wait(func() string { return term.Text(0) })

			var r panicReport
			switch err := json.Unmarshal(child.Stdout.Bytes(), &r); {
			case err != nil:
				t.Errorf("the child (%v) reported %q (%v); stderr:\n%s", cmd.ProcessState, child.Stdout.String(), err, child.Stderr.String())
			case !r.Panicked:
				t.Errorf("Run returned %q, want ErrProgramPanic", r.RunErr)
			case r.AskTimeout || len(r.AskCodes) != 2 || r.AskCodes[0] == "" || r.AskCodes[1] == "":
				t.Errorf("the Asks ended with codes %q (still waiting: %v), want a code each", r.AskCodes, r.AskTimeout)
			}
			if !strings.Contains(child.Stderr.String(), "Caught panic") {
				t.Errorf("stderr does not report the panic:\n%s", child.Stderr.String())
			}
			term.CheckRestored(before)
		})
	}
}
