//go:build !windows

package cli

import (
	"context"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asktui/asktui/internal/ptytest"
)

// TestSignalWhileReadingStdin is issue 10's ignored ctrl+c: while ask
// waits for a request on standard input, SIGINT and SIGTERM end it with
// 130 and 143, as they do once the question is on screen.
func TestSignalWhileReadingStdin(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, exitInterrupted}, {syscall.SIGTERM, exitTerminated}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			r, w := io.Pipe() // a writer that never ends its input
			defer w.Close()   // ends the abandoned read, for goleak
			ctx, signal := context.WithCancelCause(context.Background())
			done := make(chan outcome, 1)
			go func() { done <- runCLI(t, ctx, r, mustNotOpenTTY(t), "ask", "-") }()
			// The request has begun to arrive, so asktui is reading it.
			if _, err := io.WriteString(w, `{"questions": [`); err != nil {
				t.Fatal(err)
			}
			signal(signalError{sig: c.sig})
			select {
			case o := <-done:
				if o.code != c.code || !strings.Contains(envelope(t, o.stderr).Message, "standard input") {
					t.Errorf("exit %d, stderr %q; want %d and a message about standard input", o.code, o.stderr, c.code)
				}
			case <-time.After(time.Minute):
				t.Fatal("asktui ask - kept reading standard input after the signal")
			}
		})
	}
}

// TestStdinTerminalSaysItWaits: `asktui ask -` on a terminal says what it
// waits for, instead of sitting on a blank line.
func TestStdinTerminalSaysItWaits(t *testing.T) {
	term := ptytest.New(t, ptytest.Options{})
	ctx, signal := context.WithCancelCause(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"ask", "-"}, env{
			stdin: term.Slave, stdout: io.Discard, stderr: term.Slave,
			openTTY: func() (*os.File, *os.File, error) { return nil, nil, os.ErrNotExist },
		})
	}()
	term.WaitFor(0, "waiting for a request on standard input (ctrl+d to end, ctrl+c to stop)")
	signal(signalError{sig: syscall.SIGINT})
	select {
	case code := <-done:
		if code != exitInterrupted {
			t.Errorf("exit %d, want %d", code, exitInterrupted)
		}
	case <-time.After(time.Minute):
		t.Fatal("asktui ask - kept reading the terminal after the signal")
	}
	// The abandoned read ends when the terminal gets a line.
	term.Type("\x04")
}
