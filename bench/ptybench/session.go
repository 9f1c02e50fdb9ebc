package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// Screen size of every session.
const (
	cols = 120
	rows = 40
)

// spec is one command to run in a session.
type spec struct {
	// argv is the command and its arguments.
	argv []string
	// stdin is a file to give the child as standard input; empty gives it
	// the pty.
	stdin string
	// stdoutTTY puts the child's standard output on the pty instead of a
	// pipe that the harness reads.
	stdoutTTY bool
}

func (s spec) String() string {
	cmd := strings.Join(s.argv, " ")
	if s.stdin != "" {
		cmd += " < " + s.stdin
	}
	return cmd
}

// session is one child process on a fresh 120x40 pseudo-terminal whose
// output feeds a terminal emulator. One goroutine drains the pty master into
// the emulator and stamps every read; another forwards the emulator's
// replies to the terminal's queries back to the child. Everything the two
// goroutines share sits behind mu.
type session struct {
	spec      spec
	cmd       *exec.Cmd
	ptm       *os.File
	start     time.Time
	parentHWM int64        // the harness's peak RSS in KiB when it started the child
	out       bytes.Buffer // the child's standard output, when it is a pipe

	mu         sync.Mutex
	emu        *vt.Emulator
	queries    *queryLog
	screen     string    // the emulator's text, as of the last read
	firstOut   time.Time // time of the first read of any output
	lastOut    time.Time // time of the last read of any output
	lastChange time.Time // time of the last read that changed the text
	changed    int       // reads that changed the text
	wake       chan struct{}
	waiter     *waiter

	done    chan struct{} // closed once the child has exited
	exitAt  time.Time
	state   *os.ProcessState
	waitErr error

	readerDone chan struct{}
}

// waiter is a condition on the screen that the read loop checks after
// every read that changed the text; hit receives the time of the read that
// first made it true.
type waiter struct {
	cond func(screen string) bool
	hit  chan time.Time
}

// live holds the sessions whose child may still run, so that an
// interrupted benchmark leaves no child behind.
var live = struct {
	sync.Mutex
	m map[*session]struct{}
}{m: map[*session]struct{}{}}

// killLive kills the process group of every session still running.
func killLive() {
	live.Lock()
	defer live.Unlock()
	for s := range live.m {
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// errExited is returned by a wait that the child's exit ended.
var errExited = errors.New("the process exited")

// startSession starts sp in a new pty. first, if not nil, is registered as
// a waiter before the child starts, so that no frame can slip by.
func startSession(sp spec, env []string, log *queryLog, first *waiter) (*session, error) {
	ptm, pts, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("open a pty: %w", err)
	}
	if err := pty.Setsize(ptm, &pty.Winsize{Rows: rows, Cols: cols}); err != nil {
		_ = ptm.Close()
		_ = pts.Close()
		return nil, fmt.Errorf("size the pty: %w", err)
	}

	s := &session{
		spec:       sp,
		ptm:        ptm,
		emu:        vt.NewEmulator(cols, rows),
		queries:    log,
		wake:       make(chan struct{}),
		waiter:     first,
		done:       make(chan struct{}),
		readerDone: make(chan struct{}),
	}
	answerQueries(s.emu, log)
	log.started()

	cmd := exec.CommandContext(context.Background(), sp.argv[0], sp.argv[1:]...) //nolint:gosec // the program under test, which the bench built
	cmd.Env = env
	cmd.Stdin = pts
	if sp.stdin != "" {
		f, err := os.Open(sp.stdin)
		if err != nil {
			_ = ptm.Close()
			_ = pts.Close()
			return nil, err
		}
		defer func() { _ = f.Close() }()
		cmd.Stdin = f
	}
	cmd.Stdout = &s.out
	if sp.stdoutTTY {
		cmd.Stdout = pts
	}
	// The pty is the child's controlling terminal (what /dev/tty opens),
	// reached through its standard error, fd 2.
	cmd.Stderr = pts
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 2}
	s.cmd = cmd

	s.parentHWM = vmHWM("self")
	s.start = time.Now()
	if err := cmd.Start(); err != nil {
		_ = ptm.Close()
		_ = pts.Close()
		return nil, fmt.Errorf("start %s: %w", sp, err)
	}
	live.Lock()
	live.m[s] = struct{}{}
	live.Unlock()
	// Only the child holds the slave now, so the master reads EIO once
	// the child and everything it started have gone.
	_ = pts.Close()

	go s.read()
	go s.forwardReplies()
	go func() {
		err := cmd.Wait()
		at := time.Now()
		s.mu.Lock()
		s.exitAt, s.state, s.waitErr = at, cmd.ProcessState, err
		s.mu.Unlock()
		close(s.done)
	}()
	return s, nil
}

// read drains the pty master into the emulator for as long as the pty
// lives, stamping each read with the time it returned.
func (s *session) read() {
	defer close(s.readerDone)
	buf := make([]byte, 64<<10)
	for {
		n, err := s.ptm.Read(buf)
		at := time.Now()
		if n > 0 {
			s.feed(buf[:n], at)
		}
		if err != nil {
			return
		}
	}
}

// feed hands p, read at at, to the emulator and wakes whoever waits.
func (s *session) feed(p []byte, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _ = s.emu.Write(p)
	if s.firstOut.IsZero() {
		s.firstOut = at
	}
	s.lastOut = at
	if scr := s.emu.String(); scr != s.screen {
		s.screen = scr
		s.lastChange = at
		s.changed++
		if w := s.waiter; w != nil && w.cond(scr) {
			w.hit <- at
			s.waiter = nil
		}
	}
	close(s.wake)
	s.wake = make(chan struct{})
}

// forwardReplies copies what the emulator answers to the child's queries
// (and the keys sent through it) to the pty. It ends when close closes the
// emulator's input pipe.
func (s *session) forwardReplies() {
	buf := make([]byte, 4096)
	for {
		n, err := s.emu.Read(buf)
		if n > 0 {
			// After the child exits the write fails; nobody is listening.
			_, _ = s.ptm.Write(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// expect registers cond as the waiter and returns it; the caller then
// causes the change (writes a key) and waits with await. The condition is
// checked only on reads that change the screen after this call.
func (s *session) expect(cond func(screen string) bool) *waiter {
	w := &waiter{cond: cond, hit: make(chan time.Time, 1)}
	s.mu.Lock()
	s.waiter = w
	s.mu.Unlock()
	return w
}

// screenChanged is a condition: the screen differs from what it is now.
func (s *session) screenChanged() func(string) bool {
	before := s.Screen()
	return func(scr string) bool { return scr != before }
}

// await waits for w to be hit, for at most timeout.
func (s *session) await(w *waiter, step string, timeout time.Duration) (time.Time, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case at := <-w.hit:
		return at, nil
	case <-t.C:
		return time.Time{}, s.stuck(step, fmt.Sprintf("no such screen within %s", timeout))
	case <-s.done:
		// The last read may still be on its way through the emulator.
		<-s.readerDone
		select {
		case at := <-w.hit:
			return at, nil
		default:
		}
		return time.Time{}, s.stuck(step, errExited.Error())
	}
}

// quiet waits until the screen text (text true) or the output bytes (text
// false) have not changed for d, and returns the time of the last read
// before the silence.
func (s *session) quiet(d time.Duration, text bool, step string, timeout time.Duration) (time.Time, error) {
	deadline := time.Now().Add(timeout)
	for {
		s.mu.Lock()
		last, wake := s.lastOut, s.wake
		if text {
			last = s.lastChange
		}
		s.mu.Unlock()
		if last.IsZero() {
			last = s.start
		}
		left := time.Until(last.Add(d))
		if left <= 0 {
			return last, nil
		}
		if time.Now().Add(left).After(deadline) {
			return time.Time{}, s.stuck(step, fmt.Sprintf("output did not pause for %s within %s", d, timeout))
		}
		t := time.NewTimer(left)
		select {
		case <-t.C:
		case <-wake:
		case <-s.done:
		}
		t.Stop()
		select {
		case <-s.done:
			return time.Time{}, s.stuck(step, errExited.Error())
		default:
		}
	}
}

// key sends k as the terminal would encode it in its current modes and
// returns the time it was sent.
func (s *session) key(k vt.KeyPressEvent) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	at := time.Now()
	s.emu.SendKey(k)
	return at
}

// exit waits for the child to exit, for at most timeout.
func (s *session) exit(step string, timeout time.Duration) (time.Time, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-s.done:
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.exitAt, nil
	case <-t.C:
		return time.Time{}, s.stuck(step, fmt.Sprintf("the process did not exit within %s", timeout))
	}
}

// changes returns how many reads so far changed the screen's text.
func (s *session) changes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// Screen returns the screen's text.
func (s *session) Screen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.screen
}

// stuck builds the error of a step that failed, with the screen as it was.
func (s *session) stuck(step, why string) error {
	return fmt.Errorf("%s: %s: %s; the screen:\n%s", s.spec, step, why, indent(s.Screen()))
}

// childHWM returns the child's peak resident set size so far in KiB, from
// /proc, or 0; the child must still be running.
func (s *session) childHWM() int64 { return vmHWM(fmt.Sprint(s.cmd.Process.Pid)) }

// vmHWM returns the VmHWM of /proc/PID/status in KiB, or 0.
func vmHWM(pid string) int64 {
	data, err := os.ReadFile("/proc/" + pid + "/status") //nolint:gosec // a child's /proc status; pid is the bench's own child
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		var kib int64
		if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &kib); err == nil {
			return kib
		}
	}
	return 0
}

// peakRSS returns the child's peak resident set size in KiB; the child
// must have exited, and hwm is its VmHWM taken while it ran.
//
// Linux carries the peak RSS of a parent that spawns with vfork (as
// os/exec does: clone with CLONE_VM|CLONE_VFORK) into the child's
// ru_maxrss, as the child leaves the parent's memory for its own at exec.
// So ru_maxrss is the child's own peak only when it is above the
// harness's peak at the spawn; otherwise the child never grew past the
// harness, and its VmHWM from /proc, taken as late as possible while it
// ran, is the figure.
func (s *session) peakRSS(hwm int64) int64 {
	if r := s.maxRSS(); r > s.parentHWM {
		return r
	}
	return hwm
}

// maxRSS returns the child's ru_maxrss in KiB; the child must have
// exited.
func (s *session) maxRSS() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == nil {
		return 0
	}
	if ru, ok := s.state.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}

// cpuTime returns the user and system CPU time the child used; the child
// must have exited.
func (s *session) cpuTime() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == nil {
		return 0
	}
	return s.state.UserTime() + s.state.SystemTime()
}

// exitCode returns the child's exit code, or -1.
func (s *session) exitCode() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == nil {
		return -1
	}
	return s.state.ExitCode()
}

// close kills the child's process group if it is still running, and
// releases the pty and the goroutines.
func (s *session) close() {
	defer func() {
		live.Lock()
		delete(live.m, s)
		live.Unlock()
	}()
	select {
	case <-s.done:
	default:
		// Setsid made the child the leader of its own process group.
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
	_ = s.ptm.Close()
	<-s.readerDone
	// Closing the input pipe, rather than the emulator, ends
	// forwardReplies without touching the emulator's unguarded fields.
	if c, ok := s.emu.InputPipe().(io.Closer); ok {
		_ = c.Close()
	}
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}
