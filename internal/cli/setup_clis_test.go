package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
)

// writeFile writes data at rel under home, making its directories.
func writeHomeFile(t *testing.T, home, rel, data string) string {
	t.Helper()
	p := filepath.Join(home, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// opencode's permission settings are the user's policy: asktui setup
// opencode writes only its MCP server and says what opencode runs
// unasked; --permissions adds "ask" only where the file decides nothing,
// never over a setting of the user's, and says which it left; --undo
// --permissions takes out only an "ask".
func TestSetupOpencodePermissions(t *testing.T) {
	rel := ".config/opencode/opencode.json"
	t.Run("setup alone leaves the policy and says so", func(t *testing.T) {
		home := t.TempDir()
		out := runSetupCLI(t, home, nil, "setup", "opencode")
		if out.code != 0 || !strings.Contains(out.stdout, "runs shell commands and edits files without asking") ||
			!strings.Contains(out.stdout, "asktui setup opencode --permissions") {
			t.Fatalf("exit %d\n%s%s", out.code, out.stdout, out.stderr)
		}
		if cfg := readJSON(t, filepath.Join(home, rel)); cfg["permission"] != nil || cfg["mcp"] == nil {
			t.Fatalf("opencode.json %v", cfg)
		}
	})
	t.Run("no settings: both ask", func(t *testing.T) {
		home := t.TempDir()
		if out := runSetupCLI(t, home, nil, "setup", "opencode", "--permissions"); out.code != 0 || strings.Contains(out.stdout, "without asking") {
			t.Fatalf("exit %d\n%s%s", out.code, out.stdout, out.stderr)
		}
		cfg := readJSON(t, filepath.Join(home, rel))
		if !reflect.DeepEqual(cfg["permission"], map[string]any{"bash": "ask", "edit": "ask"}) || cfg["mcp"] != nil {
			t.Fatalf("opencode.json %v", cfg)
		}
	})
	t.Run("the user's setting is kept", func(t *testing.T) {
		home := t.TempDir()
		p := writeHomeFile(t, home, rel, "{\n  \"permission\": {\"bash\": \"allow\", \"webfetch\": \"deny\"},\n  \"theme\": \"tokyonight\"\n}\n")
		out := runSetupCLI(t, home, nil, "setup", "opencode", "--permissions")
		if out.code != 0 || !strings.Contains(out.stdout, "already decides bash (allow)") {
			t.Fatalf("exit %d\n%s%s", out.code, out.stdout, out.stderr)
		}
		want := map[string]any{"bash": "allow", "webfetch": "deny", "edit": "ask"}
		if cfg := readJSON(t, p); !reflect.DeepEqual(cfg["permission"], want) {
			t.Fatalf("permission %v, want %v", cfg["permission"], want)
		}
		// The user changes the file; undo then takes out only asktui's ask.
		b, _ := os.ReadFile(p) //nolint:gosec // a path the test made
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), "tokyonight", "nord", 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		if out := runSetupCLI(t, home, nil, "setup", "opencode", "--undo", "--permissions"); out.code != 0 {
			t.Fatalf("undo: exit %d\n%s%s", out.code, out.stdout, out.stderr)
		}
		cfg := readJSON(t, p)
		if !reflect.DeepEqual(cfg["permission"], map[string]any{"bash": "allow", "webfetch": "deny"}) || cfg["theme"] != "nord" {
			t.Fatalf("after undo %v", cfg)
		}
	})
	t.Run("one word for every tool is kept", func(t *testing.T) {
		home := t.TempDir()
		p := writeHomeFile(t, home, rel, `{"permission": "allow"}`)
		out := runSetupCLI(t, home, nil, "setup", "opencode", "--permissions")
		if out.code != 0 || !strings.Contains(out.stdout, `"permission": "allow" for every tool`) {
			t.Fatalf("exit %d\n%s%s", out.code, out.stdout, out.stderr)
		}
		if b, _ := os.ReadFile(p); string(b) != `{"permission": "allow"}` { //nolint:gosec // a path the test made
			t.Fatalf("opencode.json changed: %s", b)
		}
	})
	t.Run("opencode.jsonc, when only it is there", func(t *testing.T) {
		home := t.TempDir()
		p := writeHomeFile(t, home, ".config/opencode/opencode.jsonc", "{\n  // mine\n  \"theme\": \"nord\",\n}\n")
		if out := runSetupCLI(t, home, nil, "setup", "opencode"); out.code != 0 {
			t.Fatalf("exit %d\n%s%s", out.code, out.stdout, out.stderr)
		}
		b, _ := os.ReadFile(p) //nolint:gosec // a path the test made
		if !strings.Contains(string(b), "// mine") || !strings.Contains(string(b), `"asktui"`) {
			t.Fatalf("opencode.jsonc:\n%s", b)
		}
		if _, err := os.Stat(filepath.Join(home, rel)); err == nil {
			t.Fatal("opencode.json was created beside opencode.jsonc")
		}
	})
	t.Run("refusals", func(t *testing.T) {
		home := t.TempDir()
		if out := runSetupCLI(t, home, nil, "setup", "opencode", "--hooks"); out.code != exitUsage || !strings.Contains(out.stderr, "no command hooks") ||
			!strings.Contains(out.stderr, string(interaction.CodeInvalidRequest)) {
			t.Errorf("--hooks: exit %d\n%s%s", out.code, out.stdout, out.stderr)
		}
		if out := runSetupCLI(t, home, nil, "setup", "qwen", "--permissions"); out.code == 0 || !strings.Contains(out.stderr, "opencode only") {
			t.Errorf("qwen --permissions: exit %d\n%s%s", out.code, out.stdout, out.stderr)
		}
		if entries, _ := os.ReadDir(home); len(entries) > 1 {
			t.Errorf("a refusal wrote %v", entries)
		}
	})
}

// Qwen Code's hook timeout is written in milliseconds (0.24 reads a value
// of 1000 or more so; before 0.24 every value), so it gives the hook the
// same 10 minutes whichever reads it; its MCP server is always loaded, not
// deferred behind tool_search.
func TestSetupQwenUnits(t *testing.T) {
	home := t.TempDir()
	if out := runSetupCLI(t, home, nil, "setup", "qwen"); out.code != 0 {
		t.Fatalf("exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	cfg := readJSON(t, filepath.Join(home, ".qwen", "settings.json"))
	hooks := cfg["hooks"].(map[string]any)["PermissionRequest"].([]any)[0].(map[string]any)["hooks"].([]any)[0].(map[string]any)
	server := cfg["mcpServers"].(map[string]any)["asktui"].(map[string]any)
	if hooks["timeout"] != float64(600_000) || !strings.Contains(hooks["command"].(string), "hook qwen --timeout 9m50s") || server["alwaysLoadTools"] != true {
		t.Fatalf("settings.json %v", cfg)
	}
	// QWEN_HOME moves the file, as it moves Qwen's own.
	qh := filepath.Join(home, "elsewhere")
	if out := runSetupCLI(t, home, []string{"QWEN_HOME=" + qh}, "setup", "qwen", "--hooks"); out.code != 0 {
		t.Fatalf("exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	if _, err := os.Stat(filepath.Join(qh, "settings.json")); err != nil {
		t.Fatal(err)
	}
}

// Copilot CLI's hook file is asktui's own, in its hooks directory:
// version 1 and the permissionRequest hook; after the user added a hook
// of theirs to it, --undo takes out only asktui's.
func TestSetupCopilotHookFile(t *testing.T) {
	home := t.TempDir()
	if out := runSetupCLI(t, home, nil, "setup", "copilot", "--hooks"); out.code != 0 || !strings.Contains(out.stdout, "folder-trust dialog") {
		t.Fatalf("exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	p := filepath.Join(home, ".copilot", "hooks", "asktui.json")
	cfg := readJSON(t, p)
	h := cfg["hooks"].(map[string]any)["permissionRequest"].([]any)[0].(map[string]any)
	if cfg["version"] != float64(1) || h["timeoutSec"] != float64(600) || !strings.Contains(h["bash"].(string), "hook copilot --timeout 9m50s") {
		t.Fatalf("asktui.json %v", cfg)
	}
	if _, err := os.Stat(filepath.Join(home, ".copilot", "mcp-config.json")); err == nil {
		t.Fatal("--hooks wrote the MCP server")
	}
	b, _ := os.ReadFile(p) //nolint:gosec // a path the test made
	mine := strings.Replace(string(b), `"hooks": {`, `"hooks": {"agentStop": [{"type": "command", "bash": "notify-send done"}],`, 1)
	if err := os.WriteFile(p, []byte(mine), 0o600); err != nil { //nolint:gosec // a path the test made
		t.Fatal(err)
	}
	if out := runSetupCLI(t, home, nil, "setup", "copilot", "--undo"); out.code != 0 {
		t.Fatalf("undo: exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	cfg = readJSON(t, p)
	if hooks := cfg["hooks"].(map[string]any); cfg["version"] != float64(1) || len(hooks) != 1 || hooks["agentStop"] == nil {
		t.Fatalf("after undo %v", cfg)
	}
}
