//go:build !windows

package cli

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"

	"github.com/asktui/asktui/interaction"
)

// skipUnderRace skips an end-to-end test of the UI under the race
// detector. With a real terminal as output, bubbletea measures it in a
// goroutine per size request (Program.checkResize) that writes the
// program's width and height unguarded, and huh asks for the size each time
// a form is built, so two requests in flight are reported as a race inside
// bubbletea. .ci/run runs these tests once more without -race.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("skipped under -race: bubbletea's concurrent terminal size checks race (run by .ci/run without -race)")
	}
}

// terminal is a pseudo-terminal standing in for the human's: asktui gets
// the slave as its controlling terminal, the test types on the master and
// reads what asktui drew.
type terminal struct {
	t      *testing.T
	master *os.File
	slave  *os.File

	mu      sync.Mutex
	screen  bytes.Buffer  // everything drawn so far
	changed chan struct{} // a send after each read, dropped when full
	closed  chan struct{} // the master read loop has ended
}

func newTerminal(t *testing.T) *terminal {
	t.Helper()
	master, slave, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: 30, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	master = pollable(t, master)
	term := &terminal{
		t:       t,
		master:  master,
		slave:   slave,
		changed: make(chan struct{}, 1),
		closed:  make(chan struct{}),
	}
	// Drain the master so asktui never blocks writing to the terminal.
	go func() {
		defer close(term.closed)
		buf := make([]byte, 32<<10)
		for {
			n, err := master.Read(buf)
			if n > 0 {
				term.mu.Lock()
				term.screen.Write(buf[:n])
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
	}()
	t.Cleanup(func() {
		// Closing the master ends the read loop. The slave stays open:
		// bubbletea may still read its size from a goroutine that outlives
		// Program.Run, and closing it would race with that read.
		_ = master.Close()
		<-term.closed
	})
	return term
}

// pollable returns f as a non-blocking file, so that closing it ends a
// Read in progress (creack/pty hands out a blocking master, whose Close
// would wait for the Read). The copy is closed on exec, as every file Go
// opens is: a child process holding the master open would keep its
// terminal from ever hanging up.
func pollable(t *testing.T, f *os.File) *os.File {
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

// openTTY hands asktui the slave, as tea.OpenTTY hands it /dev/tty.
func (term *terminal) openTTY() (*os.File, *os.File, error) {
	return term.slave, term.slave, nil
}

// mark returns the current end of the output, for waitFor.
func (term *terminal) mark() int {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.screen.Len()
}

// text returns the output after mark with escape sequences removed.
func (term *terminal) text(mark int) string {
	term.mu.Lock()
	defer term.mu.Unlock()
	return ansi.Strip(string(term.screen.Bytes()[mark:]))
}

// waitFor waits until the output after mark shows want. want should hold
// no spaces: the renderer may draw runs of blanks as cursor movements.
func (term *terminal) waitFor(mark int, want string) {
	term.t.Helper()
	term.waitUntil(mark, strconv.Quote(want), func() bool { return strings.Contains(term.text(mark), want) })
}

// waitUntil waits until shown, checked after every read, reports true;
// what names the wait in a failure, which shows the output after mark.
func (term *terminal) waitUntil(mark int, what string, shown func() bool) {
	term.t.Helper()
	deadline := time.After(time.Minute) // a failure, not a speed bound
	for !shown() {
		select {
		case <-term.changed:
		case <-term.closed:
			term.t.Fatalf("the terminal closed before showing %s:\n%s", what, term.text(mark))
		case <-deadline:
			term.t.Fatalf("the terminal never showed %s:\n%s", what, term.text(mark))
		}
	}
}

func (term *terminal) typeKeys(keys string) {
	term.t.Helper()
	if _, err := term.master.WriteString(keys); err != nil {
		term.t.Fatal(err)
	}
}

// askOnPTY runs asktui with the terminal and returns its outcome once
// drive, run alongside, has typed what it wants.
func askOnPTY(t *testing.T, term *terminal, ctx context.Context, stdin string, drive func(), args ...string) outcome {
	t.Helper()
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, args, env{
			stdin:   strings.NewReader(stdin),
			stdout:  &stdout,
			stderr:  &stderr,
			environ: []string{"TERM=xterm-256color"},
			openTTY: term.openTTY,
		})
	}()
	if drive != nil {
		drive()
	}
	select {
	case code := <-done:
		return outcome{code: code, stdout: stdout.String(), stderr: stderr.String()}
	case <-time.After(time.Minute):
		t.Fatalf("asktui did not return; the screen:\n%s", term.text(0))
		return outcome{}
	}
}

func TestPTYAnswerFirstOption(t *testing.T) {
	skipUnderRace(t)
	term := newTerminal(t)
	got := askOnPTY(t, term, context.Background(), "", func() {
		term.waitFor(0, "Canary")
		term.typeKeys("\r")
	}, "ask", "--theme", "dark", "../../examples/deploy.json")

	want := `{"answers":[{"id":"deploy","selected":["Yes (Recommended)"]}]}` + "\n"
	if got.code != exitAnswered || got.stdout != want || got.stderr != "" {
		t.Fatalf("got exit %d, stdout %q, stderr %q; want exit 0 and %s", got.code, got.stdout, got.stderr, want)
	}
	if strings.Contains(term.text(0), `"answers"`) {
		t.Error("the answer was drawn on the terminal")
	}
}

func TestPTYStdinRequestWithNumberKey(t *testing.T) {
	skipUnderRace(t)
	req, err := os.ReadFile("../../examples/deploy.json")
	if err != nil {
		t.Fatal(err)
	}
	term := newTerminal(t)
	got := askOnPTY(t, term, context.Background(), string(req), func() {
		term.waitFor(0, "Canary")
		term.typeKeys("3")
	}, "ask", "--theme", "dark", "--format", "text")
	if got.code != exitAnswered || got.stdout != "deploy: No\n" {
		t.Fatalf("got %+v, want exit 0 and \"deploy: No\"", got)
	}
}

func TestPTYFreeTextFromFlags(t *testing.T) {
	skipUnderRace(t)
	term := newTerminal(t)
	got := askOnPTY(t, term, context.Background(), "", func() {
		term.waitFor(0, "called?")
		// Keys reach the form in order; the typed text is not waited for
		// because the renderer draws it as several small updates.
		term.typeKeys("billing-api")
		term.typeKeys("\r")
	}, "ask", "--theme", "dark", "--inline", "--agent", "Scaffolder", "--id", "name", "What is the service called?")
	want := `{"answers":[{"id":"name","selected":[],"custom":"billing-api"}]}` + "\n"
	if got.code != exitAnswered || got.stdout != want {
		t.Fatalf("got %+v, want exit 0 and %s", got, want)
	}
	if !strings.Contains(term.text(0), "Scaffolder") {
		t.Error("the --agent name is not on the screen")
	}
}

func TestPTYDecline(t *testing.T) {
	skipUnderRace(t)
	term := newTerminal(t)
	got := askOnPTY(t, term, context.Background(), "", func() {
		term.waitFor(0, "Canary")
		mark := term.mark()
		term.typeKeys("\x1b")
		term.waitFor(mark, "Decline")
		term.typeKeys("y")
	}, "ask", "--theme", "dark", "../../examples/deploy.json")
	if got.code != exitDeclined || got.stdout != "" {
		t.Fatalf("got %+v, want exit %d and no answer", got, exitDeclined)
	}
	if e := envelope(t, got.stderr); e.Code != interaction.CodeDeclined {
		t.Errorf("error = %v, want ASK_DECLINED", e)
	}
}

func TestPTYCtrlC(t *testing.T) {
	// Besides the size checks, on Ctrl+C the UI ends with tea.Interrupt,
	// and bubbletea then shuts down as "killed": it closes its input
	// reader without waiting for the goroutine still reading.
	skipUnderRace(t)
	term := newTerminal(t)
	var stdout bytes.Buffer
	done := make(chan int, 1)
	go func() {
		// stderr is the terminal too: the readable form.
		done <- run(context.Background(), []string{"ask", "--theme", "dark", "../../examples/deploy.json"}, env{
			stdin:   strings.NewReader(""),
			stdout:  &stdout,
			stderr:  term.slave,
			environ: []string{"TERM=xterm-256color"},
			openTTY: term.openTTY,
		})
	}()
	term.waitFor(0, "Canary")
	mark := term.mark()
	term.typeKeys("\x03")
	var code int
	select {
	case code = <-done:
	case <-time.After(time.Minute):
		t.Fatalf("asktui did not return after Ctrl+C")
	}
	if code != exitInterrupted || stdout.Len() != 0 {
		t.Fatalf("exit %d, stdout %q; want %d and nothing", code, stdout.String(), exitInterrupted)
	}
	term.waitFor(mark, "asktui:")
	if line := term.text(mark); !strings.Contains(line, "PROVIDER_CLOSED: interrupted") {
		t.Errorf("stderr on the terminal = %q, want the readable line", line)
	}
}

func TestPTYSignals(t *testing.T) {
	skipUnderRace(t)
	for _, tt := range []struct {
		sig  os.Signal
		want int
	}{
		{os.Interrupt, exitInterrupted},
		{syscall.SIGTERM, exitTerminated},
	} {
		t.Run(tt.sig.String(), func(t *testing.T) {
			term := newTerminal(t)
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			got := askOnPTY(t, term, ctx, "", func() {
				term.waitFor(0, "Canary")
				cancel(signalError{sig: tt.sig}) // as notifySignals does
			}, "ask", "--theme", "dark", "../../examples/deploy.json")
			if got.code != tt.want || got.stdout != "" {
				t.Fatalf("got %+v, want exit %d and no answer", got, tt.want)
			}
			if e := envelope(t, got.stderr); e.Code != interaction.CodeAborted {
				t.Errorf("error = %v, want ASK_ABORTED", e)
			}
		})
	}
}

func TestPTYTimeout(t *testing.T) {
	skipUnderRace(t)
	term := newTerminal(t)
	// Nobody types: whenever the timeout fires, the outcome is the same.
	got := askOnPTY(t, term, context.Background(), "", nil,
		"ask", "--theme", "dark", "--timeout", "20ms", "../../examples/deploy.json")
	if got.code != exitTimeout || got.stdout != "" {
		t.Fatalf("got %+v, want exit %d and no answer", got, exitTimeout)
	}
	if e := envelope(t, got.stderr); e.Code != interaction.CodeTimeout || !strings.Contains(e.Message, "20ms") {
		t.Errorf("error = %v, want ASK_TIMEOUT naming the timeout", e)
	}
}

func TestPTYStdinIsTerminal(t *testing.T) {
	term := newTerminal(t)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"ask"}, env{
		stdin:   term.slave,
		stdout:  &stdout,
		stderr:  &stderr,
		openTTY: mustNotOpenTTY(t),
	})
	if code != exitUsage {
		t.Fatalf("exit %d, want %d", code, exitUsage)
	}
	if e := envelope(t, stderr.String()); !strings.Contains(e.Message, "no request") {
		t.Errorf("error = %v, want a usage message", e)
	}
}
