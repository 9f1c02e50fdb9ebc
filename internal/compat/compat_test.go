package compat

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/asktui/asktui/internal/compat/mockmodel"
	"github.com/asktui/asktui/internal/ptytest"
)

// installDir is where scripts/compat/install.sh links the installed
// packages (node_modules), and codexDir the optional Codex ones.
var (
	installDir = filepath.Join("..", "..", "scripts", "compat")
	codexDir   = filepath.Join(installDir, "codex")
)

// asktuiBin is asktui built once by TestMain, when the suite runs.
var asktuiBin string

func TestMain(m *testing.M) {
	code := func() int {
		// ASKTUI_COMPAT_ASKTUI runs the suite against another build.
		if asktuiBin = os.Getenv("ASKTUI_COMPAT_ASKTUI"); asktuiBin != "" {
			return m.Run()
		}
		if !ptytest.RaceEnabled && installed(installDir, "@agentclientprotocol/claude-agent-acp") {
			dir, err := os.MkdirTemp("", "asktui-compat-")
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			defer func() { _ = os.RemoveAll(dir) }()
			asktuiBin = filepath.Join(dir, "asktui")
			if out, err := exec.CommandContext(context.Background(), "go", "build", "-o", asktuiBin, "github.com/asktui/asktui").CombinedOutput(); err != nil { //nolint:gosec // the test runs a command of its own choosing
				fmt.Fprintf(os.Stderr, "building asktui: %v\n%s", err, out)
				return 1
			}
		}
		return m.Run()
	}()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// installed reports whether dir's node_modules holds pkg.
func installed(dir, pkg string) bool {
	_, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json"))
	return err == nil
}

// tools are the installed programs a test drives.
type tools struct {
	// bin is node_modules/.bin: node 22 (on linux/amd64), gemini,
	// claude-agent-acp; it goes first on the programs' PATH.
	bin string
	// claude is the Claude Code executable that claude-agent-acp runs
	// (the Agent SDK's native build), used for the hooks too.
	claude string
}

// need skips the test unless the suite can run: not under -race (asktui
// runs as a process of its own, built without it; .ci/run runs the suite
// plainly), and the packages installed. Under ASKTUI_CI, with node
// present, missing packages fail the test instead: the install failed.
func need(t *testing.T) tools {
	t.Helper()
	if ptytest.RaceEnabled {
		t.Skip("skipped under -race: asktui runs as a process of its own (.ci/run runs the suite without -race)")
	}
	missing := func(what string) {
		t.Helper()
		msg := what + " is not installed: run scripts/compat/install.sh"
		if _, err := exec.LookPath("node"); err == nil && os.Getenv("ASKTUI_CI") != "" {
			t.Fatal(msg + " (ASKTUI_CI is set and node is here: the install failed)")
		}
		t.Skip(msg)
	}
	for _, pkg := range []string{"@agentclientprotocol/claude-agent-acp", "@google/gemini-cli"} {
		if !installed(installDir, pkg) {
			missing(pkg)
		}
	}
	bin, err := filepath.Abs(filepath.Join(installDir, "node_modules", ".bin"))
	if err != nil {
		t.Fatal(err)
	}
	claude, _ := filepath.Glob(filepath.Join(installDir, "node_modules", "@anthropic-ai", "claude-agent-sdk-*", "claude"))
	if len(claude) == 0 {
		missing("the Agent SDK's Claude Code (@anthropic-ai/claude-agent-sdk-" + platform() + ")")
	}
	c, err := filepath.Abs(claude[0])
	if err != nil {
		t.Fatal(err)
	}
	return tools{bin: bin, claude: c}
}

// platform names this system as npm's platform packages do.
func platform() string {
	out, _ := exec.CommandContext(context.Background(), "uname", "-sm").Output()
	return strings.ToLower(strings.TrimSpace(string(out)))
}

// codexTools are Codex's programs, installed only when asked for.
type codexTools struct {
	// bin is the Codex packages' node_modules/.bin: codex, codex-acp.
	bin string
}

// needCodex skips the test unless Codex is installed (install.sh
// --codex, or ASKTUI_COMPAT_CODEX=1), and fails it when it was asked for
// under ASKTUI_CI and is missing.
func needCodex(t *testing.T) (tools, codexTools) {
	t.Helper()
	tl := need(t)
	if !installed(codexDir, "@agentclientprotocol/codex-acp") || !installed(codexDir, "@openai/codex") {
		msg := "Codex is not installed (it is optional, about 440 MB): run scripts/compat/install.sh --codex"
		if os.Getenv("ASKTUI_CI") != "" && os.Getenv("ASKTUI_COMPAT_CODEX") == "1" {
			t.Fatal(msg + " (ASKTUI_COMPAT_CODEX=1 asked for it)")
		}
		t.Skip(msg)
	}
	bin, err := filepath.Abs(filepath.Join(codexDir, "node_modules", ".bin"))
	if err != nil {
		t.Fatal(err)
	}
	return tl, codexTools{bin: bin}
}

// world is a home of the test's own for asktui and the CLI: its
// environment names nothing of the machine's but PATH (with the
// installed programs first), so no real configuration or credential is
// read.
type world struct {
	home, project, socket string
	// runtime is XDG_RUNTIME_DIR.
	runtime string
	env     []string
}

func newWorld(t *testing.T, tl tools, extraPath ...string) *world {
	t.Helper()
	home := t.TempDir()
	project := filepath.Join(home, "project")
	// The socket's path must stay short (a Unix socket's path has at most
	// 108 bytes); its directory must be the user's alone.
	sockDir, err := os.MkdirTemp("", "acs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(sockDir) })
	runtime := filepath.Join(home, "run")
	for _, d := range []string{project, runtime} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	path := strings.Join(append(append(extraPath, tl.bin), os.Getenv("PATH")), string(os.PathListSeparator))
	w := &world{home: home, project: project, socket: filepath.Join(sockDir, "s.sock"), runtime: runtime}
	// Runs once the processes the test started have been ended, before
	// its home is removed.
	t.Cleanup(func() { w.endStragglers(t) })
	w.env = []string{
		"HOME=" + home, "PATH=" + path, "TERM=xterm-256color", "LANG=C.UTF-8",
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_RUNTIME_DIR=" + runtime, "TMPDIR=" + os.TempDir(),
		// Claude Code, Gemini CLI and Codex: no updates, telemetry or
		// other calls beyond the mock.
		"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"GEMINI_CLI_DISABLE_AUTO_UPDATE=true", "NO_BROWSER=true",
	}
	return w
}

// with returns w's environment plus vars.
func (w *world) with(vars ...string) []string {
	return append(append([]string(nil), w.env...), vars...)
}

// writeFile writes a file under w's home, making its directories.
func (w *world) writeFile(t *testing.T, rel string, data []byte) {
	t.Helper()
	p := filepath.Join(w.home, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// writeJSON writes v as a JSON file under w's home.
func (w *world) writeJSON(t *testing.T, rel string, v any) {
	t.Helper()
	j, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	w.writeFile(t, rel, j)
}

// asktui runs asktui with args in w, as a process of its own on term.
func (w *world) asktui(t *testing.T, term *vterm, env []string, args ...string) *ptytest.Process {
	t.Helper()
	return w.start(t, term, env, asktuiBin, args...)
}

// start runs a program in w's project, as a process of its own on term
// (or without a terminal, when term is nil). When the test fails, the
// screen is logged before the process is ended.
func (w *world) start(t *testing.T, term *vterm, env []string, name string, args ...string) *ptytest.Process {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), name, args...) //nolint:gosec // the test runs a command of its own choosing
	cmd.Dir, cmd.Env = w.project, env
	if term == nil {
		return ptytest.Start(t, nil, cmd)
	}
	if name != asktuiBin {
		// asktui draws on its controlling terminal, keeping standard output
		// for answers; other programs draw on standard output.
		cmd.Stdout, cmd.Stderr = term.Slave, term.Slave
	}
	p := ptytest.Start(t, term.Terminal, cmd)
	t.Cleanup(func() {
		if t.Failed() && os.Getenv("ASKTUI_COMPAT_QUIT") != "" {
			_ = cmd.Process.Signal(syscall.SIGQUIT)
			select {
			case <-p.Exited():
				t.Logf("stderr after SIGQUIT:\n%s", p.Stderr.String())
			case <-time.After(5 * time.Second):
			}
		}
		if t.Failed() {
			t.Logf("%s's screen at the end:\n%s", filepath.Base(name)+" "+strings.Join(args[:min(len(args), 1)], ""), term.Screen())
		}
	})
	return p
}

// serve starts asktui serve on a terminal of its own, as the inbox of the
// CLIs' hooks and MCP calls (through the socket), and waits until its
// socket is there.
func (w *world) serve(t *testing.T) *vterm {
	t.Helper()
	term := newVTerm(t)
	p := w.asktui(t, term, w.env, "serve", "--theme", "dark", "--history", "off", "--no-auth",
		"--listen", "127.0.0.1:0", "--ssh=off", "--socket", w.socket)
	waitUntil(t, "asktui serve's socket", func() bool {
		select {
		case <-p.Exited():
			t.Fatalf("asktui serve exited: %s\n%s", p.Stderr.String(), term.Text(0))
		default:
		}
		_, err := os.Stat(w.socket)
		return err == nil
	})
	return term
}

// waitUntil polls ok until it reports true, failing the test after
// mockmodel.Within.
func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(mockmodel.Within)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// optionRe finds an option row of asktui's question panel: "1. ○ Label".
var optionRe = regexp.MustCompile(`(\d+)\.\s*[○●◉☐☑■□]\s*([^\n]*)`)

// pick returns the key that chooses, in the question on screen, the
// first option labelled one of labels, or else whose label starts with
// one of them.
func pick(t *testing.T, term *vterm, labels ...string) string {
	t.Helper()
	if k := optionKey(term.Screen(), labels...); k != "" {
		return k
	}
	t.Fatalf("no option %q in the question on screen:\n%s", labels, term.Screen())
	return ""
}

// optionKey returns the key of the option pick would choose on screen,
// or "".
func optionKey(screen string, labels ...string) string {
	rows := optionRe.FindAllStringSubmatch(screen, -1)
	for _, exact := range []bool{true, false} {
		for _, l := range labels {
			for _, r := range rows {
				label := strings.TrimSpace(r[2])
				if label == l || !exact && strings.HasPrefix(label, l) {
					return r[1]
				}
			}
		}
	}
	return ""
}

// waitQuestion waits until the screen shows the question about the
// script's shell command (its text, "compat-%s", is in the question), and
// the question (shown after mark) takes keys.
func waitQuestion(term *vterm, mark int) {
	term.t.Helper()
	term.WaitScreen("compat-%s")
	term.WaitSeen(mark)
}

// The script's words: each prompt names what the model does.
const (
	promptStream   = "compat-stream"   // text in deltas that split a word
	promptShell    = "compat-shell"    // the CLI's shell tool: shellCommand
	promptShell2   = "compat-twice"    // the shell tool twice
	promptAsk      = "compat-ask"      // asktui's ask_user_question
	promptQuestion = "compat-question" // Claude Code's own AskUserQuestion
	promptHang     = "compat-hang"     // text, then the stream held open

	streamed = "compat-streamed-reply" // what promptStream's deltas make
	ran      = "compat-ran"            // the shell command's output, not in its text
	resulted = "compat-result-seen"    // the reply once a tool's result came back
	question = "Which database should compat use?"
)

// shellCommand prints ran, which its own text does not hold: a result
// holding ran comes from running it. It writes a file, so that no CLI
// takes it for a read-only command it may run without asking.
const shellCommand = `printf 'compat-%s\n' ran | tee compat-out.txt`

// shellFile is the file shellCommand writes, in the project.
const shellFile = "compat-out.txt"

// script is the model of every test.
func script(t mockmodel.Turn) mockmodel.Reply {
	want := 1
	if strings.Contains(t.Prompt, promptShell2) {
		want = 2
	}
	var results, searched int
	for _, r := range t.Results {
		if isToolSearch(r.Name) {
			searched++
		} else {
			results++
		}
	}
	if results >= want {
		return mockmodel.Text("The tool said its piece: ", resulted)
	}
	switch {
	case strings.Contains(t.Prompt, promptStream):
		return mockmodel.Text("Here is a ", "compat-str", "eamed-rep", "ly in pieces.")
	case strings.Contains(t.Prompt, promptShell), strings.Contains(t.Prompt, promptShell2):
		return shellCall(t)
	case strings.Contains(t.Prompt, promptAsk):
		return askCall(t, searched > 0)
	case strings.Contains(t.Prompt, promptQuestion):
		// Claude Code's AskUserQuestion; Qwen Code's ask_user_question
		// takes the same arguments.
		name := t.Tool("AskUserQuestion", "ask_user_question")
		if name == "" {
			name = "AskUserQuestion"
		}
		return mockmodel.Reply{Call: &mockmodel.Call{Name: name, Args: map[string]any{
			"questions": []any{map[string]any{"question": question, "header": "Database", "multiSelect": false,
				"options": []any{
					map[string]any{"label": "Postgres", "description": "relational"},
					map[string]any{"label": "SQLite", "description": "embedded"},
				}}}}}}
	case strings.Contains(t.Prompt, promptHang):
		return mockmodel.Reply{Text: []string{"compat-", "hanging"}, Hang: true}
	}
	return mockmodel.Text("ok")
}

// isToolSearch reports whether a tool finds other tools (Claude Code's
// ToolSearch, Codex's tool_search) rather than doing the work.
func isToolSearch(name string) bool { return name == "ToolSearch" || name == "tool_search" }

// claudeAskTool is asktui's tool as Claude Code names it.
const claudeAskTool = "mcp__asktui__ask_user_question"

// askCall calls asktui's ask_user_question. Claude Code defers MCP
// tools: the model sees only their names until it loads one with
// ToolSearch, which it does first. Qwen Code defers them too: the model
// reads the tool's schema with tool_search, then calls it through its
// tool_call bridge.
func askCall(t mockmodel.Turn, searched bool) mockmodel.Reply {
	name := asktuiTool(t)
	switch {
	case name == "" && !searched && t.Tool("ToolSearch") != "":
		return mockmodel.Reply{Call: &mockmodel.Call{Name: "ToolSearch", Args: map[string]any{"query": "select:" + claudeAskTool, "max_results": 1}}}
	case name == "" && searched && t.Tool("ToolSearch") != "":
		name = claudeAskTool
	case name == "" && !searched && t.Tool("tool_search") != "" && t.Tool("tool_call") != "":
		return mockmodel.Reply{Call: &mockmodel.Call{Name: "tool_search", Args: map[string]any{"query": "select:" + claudeAskTool, "max_results": 1}}}
	case name == "" && searched && t.Tool("tool_call") != "":
		return mockmodel.Reply{Text: []string{"Asking you."}, Call: &mockmodel.Call{Name: "tool_call", Args: map[string]any{"name": claudeAskTool, "arguments": askArgs}}}
	case name == "":
		return mockmodel.Text("compat: asktui's tool is not offered")
	}
	call := &mockmodel.Call{Name: name, Args: askArgs}
	if ns, n, ok := strings.Cut(name, "/"); ok {
		call.Namespace, call.Name = ns, n // Codex's MCP tools
	}
	return mockmodel.Reply{Text: []string{"Asking you."}, Call: call}
}

// asktuiTool is the name of asktui's ask_user_question among the turn's
// tools (each CLI prefixes it with the server's name its own way), or "":
// not the CLI's own tool of the same name (Qwen Code's).
func asktuiTool(t mockmodel.Turn) string {
	for _, name := range t.Tools {
		if strings.Contains(name, "ask_user_question") && name != "ask_user_question" {
			return name
		}
	}
	return ""
}

// askArgs are the arguments of asktui's ask_user_question.
var askArgs = map[string]any{"questions": []any{map[string]any{
	"id": "db", "header": "Database", "question": question,
	"options": []any{
		map[string]any{"label": "Postgres", "description": "relational"},
		map[string]any{"label": "SQLite", "description": "embedded"},
	}}}}

// shellCall calls the turn's shell tool with shellCommand.
func shellCall(t mockmodel.Turn) mockmodel.Reply {
	switch name := t.Tool("Bash", "run_shell_command", "exec_command", "shell_command", "shell", "bash"); name {
	case "":
		return mockmodel.Text("compat: no shell tool offered")
	case "Bash":
		return mockmodel.Reply{Call: &mockmodel.Call{Name: name, Args: map[string]any{"command": shellCommand, "description": "Print a word"}}}
	case "exec_command":
		// Codex runs commands in its sandbox without asking; a command
		// that asks to leave it is asked about.
		return mockmodel.Reply{Call: &mockmodel.Call{Name: name, Args: map[string]any{"cmd": shellCommand,
			"sandbox_permissions": "require_escalated", "justification": "Write compat-out.txt?"}}}
	case "shell":
		return mockmodel.Reply{Call: &mockmodel.Call{Name: name, Args: map[string]any{"command": []string{"bash", "-lc", shellCommand}}}}
	default:
		return mockmodel.Reply{Call: &mockmodel.Call{Name: name, Args: map[string]any{"command": shellCommand, "description": "Print a word"}}}
	}
}

// lastResult returns the turn's last tool result.
func lastResult(t mockmodel.Turn) (mockmodel.Result, bool) {
	if len(t.Results) == 0 {
		return mockmodel.Result{}, false
	}
	return t.Results[len(t.Results)-1], true
}

// ranShell matches a turn whose last result is the shell command's
// output: the command ran.
func ranShell(t mockmodel.Turn) bool {
	r, ok := lastResult(t)
	return ok && strings.Contains(r.Content, ran)
}

// refusedShell matches a turn whose last result is the shell tool's,
// without its output: the command did not run.
func refusedShell(t mockmodel.Turn) bool {
	r, ok := lastResult(t)
	return ok && !strings.Contains(r.Content, ran) && !strings.Contains(r.Name, "ask_user_question")
}

// answered matches a turn whose last result is ask_user_question's (or
// AskUserQuestion's) answer: Postgres.
func answered(t mockmodel.Turn) bool {
	r, ok := lastResult(t)
	return ok && strings.Contains(r.Content, "Postgres") && !r.IsError
}

// removeShellFile checks that shellCommand ran in the project, and
// removes what it wrote.
func (w *world) removeShellFile(t *testing.T) {
	t.Helper()
	if err := os.Remove(filepath.Join(w.project, shellFile)); err != nil {
		t.Fatalf("the shell command was allowed, but wrote nothing: %v", err)
	}
}

// noShellFile checks that shellCommand did not run.
func (w *world) noShellFile(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(w.project, shellFile)); err == nil {
		t.Fatalf("the shell command was denied, but %s is there", shellFile)
	}
}

// endStragglers ends the processes still running from w's home once the
// test is over: interactive Codex 0.166 starts an app server of its own
// (codex app-server --managed-daemon, copied under CODEX_HOME) in a
// session of its own, which outlives it.
func (w *world) endStragglers(t *testing.T) {
	t.Helper()
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return // not Linux
	}
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", p.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(cmdline), w.home+string(filepath.Separator)) {
			continue
		}
		if err := syscall.Kill(pid, syscall.SIGKILL); err == nil {
			t.Logf("ended process %d, left running from the test's home: %s", pid, strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
	}
}
