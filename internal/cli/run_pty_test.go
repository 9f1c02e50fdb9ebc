package cli

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/asktui/asktui/internal/ptytest"
)

// runOnPTY runs asktui in this process on term with environ, while drive
// types; it returns the outcome.
func runOnPTY(t *testing.T, term *ptytest.Terminal, environ []string, drive func(), args ...string) outcome {
	t.Helper()
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), args, env{
			stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
			environ: environ, openTTY: term.OpenTTY,
		})
	}()
	drive()
	select {
	case code := <-done:
		return outcome{code: code, stdout: stdout.String(), stderr: stderr.String()}
	case <-time.After(time.Minute):
		t.Fatalf("asktui did not return; the screen:\n%s", term.Text(0))
		return outcome{}
	}
}

// TestPTYRunScriptedAgent is asktui run -- asktui demo --acp SCENARIO on a
// pseudo-terminal: a prompt, the streamed reply, the permission request
// answered by key, the turn's end, ctrl+c.
func TestPTYRunScriptedAgent(t *testing.T) {
	skipUnderRace(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	environ := []string{"TERM=xterm-256color", runAsMainEnv + "=1", "HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "XDG_STATE_HOME=" + dir, "PATH=" + os.Getenv("PATH")}
	term := ptytest.New(t, ptytest.Options{})
	got := runOnPTY(t, term, environ, func() {
		term.WaitFor(0, "enter sends")
		mark := term.Mark()
		term.Type("migrate it\r")
		term.WaitFor(mark, "Run the migration now?")
		term.WaitFor(mark, "Pick one")
		term.Type("1")
		// The turn is over when the prompt's hint is back after the reply.
		term.WaitUntil(mark, "the reply, then the turn's end", func() bool {
			text := term.Text(mark)
			i := strings.LastIndex(text, "Migration answer: Yes.")
			return i >= 0 && strings.Contains(text[i:], "enter sends")
		})
		term.Type("\x03")
	}, "run", "--theme", "dark", "--history", "off", "--socket", "off", "--", exe, "demo", "--acp", "--speed", "20", "testdata/acp-quick.yaml")
	if got.code != 0 || got.stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; screen:\n%s", got.code, got.stdout, got.stderr, term.Text(0))
	}
}
