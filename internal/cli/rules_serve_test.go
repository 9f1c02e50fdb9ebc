package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestServeAnswersByRule: with a rule added by `asktui rules add`, a
// running inbox (serve --headless: no one to ask) answers Claude Code's
// permission hook for that command through the socket, records the rule
// in the history, and counts the hit; a compound command built on it is
// left to the human (here, no one: the hook gives up at its timeout and
// Claude Code asks as usual).
func TestServeAnswersByRule(t *testing.T) {
	dir := t.TempDir()
	project := filepath.Join(dir, "shop")
	if err := os.Mkdir(project, 0o700); err != nil {
		t.Fatal(err)
	}
	environ := []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "XDG_STATE_HOME=" + filepath.Join(dir, "state"), "XDG_DATA_HOME=" + dir}
	cli := func(ctx context.Context, stdin string, args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(ctx, args, env{stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, environ: environ, openTTY: mustNotOpenTTY(t)})
		return code, stdout.String(), stderr.String()
	}
	if code, _, stderr := cli(context.Background(), "", "rules", "add", "--dir", project, "Bash(rm -rf node_modules)"); code != 0 {
		t.Fatalf("rules add: exit %d: %s", code, stderr)
	}

	sock := shortSocketPath(t)
	ctx, stop := context.WithCancel(context.Background())
	stdout, stderr := newWatched(), newWatched()
	served := make(chan int, 1)
	go func() {
		served <- run(ctx, []string{"serve", "--headless", "--listen", "127.0.0.1:0", "--socket", sock}, env{
			stdin: strings.NewReader(""), stdout: stdout, stderr: stderr, environ: environ, openTTY: mustNotOpenTTY(t),
		})
	}()
	defer func() { stop(); <-served }()
	stdout.waitMatch(t, regexp.MustCompile(`the inbox is open`))

	hook := func(command, timeout string) string {
		t.Helper()
		in := map[string]any{"session_id": "abc123", "cwd": project, "hook_event_name": "PermissionRequest",
			"tool_name": "Bash", "tool_input": map[string]string{"command": command}}
		data, _ := json.Marshal(in)
		code, out, errOut := cli(context.Background(), string(data), "hook", "claude", "--socket", sock, "--timeout", timeout)
		if code != 0 {
			t.Fatalf("hook: exit %d: %s", code, errOut)
		}
		return out
	}
	if out := hook("rm -rf node_modules", "30s"); !strings.Contains(out, `"behavior":"allow"`) {
		t.Fatalf("the rule did not answer: %q", out)
	}
	// No view was there to answer: the rule did, and the history says so.
	history, err := os.ReadFile(filepath.Join(dir, "state", "asktui", "history.jsonl")) //nolint:gosec // the test's own temporary file
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(history), `"rule":{"number":1,"rule":"allow ~/shop Bash(rm -rf node_modules)"}`) {
		t.Errorf("the history does not record the rule:\n%s", history)
	}
	code, list, _ := cli(context.Background(), "", "rules", "list")
	if code != 0 || !strings.Contains(list, "(1 answer, last ") {
		t.Errorf("rules list after one answer (exit %d):\n%s", code, list)
	}
	if out := hook("rm -rf node_modules; rm -rf ~", "1s"); strings.Contains(out, "allow") {
		t.Fatalf("a compound command was allowed: %q", out)
	}
}

// TestServeDeniesByRuleTellsTheAgent: a deny rule answers Claude Code's
// permission hook through the socket, and Claude Code is told the call
// met the user's standing rule (rules.Wrap's note, carried by the answer
// and worded by the hook), not that the user denied it just now.
func TestServeDeniesByRuleTellsTheAgent(t *testing.T) {
	dir := t.TempDir()
	project := filepath.Join(dir, "shop")
	if err := os.Mkdir(project, 0o700); err != nil {
		t.Fatal(err)
	}
	environ := []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "XDG_STATE_HOME=" + filepath.Join(dir, "state"), "XDG_DATA_HOME=" + dir}
	cli := func(ctx context.Context, stdin string, args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(ctx, args, env{stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, environ: environ, openTTY: mustNotOpenTTY(t)})
		return code, stdout.String(), stderr.String()
	}
	if code, _, stderr := cli(context.Background(), "", "rules", "add", "--deny", "--dir", project, "Bash(rm:*)"); code != 0 {
		t.Fatalf("rules add: exit %d: %s", code, stderr)
	}

	sock := shortSocketPath(t)
	ctx, stop := context.WithCancel(context.Background())
	stdout, stderr := newWatched(), newWatched()
	served := make(chan int, 1)
	go func() {
		served <- run(ctx, []string{"serve", "--headless", "--listen", "127.0.0.1:0", "--socket", sock}, env{
			stdin: strings.NewReader(""), stdout: stdout, stderr: stderr, environ: environ, openTTY: mustNotOpenTTY(t),
		})
	}()
	defer func() { stop(); <-served }()
	stdout.waitMatch(t, regexp.MustCompile(`the inbox is open`))

	in, _ := json.Marshal(map[string]any{"session_id": "abc123", "cwd": project, "hook_event_name": "PermissionRequest",
		"tool_name": "Bash", "tool_input": map[string]string{"command": "rm -rf node_modules"}})
	code, out, errOut := cli(context.Background(), string(in), "hook", "claude", "--socket", sock, "--timeout", "30s")
	if code != 0 {
		t.Fatalf("hook: exit %d: %s", code, errOut)
	}
	var got struct {
		HookSpecificOutput struct {
			Decision struct {
				Behavior, Message string
			} `json:"decision"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	want := "Denied by the user's standing rule in asktui (rule 1: Bash(rm:*)). Do not try to run it another way."
	if d := got.HookSpecificOutput.Decision; d.Behavior != "deny" || d.Message != want {
		t.Fatalf("decision %+v, want deny with %q", d, want)
	}
}
