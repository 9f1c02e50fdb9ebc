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

// TestPTYTwoPanels runs the example on a pseudo-terminal as a human
// would: two panels ask at once; tab gives the keys to the second, and 1
// answers it alone (the first still asks); the keys then go to the first,
// which 2 answers; q quits and the log printed at the end has each
// answer once, in that order.
func TestPTYTwoPanels(t *testing.T) {
	if ptytest.RaceEnabled {
		t.Skip("skipped under -race: bubbletea's concurrent terminal size checks race (run by .ci/run without -race)")
	}
	bin := filepath.Join(t.TempDir(), "panels")
	if out, err := exec.CommandContext(context.Background(), "go", "build", "-o", bin, ".").CombinedOutput(); err != nil { //nolint:gosec // the test runs a command of its own choosing
		t.Fatalf("go build: %v\n%s", err, out)
	}
	term := ptytest.New(t, ptytest.Options{})
	cmd := exec.CommandContext(context.Background(), bin) //nolint:gosec // the test runs a command of its own choosing
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = term.Slave, term.Slave, term.Slave
	p := ptytest.Start(t, term, cmd)
	term.WaitFor(0, "Where should")
	term.WaitFor(0, "When should")
	mark := term.Mark()
	term.Type("\t")
	term.Type("1")
	term.WaitFor(mark, "migrator: Now")
	if s := term.Text(mark); strings.Contains(s, "deployer:") {
		t.Fatalf("one key answered the panel without the focus too:\n%s", s)
	}
	mark = term.Mark()
	term.Type("2")
	term.WaitFor(mark, "deployer: Production")
	term.Type("q")
	if code := p.Wait(func() string { return term.Text(0) }); code != 0 {
		t.Fatalf("exit %d", code)
	}
	term.Drain() // the log is printed as the program ends
	if out := term.Text(mark); !strings.Contains(out, "migrator: Now\r\ndeployer: Production") {
		t.Fatalf("the log printed at the end is not the two answers in order:\n%q", out)
	}
}
