//go:build !windows

// Package ptytest is the pseudo-terminal harness of asktui's end-to-end
// tests: a [Terminal] stands in for the human's (the program draws on its
// slave, the test types on its master and waits for what was drawn), and
// [Start] runs a program as a process of its own on it, in a new session
// with the terminal as its controlling terminal, as a shell would. Only
// tests import it.
package ptytest

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/asktui/asktui/internal/sanitize"
	"github.com/asktui/asktui/internal/termstate"
)

// Within bounds every wait of the package: a failure deadline, not a speed
// bound.
const Within = time.Minute

// Options configure a [Terminal]. The zero value is a 100x30 terminal.
type Options struct {
	// Cols and Rows are the terminal's size; zero means 100 and 30.
	Cols, Rows int
	// OnRead, when set, sees every chunk read from the master, on the
	// reading goroutine, as it arrives and before any waiter wakes: for
	// tests that time what they see.
	OnRead func(chunk []byte)
}

// Terminal is a pseudo-terminal whose master is read until the test ends,
// so that the program on it never blocks writing.
type Terminal struct {
	// Master is the test's side: what the human types goes in, what the
	// program draws comes out (read by the Terminal; see Output).
	Master *os.File
	// Slave is the program's side, its terminal.
	Slave *os.File

	t      testing.TB
	onRead func([]byte)

	mu      sync.Mutex
	out     bytes.Buffer  // everything drawn so far
	changed chan struct{} // a send after each read, dropped when full
	closed  chan struct{} // the read loop has ended
}

// New opens a pseudo-terminal for the rest of the test, or skips the test
// when the system has none.
func New(t testing.TB, opts Options) *Terminal {
	t.Helper()
	if opts.Cols == 0 {
		opts.Cols = 100
	}
	if opts.Rows == 0 {
		opts.Rows = 30
	}
	master, slave, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: uint16(opts.Rows), Cols: uint16(opts.Cols)}); err != nil { //nolint:gosec // a test terminal of a few hundred cells at most
		t.Fatal(err)
	}
	term := &Terminal{
		Master:  pollable(t, master),
		Slave:   slave,
		t:       t,
		onRead:  opts.OnRead,
		changed: make(chan struct{}, 1),
		closed:  make(chan struct{}),
	}
	go term.read()
	t.Cleanup(func() {
		// Closing the master ends the read loop. The slave stays open: a
		// program run in the test's own process (bubbletea) may still read
		// its size from a goroutine that outlives the program, and closing
		// it would race with that read.
		_ = term.Master.Close()
		<-term.closed
	})
	return term
}

// pollable returns f as a non-blocking file, so that closing it ends a
// Read in progress (creack/pty hands out a blocking master, whose Close
// would wait for the Read). The copy is closed on exec, as every file Go
// opens is: a child process holding the master open would keep its
// terminal from ever hanging up.
func pollable(t testing.TB, f *os.File) *os.File {
	t.Helper()
	syscall.ForkLock.RLock()
	fd, err := syscall.Dup(int(f.Fd()))
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	if err := syscall.SetNonblock(fd, true); err != nil {
		t.Fatal(err)
	}
	return os.NewFile(uintptr(fd), f.Name())
}

// read drains the master until it is closed or hangs up.
func (term *Terminal) read() {
	defer close(term.closed)
	buf := make([]byte, 64<<10)
	for {
		n, err := term.Master.Read(buf)
		if n > 0 {
			if term.onRead != nil {
				term.onRead(buf[:n])
			}
			term.mu.Lock()
			term.out.Write(buf[:n])
			term.mu.Unlock()
			select {
			case term.changed <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// OpenTTY hands out the slave as the terminal the program draws on and
// reads keys from, as tea.OpenTTY hands out /dev/tty.
func (term *Terminal) OpenTTY() (in, out *os.File, err error) {
	return term.Slave, term.Slave, nil
}

// Mark returns the current end of the output, for the waits.
func (term *Terminal) Mark() int {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.out.Len()
}

// Output returns everything drawn on the terminal so far.
func (term *Terminal) Output() []byte {
	term.mu.Lock()
	defer term.mu.Unlock()
	return bytes.Clone(term.out.Bytes())
}

// Text returns the output after mark with escape sequences removed.
func (term *Terminal) Text(mark int) string {
	term.mu.Lock()
	defer term.mu.Unlock()
	return sanitize.StripEscapes(string(term.out.Bytes()[mark:]))
}

// WaitFor waits until the text after mark (see [Terminal.Text]) shows
// want. want should hold no spaces: a renderer may draw runs of blanks as
// cursor movements.
func (term *Terminal) WaitFor(mark int, want string) {
	term.t.Helper()
	term.WaitUntil(mark, strconv.Quote(want), func() bool { return strings.Contains(term.Text(mark), want) })
}

// WaitForBytes waits until the output after mark, escape sequences
// included, holds want: a window title, say.
func (term *Terminal) WaitForBytes(mark int, want string) {
	term.t.Helper()
	term.WaitUntil(mark, strconv.Quote(want), func() bool {
		term.mu.Lock()
		defer term.mu.Unlock()
		return bytes.Contains(term.out.Bytes()[mark:], []byte(want))
	})
}

// WaitUntil waits until shown, checked now and after every read, reports
// true; what names the wait in a failure, which shows the output after
// mark.
func (term *Terminal) WaitUntil(mark int, what string, shown func() bool) {
	term.t.Helper()
	deadline := time.After(Within)
	for !shown() {
		select {
		case <-term.changed:
		case <-term.closed:
			if shown() {
				return
			}
			term.t.Fatalf("the terminal closed before showing %s:\n%s", what, term.Text(mark))
		case <-deadline:
			term.t.Fatalf("the terminal never showed %s:\n%s", what, term.Text(mark))
		}
	}
}

// WaitSeen waits until the question shown after mark takes keys:
// asktui holds the keys that answer a question for a moment after it
// appears (its "keys held" cue), and the cue gives way to the question's
// hint (Pick one …, Type your answer · enter to confirm, …) when the
// hold ends. A question that appeared with no cue takes keys at once.
func (term *Terminal) WaitSeen(mark int) {
	term.t.Helper()
	term.WaitUntil(mark, "the keys held to be released", func() bool { return released(term.Text(mark), false) })
}

// WaitNextSeen is WaitSeen for the question that takes the place of one
// answered after mark: it waits for that question's cue and then its
// hint, so the answered question's hint, redrawn before the key was read,
// does not count.
func (term *Terminal) WaitNextSeen(mark int) {
	term.t.Helper()
	term.WaitUntil(mark, "the next question's keys to be released", func() bool { return released(term.Text(mark), true) })
}

// released reports whether text ends with a question's hint after its
// last "keys held" cue; cue says there must be such a cue.
func released(text string, cue bool) bool {
	held := strings.LastIndex(text, "held")
	if held < 0 && cue {
		return false
	}
	// "Pick one · …", "Pick any · …", "Type your answer · enter to
	// confirm, …" (the text box's placeholder says "Type" too).
	rest := text[max(held, 0):]
	return strings.Contains(rest, "Pick") || strings.Contains(rest, "confirm,")
}

// Type writes keys to the terminal, as the human typing them.
func (term *Terminal) Type(keys string) {
	term.t.Helper()
	if _, err := term.Master.WriteString(keys); err != nil {
		term.t.Fatal(err)
	}
}

// Hangup closes the master, as closing the terminal's window does: the
// kernel then sends SIGHUP to the session on it.
func (term *Terminal) Hangup() {
	_ = term.Master.Close()
}

// endOfOutput is what Drain writes to the terminal: seeing it come out of
// the master means everything written before it has been read.
const endOfOutput = "[end-of-output]"

// Drain waits until everything written to the terminal before now has
// been read from its master. Call it once the program has ended.
func (term *Terminal) Drain() {
	term.t.Helper()
	mark := term.Mark()
	if _, err := term.Slave.WriteString(endOfOutput); err != nil {
		term.t.Fatal(err)
	}
	term.WaitForBytes(mark, endOfOutput)
}

// Stty returns the terminal's line settings (stty -g), skipping the test
// when they cannot be read.
func (term *Terminal) Stty() string {
	term.t.Helper()
	s, err := termstate.Stty(term.Slave)
	if err != nil {
		term.t.Skipf("cannot read the terminal's settings: %v", err)
	}
	return s
}

// CheckRestored fails the test unless the terminal is as before: the line
// settings equal before (from [Terminal.Stty]), and every mode the output
// turned on was turned off again. The alternate screen, the hidden cursor
// and the keyboard flags must have been set, or the check proves nothing.
// Call it after the program has ended.
func (term *Terminal) CheckRestored(before string) {
	term.t.Helper()
	term.Drain()
	tr := termstate.NewTracker()
	out := term.Output()
	_, _ = tr.Write(out)
	if !tr.Changed(1049) || !tr.Changed(25) || !tr.Pushed() {
		term.t.Errorf("the alternate screen, the hidden cursor or the keyboard flags were never set: the check proves nothing\n%q", out)
	}
	for _, left := range tr.Leftovers() {
		term.t.Errorf("the terminal was not restored: %s", left)
	}
	if after, err := termstate.Stty(term.Slave); err != nil || after != before {
		term.t.Errorf("stty -g changed (%v):\nbefore %s\nafter  %s", err, before, after)
	}
}

// Process is a program running as a process of its own.
type Process struct {
	// Cmd is the command; its ProcessState is set once it has exited.
	Cmd *exec.Cmd
	// Stdout and Stderr hold what it wrote there, unless the command
	// came with writers of its own. Read them only after it has exited.
	Stdout, Stderr bytes.Buffer

	t      testing.TB
	exited chan struct{}
}

// Start starts cmd in a new session. With term it gets the terminal's
// slave as its controlling terminal and standard input, as in a shell;
// with nil it has no terminal at all, and standard input is a pipe nobody
// writes to. Standard output and error go to the Process's buffers unless
// cmd sets them. A process still running when the test ends is killed.
func Start(t testing.TB, term *Terminal, cmd *exec.Cmd) *Process {
	t.Helper()
	p := &Process{Cmd: cmd, t: t, exited: make(chan struct{})}
	if cmd.Stdout == nil {
		cmd.Stdout = &p.Stdout
	}
	if cmd.Stderr == nil {
		cmd.Stderr = &p.Stderr
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var stdin *os.File
	if term != nil {
		cmd.Stdin = term.Slave
		cmd.SysProcAttr.Setctty = true
		cmd.SysProcAttr.Ctty = 0 // the child's standard input
	} else {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdin, stdin = r, w
		defer func() { _ = r.Close() }()
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = cmd.Wait()
		if stdin != nil {
			_ = stdin.Close()
		}
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			_ = cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

// Signal sends sig to the process.
func (p *Process) Signal(sig os.Signal) {
	p.t.Helper()
	if err := p.Cmd.Process.Signal(sig); err != nil {
		p.t.Fatal(err)
	}
}

// Exited is closed once the process has exited.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Wait waits for the process to exit and returns its exit code; a process
// killed by a signal fails the test. screen shows what the terminal had
// when the process does not exit.
func (p *Process) Wait(screen func() string) int {
	p.t.Helper()
	select {
	case <-p.exited:
	case <-time.After(Within):
		p.t.Fatalf("%s did not exit; the screen:\n%s", strings.Join(p.Cmd.Args, " "), screen())
	}
	st := p.Cmd.ProcessState
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		p.t.Fatalf("%s was killed by %v instead of exiting; stderr:\n%s", p.Cmd.Args[0], ws.Signal(), p.Stderr.String())
	}
	return st.ExitCode()
}
