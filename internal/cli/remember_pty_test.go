//go:build !windows

package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktui/asktui/agent/socket"
	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/ptytest"
)

// TestPTYServeRemembers: in asktui serve, the human answers a permission
// with a rule (a, the broader suggestion, enter): the rule is in the
// rules file and the permission allowed; the same permission again is
// answered by the rule, which the activity shows; the rule revoked in the
// rules pane (ctrl+k, d, y), the next one is asked again. The history
// names the call and what answered it each time: the human saving the
// rule, the rule, the human (issue 35).
func TestPTYServeRemembers(t *testing.T) {
	skipUnderRace(t)
	home, _ := rulesEnv(t)
	app := filepath.Join(home, "src", "app")
	term := ptytest.New(t, ptytest.Options{})
	sock := shortSocket(t)
	hist := filepath.Join(t.TempDir(), "history.jsonl")
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--listen", "127.0.0.1:0", "--socket", sock, "--history", hist, "--theme", "dark", "--bell=false", "--notify=false"}, env{
			stdin: strings.NewReader(""), stdout: os.Stdout, stderr: os.Stderr,
			environ: []string{"TERM=xterm-256color", "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state")},
			openTTY: term.OpenTTY,
		})
	}()
	defer func() {
		stop()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop")
		}
	}()
	term.WaitFor(0, "MCP:")
	client, err := socket.Dial(ctx, sock)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()

	req := interaction.Request{
		Agent: &interaction.Agent{ID: "claude-code:s1", Name: "claude-code"},
		Questions: []interaction.Question{{ID: "permission", Header: "Bash", Question: "Run `go test ./...`?",
			Options: []interaction.Option{{Label: "Allow once"}, {Label: "Deny"}}}},
		Permission: &interaction.Permission{Client: interaction.ClientClaude, Tool: "Bash", Kind: interaction.KindExecute,
			Command: "go test ./...", Cwd: app, Session: "claude-code:s1", Question: "permission", Allow: "Allow once", Deny: "Deny"},
	}
	type reply struct {
		a   interaction.Answer
		err error
	}
	ask := func() <-chan reply {
		ch := make(chan reply, 1)
		go func() {
			a, err := client.Ask(ctx, req)
			ch <- reply{a, err}
		}()
		return ch
	}
	answered := func(ch <-chan reply, want string, screen func() string) {
		t.Helper()
		select {
		case r := <-ch:
			item, _ := r.a.Get("permission")
			if r.err != nil || len(item.Selected) != 1 || item.Selected[0] != want {
				t.Fatalf("answered %+v, %v; want %q", r.a, r.err, want)
			}
		case <-time.After(time.Minute):
			t.Fatalf("the permission was not answered; the screen:\n%s", screen())
		}
	}

	// Answered with a rule.
	mark := term.Mark()
	first := ask()
	term.WaitFor(mark, "./...?")
	term.WaitSeen(mark)
	mark = term.Mark()
	term.Type("a")
	term.WaitFor(mark, "Always")
	term.WaitFor(mark, "exactly")
	mark = term.Mark()
	term.Type("\x1b[B") // ↓: Bash(go test:*)
	term.WaitFor(mark, "arguments,")
	term.Type("\r")
	answered(first, "Allow once", func() string { return term.Text(0) })
	data, err := os.ReadFile(filepath.Join(home, ".config", "asktui", "rules.conf")) //nolint:gosec // the test's own file
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\nallow ~/src/app Bash(go test:*)\n") {
		t.Fatalf("the rules file lacks the rule:\n%s", data)
	}

	// The same permission again: the rule answers it.
	mark = term.Mark()
	answered(ask(), "Allow once", func() string { return term.Text(0) })
	term.WaitFor(mark, "allowed")

	// Revoked in the rules pane.
	mark = term.Mark()
	term.Type("\x0b") // ctrl+k
	term.WaitFor(mark, "rules.conf")
	term.Type("d")
	term.WaitFor(mark, "Remove")
	term.Type("y")
	term.WaitFor(mark, "yet.") // No rules yet.
	term.Type("\x1b")
	if data, err := os.ReadFile(filepath.Join(home, ".config", "asktui", "rules.conf")); err != nil || strings.Contains(string(data), "\nallow ~/src/app Bash(go test:*)") { //nolint:gosec // the test's own file
		t.Fatalf("the rule is still in the file (%v):\n%s", err, data)
	}

	// Asked again; the human denies it once.
	mark = term.Mark()
	third := ask()
	term.WaitFor(mark, "./...?")
	term.WaitSeen(mark)
	term.Type("2")
	answered(third, "Deny", func() string { return term.Text(0) })

	o := runCLI(t, context.Background(), strings.NewReader(""), mustNotOpenTTY(t), "history", "--history", hist)
	var got []string
	for _, l := range strings.Split(o.stdout, "\n") {
		if strings.HasPrefix(l, "  ") {
			got = append(got, l)
		}
	}
	want := []string{
		"  Bash: go test ./...", "  answer: Allow once", "  answered by the human on this terminal, saving rule 1: allow ~/src/app Bash(go test:*)",
		"  Bash: go test ./...", "  answer: Allow once", "  answered by rule 1: allow ~/src/app Bash(go test:*)",
		"  Bash: go test ./...", "  answer: Deny", "  answered by the human on this terminal",
	}
	if o.code != 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("history: exit %d\n%s\nwant the lines\n%s", o.code, o.stdout, strings.Join(want, "\n"))
	}
}
