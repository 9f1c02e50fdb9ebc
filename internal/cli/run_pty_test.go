package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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

// waitTurnEnd waits, after mark (taken before the answer's key), for the
// reply to show and for the prompt's hint to be back: the turn is over.
// The renderer may draw the two in either order.
func waitTurnEnd(term *ptytest.Terminal, mark int, reply string) {
	term.WaitUntil(mark, strconv.Quote(reply)+" and the turn's end", func() bool {
		text := term.Text(mark)
		return strings.Contains(text, reply) && strings.Contains(text, "enter sends ·")
	})
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
		term.WaitSeen(mark)
		mark = term.Mark()
		term.Type("1")
		waitTurnEnd(term, mark, "Migration answer: Yes.")
		term.Type("\x03")
	}, "run", "--theme", "dark", "--history", "off", "--socket", "off", "--", exe, "demo", "--acp", "--speed", "20", "testdata/acp-quick.yaml")
	if got.code != 0 || got.stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; screen:\n%s", got.code, got.stdout, got.stderr, term.Text(0))
	}
}

// TestPTYRunExampleAgent is asktui run -- <the acp-go-sdk's example agent>
// on a pseudo-terminal: an agent nobody here wrote. A prompt, its streamed
// reply, its permission request answered by key, the turn's end.
func TestPTYRunExampleAgent(t *testing.T) {
	skipUnderRace(t)
	if testing.Short() {
		t.Skip("builds the SDK's example agent")
	}
	bin := filepath.Join(t.TempDir(), "example-agent")
	if out, err := exec.CommandContext(context.Background(), "go", "build", "-o", bin, "github.com/coder/acp-go-sdk/example/agent").CombinedOutput(); err != nil { //nolint:gosec // the test runs a command of its own choosing
		t.Fatalf("building the example agent: %v\n%s", err, out)
	}
	dir := t.TempDir()
	environ := []string{"TERM=xterm-256color", "HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "XDG_STATE_HOME=" + dir}
	term := ptytest.New(t, ptytest.Options{})
	got := runOnPTY(t, term, environ, func() {
		term.WaitFor(0, "enter sends")
		mark := term.Mark()
		term.Type("Improve the config\r")
		term.WaitFor(mark, "Example Agent")
		term.WaitFor(mark, "Modifying critical configuration file")
		term.WaitSeen(mark)
		mark = term.Mark()
		term.Type("1")
		waitTurnEnd(term, mark, "successfully updated")
		term.Type("\x03")
	}, "run", "--theme", "dark", "--history", "off", "--socket", "off", "--", bin)
	if got.code != 0 || got.stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; screen:\n%s", got.code, got.stdout, got.stderr, term.Text(0))
	}
}

// TestPTYRunAgentThatDies runs asktui run as a process of its own, on an
// agent that exits while starting: the screen says why, and once the
// human quits, so does the exit status.
func TestPTYRunAgentThatDies(t *testing.T) {
	skipUnderRace(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	term := ptytest.New(t, ptytest.Options{})
	// The agent is asktui demo --acp on a scenario that does not exist:
	// it fails before it says a word.
	p := startChild(t, term, "run", "--theme", "dark", "--history", "off", "--socket", "off", "--", exe, "demo", "--acp", "no-such-scenario")
	term.WaitFor(0, "AGENT_EXITED")
	term.Type("\x03")
	if code := p.Wait(func() string { return term.Text(0) }); code != exitAgent {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitAgent, p.Stderr.String())
	}
	if !strings.Contains(p.Stderr.String(), "AGENT_EXITED") {
		t.Fatalf("stderr %q does not say why", p.Stderr.String())
	}
}
