package compat

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktui/asktui/internal/compat/mockmodel"
)

// setup runs `asktui setup CLIENT ARGS…` in w, skipping the test when
// this asktui has no setup command. The configuration names the default
// socket, as a user's would: w's inbox serves there from now on, and a
// client that drops XDG_RUNTIME_DIR from its MCP servers' environment
// (Codex) must still find it.
func setup(t *testing.T, w *world, client string, args ...string) {
	t.Helper()
	// Without the command, asktui setup --help prints the root's help.
	if help, _ := exec.CommandContext(context.Background(), asktuiBin, "setup", "--help").CombinedOutput(); !strings.Contains(string(help), "asktui setup claude") {
		t.Skip("this asktui has no setup command yet (asktui setup claude|codex|gemini, issue 18): the check waits for it")
	}
	w.socket = filepath.Join(w.runtime, "asktui", "asktui.sock")
	cmd := exec.CommandContext(context.Background(), asktuiBin, append([]string{"setup", client}, args...)...) //nolint:gosec // the test runs a command of its own choosing
	cmd.Dir, cmd.Env = w.project, w.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("asktui setup %s %s: %v\n%s", client, strings.Join(args, " "), err, out)
	}
	t.Logf("asktui setup %s %s:\n%s", client, strings.Join(args, " "), out)
}

// TestSetupGemini is `asktui setup gemini` (asktui mcp as its MCP server,
// and the BeforeTool hook) on Gemini CLI's own settings, then a real
// call: gemini -p calls asktui's tool, the hook asks in the inbox first
// (allowed), and the question is answered there.
func TestSetupGemini(t *testing.T) {
	tl := need(t)
	mock := mockmodel.NewGemini(t, script)
	w := newWorld(t, tl)
	geminiSettings(t, w)
	setup(t, w, "gemini")
	inbox := w.serve(t)

	mark, mmark := inbox.Mark(), mock.Mark()
	p := w.start(t, nil, w.with("GOOGLE_GEMINI_BASE_URL="+mock.URL, "GEMINI_API_KEY=compat-mock-key", "GEMINI_CLI_TRUST_WORKSPACE=true"),
		filepath.Join(tl.bin, "gemini"), "--approval-mode", "yolo", "-p", promptAsk)
	answerAsk(t, inbox, mark)
	mock.WaitFor(mmark, "ask_user_question's answer", answered)
	if code := p.Wait(func() string { return "" }); code != 0 || !strings.Contains(p.Stdout.String(), resulted) {
		t.Fatalf("gemini -p exited %d; stdout %q; stderr %s", code, p.Stdout.String(), p.Stderr.String())
	}
}

// TestSetupClaude is `asktui setup claude` (asktui mcp in ~/.claude.json,
// the hooks in ~/.claude/settings.json) on Claude Code's own files, then
// a real call in interactive Claude Code: it calls asktui's tool, its
// permission is asked in the inbox through the hook (allowed), and the
// question is answered there.
func TestSetupClaude(t *testing.T) {
	tl := need(t)
	mock := mockmodel.NewAnthropic(t, script)
	w := newWorld(t, tl)
	claudeHome(t, w, nil)
	setup(t, w, "claude")
	inbox := w.serve(t)

	term := newVTerm(t)
	w.start(t, term, claudeEnv(w, mock), tl.claude)
	term.WaitScreen("for shortcuts")
	mark, mmark := inbox.Mark(), mock.Mark()
	term.typeInto("❯ ", promptAsk)
	term.Type("\r")
	answerAsk(t, inbox, mark)
	mock.WaitFor(mmark, "ask_user_question's answer", answered)
	term.WaitScreen(resulted)
}

// answerAsk answers asktui's question in the inbox after mark, allowing
// the tool call first when a hook asks for it.
func answerAsk(t *testing.T, inbox *vterm, mark int) {
	t.Helper()
	inbox.WaitUntil("asktui's question, or its permission", func() bool { return optionRe.MatchString(inbox.Screen()) })
	inbox.WaitSeen(mark)
	if optionKey(inbox.Screen(), "Postgres") == "" {
		inbox.Type(pick(t, inbox, allow...))
		mark = inbox.Mark()
		inbox.WaitUntil("asktui's question", func() bool { return optionKey(inbox.Screen(), "Postgres") != "" })
		inbox.WaitSeen(mark)
	}
	inbox.Type(pick(t, inbox, "Postgres"))
}

// TestSetupCodex is `asktui setup codex` (asktui mcp in config.toml, the
// hook in hooks.json) on Codex's own files, then a real call in
// interactive Codex: it calls asktui's tool, which finds the inbox on the
// default socket although Codex drops XDG_RUNTIME_DIR, and the question
// is answered there. Codex is optional: see needCodex.
func TestSetupCodex(t *testing.T) {
	tl, cx := needCodex(t)
	mock := mockmodel.NewOpenAI(t, script)
	w := newWorld(t, tl, cx.bin)
	codexHome(t, w, mock)
	setup(t, w, "codex")
	inbox := w.serve(t)

	term := newVTerm(t)
	w.start(t, term, w.with("COMPAT_MOCK_KEY=compat-mock-key"), filepath.Join(cx.bin, "codex"), "--dangerously-bypass-hook-trust")
	term.WaitScreen("›")
	mark, mmark := inbox.Mark(), mock.Mark()
	term.typeInto("› ", promptAsk)
	term.Type("\r")
	answerAsk(t, inbox, mark)
	mock.WaitFor(mmark, "ask_user_question's answer", answered)
	term.WaitScreen(resulted)
}
