//go:build !windows

package tui

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/ptytest"
	"github.com/asktui/asktui/styles"
)

// askChildEnv, set in a child test process, makes it run askChild
// instead of the tests.
const askChildEnv = "ASKTUI_TEST_ASK_CHILD"

func init() {
	if os.Getenv(askChildEnv) != "" {
		os.Exit(askChild())
	}
}

// askChild asks two questions in turn with Ask's defaults, as a program
// of a library user's would, printing each answer on standard output
// (which the test makes a pipe, as in `prog | cat`).
func askChild() int {
	openTerminal, askStarted = openTTY, nil // the real terminal, whatever the tests set
	for _, text := range []string{"First question?", "Second question?"} {
		ans, err := Ask(context.Background(), interaction.Request{Questions: []interaction.Question{{
			ID: "q", Question: text, Options: []interaction.Option{{Label: "Yes"}, {Label: "No"}},
		}}}, AskOptions{Theme: styles.ThemeDark})
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		fmt.Println(ans.Answers[0].Selected[0])
	}
	return 0
}

// TestPTYAskOnTheControllingTerminal runs Ask in a process whose
// standard output is a pipe: it draws on the controlling terminal (the
// pseudo-terminal), takes the keys typed there, prints each answer on
// standard output after the UI has left the screen, asks the second on
// the same terminal, and leaves it as it found it.
func TestPTYAskOnTheControllingTerminal(t *testing.T) {
	if raceEnabled {
		t.Skip("skipped under -race: bubbletea's concurrent terminal size checks race (run by .ci/run without -race)")
	}
	term := ptytest.New(t, ptytest.Options{})
	before := term.Stty()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(context.Background(), exe) //nolint:gosec // the test runs a command of its own choosing
	cmd.Env = []string{askChildEnv + "=1", "TERM=xterm-256color", "PATH=" + os.Getenv("PATH")}
	child := ptytest.Start(t, term, cmd)

	waitTakesKeys := func(mark int, question string) {
		// The question, then its hint once any keys held while it has
		// just appeared are let go.
		term.WaitUntil(mark, question+" to take keys", func() bool {
			text := term.Text(mark)
			return strings.Contains(text, question) && strings.Contains(text[max(strings.LastIndex(text, "held"), 0):], "Pick")
		})
	}
	waitTakesKeys(0, "First")
	term.Type("\r") // Yes
	mark := term.Mark()
	waitTakesKeys(mark, "Second")
	term.Type("2") // No
	if code := child.Wait(func() string { return term.Text(0) }); code != 0 {
		t.Fatalf("exit %d; stdout %q; stderr:\n%s", code, child.Stdout.String(), child.Stderr.String())
	}
	if got, want := child.Stdout.String(), "Yes\nNo\n"; got != want {
		t.Errorf("standard output = %q, want %q: the answers only", got, want)
	}
	term.CheckRestored(before)
}
