package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktui/asktui/internal/ptytest"
)

// The four ways a key once answered what the human had not seen, each
// driven with real keys on a pseudo-terminal (tui/hold_test.go pins the
// timing on fake clocks): a key pressed as a question arrives on an idle
// screen; a key pressed as the next question takes the place of one
// answered on another view (over SSH); a prompt being written when an
// agent asks; and the prompt editor after switching agents.

// answerText is a tool result's text, or the failure.
func answerText(t *testing.T, ch <-chan toolResult, screen func() string) string {
	t.Helper()
	select {
	case r := <-ch:
		if r.err != nil || r.res.IsError {
			t.Fatalf("call failed: %v %+v", r.err, r.res)
		}
		return r.res.Content[0].(*sdk.TextContent).Text
	case <-time.After(time.Minute):
		t.Fatalf("the tool call did not return; the screen:\n%s", screen())
		return ""
	}
}

// startServe runs serve on term with the MCP server on a free port and
// extra flags, and returns an MCP client connected to it.
func startServe(t *testing.T, term *ptytest.Terminal, extra ...string) *sdk.ClientSession {
	t.Helper()
	addr := freeAddr(t)
	cfg := t.TempDir()
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan int, 1)
	args := append([]string{"serve", "--listen", addr, "--socket", "off", "--theme", "dark", "--bell=false", "--notify=false", "--history", "off"}, extra...)
	go func() {
		done <- run(ctx, args, env{
			stdin: strings.NewReader(""), stdout: os.Stdout, stderr: os.Stderr,
			environ: []string{"TERM=xterm-256color", "XDG_CONFIG_HOME=" + cfg, "XDG_STATE_HOME=" + cfg, "XDG_DATA_HOME=" + cfg},
			openTTY: term.OpenTTY,
		})
	}()
	t.Cleanup(func() {
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		stop()
		<-done
	})
	term.WaitFor(0, "MCP:")
	token, err := os.ReadFile(filepath.Join(cfg, "asktui", "token")) //nolint:gosec // a path the test made, or its testdata
	if err != nil {
		t.Fatal(err)
	}
	return connectMCP(t, context.Background(), addr, "hold-test", string(token))
}

// Path 1: an idle inbox, no key pressed at all; a question arrives and a
// key pressed the moment it is drawn does nothing. Once it has been seen,
// the next key answers.
func TestPTYHoldIdleArrival(t *testing.T) {
	skipUnderRace(t)
	term := ptytest.New(t, ptytest.Options{})
	cs := startServe(t, term)
	mark := term.Mark()
	called := askAsync(cs, "db", "Drop the production database?", "Drop it", "Keep it")
	term.WaitFor(mark, "production")
	term.Type("1") // the moment it is drawn
	term.WaitSeen(mark)
	term.Type("2")
	if got := answerText(t, called, func() string { return term.Text(0) }); got != `{"answers":[{"id":"db","selected":["Keep it"]}]}` {
		t.Fatalf("answer %s: the key pressed as the question arrived answered it", got)
	}
}

// Path 2: the terminal and an SSH session show request A; the SSH view
// answers it, and in the terminal B takes its place: a key pressed there
// for A must not answer B.
func TestPTYHoldAfterAnsweredOverSSH(t *testing.T) {
	skipUnderRace(t)
	cs, local, remote, view := serveWithSSH(t)
	lm, rm := local.Mark(), remote.Mark()
	a := askAsync(cs, "tabs", "Use tabs for indentation?", "Yes", "No")
	local.WaitFor(lm, "indentation")
	remote.WaitFor(rm, "indentation")
	b := askAsync(cs, "db", "Drop the production database?", "Drop it", "Keep it")
	local.WaitFor(lm, "production") // B's row in the inbox
	local.WaitSeen(lm)

	// The SSH view answers A.
	remote.WaitSeen(rm)
	lm = local.Mark()
	remote.Type("1")
	if got := answerText(t, a, func() string { return remote.Text(0) }); !strings.Contains(got, `"Yes"`) {
		t.Fatalf("A got %s", got)
	}
	// In the terminal B takes A's place; the human, about to answer A,
	// presses 1 as it appears.
	local.WaitFor(lm, "production")
	local.Type("1")
	local.WaitSeen(lm)
	local.Type("2")
	if got := answerText(t, b, func() string { return local.Text(0) }); got != `{"answers":[{"id":"db","selected":["Keep it"]}]}` {
		t.Fatalf("B got %s: a key meant for A answered it", got)
	}
	remote.Type("\x03")
	view.Wait(func() string { return remote.Text(0) })
}

// serveWithSSH runs serve on a terminal of its own with an SSH view on
// another, logged in with OpenSSH's client; it returns the MCP client,
// both terminals and the client's process.
func serveWithSSH(t *testing.T) (*sdk.ClientSession, *ptytest.Terminal, *ptytest.Terminal, *ptytest.Process) {
	t.Helper()
	sshBin := openSSH(t)
	dir := t.TempDir()
	key, line := writeKey(t, dir, "id_ed25519")
	keys := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(keys, line, 0o600); err != nil {
		t.Fatal(err)
	}
	local := ptytest.New(t, ptytest.Options{})
	cs := startServe(t, local, "--ssh", "127.0.0.1:0", "--authorized-keys", keys)
	sshPort := regexp.MustCompile(`ssh -p (\d+)`)
	local.WaitUntil(0, "the SSH address", func() bool { return sshPort.MatchString(local.Text(0)) })
	port := sshPort.FindStringSubmatch(local.Text(0))
	remote := ptytest.New(t, ptytest.Options{})
	cmd := sshCommand(sshBin, port[1], "-tt", "-i", key)
	cmd.Stdout, cmd.Stderr = remote.Slave, remote.Slave
	view := ptytest.Start(t, remote, cmd)
	remote.WaitFor(0, "inbox")
	return cs, local, remote, view
}

// sshCommand is the OpenSSH client logging in to port on localhost with
// no configuration of the user's.
func sshCommand(sshBin, port string, extra ...string) *exec.Cmd {
	args := append([]string{"-F", "/dev/null", "-p", port,
		"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
		"-o", "LogLevel=ERROR", "-o", "IdentitiesOnly=yes"}, extra...)
	return exec.CommandContext(context.Background(), sshBin, append(args, "localhost")...) //nolint:gosec // the test runs a command of its own choosing
}

// runEnviron is the environment of asktui run in these tests, with the
// test binary as asktui.
func runEnviron(dir string) []string {
	return []string{"TERM=xterm-256color", runAsMainEnv + "=1", "HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "XDG_STATE_HOME=" + dir, "PATH=" + os.Getenv("PATH")}
}

// Path 3: the human writes the next prompt while the agent works; its
// permission request arrives mid-sentence. Every key goes on into the
// prompt, however long the typing lasts (the "1" and the "n" of the
// sentence included), the request is announced, and it opens only when
// the human asks.
func TestPTYPromptKeepsTheKeys(t *testing.T) {
	skipUnderRace(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	term := ptytest.New(t, ptytest.Options{})
	const sentence = "and then 1 more thing: note the size, run the tests now, then note it in the changelog and say yes or no to 2 more"
	got := runOnPTY(t, term, runEnviron(dir), func() {
		term.WaitFor(0, "enter sends")
		term.Type("clean it\r")
		mark := term.Mark()
		term.WaitFor(mark, "du -sh")
		// Type at a human pace until the question is announced, and on
		// for a while after.
		typed, after := 0, -1
		for after < 0 || typed < after+20 {
			if typed == len(sentence) {
				t.Fatalf("the question was not announced while typing:\n%s", term.Text(mark))
			}
			term.Type(sentence[typed : typed+1])
			typed++
			time.Sleep(60 * time.Millisecond) // the human's pace, not a wait for asktui
			if after < 0 && strings.Contains(term.Text(mark), "opens") {
				after = typed
			}
		}
		typedText := noSpace(sentence[:typed])
		if strings.Contains(term.Text(mark), "Cleaning answer") {
			t.Fatalf("a key typed into the prompt answered the question:\n%s", term.Text(mark))
		}
		// ctrl+g opens it; the human's own move, so a key acts at once.
		mark = term.Mark()
		term.Type("\x07")
		term.WaitFor(mark, "rm -rf build")
		term.Type("2")
		waitTurnEnd(term, mark, "Cleaning answer: Reject.")
		// The prompt kept every key typed.
		mark = term.Mark()
		term.Type("\r")
		term.WaitUntil(mark, "the prompt sent whole", func() bool {
			return strings.Contains(noSpace(term.Text(mark)), typedText)
		})
		term.Type("\x03")
	}, "run", "--theme", "dark", "--history", "off", "--socket", "off", "--", exe, "demo", "--acp", "testdata/acp-slow-ask.yaml")
	if got.code != 0 {
		t.Fatalf("exit %d, stderr %q; screen:\n%s", got.code, got.stderr, term.Text(0))
	}
}

// Path 4: two agents; after switching to the other one with ctrl+l its
// prompt editor takes the keys, and after switching back the first's
// does again (the switch once left the editor shown deaf to every key).
func TestPTYFocusFollowsAgents(t *testing.T) {
	skipUnderRace(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	servers := map[string]any{}
	for _, n := range []string{"alpha", "beta"} {
		servers[n] = map[string]any{"command": exe, "args": []string{"demo", "--acp", "--speed", "20", abs(t, "testdata/acp-"+n+".yaml")}, "env": map[string]string{runAsMainEnv: "1"}}
	}
	b, _ := json.Marshal(map[string]any{"agent_servers": servers})
	if err := os.MkdirAll(filepath.Join(dir, "asktui"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "asktui", "agents.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	term := ptytest.New(t, ptytest.Options{})
	// turn sends prompt to the agent shown, answers its question and
	// returns who answered.
	turn := func(prompt string) string {
		t.Helper()
		mark := term.Mark()
		term.Type(prompt + "\r")
		term.WaitUntil(0, "an agent's reply to "+prompt, func() bool { return strings.Contains(term.Text(mark), "I am agent-") })
		who := "alpha"
		if strings.Contains(term.Text(mark), "agent-beta") {
			who = "beta"
		}
		term.WaitFor(mark, "Go on, "+who+"?")
		term.WaitSeen(mark)
		m2 := term.Mark()
		term.Type("1")
		waitTurnEnd(term, m2, "Answer for "+who+": Yes.")
		return who
	}
	// other switches with the picker to the running agent that is not
	// who: the picker lists them in order, its cursor on the one shown.
	other := func(who string) {
		t.Helper()
		mark := term.Mark()
		term.Type("\x0c")
		term.WaitUntil(mark, "the agent picker", func() bool {
			text := term.Text(mark)
			return strings.Contains(text, "Agents") && strings.Contains(text, "acp-alpha") && strings.Contains(text, "acp-beta")
		})
		text := term.Text(mark)
		first := "alpha"
		if strings.Index(text, "acp-beta") < strings.Index(text, "acp-alpha") {
			first = "beta"
		}
		if who == first {
			term.Type("\x1b[B\r") // down
		} else {
			term.Type("\x1b[A\r") // up
		}
	}
	got := runOnPTY(t, term, runEnviron(dir), func() {
		term.WaitFor(0, "enter sends")
		term.WaitUntil(0, "both agents", func() bool {
			text := term.Text(0)
			return strings.Contains(text, "alpha") && strings.Contains(text, "beta")
		})
		first := turn("first")
		other(first)
		if second := turn("second"); second == first {
			t.Fatalf("ctrl+l did not switch from %s", first)
		}
		other(map[string]string{"alpha": "beta", "beta": "alpha"}[first])
		if third := turn("third"); third != first {
			t.Fatalf("back with ctrl+l, the prompt went to %s, want %s", third, first)
		}
		term.Type("\x03")
	}, "run", "--theme", "dark", "--history", "off", "--socket", "off", "alpha", "beta")
	if got.code != 0 {
		t.Fatalf("exit %d, stderr %q; screen:\n%s", got.code, got.stderr, term.Text(0))
	}
}

// noSpace is s without white space: the text of a prompt wrapped over
// lines, the renderer's blanks drawn as cursor moves, compared whole.
func noSpace(s string) string {
	return strings.Join(strings.Fields(s), "")
}

func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
