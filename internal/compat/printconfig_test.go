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

// printConfig returns what `asktui mcp --print-config CLIENT` prints: the
// setup that starts the stdio bridge, asktui mcp, on the default socket.
// From then on w's inbox serves on the default socket too.
func printConfig(t *testing.T, w *world, client string) string {
	t.Helper()
	w.socket = filepath.Join(w.runtime, "asktui", "asktui.sock")
	cmd := exec.CommandContext(context.Background(), asktuiBin, "mcp", "--print-config", client) //nolint:gosec // the test runs a command of its own choosing
	cmd.Env = w.env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("asktui mcp --print-config %s: %v", client, err)
	}
	return string(out)
}

// TestPrintConfigGemini is the entry `asktui mcp --print-config gemini`
// prints, in Gemini CLI's settings, then gemini -p (its default approval
// mode) calling asktui's tool: the entry trusts the server, so the call
// needs no confirmation, and the question is answered in the inbox.
func TestPrintConfigGemini(t *testing.T) {
	tl := need(t)
	mock := mockmodel.NewGemini(t, script)
	w := newWorld(t, tl)
	var entry map[string]any
	if err := json.Unmarshal([]byte(printConfig(t, w, "gemini")), &entry); err != nil {
		t.Fatal(err)
	}
	geminiSettings(t, w, entry)
	inbox := w.serve(t)

	mark, mmark := inbox.Mark(), mock.Mark()
	p := w.start(t, nil, w.with("GOOGLE_GEMINI_BASE_URL="+mock.URL, "GEMINI_API_KEY=compat-mock-key", "GEMINI_CLI_TRUST_WORKSPACE=true"),
		filepath.Join(tl.bin, "gemini"), "-p", promptAsk)
	answerAsk(t, inbox, mark)
	mock.WaitFor(mmark, "ask_user_question's answer", answered)
	if code := p.Wait(func() string { return "" }); code != 0 || !strings.Contains(p.Stdout.String(), resulted) {
		t.Fatalf("gemini -p exited %d; stdout %q; stderr %s", code, p.Stdout.String(), p.Stderr.String())
	}
}

// TestPrintConfigClaude is the command `asktui mcp --print-config claude`
// prints (claude mcp add, user scope), run, then claude -p with
// --allowedTools calling asktui's tool: answered in the inbox.
func TestPrintConfigClaude(t *testing.T) {
	tl := need(t)
	mock := mockmodel.NewAnthropic(t, script)
	w := newWorld(t, tl, filepath.Dir(tl.claude))
	claudeHome(t, w, nil)
	add := exec.CommandContext(context.Background(), "sh", "-c", printConfig(t, w, "claude")) //nolint:gosec // the test runs a command of its own choosing
	add.Dir, add.Env = w.project, claudeEnv(w, mock)
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("the printed claude mcp add: %v\n%s", err, out)
	}
	inbox := w.serve(t)

	mark, mmark := inbox.Mark(), mock.Mark()
	p := w.start(t, nil, claudeEnv(w, mock), tl.claude, "-p", promptAsk, "--allowedTools", claudeAskTool)
	answerAsk(t, inbox, mark)
	mock.WaitFor(mmark, "ask_user_question's answer", answered)
	if code := p.Wait(func() string { return "" }); code != 0 || !strings.Contains(p.Stdout.String(), resulted) {
		t.Fatalf("claude -p exited %d; stdout %q; stderr %s", code, p.Stdout.String(), p.Stderr.String())
	}
}

// TestPrintConfigCodex is the table `asktui mcp --print-config codex`
// prints, in Codex's config.toml, then interactive Codex calling asktui's
// tool: Codex starts the bridge without XDG_RUNTIME_DIR unless the table
// passes it, and the bridge must find the inbox on the default socket.
// Codex is optional: see needCodex.
func TestPrintConfigCodex(t *testing.T) {
	tl, cx := needCodex(t)
	mock := mockmodel.NewOpenAI(t, script)
	w := newWorld(t, tl, cx.bin)
	codexHome(t, w, mock, printConfig(t, w, "codex"))
	inbox := w.serve(t)

	term := newVTerm(t)
	w.start(t, term, w.with("COMPAT_MOCK_KEY=compat-mock-key"), filepath.Join(cx.bin, "codex"))
	term.WaitScreen("›")
	mark, mmark := inbox.Mark(), mock.Mark()
	term.typeInto("› ", promptAsk)
	term.Type("\r")
	answerAsk(t, inbox, mark)
	mock.WaitFor(mmark, "ask_user_question's answer", answered)
	term.WaitScreen(resulted)
}
