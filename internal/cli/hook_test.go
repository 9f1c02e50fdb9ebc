package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// TestHookSaysWhyItLeavesAnInput: an input that is not asktui's to answer
// (a PreToolUse for Bash sent to asktui hook claude, a Codex PreToolUse,
// Gemini's call of asktui's own tool) is left to the CLI as before, and
// the hook says why on standard error in one line, as its help says
// (issue 35: it said nothing).
func TestHookSaysWhyItLeavesAnInput(t *testing.T) {
	for _, c := range []struct{ cli, fixture, stdout, stderr string }{
		{"claude", "other-tool", "", "asktui hook: PreToolUse for Bash: asktui answers Claude Code's permission prompts through PermissionRequest; Claude Code asks as usual\n"},
		{"claude", "ask-permission", "", "asktui hook: PermissionRequest for AskUserQuestion: its prompt is the question itself; Claude Code asks it as usual\n"},
		{"codex", "pre-tool-use", "", "asktui hook: PreToolUse for Bash: asktui answers Codex's PermissionRequest only; Codex goes on as usual\n"},
		{"gemini", "asktui", "", "asktui hook: BeforeTool for asktui's own ask_user_question: the call is the question itself; Gemini CLI's policy decides as usual\n"},
	} {
		input, err := os.ReadFile("../../agent/hook/testdata/" + c.cli + "/in/" + c.fixture + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"hook", c.cli, "--socket", filepath.Join(t.TempDir(), "none.sock")}, env{
			stdin: bytes.NewReader(input), stdout: &stdout, stderr: &stderr, openTTY: mustNotOpenTTY(t),
		})
		if code != 0 || stdout.String() != c.stdout || stderr.String() != c.stderr {
			t.Errorf("%s/%s: exit %d, stdout %q, stderr %q; want 0, %q and %q", c.cli, c.fixture, code, stdout.String(), stderr.String(), c.stdout, c.stderr)
		}
	}
}

// serveHookInbox serves a test inbox on a socket for the hook commands.
func serveHookInbox(t *testing.T) (string, *interactiontest.Provider) {
	t.Helper()
	sock := shortSocketPath(t)
	l, err := socket.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	provider := interactiontest.NewProvider()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- socket.Serve(ctx, l, provider, socket.Options{}) }()
	t.Cleanup(func() { stop(); <-served })
	return sock, provider
}

// A permission prompt answered in Claude Code's own dialog leaves the
// inbox as soon as the transcript records the call's result, as
// SETTLED_ELSEWHERE (the history's outcome "elsewhere"), and the hook
// prints nothing: Claude Code already has its answer.
func TestHookClaudeSettledInClaudesDialog(t *testing.T) {
	sock, provider := serveHookInbox(t)
	transcript := filepath.Join(t.TempDir(), "session.jsonl")
	write := func(line string) {
		f, err := os.OpenFile(transcript, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600) //nolint:gosec // a path the test made, or its testdata
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(line + "\n"); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"echo hi > /tmp/hooks/proj/ran.txt","description":"Write a file"}}]}}`)
	raw, err := os.ReadFile("../../agent/hook/testdata/claude/in/bash-2.1.332.json")
	if err != nil {
		t.Fatal(err)
	}
	var in map[string]any
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatal(err)
	}
	in["transcript_path"] = transcript
	input, _ := json.Marshal(in)

	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"hook", "claude", "--socket", sock}, env{
			stdin: bytes.NewReader(input), stdout: &stdout, stderr: &stderr, openTTY: mustNotOpenTTY(t),
		})
	}()
	call := provider.Next(t)
	write(`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"(Bash completed with no output)","is_error":false}]}}`)
	werr := call.Withdrawn(t, 10*time.Second)
	if interaction.CodeOf(werr) != interaction.CodeSettledElsewhere || interaction.Classify(interaction.Answer{}, werr) != interaction.OutcomeElsewhere {
		t.Errorf("withdrawn with %v", werr)
	}
	if code := <-done; code != 0 || stdout.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// Codex's hook: the inbox's answer becomes Codex's decision; its config
// runs the hook as a shell command line.
func TestHookCodexAndGemini(t *testing.T) {
	sock, provider := serveHookInbox(t)
	for _, c := range []struct{ cli, fixture, want string }{
		{"codex", "bash", `"behavior":"deny"`},
		{"gemini", "shell", `"decision":"deny"`},
	} {
		input, err := os.ReadFile("../../agent/hook/testdata/" + c.cli + "/in/" + c.fixture + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		done := make(chan int, 1)
		go func() {
			done <- run(context.Background(), []string{"hook", c.cli, "--socket", sock}, env{
				stdin: bytes.NewReader(input), stdout: &stdout, stderr: &stderr, openTTY: mustNotOpenTTY(t),
			})
		}()
		call := provider.Next(t)
		call.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "permission", Selected: []string{"Deny"}, Note: "not now"}}})
		if code := <-done; code != 0 || !strings.Contains(stdout.String(), c.want) || !strings.Contains(stdout.String(), "not now") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", c.cli, code, stdout.String(), stderr.String())
		}
		stdout.Reset()
		if code := run(context.Background(), []string{"hook", c.cli, "--print-config", "--socket", "/tmp/a b.sock"}, env{
			stdin: strings.NewReader(""), stdout: &stdout, stderr: os.Stderr, openTTY: mustNotOpenTTY(t),
		}); code != 0 || !strings.Contains(stdout.String(), `hook `+c.cli+` --socket '/tmp/a b.sock' --timeout 9m50s`) || !json.Valid(stdout.Bytes()) {
			t.Errorf("%s --print-config: exit %d\n%s", c.cli, code, stdout.String())
		}
	}
}

// --socket goes into the printed Claude Code config too.
func TestHookClaudePrintConfigSocket(t *testing.T) {
	var stdout bytes.Buffer
	if code := run(context.Background(), []string{"hook", "claude", "--print-config", "--socket", "/tmp/a b.sock"}, env{
		stdin: strings.NewReader(""), stdout: &stdout, stderr: os.Stderr, openTTY: mustNotOpenTTY(t),
	}); code != 0 || !strings.Contains(stdout.String(), `"--socket",
              "/tmp/a b.sock",`) {
		t.Fatalf("exit %d\n%s", code, stdout.String())
	}
}

// Issue 35: under asktui run (ASKTUI_RUN, which run sets for its agents)
// the hook steps aside: no decision (Gemini is told to ask), a line on
// standard error, nothing in the inbox; the CLI asks as usual, which
// under run is ACP's request_permission, asked in the conversation.
// Without it the same input is asked in the inbox.
func TestHookStepsAsideUnderRun(t *testing.T) {
	sock, provider := serveHookInbox(t)
	for _, c := range []struct{ cli, fixture, name, stdout string }{
		{"claude", "bash", "Claude Code", ""},
		{"codex", "bash", "Codex", ""},
		{"gemini", "shell", "Gemini CLI", `"decision":"ask"`},
	} {
		t.Run(c.cli, func(t *testing.T) {
			input, err := os.ReadFile("../../agent/hook/testdata/" + c.cli + "/in/" + c.fixture + ".json")
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			// --timeout bounds a hook that would ask after all.
			code := run(context.Background(), []string{"hook", c.cli, "--socket", sock, "--timeout", "2s"}, env{
				stdin: bytes.NewReader(input), stdout: &stdout, stderr: &stderr, openTTY: mustNotOpenTTY(t),
				environ: []string{"ASKTUI_RUN=claude-2"},
			})
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr.String())
			}
			if (c.stdout == "" && stdout.Len() != 0) || !strings.Contains(stdout.String(), c.stdout) ||
				strings.Contains(stdout.String(), "allow") || strings.Contains(stdout.String(), "deny") {
				t.Fatalf("stdout %q, want %q: stepping aside decides nothing", stdout.String(), c.stdout)
			}
			if want := c.name + " runs under asktui run (ASKTUI_RUN=claude-2)"; !strings.Contains(stderr.String(), want) ||
				!strings.Contains(stderr.String(), c.name+" asks as usual") {
				t.Fatalf("stderr %q, want %q", stderr.String(), want)
			}
			select {
			case call := <-provider.Calls():
				t.Fatalf("asked in the inbox under run: %+v", call.Req)
			default:
			}
			// Without ASKTUI_RUN, the same call is asked in the inbox.
			stdout.Reset()
			done := make(chan int, 1)
			go func() {
				done <- run(context.Background(), []string{"hook", c.cli, "--socket", sock}, env{
					stdin: bytes.NewReader(input), stdout: &stdout, stderr: &stderr, openTTY: mustNotOpenTTY(t),
				})
			}()
			call := provider.Next(t)
			call.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "permission", Selected: []string{"Deny"}}}})
			if code := <-done; code != 0 || !strings.Contains(stdout.String(), "deny") {
				t.Fatalf("without ASKTUI_RUN: exit %d, stdout %q", code, stdout.String())
			}
		})
	}
}
