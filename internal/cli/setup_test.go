package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/asktui/asktui/interaction"
)

// setupExe is the asktui the tests' configurations start.
const setupExe = "/opt/asktui/bin/asktui"

// runSetupCLI runs asktui with args, with HOME (and asktui's own
// directories) in home, and the executable at setupExe.
func runSetupCLI(t *testing.T, home string, extraEnv []string, args ...string) outcome {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, env{
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		environ:    append([]string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}, extraEnv...),
		openTTY:    mustNotOpenTTY(t),
		executable: func() (string, error) { return setupExe, nil },
	})
	return outcome{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path) //nolint:gosec // a path the test made, or its testdata
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
	return m
}

// TestSetupClaude goes through the command line with a temporary HOME:
// the dry run writes nothing, the run writes both files, the second run
// changes nothing and says so, and --undo restores ~/.claude.json byte for
// byte and removes the settings.json setup created; after a change of the
// client's own, --undo takes only asktui's entries out.
func TestSetupClaude(t *testing.T) {
	home := t.TempDir()
	mcpFile, settings := filepath.Join(home, ".claude.json"), filepath.Join(home, ".claude", "settings.json")
	// Claude Code's own file exists, with state of its own.
	if err := os.WriteFile(mcpFile, []byte("{\n  \"numStartups\": 3,\n  \"projects\": {}\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	out := runSetupCLI(t, home, nil, "setup", "claude", "--dry-run")
	if out.code != 0 || !strings.Contains(out.stdout, "--- ~/.claude.json\n+++ ~/.claude.json\n") ||
		!strings.Contains(out.stdout, "--- /dev/null\n+++ ~/.claude/settings.json\n") {
		t.Fatalf("dry run: exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	if _, err := os.Stat(settings); err == nil {
		t.Fatal("the dry run wrote settings.json")
	}

	out = runSetupCLI(t, home, nil, "setup", "claude")
	if out.code != 0 || !strings.Contains(out.stdout, "updated ~/.claude.json") || !strings.Contains(out.stdout, "created ~/.claude/settings.json") ||
		!strings.Contains(out.stdout, "asktui setup claude --undo") {
		t.Fatalf("setup: exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	m := readJSON(t, mcpFile)
	want, _ := normalizeJSON(mcpServer{exe: setupExe, args: []string{"mcp"}}.claudeEntry())
	if got := m["mcpServers"].(map[string]any)["asktui"]; !reflect.DeepEqual(got, want) || m["numStartups"] != 3.0 {
		t.Errorf("~/.claude.json: %v", m)
	}
	if info, _ := os.Stat(mcpFile); runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
		t.Errorf("~/.claude.json lost its mode: %v", info.Mode())
	}
	backups, _ := filepath.Glob(mcpFile + ".asktui-backup-*")
	if len(backups) != 1 {
		t.Errorf("backups: %v", backups)
	}

	out = runSetupCLI(t, home, nil, "setup", "claude")
	if out.code != 0 || strings.Count(out.stdout, "already set up, unchanged") != 2 || strings.Contains(out.stdout, "Restart") {
		t.Errorf("second run: exit %d\n%s", out.code, out.stdout)
	}
	if b, _ := filepath.Glob(mcpFile + ".asktui-backup-*"); len(b) != 1 {
		t.Errorf("the second run made a backup: %v", b)
	}

	out = runSetupCLI(t, home, nil, "setup", "claude", "--undo")
	if out.code != 0 || !strings.Contains(out.stdout, "restored ~/.claude.json") || !strings.Contains(out.stdout, "removed ~/.claude/settings.json") {
		t.Fatalf("undo: exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	if b, _ := os.ReadFile(mcpFile); string(b) != "{\n  \"numStartups\": 3,\n  \"projects\": {}\n}\n" { //nolint:gosec // a path the test made, or its testdata
		t.Errorf("undo left ~/.claude.json as\n%s", b)
	}
	if _, err := os.Stat(settings); err == nil {
		t.Error("undo left the settings.json setup created")
	}
	out = runSetupCLI(t, home, nil, "setup", "claude", "--undo")
	if strings.Count(out.stdout, "no asktui entries, unchanged") != 2 {
		t.Errorf("second undo:\n%s", out.stdout)
	}

	// Claude Code changes its file after setup: --undo keeps the change
	// and takes only asktui's entry out.
	if out = runSetupCLI(t, home, nil, "setup", "claude", "--mcp"); out.code != 0 {
		t.Fatalf("setup again: exit %d\n%s", out.code, out.stderr)
	}
	b, _ := os.ReadFile(mcpFile) //nolint:gosec // a path the test made
	b = bytes.Replace(b, []byte(`"numStartups": 3`), []byte(`"numStartups": 4`), 1)
	if err := os.WriteFile(mcpFile, b, 0o600); err != nil { //nolint:gosec // a path the test made
		t.Fatal(err)
	}
	out = runSetupCLI(t, home, nil, "setup", "claude", "--undo", "--mcp")
	if out.code != 0 || !strings.Contains(out.stdout, "removed asktui from ~/.claude.json") {
		t.Fatalf("undo after a change: exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	if b, _ := os.ReadFile(mcpFile); string(b) != "{\n  \"numStartups\": 4,\n  \"projects\": {}\n}\n" { //nolint:gosec // a path the test made
		t.Errorf("undo after a change left ~/.claude.json as\n%s", b)
	}
}

func normalizeJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var x any
	return x, json.Unmarshal(b, &x)
}

// TestSetupWritesWhatPrintConfigPrints: the entries in the files are the
// ones --print-config prints, for every client.
func TestSetupWritesWhatPrintConfigPrints(t *testing.T) {
	home := t.TempDir()
	printed := func(args ...string) []byte {
		out := runSetupCLI(t, home, nil, args...)
		if out.code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, out.code, out.stderr)
		}
		return []byte(out.stdout)
	}
	for _, c := range setupClients {
		if out := runSetupCLI(t, home, nil, "setup", c, "--socket", "/run/a b.sock"); out.code != 0 {
			t.Fatalf("setup %s: exit %d\n%s", c, out.code, out.stderr)
		}
	}
	// printedHooks decodes a printed hooks block.
	printedHooks := func(args ...string) any {
		var v struct{ Hooks map[string]any }
		if err := json.Unmarshal(printed(args...), &v); err != nil {
			t.Fatal(err)
		}
		return v.Hooks
	}
	settings := func(path string) map[string]any { return readJSON(t, filepath.Join(home, path)) }

	// Claude Code: the hooks block; the server's command and arguments.
	if got, p := settings(".claude/settings.json")["hooks"], printedHooks("hook", "claude", "--print-config", "--socket", "/run/a b.sock"); !reflect.DeepEqual(got, p) {
		t.Errorf("claude hooks:\n%v\nprinted\n%v", got, p)
	}
	if p := string(printed("mcp", "--print-config", "claude", "--socket", "/run/a b.sock")); !strings.Contains(p, "-- '"+setupExe+"' 'mcp' '--socket' '/run/a b.sock'") {
		t.Errorf("claude: printed %s", p)
	}
	// Codex: the table, and hooks.json.
	var printedTOML, written map[string]any
	if err := toml.Unmarshal(printed("mcp", "--print-config", "codex", "--socket", "/run/a b.sock"), &printedTOML); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(home, ".codex", "config.toml")) //nolint:gosec // a path the test made, or its testdata
	if err := toml.Unmarshal(b, &written); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(written, printedTOML) {
		t.Errorf("codex config.toml:\n%v\nprinted\n%v", written, printedTOML)
	}
	if got, p := settings(".codex/hooks.json")["hooks"], printedHooks("hook", "codex", "--print-config", "--socket", "/run/a b.sock"); !reflect.DeepEqual(got, p) {
		t.Errorf("codex hooks:\n%v\nprinted\n%v", got, p)
	}
	// Gemini CLI: both in one file.
	var servers struct{ MCPServers map[string]any }
	if err := json.Unmarshal(printed("mcp", "--print-config", "gemini", "--socket", "/run/a b.sock"), &servers); err != nil {
		t.Fatal(err)
	}
	g := settings(".gemini/settings.json")
	if p := printedHooks("hook", "gemini", "--print-config", "--socket", "/run/a b.sock"); !reflect.DeepEqual(g["mcpServers"], servers.MCPServers) || !reflect.DeepEqual(g["hooks"], p) {
		t.Errorf("gemini settings.json:\n%v\nprinted\n%v\n%v", g, servers.MCPServers, p)
	}
	// Copilot CLI: mcp-config.json, and the hook file whole.
	servers.MCPServers = nil
	if err := json.Unmarshal(printed("mcp", "--print-config", "copilot", "--socket", "/run/a b.sock"), &servers); err != nil {
		t.Fatal(err)
	}
	if got := settings(".copilot/mcp-config.json")["mcpServers"]; !reflect.DeepEqual(got, servers.MCPServers) {
		t.Errorf("copilot mcp-config.json:\n%v\nprinted\n%v", got, servers.MCPServers)
	}
	var hookFile map[string]any
	if err := json.Unmarshal(printed("hook", "copilot", "--print-config", "--socket", "/run/a b.sock"), &hookFile); err != nil {
		t.Fatal(err)
	}
	if got := settings(".copilot/hooks/asktui.json"); !reflect.DeepEqual(got, hookFile) {
		t.Errorf("copilot hooks/asktui.json:\n%v\nprinted\n%v", got, hookFile)
	}
	// Qwen Code: both in one file.
	servers.MCPServers = nil
	if err := json.Unmarshal(printed("mcp", "--print-config", "qwen", "--socket", "/run/a b.sock"), &servers); err != nil {
		t.Fatal(err)
	}
	q := settings(".qwen/settings.json")
	if p := printedHooks("hook", "qwen", "--print-config", "--socket", "/run/a b.sock"); !reflect.DeepEqual(q["mcpServers"], servers.MCPServers) || !reflect.DeepEqual(q["hooks"], p) {
		t.Errorf("qwen settings.json:\n%v\nprinted\n%v\n%v", q, servers.MCPServers, p)
	}
	// opencode: its "mcp".
	var oc struct{ MCP map[string]any }
	if err := json.Unmarshal(printed("mcp", "--print-config", "opencode", "--socket", "/run/a b.sock"), &oc); err != nil {
		t.Fatal(err)
	}
	if got := settings(".config/opencode/opencode.json")["mcp"]; !reflect.DeepEqual(got, oc.MCP) {
		t.Errorf("opencode.json:\n%v\nprinted\n%v", got, oc.MCP)
	}
}

// TestSetupRefusesBrokenFile: a file that does not parse is refused with
// its line, exit 2 and INVALID_REQUEST, and no file is written, not even
// the other one.
func TestSetupRefusesBrokenFile(t *testing.T) {
	home := t.TempDir()
	config := filepath.Join(home, ".codex", "config.toml")
	_ = os.MkdirAll(filepath.Dir(config), 0o700)
	broken := "model = \"o3\"\n[mcp_servers.asktui\ncommand = \"x\"\n"
	if err := os.WriteFile(config, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	out := runSetupCLI(t, home, nil, "setup", "codex")
	if out.code != exitUsage {
		t.Fatalf("exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	e := envelope(t, out.stderr)
	if e.Code != interaction.CodeInvalidRequest || !strings.Contains(e.Message, config+" line 2, column") ||
		!strings.Contains(e.Message, "nothing was written") {
		t.Errorf("error: %v", e)
	}
	if b, _ := os.ReadFile(config); string(b) != broken { //nolint:gosec // a path the test made, or its testdata
		t.Error("the broken file was changed")
	}
	if _, err := os.Stat(filepath.Join(home, ".codex", "hooks.json")); err == nil {
		t.Error("hooks.json was written")
	}
	if b, _ := filepath.Glob(config + ".asktui-backup-*"); len(b) > 0 {
		t.Errorf("backups: %v", b)
	}
}

// TestSetupProject writes the project's files in the current directory
// and says what the client needs before it reads them.
func TestSetupProject(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	t.Chdir(project)
	out := runSetupCLI(t, home, nil, "setup", "gemini", "--project", "--hooks")
	if out.code != 0 || !strings.Contains(out.stdout, "trusted folder") || !strings.Contains(out.stdout, "--undo --project") {
		t.Fatalf("exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	g := readJSON(t, filepath.Join(project, ".gemini", "settings.json"))
	if _, ok := g["mcpServers"]; ok || g["hooks"] == nil {
		t.Errorf("--hooks wrote %v", g)
	}
	out = runSetupCLI(t, home, nil, "setup", "claude", "--project", "--mcp")
	if out.code != 0 {
		t.Fatalf("exit %d\n%s", out.code, out.stderr)
	}
	want, _ := normalizeJSON(mcpServer{exe: setupExe, args: []string{"mcp"}}.jsonEntry())
	if got := readJSON(t, filepath.Join(project, ".mcp.json"))["mcpServers"].(map[string]any)["asktui"]; !reflect.DeepEqual(got, want) {
		t.Errorf(".mcp.json: %v", got)
	}
	// Only asktui's own record of what setup wrote, for --undo.
	for _, p := range []string{".local/state/asktui/setup.json", ".local/state/asktui", ".local/state", ".local"} {
		_ = os.Remove(filepath.Join(home, p)) // fails, and so fails the test below, when not empty
	}
	if entries, _ := os.ReadDir(home); len(entries) > 0 {
		t.Errorf("--project wrote into HOME: %v", entries)
	}
}

// TestSetupHTTP writes the HTTP entry with serve's token, and warns when
// the file that now holds the token is readable by others.
func TestSetupHTTP(t *testing.T) {
	home := t.TempDir()
	token := strings.Repeat("ab", 20)
	settings := filepath.Join(home, ".gemini", "settings.json")
	_ = os.MkdirAll(filepath.Dir(settings), 0o755)                        //nolint:gosec // a test's own directory; its mode is part of the set-up
	if err := os.WriteFile(settings, []byte("{}\n"), 0o644); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
		t.Fatal(err)
	}
	out := runSetupCLI(t, home, []string{"ASKTUI_TOKEN=" + token}, "setup", "gemini", "--mcp", "--transport", "http")
	if out.code != 0 || !strings.Contains(out.stdout, "WARNING: ~/.gemini/settings.json holds asktui's token") {
		t.Fatalf("exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	entry := readJSON(t, settings)["mcpServers"].(map[string]any)["asktui"].(map[string]any)
	if entry["httpUrl"] != "http://"+DefaultListen+"/mcp" || entry["headers"].(map[string]any)["Authorization"] != "Bearer "+token {
		t.Errorf("entry %v", entry)
	}
	// A dry run makes no token file.
	out = runSetupCLI(t, home, nil, "setup", "claude", "--mcp", "--transport", "http", "--dry-run")
	if out.code != 0 || !strings.Contains(out.stdout, "a new token") {
		t.Errorf("exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	if _, err := os.Stat(filepath.Join(home, ".config", "asktui", "token")); err == nil {
		t.Error("the dry run made a token")
	}
}

// TestSetupUsage: wrong invocations are usage errors, exit 2.
func TestSetupUsage(t *testing.T) {
	home := t.TempDir()
	for _, args := range [][]string{
		{"setup"},
		{"setup", "cursor"},
		{"setup", "claude", "codex"},
		{"setup", "claude", "--transport", "sse"},
	} {
		if out := runSetupCLI(t, home, nil, args...); out.code != exitUsage {
			t.Errorf("%v: exit %d\n%s", args, out.code, out.stderr)
		}
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"setup", "claude"}, env{
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, environ: []string{"HOME=" + home},
		openTTY:    mustNotOpenTTY(t),
		executable: func() (string, error) { return "/tmp/go-build123/b001/exe/asktui", nil },
	})
	if code != exitUsage || !strings.Contains(stderr.String(), "go run") {
		t.Errorf("a go run build: exit %d\n%s", code, stderr.String())
	}
	if entries, _ := os.ReadDir(home); len(entries) > 0 {
		t.Errorf("wrote %v", entries)
	}
}

func TestOurHook(t *testing.T) {
	for _, tt := range []struct {
		h    map[string]any
		ours bool
	}{
		{map[string]any{"command": "/usr/local/bin/asktui", "args": []any{"hook", "claude", "--timeout", "9m50s"}}, true},
		{map[string]any{"command": "'/home/me/go/bin/asktui' hook codex --timeout 9m50s"}, true},
		{map[string]any{"command": `"C:\Program Files\asktui\asktui.exe" hook gemini`}, true},
		{map[string]any{"command": "asktui hook claude"}, true},
		{map[string]any{"command": "'" + setupExe + "' hook gemini"}, true},
		{map[string]any{"command": "/opt/renamed", "args": []any{"hook", "claude"}}, false},
		{map[string]any{"command": "~/bin/check-bash.sh"}, false},
		{map[string]any{"command": "notasktui hook claude"}, false},
		{map[string]any{"command": "echo asktui hooks"}, false},
	} {
		if got := ourHook(tt.h, setupExe); got != tt.ours {
			t.Errorf("%v: ours = %v", tt.h, got)
		}
	}
	// The path setup writes is ours whatever its name.
	if !ourHook(map[string]any{"command": "/opt/renamed", "args": []any{"hook", "claude"}}, "/opt/renamed") {
		t.Error("setup's own path is not recognised")
	}
}

// TestSetupRealClients checks, with each client's own CLI where it is
// installed (on PATH), that the client reads what setup wrote: its own
// listing of MCP servers names asktui's bridge.
func TestSetupRealClients(t *testing.T) {
	for _, tt := range []struct {
		client, cli string
		args        []string
		env         []string
	}{
		{"claude", "claude", []string{"mcp", "get", "asktui"}, nil},
		{"codex", "codex", []string{"mcp", "list", "--json"}, nil},
		{"gemini", "gemini", []string{"mcp", "list"}, []string{"GEMINI_CLI_TRUST_WORKSPACE=true"}},
	} {
		t.Run(tt.client, func(t *testing.T) {
			bin, err := exec.LookPath(tt.cli)
			if err != nil {
				t.Skipf("%s is not installed", tt.cli)
			}
			home := t.TempDir()
			if out := runSetupCLI(t, home, nil, "setup", tt.client, "--mcp"); out.code != 0 {
				t.Fatalf("setup: exit %d\n%s", out.code, out.stderr)
			}
			cmd := exec.CommandContext(context.Background(), bin, tt.args...) //nolint:gosec // the test runs a command of its own choosing
			cmd.Dir = home
			cmd.Env = append(clientEnv(home), tt.env...)
			got, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(got), setupExe) {
				t.Errorf("%s %s: %v\n%s", tt.cli, strings.Join(tt.args, " "), err, got)
			}
		})
	}
}

// TestSetupMatchesClaudeMCPAdd: after the command --print-config claude
// prints has run (claude mcp add), setup finds the entry it would write
// already there.
func TestSetupMatchesClaudeMCPAdd(t *testing.T) {
	bin, err := exec.LookPath("claude")
	if err != nil {
		t.Skip("claude is not installed")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	home := t.TempDir()
	printed := runSetupCLI(t, home, nil, "mcp", "--print-config", "claude")
	script := "claude() { " + shellQuote(bin) + " \"$@\"; }\n" + printed.stdout
	cmd := exec.CommandContext(context.Background(), "sh", "-c", script) //nolint:gosec // the test runs a command of its own choosing
	cmd.Dir, cmd.Env = home, clientEnv(home)
	if got, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("claude mcp add: %v\n%s", err, got)
	}
	if out := runSetupCLI(t, home, nil, "setup", "claude", "--mcp"); out.code != 0 || !strings.Contains(out.stdout, "already set up, unchanged") {
		t.Errorf("exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
}

// clientEnv is this process's environment with HOME at home and none of
// the variables that move a client's files elsewhere.
func clientEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "XDG_CONFIG_HOME":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home)
}
