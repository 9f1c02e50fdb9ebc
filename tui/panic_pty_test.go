//go:build !windows

package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/creack/pty"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/termstate"
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
			term := openPTY(t)
			before, err := termstate.Stty(term.slave)
			if err != nil {
				t.Skipf("cannot read the terminal's settings: %v", err)
			}
			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(exe)
			cmd.Env = []string{panicEnv + "=" + where, "TERM=xterm-256color", "PATH=" + os.Getenv("PATH")}
			cmd.Stdin, cmd.Stdout, cmd.Stderr = term.slave, &stdout, &stderr
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() {
				_ = cmd.Wait()
				close(exited)
			}()
			defer func() {
				select {
				case <-exited:
				default:
					_ = cmd.Process.Kill()
					<-exited
				}
			}()

			// The title counts the requests once both are in the program.
			term.out.waitFor(t, "asktui (2 waiting)")
			if _, err := term.master.WriteString(panicKey); err != nil {
				t.Fatal(err)
			}
			select {
			case <-exited:
			case <-time.After(time.Minute): // a failure, not a speed bound
				t.Fatalf("the program did not end after the panic; stderr:\n%s", stderr.String())
			}

			var r panicReport
			switch err := json.Unmarshal(stdout.Bytes(), &r); {
			case err != nil:
				t.Errorf("the child (%v) reported %q (%v); stderr:\n%s", cmd.ProcessState, stdout.String(), err, stderr.String())
			case !r.Panicked:
				t.Errorf("Run returned %q, want ErrProgramPanic", r.RunErr)
			case r.AskTimeout || len(r.AskCodes) != 2 || r.AskCodes[0] == "" || r.AskCodes[1] == "":
				t.Errorf("the Asks ended with codes %q (still waiting: %v), want a code each", r.AskCodes, r.AskTimeout)
			}
			if !strings.Contains(stderr.String(), "Caught panic") {
				t.Errorf("stderr does not report the panic:\n%s", stderr.String())
			}

			term.drain(t)
			tr := termstate.NewTracker()
			_, _ = tr.Write(term.out.bytes())
			if !tr.Changed(1049) || !tr.Changed(25) || !tr.Pushed() {
				t.Errorf("the alternate screen, the hidden cursor or the keyboard flags were never set: the check proves nothing")
			}
			for _, left := range tr.Leftovers() {
				t.Errorf("the terminal was not restored: %s", left)
			}
			if after, err := termstate.Stty(term.slave); err != nil || after != before {
				t.Errorf("stty -g changed (%v):\nbefore %s\nafter  %s", err, before, after)
			}
		})
	}
}

// testPTY is a pseudo-terminal whose master is read into out.
type testPTY struct {
	master, slave *os.File
	out           *recorder
}

// openPTY opens a 100x30 pseudo-terminal and reads its master until the
// test ends.
func openPTY(t *testing.T) *testPTY {
	t.Helper()
	master, slave, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: 30, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	term := &testPTY{master: master, slave: slave, out: newRecorder()}
	read := make(chan struct{})
	go func() {
		defer close(read)
		_, _ = term.out.ReadFrom(master)
	}()
	t.Cleanup(func() {
		// With the slave closed the master's Read fails (EIO), ending
		// the read loop; closing the master first would wait for the Read.
		_ = slave.Close()
		<-read
		_ = master.Close()
	})
	return term
}

// drain waits until everything written to the terminal so far has been
// read from the master.
func (term *testPTY) drain(t *testing.T) {
	t.Helper()
	const end = "[end-of-output]"
	if _, err := term.slave.WriteString(end); err != nil {
		t.Fatal(err)
	}
	term.out.waitFor(t, end)
}

// recorder keeps every byte written to it and tells waiters when more
// arrive.
type recorder struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{} // a send after each write, dropped when full
}

func newRecorder() *recorder { return &recorder{changed: make(chan struct{}, 1)} }

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	r.buf.Write(p)
	r.mu.Unlock()
	select {
	case r.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

// ReadFrom copies from src until it fails.
func (r *recorder) ReadFrom(src *os.File) (int64, error) {
	var n int64
	buf := make([]byte, 32<<10)
	for {
		m, err := src.Read(buf)
		if m > 0 {
			_, _ = r.Write(buf[:m])
			n += int64(m)
		}
		if err != nil {
			return n, err
		}
	}
}

func (r *recorder) bytes() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Clone(r.buf.Bytes())
}

// waitFor waits until the output, escape sequences included, holds want.
func (r *recorder) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(time.Minute) // a failure, not a speed bound
	for !bytes.Contains(r.bytes(), []byte(want)) {
		select {
		case <-r.changed:
		case <-deadline:
			t.Fatalf("the terminal never showed %q:\n%q", want, r.bytes())
		}
	}
}
