//go:build !windows

package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktui/asktui/agent/socket"
	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/ptytest"
	"github.com/asktui/asktui/internal/syncbuf"
)

// TestPTYServeShowsHistoryFailures: a history record that cannot be
// written is never lost silently: the inbox shows it, and stderr says it.
func TestPTYServeShowsHistoryFailures(t *testing.T) {
	skipUnderRace(t)
	term := ptytest.New(t, ptytest.Options{})
	cfg := t.TempDir()
	hist := filepath.Join(cfg, "history.jsonl")
	sock := shortSocket(t)
	var stderr syncbuf.Buffer
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--listen", "127.0.0.1:0", "--socket", sock, "--history", hist, "--bell=false", "--notify=false"}, env{
			stdin: strings.NewReader(""), stdout: os.Stdout, stderr: &stderr,
			environ: []string{"TERM=xterm-256color", "XDG_CONFIG_HOME=" + cfg},
			openTTY: term.OpenTTY,
		})
	}()
	term.WaitFor(0, "MCP:")
	// Something replaces the history with what it may not write to.
	if err := os.Remove(hist); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(hist, 0o700); err != nil {
		t.Fatal(err)
	}
	c, err := socket.Dial(context.Background(), sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	askCtx, withdraw := context.WithCancel(context.Background())
	asked := make(chan error, 1)
	go func() {
		_, err := c.Ask(askCtx, interaction.Request{Questions: []interaction.Question{{ID: "q", Question: "Still there?"}}})
		asked <- err
	}()
	term.WaitFor(0, "history record was not written")
	if !strings.Contains(stderr.String(), "asktui: WARNING: a history record was not written") {
		t.Errorf("stderr does not report the failure: %q", stderr.String())
	}
	withdraw()
	<-asked
	stop()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exited %d", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// TestPTYServeShowsConnectCountdown: `ask --connect --timeout` waits in
// the inbox with its countdown on screen, and ends as a timeout there
// (recorded so) and for the script (exit 124).
func TestPTYServeShowsConnectCountdown(t *testing.T) {
	skipUnderRace(t)
	term := ptytest.New(t, ptytest.Options{})
	cfg := t.TempDir()
	hist := filepath.Join(cfg, "history.jsonl")
	sock := shortSocket(t)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--listen", "127.0.0.1:0", "--socket", sock, "--history", hist, "--bell=false", "--notify=false"}, env{
			stdin: strings.NewReader(""), stdout: os.Stdout, stderr: os.Stderr,
			environ: []string{"TERM=xterm-256color", "XDG_CONFIG_HOME=" + cfg},
			openTTY: term.OpenTTY,
		})
	}()
	term.WaitFor(0, "MCP:")
	asked := make(chan outcome, 1)
	go func() {
		asked <- runCLI(t, context.Background(), strings.NewReader(""), mustNotOpenTTY(t), "ask", "--connect="+sock, "--timeout", "3s", "Deploy now?")
	}()
	term.WaitFor(0, "Deploy now?")
	term.WaitFor(0, "left")
	if o := <-asked; o.code != exitTimeout {
		t.Errorf("ask --connect --timeout: exit %d, stderr %q; want %d", o.code, o.stderr, exitTimeout)
	}
	term.WaitFor(0, "timed out") // and not withdrawn
	stop()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
	var out strings.Builder
	if code := run(context.Background(), []string{"history", "--history", hist}, env{stdin: strings.NewReader(""), stdout: &out, stderr: io.Discard}); code != 0 ||
		!strings.Contains(out.String(), "timeout") || strings.Contains(out.String(), "withdrawn") {
		t.Errorf("history (exit %d):\n%s\nwant the request recorded as a timeout", code, out.String())
	}
}
