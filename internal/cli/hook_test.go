package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktui/asktui/agent/socket"
	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// TestHookClaudeAnswersFromTheInbox: a permission prompt goes through the
// socket to the inbox, and the human's "allow" comes back as Claude
// Code's decision.
func TestHookClaudeAnswersFromTheInbox(t *testing.T) {
	sock := shortSocketPath(t)
	l, err := socket.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	provider := interactiontest.NewProvider()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- socket.Serve(ctx, l, provider, socket.Options{}) }()
	defer func() { stop(); <-served }()

	input, err := os.ReadFile("../../agent/hook/testdata/claude/in/bash.json")
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"hook", "claude", "--socket", sock}, env{
			stdin: bytes.NewReader(input), stdout: &stdout, stderr: &stderr, openTTY: mustNotOpenTTY(t),
		})
	}()
	call := provider.Next(t)
	q := call.Req.Questions[0]
	if !strings.Contains(q.Question+q.Detail, "rm -rf node_modules") {
		t.Errorf("the prompt does not show the command: %+v", q)
	}
	call.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: q.ID, Selected: []string{q.Options[0].Label}}}})
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var out struct {
		HookSpecificOutput struct {
			HookEventName string
			Decision      struct{ Behavior string }
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("stdout %q: %v", stdout.String(), err)
	}
	if out.HookSpecificOutput.HookEventName != "PermissionRequest" || out.HookSpecificOutput.Decision.Behavior != "allow" {
		t.Fatalf("decision %s", stdout.String())
	}
}

// TestHookClaudeWithoutInbox: with no inbox running the hook prints
// nothing and exits 0, so Claude Code asks as usual.
func TestHookClaudeWithoutInbox(t *testing.T) {
	input, err := os.ReadFile("../../agent/hook/testdata/claude/in/single.json")
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"hook", "claude", "--socket", filepath.Join(t.TempDir(), "none.sock")}, env{
		stdin: bytes.NewReader(input), stdout: &stdout, stderr: &stderr, openTTY: mustNotOpenTTY(t),
	})
	if code != 0 || stdout.Len() != 0 {
		t.Fatalf("exit %d, stdout %q", code, stdout.String())
	}
	if !strings.Contains(stderr.String(), "Claude Code asks as usual") {
		t.Errorf("stderr %q", stderr.String())
	}
}

func TestHookClaudePrintConfig(t *testing.T) {
	var stdout bytes.Buffer
	code := run(context.Background(), []string{"hook", "claude", "--print-config", "--timeout", "100s"}, env{
		stdin: strings.NewReader(""), stdout: &stdout, stderr: os.Stderr, openTTY: mustNotOpenTTY(t),
	})
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var cfg map[string]map[string][]struct {
		Matcher string
		Hooks   []struct {
			Args    []string
			Timeout int
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &cfg); err != nil {
		t.Fatal(err)
	}
	pre := cfg["hooks"]["PreToolUse"]
	if len(pre) != 1 || pre[0].Matcher != "AskUserQuestion" || pre[0].Hooks[0].Timeout != 110 ||
		strings.Join(pre[0].Hooks[0].Args, " ") != "hook claude --timeout 1m40s" {
		t.Fatalf("config:\n%s", stdout.String())
	}
	if len(cfg["hooks"]["PermissionRequest"]) != 1 {
		t.Fatalf("no PermissionRequest hook:\n%s", stdout.String())
	}
}

// TestHookClaudeMalformedInput: input it cannot read is left to Claude
// Code: nothing on stdout, exit 0, the reason on stderr.
func TestHookClaudeMalformedInput(t *testing.T) {
	for _, in := range []string{"", "not json", `{"hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_input":{"questions":"x"}}`} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"hook", "claude", "--socket", filepath.Join(t.TempDir(), "none.sock")}, env{
			stdin: strings.NewReader(in), stdout: &stdout, stderr: &stderr, openTTY: mustNotOpenTTY(t),
		})
		if code != 0 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "asktui hook:") {
			t.Errorf("input %q: exit %d, stdout %q, stderr %q", in, code, stdout.String(), stderr.String())
		}
	}
}
