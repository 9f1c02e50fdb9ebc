package compat

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktui/asktui/internal/compat/mockmodel"
	"github.com/asktui/asktui/internal/ptytest"
)

// The packages of GitHub Copilot CLI (installed with the suite) and of
// the optional Qwen Code and opencode (scripts/compat/install.sh --qwen,
// --opencode), each in its directory.
var (
	copilotDir  = filepath.Join(installDir, "copilot")
	qwenDir     = filepath.Join(installDir, "qwen")
	opencodeDir = filepath.Join(installDir, "opencode")
)

// needOptional skips the test unless the optional CLI name (its package
// pkg, installed into dir by install.sh --NAME) is there, and fails it
// when it was asked for under ASKTUI_CI (env=1) and is missing. It
// returns the suite's tools and the CLI's node_modules, absolute.
func needOptional(t *testing.T, name, env, dir, pkg, size string) (tools, string) {
	t.Helper()
	tl := need(t)
	if !installed(dir, pkg) {
		msg := pkg + " is not installed (it is optional, about " + size + "): run scripts/compat/install.sh --" + name
		if os.Getenv("ASKTUI_CI") != "" && os.Getenv(env) == "1" {
			t.Fatal(msg + " (" + env + "=1 asked for it)")
		}
		t.Skip(msg)
	}
	modules, err := filepath.Abs(filepath.Join(dir, "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	return tl, modules
}

// copilot is GitHub Copilot CLI as the tests run it.
type copilot struct {
	// dir holds copilot, its npm loader, which runs the native program
	// for this platform; it goes on the programs' PATH.
	dir string
	// cache is where Copilot unpacks its runtime on its first start
	// (about 235 MB, COPILOT_CACHE_HOME): beside the installed package,
	// so that it is unpacked once per install, not once per test.
	cache string
}

// needCopilot skips the test unless the suite can run, and fails it
// under ASKTUI_CI when Copilot CLI, which install.sh installs with the
// suite, is missing.
func needCopilot(t *testing.T) (tools, copilot) {
	t.Helper()
	tl := need(t)
	if !installed(copilotDir, "@github/copilot") {
		msg := "@github/copilot is not installed: run scripts/compat/install.sh"
		if _, err := exec.LookPath("node"); err == nil && os.Getenv("ASKTUI_CI") != "" {
			t.Fatal(msg + " (ASKTUI_CI is set and node is here: the install failed)")
		}
		t.Skip(msg)
	}
	modules, err := filepath.EvalSymlinks(filepath.Join(copilotDir, "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(modules, "@github", "copilot-"+npmPlatform(), "copilot")); err != nil {
		t.Skipf("GitHub Copilot CLI has no build for %s here: %v", npmPlatform(), err)
	}
	return tl, copilot{dir: filepath.Join(modules, ".bin"), cache: filepath.Join(filepath.Dir(modules), "copilot-cache")}
}

// npmPlatform names this system as the CLIs' platform packages do:
// linux-x64, darwin-arm64.
func npmPlatform() string {
	switch p := platform(); p {
	case "linux x86_64":
		return "linux-x64"
	case "linux aarch64":
		return "linux-arm64"
	case "darwin x86_64":
		return "darwin-x64"
	case "darwin arm64":
		return "darwin-arm64"
	default:
		return p
	}
}

// copilotEnv is Copilot CLI's environment against mock (its "openai"
// provider, Chat Completions), offline: no GitHub sign-in, no updates.
func copilotEnv(w *world, cp copilot, mock *mockmodel.Server) []string {
	return w.with("COPILOT_PROVIDER_BASE_URL="+mock.URL+"/v1", "COPILOT_PROVIDER_TYPE=openai", "COPILOT_PROVIDER_API_KEY=compat-mock-key",
		"COPILOT_MODEL=compat-model", "COPILOT_OFFLINE=true", "COPILOT_HOME="+filepath.Join(w.home, ".copilot"),
		"COPILOT_CACHE_HOME="+cp.cache, "COPILOT_AUTO_UPDATE=false")
}

// TestCopilotACP is asktui run copilot (copilot --acp --stdio) against
// the mock Chat Completions API. Its "Deny" ends the turn, telling the
// model nothing.
func TestCopilotACP(t *testing.T) {
	tl, cp := needCopilot(t)
	mock := mockmodel.NewChat(t, script)
	w := newWorld(t, tl, cp.dir)
	acpRun(t, w, mock, copilotEnv(w, cp, mock), acpAgent{denyEndsTurn: "Operation cancelled by user", byName: true}, "copilot")
}

// needQwen returns the directory of Qwen Code's qwen (run by the suite's
// Node.js 22), for the programs' PATH.
func needQwen(t *testing.T) (tools, string) {
	t.Helper()
	tl, modules := needOptional(t, "qwen", "ASKTUI_COMPAT_QWEN", qwenDir, "@qwen-code/qwen-code", "125 MB")
	return tl, filepath.Join(modules, ".bin")
}

// qwenHome writes Qwen Code's user settings: the OpenAI-compatible mock
// as its model, its "default" approval mode (it starts in "auto", where a
// model classifies each call first), no update checks (its first start
// would update it with npm -g), no usage statistics; plus extra.
func qwenHome(t *testing.T, w *world, extra map[string]any) {
	t.Helper()
	s := map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "openai"}},
		"general":  map[string]any{"enableAutoUpdate": false},
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
		"tools":    map[string]any{"approvalMode": "default"},
	}
	for k, v := range extra {
		s[k] = v
	}
	w.writeJSON(t, ".qwen/settings.json", s)
}

// qwenEnv is Qwen Code's environment against mock.
func qwenEnv(w *world, mock *mockmodel.Server) []string {
	return w.with("OPENAI_BASE_URL="+mock.URL+"/v1", "OPENAI_API_KEY=compat-mock-key", "OPENAI_MODEL=compat-model")
}

// TestQwenACP is asktui run qwen (qwen --acp) against the mock Chat
// Completions API: its own ask_user_question answered with Other text
// (the model gets the text); asktui's tool through its tool_search and
// tool_call bridge. Its "Reject" ends the turn.
func TestQwenACP(t *testing.T) {
	tl, dir := needQwen(t)
	mock := mockmodel.NewChat(t, script)
	w := newWorld(t, tl, dir)
	qwenHome(t, w, nil)
	acpRun(t, w, mock, qwenEnv(w, mock), acpAgent{denyEndsTurn: "was canceled by the user", ownQuestion: true, byName: true}, "qwen")
}

// needOpencode returns the directory of opencode's native program for
// this platform, for the programs' PATH (install.sh runs no install
// script, and the package's own launcher is what its postinstall would
// replace).
func needOpencode(t *testing.T) (tools, string) {
	t.Helper()
	tl, modules := needOptional(t, "opencode", "ASKTUI_COMPAT_OPENCODE", opencodeDir, "opencode-ai", "354 MB")
	dir := filepath.Join(modules, "opencode-"+npmPlatform(), "bin")
	if _, err := os.Stat(filepath.Join(dir, "opencode")); err != nil {
		t.Skipf("opencode has no build for %s here: %v", npmPlatform(), err)
	}
	return tl, dir
}

// opencodeConfig writes opencode's user configuration: the mock as an
// openai-compatible provider and its model, plus extra (its permission
// settings, an MCP server).
func opencodeConfig(t *testing.T, w *world, mock *mockmodel.Server, extra map[string]any) {
	t.Helper()
	c := map[string]any{
		"$schema": "https://opencode.ai/config.json",
		"provider": map[string]any{"mock": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "Mock",
			"options": map[string]any{"baseURL": mock.URL + "/v1", "apiKey": "compat-mock-key"}, //nolint:gosec // the mock's key
			"models":  map[string]any{"compat-model": map[string]any{"name": "Compat model"}},
		}},
		"model":      "mock/compat-model",
		"autoupdate": false,
		"share":      "disabled",
	}
	for k, v := range extra {
		c[k] = v
	}
	w.writeJSON(t, ".config/opencode/opencode.json", c)
}

// opencodeEnv is opencode's environment: offline, no model list, update,
// language server download or default plugins.
func opencodeEnv(w *world) []string {
	return w.with("OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1",
		"OPENCODE_DISABLE_DEFAULT_PLUGINS=1")
}

// opencodeAsks is the permission setting that makes opencode ask before
// its shell commands and edits (by default it runs them unasked).
var opencodeAsks = map[string]any{"permission": map[string]any{"bash": "ask", "edit": "ask"}}

// TestOpencodeACP is asktui run opencode (opencode acp) against the mock
// Chat Completions API, with opencode set to ask before commands and
// edits. Its "Reject" ends the turn.
func TestOpencodeACP(t *testing.T) {
	tl, dir := needOpencode(t)
	mock := mockmodel.NewChat(t, script)
	w := newWorld(t, tl, dir)
	opencodeConfig(t, w, mock, opencodeAsks)
	acpRun(t, w, mock, opencodeEnv(w), acpAgent{denyEndsTurn: "rejected permission", byName: true}, "opencode")
}

// TestCopilotHooks is copilot -p with asktui's permissionRequest hook
// (`asktui hook copilot --print-config`, in $COPILOT_HOME/hooks),
// answered in asktui serve's inbox: a shell command denied (the model
// sees the reason), then one allowed (the model sees its output). Under
// -p nothing else could approve it: without the hook Copilot denies.
func TestCopilotHooks(t *testing.T) {
	tl, cp := needCopilot(t)
	mock := mockmodel.NewChat(t, script)
	w := newWorld(t, tl, cp.dir)
	w.writeJSON(t, ".copilot/hooks/asktui.json", hookConfig(t, w, "copilot"))
	inbox := w.serve(t)

	mark, mmark := inbox.Mark(), mock.Mark()
	p := w.start(t, nil, copilotEnv(w, cp, mock), filepath.Join(cp.dir, "copilot"), "-p", promptShell2)

	t.Log("the first command, denied in the inbox")
	waitQuestion(inbox, mark)
	inbox.WaitScreen("Copilot CLI")
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
		t.Fatalf("copilot -p exited %d; stdout %q; stderr %s", code, p.Stdout.String(), p.Stderr.String())
	}
}

// TestQwenHooks is interactive Qwen Code with asktui's PermissionRequest
// hook (`asktui hook qwen --print-config`, in ~/.qwen/settings.json),
// answered in asktui serve's inbox: a shell command allowed (the model
// sees its output), then one denied (the model sees the refusal). Qwen
// waits for the hook: its own dialog never shows.
func TestQwenHooks(t *testing.T) {
	tl, dir := needQwen(t)
	mock := mockmodel.NewChat(t, script)
	w := newWorld(t, tl, dir)
	qwenHome(t, w, hookConfig(t, w, "qwen"))
	inbox := w.serve(t)

	term := newVTerm(t)
	w.start(t, term, qwenEnv(w, mock), filepath.Join(dir, "qwen"))
	term.WaitScreen("Type your message")
	// Qwen draws its cursor after the text: the prompt shows once the
	// line holds it.
	prompt := func(text string) int {
		t.Helper()
		mmark := mock.Mark()
		term.Type(text)
		term.WaitScreen("> " + text)
		term.Type("\r")
		return mmark
	}

	t.Log("a command, allowed in the inbox")
	mark := inbox.Mark()
	mmark := prompt(promptShell)
	waitQuestion(inbox, mark)
	inbox.WaitScreen("Qwen Code")
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
	if strings.Contains(term.Screen(), "Waiting for user confirmation") {
		t.Fatalf("Qwen Code asked in its own dialog too:\n%s", term.Screen())
	}
}

// TestSetupCopilot is `asktui setup copilot` (asktui mcp in
// mcp-config.json, the hook in hooks/asktui.json) on Copilot CLI's own
// files, then copilot -p calling asktui's tool: it finds the inbox on the
// default socket and the question is answered there; its permission is
// Copilot's own to give (the hook leaves asktui's tool alone), then a
// shell command is allowed in the inbox through the hook.
func TestSetupCopilot(t *testing.T) {
	tl, cp := needCopilot(t)
	mock := mockmodel.NewChat(t, script)
	w := newWorld(t, tl, cp.dir)
	// setup reads COPILOT_HOME as Copilot does.
	w.env = append(w.env, "COPILOT_HOME="+filepath.Join(w.home, ".copilot"))
	setup(t, w, "copilot")
	inbox := w.serve(t)

	mark, mmark := inbox.Mark(), mock.Mark()
	p := w.start(t, nil, copilotEnv(w, cp, mock), filepath.Join(cp.dir, "copilot"), "-p", promptAsk)
	answerAsk(t, inbox, mark)
	mock.WaitFor(mmark, "ask_user_question's answer", answered)
	if code := p.Wait(func() string { return "" }); code != 0 || !strings.Contains(p.Stdout.String(), resulted) {
		t.Fatalf("copilot -p exited %d; stdout %q; stderr %s", code, p.Stdout.String(), p.Stderr.String())
	}

	mark, mmark = inbox.Mark(), mock.Mark()
	p = w.start(t, nil, copilotEnv(w, cp, mock), filepath.Join(cp.dir, "copilot"), "-p", promptShell)
	waitQuestion(inbox, mark)
	inbox.Type(pick(t, inbox, allow...))
	mock.WaitFor(mmark, "the shell command's output", ranShell)
	w.removeShellFile(t)
	p.Wait(func() string { return "" })
}

// TestSetupQwen is `asktui setup qwen` (asktui mcp, always loaded, and
// the hook, in ~/.qwen/settings.json) on Qwen Code's own settings, then
// interactive Qwen calling asktui's tool by its name, no tool_search
// first: the question is answered in the inbox.
func TestSetupQwen(t *testing.T) {
	tl, dir := needQwen(t)
	mock := mockmodel.NewChat(t, script)
	w := newWorld(t, tl, dir)
	qwenHome(t, w, nil)
	setup(t, w, "qwen")
	inbox := w.serve(t)

	term := newVTerm(t)
	w.start(t, term, qwenEnv(w, mock), filepath.Join(dir, "qwen"))
	term.WaitScreen("Type your message")
	mark, mmark := inbox.Mark(), mock.Mark()
	term.Type(promptAsk)
	term.WaitScreen("> " + promptAsk)
	term.Type("\r")
	answerAsk(t, inbox, mark)
	got := mock.WaitFor(mmark, "ask_user_question's answer", answered)
	if r, _ := lastResult(got); r.Name != "mcp__asktui__ask_user_question" {
		t.Fatalf("the answer came back as %q's result, not asktui's tool called by name", r.Name)
	}
	term.WaitScreen(resulted)
}

// TestSetupOpencode is `asktui setup opencode --mcp --permissions`
// (asktui mcp in opencode.json's "mcp", and bash and edit "ask") on
// opencode's own file: before it, opencode run runs the shell command
// unasked; after it, opencode run calls asktui's tool through the bridge
// (answered in the inbox), and under asktui run opencode the shell
// command is asked about (allowed, then denied: acpRun).
func TestSetupOpencode(t *testing.T) {
	tl, dir := needOpencode(t)
	mock := mockmodel.NewChat(t, script)
	w := newWorld(t, tl, dir)
	opencodeConfig(t, w, mock, nil)

	// opencode run reads a standard input that is no terminal to its end.
	run := func(prompt string) *ptytest.Process {
		return w.start(t, nil, opencodeEnv(w), "sh", "-c", `exec "$0" "$@" </dev/null`, filepath.Join(dir, "opencode"), "run", prompt)
	}

	t.Log("before: opencode runs the command unasked")
	mmark := mock.Mark()
	p := run(promptShell)
	mock.WaitFor(mmark, "the shell command's output", ranShell)
	w.removeShellFile(t)
	p.Wait(func() string { return "" })

	setup(t, w, "opencode", "--mcp", "--permissions")
	inbox := w.serve(t)

	t.Log("asktui's tool through the bridge setup wrote")
	mark, mmark := inbox.Mark(), mock.Mark()
	p = run(promptAsk)
	answerAsk(t, inbox, mark)
	mock.WaitFor(mmark, "ask_user_question's answer", answered)
	p.Wait(func() string { return "" })

	t.Log("after: asktui run opencode, whose commands are now asked about")
	// asktui serve holds the default socket: asktui run gets one of its own.
	sockDir, err := os.MkdirTemp("", "acs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(sockDir) })
	w.socket = filepath.Join(sockDir, "r.sock")
	acpRun(t, w, mock, opencodeEnv(w), acpAgent{denyEndsTurn: "rejected permission", byName: true}, "opencode")
}

// TestQwenACPToolVisible is asktui run qwen with Qwen's setting
// "tools": {"visible": ["mcp__asktui__ask_user_question"]}: asktui's tool
// (the server asktui run gives it over ACP) is offered at once, and the
// model calls it by name, without tool_search or tool_call.
func TestQwenACPToolVisible(t *testing.T) {
	tl, dir := needQwen(t)
	mock := mockmodel.NewChat(t, script)
	w := newWorld(t, tl, dir)
	qwenHome(t, w, map[string]any{"tools": map[string]any{"approvalMode": "default", "visible": []string{"mcp__asktui__ask_user_question"}}})
	acpRun(t, w, mock, qwenEnv(w, mock), acpAgent{denyEndsTurn: "was canceled by the user", byName: true}, "qwen")
	for _, turn := range mock.Turns(0) {
		for _, r := range turn.Results {
			if isToolSearch(r.Name) || r.Name == "tool_call" {
				t.Fatalf("the model needed %s: %s", r.Name, turn)
			}
		}
	}
}
