package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktui/asktui/internal/ptytest"
)

// TestPTYEmbed runs the example on a pseudo-terminal as a human would: d
// opens the question panel inside the program's own screen, 2 answers it,
// the program writes the answer into its log; d and esc, y decline; q
// quits and the log is printed.
func TestPTYEmbed(t *testing.T) {
	if ptytest.RaceEnabled {
		t.Skip("skipped under -race: bubbletea's concurrent terminal size checks race (run by .ci/run without -race)")
	}
	bin := filepath.Join(t.TempDir(), "embed")
	if out, err := exec.CommandContext(context.Background(), "go", "build", "-o", bin, ".").CombinedOutput(); err != nil { //nolint:gosec // the test runs a command of its own choosing
		t.Fatalf("go build: %v\n%s", err, out)
	}
	term := ptytest.New(t, ptytest.Options{})
	cmd := exec.CommandContext(context.Background(), bin) //nolint:gosec // the test runs a command of its own choosing
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = term.Slave, term.Slave, term.Slave
	p := ptytest.Start(t, term, cmd)
	term.WaitFor(0, "log")
	mark := term.Mark()
	term.Type("d")
	term.WaitFor(mark, "Where")
	term.WaitFor(mark, "Pick")
	term.Type("2")
	term.WaitFor(mark, "deploying")
	mark = term.Mark()
	term.Type("d")
	term.WaitFor(mark, "Pick")
	term.Type("\x1b")
	term.WaitFor(mark, "Decline")
	term.Type("y")
	term.WaitFor(mark, "ASK_DECLINED")
	term.Type("q")
	if code := p.Wait(func() string { return term.Text(0) }); code != 0 {
		t.Fatalf("exit %d", code)
	}
	term.Drain() // the log is printed as the program ends
	if out := term.Text(mark); !strings.Contains(out, "deploying to Production") {
		t.Fatalf("the log printed at the end lacks the answer:\n%s", out)
	}
}
