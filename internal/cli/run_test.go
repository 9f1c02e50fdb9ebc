package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
)

func TestRunFailsBeforeTheTerminal(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		code interaction.Code
		exit int
		want string
	}{
		{[]string{"run", "nosuch"}, interaction.CodeAgentNotFound, exitNotFound, `no agent is called "nosuch"`},
		{[]string{"run", "gemini"}, interaction.CodeAgentNotFound, exitNotFound, "npm install -g @google/gemini-cli"},
		{[]string{"run", "--", dir + "/no-agent"}, interaction.CodeAgentNotFound, exitNotFound, "no-agent"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out outcome
			done := make(chan int, 1)
			var stdout, stderr strings.Builder
			go func() {
				done <- run(context.Background(), tt.args, env{
					stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
					environ: []string{"PATH=" + dir, "HOME=" + dir, "XDG_RUNTIME_DIR=" + dir},
					openTTY: mustNotOpenTTY(t),
				})
			}()
			out.code = <-done
			e := envelope(t, stderr.String())
			if out.code != tt.exit || e.Code != tt.code || !strings.Contains(e.Message, tt.want) || stdout.String() != "" {
				t.Fatalf("exit %d, error %v, stdout %q; want %d, %s with %q", out.code, e, stdout.String(), tt.exit, tt.code, tt.want)
			}
		})
	}
	if got := exitCode(interaction.Errorf(interaction.CodeAgentExited, "x")); got != exitAgent {
		t.Errorf("AGENT_EXITED exits %d", got)
	}
	if got := exitCode(interaction.Errorf(interaction.CodeAgentProtocol, "x")); got != exitAgent {
		t.Errorf("AGENT_PROTOCOL exits %d", got)
	}
	if got := exitCode(interaction.Errorf(interaction.CodeAgentAuth, "x")); got != exitAgentAuth {
		t.Errorf("AGENT_AUTH exits %d", got)
	}
}

func TestRunList(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr strings.Builder
	code := run(context.Background(), []string{"run", "--list"}, env{
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		environ: []string{"PATH=" + dir, "HOME=" + dir}, openTTY: mustNotOpenTTY(t),
	})
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if code != 0 || len(lines) != 5 || !strings.HasPrefix(lines[0], "gemini") || !strings.Contains(lines[0], "not installed") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s", code, stdout.String(), stderr.String())
	}
}
