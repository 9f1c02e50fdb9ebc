package configfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

var testTime = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

// TestApplyExisting: the file is replaced with its permissions kept, and
// the old content is kept beside it, readable by its owner only whatever
// the file's mode (it may hold a token).
func TestApplyExisting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(path, []byte("{}\n"), 0o644); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
		t.Fatal(err)
	}
	before, mode, err := Read(path)
	if err != nil || mode != 0o644 {
		t.Fatalf("Read: mode %v, err %v", mode, err)
	}
	c := Change{Path: path, Before: before, After: []byte("{\"a\": 1}\n"), Mode: 0o600}
	backup, err := c.Apply(testTime)
	if err != nil {
		t.Fatal(err)
	}
	if want := path + ".asktui-backup-20260102-150405"; backup != want {
		t.Errorf("backup %q, want %q", backup, want)
	}
	checkFile(t, path, "{\"a\": 1}\n", 0o644)
	checkFile(t, backup, "{}\n", 0o600)

	// A second backup in the same second gets a name of its own.
	c = Change{Path: path, Before: []byte("{\"a\": 1}\n"), After: []byte("{}\n")}
	backup2, err := c.Apply(testTime)
	if err != nil || backup2 != backup+"-2" {
		t.Fatalf("second backup %q, err %v", backup2, err)
	}
	checkFile(t, backup, "{}\n", 0o600)
	checkFile(t, backup2, "{\"a\": 1}\n", 0o600)
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".settings.json.asktui-*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// TestApplyNew: a new file gets Mode, its directories DirMode, and no
// backup.
func TestApplyNew(t *testing.T) {
	path := filepath.Join(t.TempDir(), "home", ".codex", "config.toml")
	c := Change{Path: path, After: []byte("x = 1\n"), Mode: 0o600, DirMode: 0o700}
	if !c.Changed() {
		t.Fatal("a new file is a change")
	}
	if d := c.Diff("~/.codex/config.toml"); !strings.HasPrefix(d, "--- /dev/null\n+++ ~/.codex/config.toml\n") {
		t.Errorf("diff:\n%s", d)
	}
	backup, err := c.Apply(testTime)
	if err != nil || backup != "" {
		t.Fatalf("backup %q, err %v", backup, err)
	}
	checkFile(t, path, "x = 1\n", 0o600)
	if info, err := os.Stat(filepath.Dir(path)); err != nil || runtime.GOOS != "windows" && info.Mode().Perm() != 0o700 {
		t.Errorf("directory: %v, %v", info.Mode(), err)
	}
}

// TestApplySymlink: a linked file (dotfiles kept in a repository) is
// written where the link points, and the link stays.
func TestApplySymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "settings.json")
	link := filepath.Join(dir, "settings.json")
	_ = os.MkdirAll(filepath.Dir(target), 0o755)                        //nolint:gosec // a test's own directory; its mode is part of the set-up
	if err := os.WriteFile(target, []byte("{}\n"), 0o644); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	c := Change{Path: link, Before: []byte("{}\n"), After: []byte("{\"a\": 1}\n")}
	if _, err := c.Apply(testTime); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", info.Mode(), err)
	}
	checkFile(t, target, "{\"a\": 1}\n", 0o644)
}

// TestApplyChanged: a file another program wrote since it was read is
// left as that program wrote it.
func TestApplyChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	if err := os.WriteFile(path, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := Change{Path: path, Before: []byte("{}\n"), After: []byte("{\"a\": 1}\n")}
	if err := os.WriteFile(path, []byte("{\"numStartups\": 2}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Apply(testTime); !errors.Is(err, ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged", err)
	}
	checkFile(t, path, "{\"numStartups\": 2}\n", 0o600)
	if m, _ := filepath.Glob(path + "*"); len(m) != 1 {
		t.Errorf("files left: %v", m)
	}
	// A file that appeared since it was found missing, too.
	c = Change{Path: filepath.Join(filepath.Dir(path), "new.json"), After: []byte("{}\n")}
	_ = os.WriteFile(c.Path, []byte("{\"mine\": true}\n"), 0o644) //nolint:gosec // a test's own file; its mode is part of the set-up
	if _, err := c.Apply(testTime); !errors.Is(err, ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged", err)
	}
}

func TestReadRefuses(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := Read(dir); err == nil {
		t.Error("a directory was read as a file")
	}
	b, _, err := Read(filepath.Join(dir, "none"))
	if b != nil || err != nil {
		t.Errorf("a missing file: %q, %v", b, err)
	}
	empty := filepath.Join(dir, "empty")
	_ = os.WriteFile(empty, nil, 0o644) //nolint:gosec // a test's own file; its mode is part of the set-up
	if b, _, err := Read(empty); b == nil || err != nil {
		t.Errorf("an empty file reads as missing: %v", err)
	}
	if (Change{Path: empty, Before: []byte{}, After: []byte{}}).Changed() {
		t.Error("an empty file left empty is a change")
	}
}

func checkFile(t *testing.T, path, want string, mode fs.FileMode) {
	t.Helper()
	b, err := os.ReadFile(path) //nolint:gosec // a path the test made, or its testdata
	if err != nil || string(b) != want {
		t.Errorf("%s: %q, %v; want %q", path, b, err, want)
	}
	if info, err := os.Stat(path); err == nil && runtime.GOOS != "windows" && info.Mode().Perm() != mode {
		t.Errorf("%s: mode %v, want %v", path, info.Mode().Perm(), mode)
	}
}

// A file its owner made read-only, or one in a directory its owner made
// read-only, is refused (even for root, who could write it), and left as
// it was, without a backup.
func TestApplyRefusesReadOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(path, []byte("{}\n"), 0o444); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
		t.Fatal(err)
	}
	c := Change{Path: path, Before: []byte("{}\n"), After: []byte("{\"a\": 1}\n")}
	if _, err := c.Apply(testTime); !errors.Is(err, ErrReadOnly) || !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("Apply: %v, want ErrReadOnly", err)
	}
	checkFile(t, path, "{}\n", 0o444)
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files beside it: %v", entries)
	}

	roDir := filepath.Join(dir, "ro")
	if err := os.Mkdir(roDir, 0o555); err != nil { //nolint:gosec // the mode is what the test is about
		t.Fatal(err)
	}
	defer os.Chmod(roDir, 0o755) //nolint:gosec // the test's clean-up makes it removable again
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(filepath.Join(roDir, "settings.json"), link); err != nil {
		t.Fatal(err)
	}
	c = Change{Path: link, After: []byte("{}\n")}
	if _, err := c.Apply(testTime); !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("Apply through a link into a read-only directory: %v, want a permission error", err)
	}
}
