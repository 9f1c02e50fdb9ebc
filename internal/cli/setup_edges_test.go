package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
)

// A file the user made read-only is refused with PERMISSION_DENIED (exit
// 77), and left as it was, without a backup; so is a file behind a link
// into a read-only directory, reported as a permission problem rather
// than INTERNAL.
func TestSetupRespectsReadOnly(t *testing.T) {
	home := t.TempDir()
	settings := filepath.Join(home, ".gemini", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		t.Fatal(err)
	}
	const mine = "{\n  // mine\n  \"theme\": \"dark\",\n}\n"
	if err := os.WriteFile(settings, []byte(mine), 0o444); err != nil { //nolint:gosec // the mode is what the test is about
		t.Fatal(err)
	}
	out := runSetupCLI(t, home, nil, "setup", "gemini")
	if out.code != exitPermission || !strings.Contains(out.stderr, "PERMISSION_DENIED") || !strings.Contains(out.stderr, "read-only") {
		t.Errorf("exit %d, stderr %s", out.code, out.stderr)
	}
	if b, _ := os.ReadFile(settings); string(b) != mine { //nolint:gosec // a path the test made
		t.Errorf("the read-only file became\n%s", b)
	}
	if info, _ := os.Stat(settings); info.Mode().Perm() != 0o444 {
		t.Errorf("mode %v", info.Mode())
	}
	if b, _ := filepath.Glob(settings + ".asktui-backup-*"); len(b) > 0 {
		t.Errorf("backups of a file not written: %v", b)
	}

	home2 := t.TempDir()
	ro := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(ro, 0o555); err != nil { //nolint:gosec // the mode is what the test is about
		t.Fatal(err)
	}
	defer os.Chmod(ro, 0o755) //nolint:gosec // the test's clean-up makes it removable again
	if err := os.MkdirAll(filepath.Join(home2, ".codex"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ro, "hooks.json"), filepath.Join(home2, ".codex", "hooks.json")); err != nil {
		t.Fatal(err)
	}
	out = runSetupCLI(t, home2, nil, "setup", "codex", "--hooks")
	if out.code != exitPermission || interaction.CodeOf(envelope(t, out.stderr)) != interaction.CodePermission {
		t.Errorf("a link into a read-only directory: exit %d, stderr %s", out.code, out.stderr)
	}
}

// Backups are the owner's alone, whatever the original's mode: the
// original may be shared, the backup need not be.
func TestSetupBackupsArePrivate(t *testing.T) {
	home := t.TempDir()
	settings := filepath.Join(home, ".gemini", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil { //nolint:gosec // the mode is what the test is about
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte("{}\n"), 0o644); err != nil { //nolint:gosec // the mode is what the test is about
		t.Fatal(err)
	}
	if out := runSetupCLI(t, home, nil, "setup", "gemini"); out.code != 0 {
		t.Fatalf("exit %d\n%s", out.code, out.stderr)
	}
	backups, _ := filepath.Glob(settings + ".asktui-backup-*")
	if len(backups) != 1 {
		t.Fatalf("backups: %v", backups)
	}
	if info, err := os.Stat(backups[0]); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("backup mode %v (%v), want 0600", info.Mode(), err)
	}
}

// setup codex then --undo leaves no file setup created, and restores the
// one it changed byte for byte.
func TestSetupCodexUndoRemovesWhatItCreated(t *testing.T) {
	home := t.TempDir()
	config := filepath.Join(home, ".codex", "config.toml")
	if err := os.MkdirAll(filepath.Dir(config), 0o700); err != nil {
		t.Fatal(err)
	}
	const mine = "model = \"gpt-5\" # mine"
	if err := os.WriteFile(config, []byte(mine), 0o600); err != nil {
		t.Fatal(err)
	}
	if out := runSetupCLI(t, home, nil, "setup", "codex"); out.code != 0 {
		t.Fatalf("setup: exit %d\n%s", out.code, out.stderr)
	}
	if out := runSetupCLI(t, home, nil, "setup", "codex", "--undo"); out.code != 0 {
		t.Fatalf("undo: exit %d\n%s", out.code, out.stderr)
	}
	if _, err := os.Stat(filepath.Join(home, ".codex", "hooks.json")); err == nil {
		t.Error("undo left the hooks.json setup created")
	}
	if b, _ := os.ReadFile(config); string(b) != mine { //nolint:gosec // a path the test made
		t.Errorf("undo left config.toml as %q, want %q", b, mine)
	}
}

// setup gemini says, when it finishes, that Gemini CLI starts no MCP
// server in a folder it does not trust, and what to do about it.
func TestSetupGeminiSaysFolderTrust(t *testing.T) {
	out := runSetupCLI(t, t.TempDir(), nil, "setup", "gemini")
	if out.code != 0 || !strings.Contains(out.stdout, "only in a folder it trusts") || !strings.Contains(out.stdout, "/permissions") ||
		!strings.Contains(out.stdout, "GEMINI_CLI_TRUST_WORKSPACE=true") {
		t.Errorf("exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	if out := runSetupCLI(t, t.TempDir(), nil, "setup", "gemini", "--hooks"); strings.Contains(out.stdout, "only in a folder it trusts") {
		t.Errorf("--hooks (no MCP server) speaks of MCP servers:\n%s", out.stdout)
	}
}
