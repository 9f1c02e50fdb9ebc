//go:build unix

package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
)

// TestStoreTrustsTheWholeWay: a rules file is trusted only when no one
// else could have put it where it is: every directory from the root to
// it, and along a symbolic link to it every directory up to the link and
// up to its target, is the user's or root's and cannot be written by
// others, unless it is sticky like /tmp (where the tests' own temporary
// directories are).
func TestStoreTrustsTheWholeWay(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mkdir := func(dir string, mode os.FileMode) string {
		t.Helper()
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, mode); err != nil { // past the umask
			t.Fatal(err)
		}
		return dir
	}
	rulesIn := func(dir string) string {
		t.Helper()
		path := filepath.Join(mkdir(dir, 0o700), "rules.conf")
		if err := os.WriteFile(path, []byte("allow /tmp Bash(go test:*)\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	load := func(path string) (*Set, error) {
		return Open(path, "", root).Load()
	}
	untrusted := func(what, path string, says ...string) {
		t.Helper()
		_, err := load(path)
		if interaction.CodeOf(err) != interaction.CodeUntrusted {
			t.Errorf("%s: %v; want UNTRUSTED", what, err)
			return
		}
		for _, s := range says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %v; want it to say %q", what, err, s)
			}
		}
	}

	// A 0700 directory in one others can write: they could rename it
	// away and put their own in its place.
	open := mkdir(filepath.Join(root, "open"), 0o777)
	inOpen := rulesIn(filepath.Join(open, "cfg"))
	untrusted("a 0700 directory in a 0777 one", inOpen, "is under "+open+", a directory others can write (mode 0777)", "chmod go-w "+open)
	mkdir(open, 0o775)
	untrusted("a 0700 directory in a 0775 one", inOpen, "mode 0775")
	// A sticky directory of root's or the user's: others may not rename
	// what is not theirs.
	mkdir(open, os.ModeSticky|0o777)
	if set, err := load(inOpen); err != nil || set.Len() != 1 {
		t.Errorf("in a sticky directory: %v, %v; want the rule", set.Len(), err)
	}
	// The same file through a link: the link's way and the target's.
	linkDir := mkdir(filepath.Join(root, "home", ".config", "asktui"), 0o700)
	link := filepath.Join(linkDir, "rules.conf")
	if err := os.Symlink(inOpen, link); err != nil {
		t.Fatal(err)
	}
	if set, err := load(link); err != nil || set.Len() != 1 {
		t.Errorf("a link to the file in a sticky directory: %v, %v; want the rule", set.Len(), err)
	}
	mkdir(open, 0o777)
	untrusted("a link to a file under a 0777 directory", link, "is under "+open)
	mkdir(open, 0o700)
	mkdir(filepath.Join(root, "home"), 0o757)
	untrusted("a link in a directory under a 0757 one", link, "is under "+filepath.Join(root, "home"), "mode 0757")
	mkdir(filepath.Join(root, "home"), 0o700)
	// A link to a link, the second in a directory others can write.
	hop := filepath.Join(mkdir(filepath.Join(root, "hop"), 0o700), "rules.conf")
	if err := os.Symlink(inOpen, hop); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(hop, link); err != nil {
		t.Fatal(err)
	}
	if set, err := load(link); err != nil || set.Len() != 1 {
		t.Errorf("a link to a link: %v, %v; want the rule", set.Len(), err)
	}
	mkdir(filepath.Join(root, "hop"), 0o770)
	untrusted("a link to a link in a 0770 directory", link, "is in a directory others can write (mode 0770)", "chmod 700 "+filepath.Join(root, "hop"))
	mkdir(filepath.Join(root, "hop"), 0o700)
	// A directory on the way spelled with "..", and a relative link.
	if set, err := load(filepath.Join(linkDir, "..", "asktui", ".", "rules.conf")); err != nil || set.Len() != 1 {
		t.Errorf("a path with .. and .: %v, %v; want the rule", set.Len(), err)
	}
	rel := filepath.Join(root, "home", "rel.conf")
	if err := os.Symlink(filepath.Join("..", "hop", "rules.conf"), rel); err != nil {
		t.Fatal(err)
	}
	mkdir(open, 0o777)
	untrusted("a relative link to a file under a 0777 directory", rel, "is under "+open)
	mkdir(open, 0o700)

	// Nothing is written where others could replace it, even when there
	// is no file yet; a missing file under such a directory holds no
	// rules, and says nothing.
	mkdir(open, 0o777)
	fresh := filepath.Join(open, "new", "rules.conf")
	if set, err := load(fresh); err != nil || set.Len() != 0 {
		t.Errorf("no file under a 0777 directory: %v, %v; want no rules, no error", set.Len(), err)
	}
	if _, _, err := Open(fresh, "", root).Add(mustRule(t, "allow /tmp Bash(make:*)")); interaction.CodeOf(err) != interaction.CodeUntrusted {
		t.Errorf("Add under a 0777 directory: %v; want UNTRUSTED", err)
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Error("Add wrote the file under a 0777 directory")
	}
	mkdir(open, 0o700)

	// Another user's directory, or link (root can make them).
	if os.Getuid() != 0 {
		t.Log("not root: skipping another user's directory and link")
		return
	}
	if err := os.Chown(open, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	untrusted("a directory of another user's", inOpen, "is under "+open+", a directory of another user's (uid 4242)")
	if err := os.Chown(open, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(link, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	untrusted("a link of another user's", link, "is reached through "+link+", a symbolic link of another user's (uid 4242)")
}
