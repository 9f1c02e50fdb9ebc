//go:build !windows

package cli

import (
	"bytes"
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/ptytest"
)

// skipUnderRace skips an end-to-end test of the UI under the race
// detector. With a real terminal as output, bubbletea measures it in a
// goroutine per size request (Program.checkResize) that writes the
// program's width and height unguarded, and huh asks for the size each time
// a form is built, so two requests in flight are reported as a race inside
// bubbletea. .ci/run runs these tests once more without -race.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if ptytest.RaceEnabled {
		t.Skip("skipped under -race: bubbletea's concurrent terminal size checks race (run by .ci/run without -race)")
	}
}

// askOnPTY runs asktui with the terminal and returns its outcome once
// drive, run alongside, has typed what it wants.
func askOnPTY(t *testing.T, ctx context.Context, term *ptytest.Terminal, stdin string, drive func(), args ...string) outcome {
	t.Helper()
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, args, env{
			stdin:   strings.NewReader(stdin),
			stdout:  &stdout,
			stderr:  &stderr,
			environ: []string{"TERM=xterm-256color"},
			openTTY: term.OpenTTY,
		})
	}()
	if drive != nil {
		drive()
	}
	select {
	case code := <-done:
		return outcome{code: code, stdout: stdout.String(), stderr: stderr.String()}
	case <-time.After(time.Minute):
		t.Fatalf("asktui did not return; the screen:\n%s", term.Text(0))
		return outcome{}
	}
}

func TestPTYAnswerFirstOption(t *testing.T) {
	skipUnderRace(t)
	term := ptytest.New(t, ptytest.Options{})
	got := askOnPTY(t, context.Background(), term, "", func() {
		term.WaitFor(0, "Canary")
		term.WaitSeen(0)
		term.Type("\r")
	}, "ask", "--theme", "dark", "../../examples/deploy.json")

	want := `{"answers":[{"id":"deploy","selected":["Yes (Recommended)"]}]}` + "\n"
	if got.code != exitAnswered || got.stdout != want || got.stderr != "" {
		t.Fatalf("got exit %d, stdout %q, stderr %q; want exit 0 and %s", got.code, got.stdout, got.stderr, want)
	}
	if strings.Contains(term.Text(0), `"answers"`) {
		t.Error("the answer was drawn on the terminal")
	}
}

func TestPTYStdinRequestWithNumberKey(t *testing.T) {
	skipUnderRace(t)
	req, err := os.ReadFile("../../examples/deploy.json")
	if err != nil {
		t.Fatal(err)
	}
	term := ptytest.New(t, ptytest.Options{})
	got := askOnPTY(t, context.Background(), term, string(req), func() {
		term.WaitFor(0, "Canary")
		term.WaitSeen(0)
		term.Type("3")
	}, "ask", "--theme", "dark", "--format", "text")
	if got.code != exitAnswered || got.stdout != "deploy: No\n" {
		t.Fatalf("got %+v, want exit 0 and \"deploy: No\"", got)
	}
}

func TestPTYFreeTextFromFlags(t *testing.T) {
	skipUnderRace(t)
	term := ptytest.New(t, ptytest.Options{})
	got := askOnPTY(t, context.Background(), term, "", func() {
		term.WaitFor(0, "called?")
		term.WaitSeen(0)
		// Keys reach the form in order; the typed text is not waited for
		// because the renderer draws it as several small updates.
		term.Type("billing-api")
		term.Type("\r")
	}, "ask", "--theme", "dark", "--inline", "--agent", "Scaffolder", "--id", "name", "What is the service called?")
	want := `{"answers":[{"id":"name","selected":[],"custom":"billing-api"}]}` + "\n"
	if got.code != exitAnswered || got.stdout != want {
		t.Fatalf("got %+v, want exit 0 and %s", got, want)
	}
	if !strings.Contains(term.Text(0), "Scaffolder") {
		t.Error("the --agent name is not on the screen")
	}
}

func TestPTYDecline(t *testing.T) {
	skipUnderRace(t)
	term := ptytest.New(t, ptytest.Options{})
	got := askOnPTY(t, context.Background(), term, "", func() {
		term.WaitFor(0, "Canary")
		term.WaitSeen(0)
		mark := term.Mark()
		term.Type("\x1b")
		term.WaitFor(mark, "Decline")
		term.Type("y")
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
	term := ptytest.New(t, ptytest.Options{})
	var stdout bytes.Buffer
	done := make(chan int, 1)
	go func() {
		// stderr is the terminal too: the readable form.
		done <- run(context.Background(), []string{"ask", "--theme", "dark", "../../examples/deploy.json"}, env{
			stdin:   strings.NewReader(""),
			stdout:  &stdout,
			stderr:  term.Slave,
			environ: []string{"TERM=xterm-256color"},
			openTTY: term.OpenTTY,
		})
	}()
	term.WaitFor(0, "Canary")
	mark := term.Mark()
	term.Type("\x03")
	var code int
	select {
	case code = <-done:
	case <-time.After(time.Minute):
		t.Fatalf("asktui did not return after Ctrl+C")
	}
	if code != exitInterrupted || stdout.Len() != 0 {
		t.Fatalf("exit %d, stdout %q; want %d and nothing", code, stdout.String(), exitInterrupted)
	}
	term.WaitFor(mark, "asktui:")
	if line := term.Text(mark); !strings.Contains(line, "PROVIDER_CLOSED: interrupted") {
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
			term := ptytest.New(t, ptytest.Options{})
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			got := askOnPTY(t, ctx, term, "", func() {
				term.WaitFor(0, "Canary")
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
	term := ptytest.New(t, ptytest.Options{})
	// Nobody types: whenever the timeout fires, the outcome is the same.
	got := askOnPTY(t, context.Background(), term, "", nil,
		"ask", "--theme", "dark", "--timeout", "20ms", "../../examples/deploy.json")
	if got.code != exitTimeout || got.stdout != "" {
		t.Fatalf("got %+v, want exit %d and no answer", got, exitTimeout)
	}
	if e := envelope(t, got.stderr); e.Code != interaction.CodeTimeout || !strings.Contains(e.Message, "20ms") {
		t.Errorf("error = %v, want ASK_TIMEOUT naming the timeout", e)
	}
}

func TestPTYStdinIsTerminal(t *testing.T) {
	term := ptytest.New(t, ptytest.Options{})
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"ask"}, env{
		stdin:   term.Slave,
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
