package compat

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktui/asktui/internal/compat/mockmodel"
)

// hookConfig returns the hooks block `asktui hook CLIENT --print-config`
// prints for w's socket, decoded.
func hookConfig(t *testing.T, w *world, client string) map[string]any {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), asktuiBin, "hook", client, "--print-config", "--socket", w.socket) //nolint:gosec // the test runs a command of its own choosing
	cmd.Env = w.env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("asktui hook %s --print-config: %v", client, err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(out, &cfg); err != nil {
		t.Fatalf("asktui hook %s --print-config printed no JSON: %v\n%s", client, err, out)
	}
	return cfg
}

// claudeHome writes what interactive Claude Code needs to start straight
// into its prompt in w's project: onboarding done, the mock's API key
// approved, the project trusted; and settings with the default
// permission mode (it starts in auto mode otherwise) plus extra.
func claudeHome(t *testing.T, w *world, extra map[string]any) {
	t.Helper()
	w.writeJSON(t, ".claude.json", map[string]any{
		"hasCompletedOnboarding": true,
		// Else it offers to make auto mode the default first.
		"hasSeenAutoDefaultNudge": true,
		"customApiKeyResponses":   map[string]any{"approved": []string{anthropicKey[len(anthropicKey)-20:]}, "rejected": []string{}},
		"projects":                map[string]any{w.project: map[string]any{"hasTrustDialogAccepted": true, "allowedTools": []string{}}},
	})
	settings := map[string]any{"permissions": map[string]any{"defaultMode": "default"}}
	for k, v := range extra {
		settings[k] = v
	}
	w.writeJSON(t, ".claude/settings.json", settings)
}

// claudeEnv is Claude Code's environment against mock.
func claudeEnv(w *world, mock *mockmodel.Server) []string {
	return w.with("ANTHROPIC_BASE_URL="+mock.URL, "ANTHROPIC_API_KEY="+anthropicKey, "IS_SANDBOX=1")
}

// TestClaudeHooks is interactive Claude Code with asktui's hooks
// (`asktui hook claude --print-config`), answered in asktui serve's
// inbox: a Bash permission allowed (the model sees the output), its own
// AskUserQuestion answered (the model sees the answer), a Bash permission
// denied (the model sees the refusal).
func TestClaudeHooks(t *testing.T) {
	tl := need(t)
	mock := mockmodel.NewAnthropic(t, script)
	w := newWorld(t, tl)
	claudeHome(t, w, hookConfig(t, w, "claude"))
	inbox := w.serve(t)

	term := newVTerm(t)
	w.start(t, term, claudeEnv(w, mock), tl.claude)
	claudeRoundTrips(t, w, mock, inbox, term)
}

// claudeRoundTrips drives interactive Claude Code on term, whose hooks
// ask in inbox: a Bash permission allowed, AskUserQuestion answered, a
// Bash permission denied.
func claudeRoundTrips(t *testing.T, w *world, mock *mockmodel.Server, inbox, term *vterm) {
	t.Helper()
	prompt := claudePrompt(t, mock, term)

	term.WaitScreen("for shortcuts")

	t.Log("a Bash permission, allowed in the inbox")
	mark := inbox.Mark()
	mmark := prompt(promptShell)
	waitQuestion(inbox, mark)
	inbox.Type(pick(t, inbox, allow...))
	mock.WaitFor(mmark, "the shell command's output", ranShell)
	term.WaitScreen(resulted)
	w.removeShellFile(t)

	t.Log("AskUserQuestion, answered in the inbox")
	mark = inbox.Mark()
	mmark = prompt(promptQuestion)
	inbox.WaitUntil("Claude Code's question", func() bool { return optionKey(inbox.Screen(), "Postgres") != "" })
	inbox.WaitSeen(mark)
	inbox.Type(pick(t, inbox, "Postgres"))
	mock.WaitFor(mmark, "AskUserQuestion's answer", answered)

	t.Log("a Bash permission, denied in the inbox")
	mark = inbox.Mark()
	mmark = prompt(promptShell)
	inbox.WaitUntil("the second permission", func() bool {
		return strings.Contains(inbox.Screen(), "compat-%s") && optionKey(inbox.Screen(), deny...) != ""
	})
	inbox.WaitSeen(mark)
	inbox.Type(pick(t, inbox, deny...))
	mock.WaitFor(mmark, "the shell command's refusal", refusedShell)
	w.noShellFile(t)
}

// claudePrompt returns a function that types a prompt into interactive
// Claude Code on term and returns mock's mark from before it.
func claudePrompt(t *testing.T, mock *mockmodel.Server, term *vterm) func(text string) int {
	return func(text string) int {
		t.Helper()
		mmark := mock.Mark()
		term.typeInto("❯ ", text)
		term.Type("\r")
		return mmark
	}
}

// TestGeminiHooks is gemini -p in yolo mode with asktui's BeforeTool hook
// (`asktui hook gemini --print-config`), answered in asktui serve's
// inbox: a shell command denied (the model sees the reason), then one
// allowed (yolo runs it; the model sees the output).
func TestGeminiHooks(t *testing.T) {
	tl := need(t)
	mock := mockmodel.NewGemini(t, script)
	w := newWorld(t, tl)
	geminiSettings(t, w, hookConfig(t, w, "gemini"))
	inbox := w.serve(t)

	mark, mmark := inbox.Mark(), mock.Mark()
	p := w.start(t, nil, w.with("GOOGLE_GEMINI_BASE_URL="+mock.URL, "GEMINI_API_KEY=compat-mock-key", "GEMINI_CLI_TRUST_WORKSPACE=true"),
		filepath.Join(tl.bin, "gemini"), "--approval-mode", "yolo", "-p", promptShell2)

	t.Log("the first command, denied in the inbox")
	waitQuestion(inbox, mark)
	inbox.Type(pick(t, inbox, deny...))
	mock.WaitFor(mmark, "the shell command's refusal", refusedShell)
	w.noShellFile(t)

	t.Log("the second, allowed in the inbox")
	mark = inbox.Mark()
	inbox.WaitUntil("the second permission", func() bool {
		return strings.Contains(inbox.Screen(), "compat-%s") && optionKey(inbox.Screen(), allow...) != ""
	})
	inbox.WaitSeen(mark)
	inbox.Type(pick(t, inbox, allow...))
	mock.WaitFor(mmark, "the shell command's output", ranShell)
	w.removeShellFile(t)

	if code := p.Wait(func() string { return "" }); code != 0 || !strings.Contains(p.Stdout.String(), resulted) {
		t.Fatalf("gemini -p exited %d; stdout %q; stderr %s", code, p.Stdout.String(), p.Stderr.String())
	}
}

// TestCodexHooks is interactive Codex with asktui's PermissionRequest
// hook (`asktui hook codex --print-config`, in hooks.json), answered in
// asktui serve's inbox: a command that leaves the sandbox allowed (the
// model sees its output), then one denied (the model sees the refusal).
// Codex runs a new hook only once trusted in its /hooks view; the test
// passes --dangerously-bypass-hook-trust instead.
func TestCodexHooks(t *testing.T) {
	tl, cx := needCodex(t)
	mock := mockmodel.NewOpenAI(t, script)
	w := newWorld(t, tl, cx.bin)
	codexHome(t, w, mock)
	w.writeJSON(t, ".codex/hooks.json", hookConfig(t, w, "codex"))
	inbox := w.serve(t)

	term := newVTerm(t)
	w.start(t, term, w.with("COMPAT_MOCK_KEY=compat-mock-key"), filepath.Join(cx.bin, "codex"), "--dangerously-bypass-hook-trust")
	term.WaitScreen("›")
	prompt := func(text string) int {
		t.Helper()
		mmark := mock.Mark()
		term.typeInto("› ", text)
		term.Type("\r")
		return mmark
	}

	t.Log("a command, allowed in the inbox")
	mark := inbox.Mark()
	mmark := prompt(promptShell)
	waitQuestion(inbox, mark)
	inbox.Type(pick(t, inbox, allow...))
	mock.WaitFor(mmark, "the shell command's output", ranShell)
	term.WaitScreen(resulted)
	w.removeShellFile(t)

	t.Log("a command, denied in the inbox")
	mark = inbox.Mark()
	mmark = prompt(promptShell)
	inbox.WaitUntil("the second permission", func() bool {
		return strings.Contains(inbox.Screen(), "compat-%s") && optionKey(inbox.Screen(), deny...) != ""
	})
	inbox.WaitSeen(mark)
	inbox.Type(pick(t, inbox, deny...))
	mock.WaitFor(mmark, "the shell command's refusal", refusedShell)
	w.noShellFile(t)
}

// addRule runs `asktui rules add --dir PROJECT ARGS...` in w: a rule
// (allow, unless args say --deny) in w's project.
func addRule(t *testing.T, w *world, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), asktuiBin, append([]string{"rules", "add", "--dir", w.project}, args...)...) //nolint:gosec // the test runs a command of its own choosing
	cmd.Env = w.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("asktui rules add %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestClaudeHooksRules is interactive Claude Code with asktui's hooks
// and the human's standing rules: the script's shell command is a
// pipeline, `printf … | tee compat-out.txt`; with a rule for printf
// alone the permission still reaches the inbox (answered there); once tee
// has a rule too, Claude Code runs it with no one asked, and the inbox
// shows which rule answered.
func TestClaudeHooksRules(t *testing.T) {
	tl := need(t)
	mock := mockmodel.NewAnthropic(t, script)
	w := newWorld(t, tl)
	claudeHome(t, w, hookConfig(t, w, "claude"))
	addRule(t, w, "Bash(printf:*)")
	inbox := w.serve(t)

	term := newVTerm(t)
	w.start(t, term, claudeEnv(w, mock), tl.claude)
	term.WaitScreen("for shortcuts")
	prompt := claudePrompt(t, mock, term)

	t.Log("a rule for one command of the pipeline: asked in the inbox")
	mark := inbox.Mark()
	mmark := prompt(promptShell)
	waitQuestion(inbox, mark)
	inbox.Type(pick(t, inbox, allow...))
	mock.WaitFor(mmark, "the shell command's output", ranShell)
	term.WaitScreen(resulted)
	w.removeShellFile(t)

	t.Log("a rule for each: answered by the rules, no one asked")
	addRule(t, w, "Bash(tee compat-out.txt)")
	mmark = prompt(promptShell)
	mock.WaitFor(mmark, "the shell command's output, allowed by the rules", ranShell)
	inbox.WaitScreen("allowed by rule")
	w.removeShellFile(t)
}

// TestGeminiHooksRules is gemini -p in yolo mode with asktui's hook and
// a deny rule: the shell command is refused by the rule with no one
// asked (yolo would have run it), and the model sees the refusal.
func TestGeminiHooksRules(t *testing.T) {
	tl := need(t)
	mock := mockmodel.NewGemini(t, script)
	w := newWorld(t, tl)
	geminiSettings(t, w, hookConfig(t, w, "gemini"))
	addRule(t, w, "--deny", "Bash(tee:*)")
	inbox := w.serve(t)

	mmark := mock.Mark()
	p := w.start(t, nil, w.with("GOOGLE_GEMINI_BASE_URL="+mock.URL, "GEMINI_API_KEY=compat-mock-key", "GEMINI_CLI_TRUST_WORKSPACE=true"),
		filepath.Join(tl.bin, "gemini"), "--approval-mode", "yolo", "-p", promptShell)
	mock.WaitFor(mmark, "the shell command's refusal, by the rule", refusedShell)
	w.noShellFile(t)
	inbox.WaitScreen("denied by rule")
	p.Wait(func() string { return "" })
}

// TestClaudeHooksStepAsideUnderRun is asktui run with claude-agent-acp
// while Claude Code's own settings send its permission prompts to asktui
// serve's inbox through the hooks (what asktui setup claude writes): the
// Agent SDK's Claude Code loads those hooks, and each Bash call would be
// asked twice, in run's conversation and in the inbox. Under asktui run
// the hook steps aside: the call is asked once, in the conversation, and
// the inbox never shows it.
func TestClaudeHooksStepAsideUnderRun(t *testing.T) {
	tl := need(t)
	mock := mockmodel.NewAnthropic(t, script)
	w := newWorld(t, tl)
	claudeHome(t, w, hookConfig(t, w, "claude"))
	inbox := w.serve(t)
	// run's own socket, beside serve's (the hooks' is serve's).
	env := claudeEnv(w, mock)
	term, p := startRun(t, w, env, w.socket+"-run", filepath.Join(w.home, "run.log"), "--", filepath.Join(tl.bin, "claude-agent-acp"))

	mark, imark, mmark := term.Mark(), inbox.Mark(), mock.Mark()
	term.typeInto("│ ", promptShell)
	term.Type("\r")
	waitQuestion(term, mark)
	term.Type(pick(t, term, allow...))
	mock.WaitFor(mmark, "the shell command's output", ranShell)
	w.removeShellFile(t)
	if s := inbox.Text(imark); strings.Contains(s, "compat-%s") || optionRe.MatchString(s) {
		t.Fatalf("the call was asked in serve's inbox too:\n%s", inbox.Screen())
	}
	term.Type("\x03")
	if code := p.Wait(func() string { return term.Text(0) }); code != 0 {
		t.Fatalf("asktui run exited %d; stderr %s", code, p.Stderr.String())
	}
}
