//go:build !windows

package cli

import (
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/ptytest"
)

// TestUsageErrorsSayWhatToDo: issue 10's inconsistent errors. Each is one
// line that says what was expected.
func TestUsageErrorsSayWhatToDo(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"aks"}, []string{`unknown command "aks"`, "did you mean ask?"}},
		{[]string{"tell"}, []string{`unknown command "tell"`, "the commands are", "serve"}},
		{[]string{"history", "extra"}, []string{"asktui history takes no arguments", `"extra"`}},
		{[]string{"serve", "now"}, []string{"serve takes no arguments", `"now"`}},
		{[]string{"ask", "a", "b"}, []string{"at most one argument", "FILE", "got 2"}},
		{[]string{"ask", "--connect", "/run/user/1000/asktui/asktui.sock", "Go on?"},
			[]string{"--connect=/run/user/1000/asktui/asktui.sock", `only after "="`}},
		{[]string{"ask", "--connect", "/tmp/x.sock"}, []string{"--connect=/tmp/x.sock"}},
	} {
		o := runCLI(t, context.Background(), strings.NewReader(""), mustNotOpenTTY(t), c.args...)
		if o.code != exitUsage {
			t.Errorf("asktui %s: exit %d, want %d", strings.Join(c.args, " "), o.code, exitUsage)
		}
		e := envelope(t, o.stderr)
		for _, w := range c.want {
			if !strings.Contains(e.Message, w) {
				t.Errorf("asktui %s: %q does not say %q", strings.Join(c.args, " "), e.Message, w)
			}
		}
	}
}

// TestUsageErrorOnATerminal: on a terminal a usage error looks like every
// other failure, "asktui: CODE: message", with the flag spelled as given
// (fang's styled error turned "--multi" into "--Multi").
func TestUsageErrorOnATerminal(t *testing.T) {
	term := ptytest.New(t, ptytest.Options{})
	code := run(context.Background(), []string{"ask", "Pick?", "--multi"}, env{
		stdin: strings.NewReader(""), stdout: io.Discard, stderr: term.Slave,
		openTTY: mustNotOpenTTY(t),
	})
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	term.WaitFor(0, "asktui: INVALID_REQUEST: --multi needs options")
	if strings.Contains(term.Text(0), "--Multi") {
		t.Errorf("the flag's spelling changed:\n%s", term.Text(0))
	}
}

// TestServePortInUse: a port someone else holds is ADDRESS_IN_USE, with
// what to do, not INTERNAL.
func TestServePortInUse(t *testing.T) {
	l, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	term := ptytest.New(t, ptytest.Options{})
	cfg := t.TempDir()
	var stdout, stderr strings.Builder
	code := run(context.Background(), []string{"serve", "--listen", l.Addr().String(), "--socket", "off", "--history", "off"}, env{
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		environ: []string{"XDG_CONFIG_HOME=" + cfg},
		openTTY: term.OpenTTY,
	})
	e := envelope(t, stderr.String())
	if code != exitFailure || e.Code != interaction.CodeAddressInUse ||
		!strings.Contains(e.Message, l.Addr().String()+" is already in use") || !strings.Contains(e.Message, "--listen") {
		t.Errorf("exit %d, error %v; want %d and ADDRESS_IN_USE saying what to do", code, e, exitFailure)
	}
}

// TestServeRefusesDevNullHistory is issue 10's `--history /dev/null`,
// which chmodded the device: serve refuses what is not a regular file,
// saying why, and leaves it alone. A FIFO stands in for /dev/null, which a
// build without the fix, run as root, would break for everyone.
func TestServeRefusesDevNullHistory(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "null")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Skip(err)
	}
	before, err := os.Stat(fifo)
	if err != nil {
		t.Fatal(err)
	}
	term := ptytest.New(t, ptytest.Options{})
	cfg := t.TempDir()
	var stdout, stderr strings.Builder
	code := run(context.Background(), []string{"serve", "--listen", "127.0.0.1:0", "--socket", "off", "--history", fifo}, env{
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		environ: []string{"XDG_CONFIG_HOME=" + cfg},
		openTTY: term.OpenTTY,
	})
	e := envelope(t, stderr.String())
	if code != exitUsage || !strings.Contains(e.Message, "not a regular file") || !strings.Contains(e.Message, "--history off") {
		t.Errorf("exit %d, error %v; want %d and a refusal saying what to do", code, e, exitUsage)
	}
	if after, err := os.Stat(fifo); err != nil || after.Mode() != before.Mode() {
		t.Errorf("the FIFO changed mode from %v to %v", before.Mode(), after.Mode())
	}
}
