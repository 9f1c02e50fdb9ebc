package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
)

// rulesEnv runs asktui with a home of its own and returns how.
func rulesEnv(t *testing.T) (home string, run1 func(args ...string) outcome) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home = filepath.Join(root, "home")
	if err := os.MkdirAll(filepath.Join(home, "src", "app"), 0o700); err != nil {
		t.Fatal(err)
	}
	return home, func(args ...string) outcome {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, env{
			stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
			environ: []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state")},
			openTTY: noTTY,
		})
		return outcome{code: code, stdout: stdout.String(), stderr: stderr.String()}
	}
}

// TestRulesCommand: rules add, list and remove, for scripts.
func TestRulesCommand(t *testing.T) {
	home, asktui := rulesEnv(t)
	app := filepath.Join(home, "src", "app")

	o := asktui("rules")
	if o.code != 0 || !strings.Contains(o.stdout, "No rules yet in "+filepath.Join(home, ".config", "asktui", "rules.conf")) {
		t.Fatalf("rules on a fresh install: exit %d, stdout %q, stderr %q", o.code, o.stdout, o.stderr)
	}
	o = asktui("rules", "add", "--dir", app, "Bash(go test:*)")
	if o.code != 0 || o.stdout != "Added rule 1: allow ~/src/app Bash(go test:*)\n     allow `go test` with any arguments, from any agent, in ~/src/app\n" {
		t.Fatalf("rules add: exit %d, stdout %q, stderr %q", o.code, o.stdout, o.stderr)
	}
	o = asktui("rules", "add", "--deny", "--dir", app, "--session", "codex:7", "Bash(rm:*)")
	if o.code != 0 || !strings.HasPrefix(o.stdout, "Added rule 2: deny ~/src/app session=codex:7 Bash(rm:*)\n") {
		t.Fatalf("rules add --deny: exit %d, stdout %q, stderr %q", o.code, o.stdout, o.stderr)
	}
	o = asktui("rules", "add", "--dir", app, "Bash(go", "test:*)")
	if o.code != 0 || !strings.HasPrefix(o.stdout, "Already there: rule 1: ") {
		t.Fatalf("rules add again: exit %d, stdout %q, stderr %q", o.code, o.stdout, o.stderr)
	}
	o = asktui("rules", "list")
	if o.code != 0 || !strings.Contains(o.stdout, ": 2 rules\n") ||
		!strings.Contains(o.stdout, "  1  allow ~/src/app Bash(go test:*)  (never answered)\n     allow `go test` with any arguments") ||
		!strings.Contains(o.stdout, "  2  deny ~/src/app session=codex:7 Bash(rm:*)  (never answered)\n") {
		t.Fatalf("rules list: exit %d, stdout %q, stderr %q", o.code, o.stdout, o.stderr)
	}
	o = asktui("rules", "list", "--json")
	var got []ruleJSON
	for line := range strings.Lines(o.stdout) {
		var r ruleJSON
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("rules list --json line %q: %v", line, err)
		}
		got = append(got, r)
	}
	if o.code != 0 || len(got) != 2 || got[1].Number != 2 || got[1].Action != "deny" || got[1].Session != "codex:7" ||
		got[1].Kind != interaction.KindExecute || got[1].Spec != "Bash(rm:*)" || got[1].Dir != "~/src/app" {
		t.Fatalf("rules list --json: exit %d, %+v, stderr %q", o.code, got, o.stderr)
	}
	o = asktui("rules", "remove", "1")
	if o.code != 0 || o.stdout != "Removed rule 1: allow ~/src/app Bash(go test:*)\n" {
		t.Fatalf("rules remove: exit %d, stdout %q, stderr %q", o.code, o.stdout, o.stderr)
	}
	if o = asktui("rules", "list", "--json"); strings.Count(o.stdout, "\n") != 1 {
		t.Errorf("after remove: %q", o.stdout)
	}
}

// TestRulesCommandErrors: a bad rule or number is a usage error (exit
// 2, INVALID_RULE), an untrusted file exit 4 (UNTRUSTED).
func TestRulesCommandErrors(t *testing.T) {
	home, asktui := rulesEnv(t)
	app := filepath.Join(home, "src", "app")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"rules", "add", "--dir", app, "run_shell_command"}, exitUsage, "INVALID_RULE"},
		{[]string{"rules", "add", "--dir", app, "Bash(go test"}, exitUsage, "INVALID_RULE"},
		{[]string{"rules", "add", "--dir", "/", "Bash"}, exitUsage, "not in /"},
		{[]string{"rules", "add"}, exitUsage, "requires at least 1 arg"},
		{[]string{"rules", "remove", "1"}, exitUsage, "there is no rule 1"},
		{[]string{"rules", "remove", "x"}, exitUsage, `is not a rule's number`},
		{[]string{"rules", "list", "extra"}, exitUsage, "takes no arguments"},
	} {
		o := asktui(c.args...)
		if o.code != c.code || !strings.Contains(o.stderr, c.want) {
			t.Errorf("asktui %s: exit %d, stderr %q; want %d and %q", strings.Join(c.args, " "), o.code, o.stderr, c.code, c.want)
		}
	}
	if o := asktui("rules", "add", "--dir", app, "Bash(make:*)"); o.code != 0 {
		t.Fatalf("rules add: %+v", o)
	}
	path := filepath.Join(home, ".config", "asktui", "rules.conf")
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	if o := asktui("rules", "list"); o.code != exitFailure || !strings.Contains(o.stderr, "UNTRUSTED") || !strings.Contains(o.stderr, "chmod 600") {
		t.Errorf("rules list of a file others can write: exit %d, stderr %q", o.code, o.stderr)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("allow ~/src/app Bash(make:*)\nallow everything\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if o := asktui("rules", "list"); o.code != exitUsage || !strings.Contains(o.stderr, "INVALID_RULE") || !strings.Contains(o.stderr, "line 2") {
		t.Errorf("rules list of an invalid file: exit %d, stderr %q", o.code, o.stderr)
	}
}
