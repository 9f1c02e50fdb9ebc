package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
)

// newStore is a Store of a rules file under w's home, not yet written.
func newStore(t *testing.T, w world) *Store {
	t.Helper()
	return Open(filepath.Join(w.home, ".config", "asktui", "rules.conf"),
		filepath.Join(w.home, ".local", "state", "asktui", "rules-hits.json"), w.home)
}

func mustRule(t *testing.T, line string) Rule {
	t.Helper()
	r, err := ParseRule(line)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestStoreAddRemove: rules are added at the end of a file created 0600
// in a 0700 directory with a header, each once; removing one keeps every
// other line, comments included.
func TestStoreAddRemove(t *testing.T) {
	w := newWorld(t)
	s := newStore(t, w)
	if set, err := s.Load(); err != nil || set.Len() != 0 {
		t.Fatalf("a missing file: %d rules, %v", set.Len(), err)
	}
	n, added, err := s.Add(mustRule(t, "allow ~/src/app Bash(go test:*)"))
	if err != nil || n.Number != 1 || !added {
		t.Fatalf("Add = %+v, %v", n, err)
	}
	if n, added, err = s.Add(mustRule(t, "deny ~/src/app Bash(rm:*)")); err != nil || n.Number != 2 || !added {
		t.Fatalf("Add = %+v, %v", n, err)
	}
	if n, added, err = s.Add(mustRule(t, "allow  ~/src/app   Bash(go test:*)")); err != nil || n.Number != 1 || added {
		t.Fatalf("adding a rule again = %+v, %v; want its number, 1", n, err)
	}
	fi, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	di, err := os.Stat(filepath.Dir(s.Path()))
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && (fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700) {
		t.Errorf("file mode %v, directory mode %v; want 0600 and 0700", fi.Mode().Perm(), di.Mode().Perm())
	}
	data, _ := os.ReadFile(s.Path())
	if !strings.HasPrefix(string(data), "# asktui rules") ||
		!strings.HasSuffix(string(data), "\nallow ~/src/app Bash(go test:*)\ndeny ~/src/app Bash(rm:*)\n") {
		t.Errorf("file:\n%s", data)
	}

	// A comment of the human's stays where it is.
	edited := strings.Replace(string(data), "deny ~/src/app", "# keep rm away\ndeny ~/src/app", 1)
	if err := os.WriteFile(s.Path(), []byte(edited), 0o600); err != nil { //nolint:gosec // the test's own temporary file
		t.Fatal(err)
	}
	r, err := s.Remove(1, "allow ~/src/app Bash(go test:*)")
	if err != nil || r.String() != "allow ~/src/app Bash(go test:*)" {
		t.Fatalf("Remove(1) = %v, %v", r, err)
	}
	data, _ = os.ReadFile(s.Path())
	if !strings.HasSuffix(string(data), "\n# keep rm away\ndeny ~/src/app Bash(rm:*)\n") || strings.Contains(string(data), "allow ~/src/app Bash(go test") {
		t.Errorf("after Remove(1):\n%s", data)
	}
	if _, err := s.Remove(2, "deny ~/src/app Bash(rm:*)"); interaction.CodeOf(err) != interaction.CodeInvalidRule {
		t.Errorf("Remove(2) of 1 rule = %v, want INVALID_RULE", err)
	}
	if _, err := s.Remove(0, ""); interaction.CodeOf(err) != interaction.CodeInvalidRule {
		t.Errorf("Remove(0) = %v, want INVALID_RULE", err)
	}
}

// TestStoreReloads: a running inbox sees a change of the file at its
// next decision, whoever made it, and an invalid file answers nothing
// until it is fixed.
func TestStoreReloads(t *testing.T) {
	w := newWorld(t)
	s := newStore(t, w)
	p := w.exec("go test ./...")
	decide := func() (Verdict, error) {
		d, err := s.Decide(p)
		return d.Verdict, err
	}
	if v, err := decide(); v != Ask || err != nil {
		t.Fatalf("no file: %v, %v", v, err)
	}
	if _, _, err := s.Add(mustRule(t, "allow ~/src/app Bash(go test:*)")); err != nil {
		t.Fatal(err)
	}
	if v, err := decide(); v != Allowed || err != nil {
		t.Fatalf("after Add: %v, %v", v, err)
	}
	// Edited by hand, to the same size and within the same second: the
	// inode, size and time together still tell.
	write := func(text string) {
		t.Helper()
		tmp := s.Path() + ".new"
		if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, s.Path()); err != nil {
			t.Fatal(err)
		}
	}
	write("deny  ~/src/app Bash(go test:*)\n")
	if v, err := decide(); v != Denied || err != nil {
		t.Fatalf("after editing to deny: %v, %v", v, err)
	}
	write("allow ~/src/app Bash(go test:*)\nthis is not a rule\n")
	v, err := decide()
	if v != Ask || interaction.CodeOf(err) != interaction.CodeInvalidRule || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("an invalid file: %v, %v; want no answer and INVALID_RULE naming line 2", v, err)
	}
	if _, _, err := s.Add(mustRule(t, "allow ~/src/app Bash(make:*)")); interaction.CodeOf(err) != interaction.CodeInvalidRule {
		t.Errorf("Add to an invalid file = %v, want INVALID_RULE", err)
	}
	// Edited in place (same inode), one byte longer.
	if err := os.WriteFile(s.Path(), []byte("allow ~/src/app Bash(go test:*)\n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if v, err := decide(); v != Allowed || err != nil {
		t.Fatalf("after fixing it: %v, %v", v, err)
	}
	if err := os.Remove(s.Path()); err != nil {
		t.Fatal(err)
	}
	if v, err := decide(); v != Ask || err != nil {
		t.Fatalf("after removing it: %v, %v", v, err)
	}
}

// TestStoreRefusesUntrustedFiles: a rules file others can write, or in a
// directory others can write, answers nothing (UNTRUSTED).
func TestStoreRefusesUntrustedFiles(t *testing.T) {
	if !unixPermissions {
		t.Skip("no Unix permissions")
	}
	w := newWorld(t)
	s := newStore(t, w)
	if _, _, err := s.Add(mustRule(t, "allow ~/src/app Bash(go test:*)")); err != nil {
		t.Fatal(err)
	}
	p := w.exec("go test ./...")
	for _, c := range []struct {
		path string
		mode os.FileMode
		want string
	}{
		{s.Path(), 0o620, "chmod 600"},
		{s.Path(), 0o602, "chmod 600"},
		{filepath.Dir(s.Path()), 0o770, "chmod 700"},
		{filepath.Dir(s.Path()), 0o707, "chmod 700"},
	} {
		good := os.FileMode(0o600)
		if c.path != s.Path() {
			good = 0o700
		}
		if err := os.Chmod(c.path, c.mode); err != nil {
			t.Fatal(err)
		}
		d, err := s.Decide(p)
		if d.Verdict != Ask || interaction.CodeOf(err) != interaction.CodeUntrusted || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s mode %v: %v, %v; want no answer and UNTRUSTED saying %q", c.path, c.mode, d.Verdict, err, c.want)
		}
		if _, _, err := s.Add(mustRule(t, "allow ~/src/app Bash(make:*)")); interaction.CodeOf(err) != interaction.CodeUntrusted {
			t.Errorf("Add with %s mode %v = %v, want UNTRUSTED", c.path, c.mode, err)
		}
		if err := os.Chmod(c.path, good); err != nil {
			t.Fatal(err)
		}
		if d, err := s.Decide(p); d.Verdict != Allowed || err != nil {
			t.Errorf("back to %v: %v, %v", good, d.Verdict, err)
		}
	}
}

// TestStoreFollowsALinkedFile: a rules file linked from elsewhere (a
// dotfiles repository) is read and edited where it lives; the link stays.
func TestStoreFollowsALinkedFile(t *testing.T) {
	w := newWorld(t)
	s := newStore(t, w)
	target := filepath.Join(w.home, "dotfiles", "rules.conf")
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte("allow ~/src/app Bash(go test:*)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(s.Path()), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, s.Path()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Add(mustRule(t, "allow ~/src/app Bash(make:*)")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(s.Path()); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", fi, err)
	}
	data, _ := os.ReadFile(target) //nolint:gosec // the test's own temporary file
	if string(data) != "allow ~/src/app Bash(go test:*)\nallow ~/src/app Bash(make:*)\n" {
		t.Errorf("the linked file:\n%s", data)
	}
}

// TestHits: each answer counts for the rules that gave it, in a state
// file apart from the rules; counts of rules no longer in the file go.
func TestHits(t *testing.T) {
	w := newWorld(t)
	s := newStore(t, w)
	s.now = func() time.Time { return time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC) }
	for _, l := range []string{"allow ~/src/app Bash(go test:*)", "allow ~/src/app Bash(go vet:*)"} {
		if _, _, err := s.Add(mustRule(t, l)); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := os.ReadFile(s.Path())
	for _, c := range []string{"go test ./...", "go test ./... && go vet ./...", "curl x"} {
		d, err := s.Decide(w.exec(c))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Hit(d); err != nil {
			t.Fatal(err)
		}
	}
	h, err := s.Hits()
	if err != nil {
		t.Fatal(err)
	}
	if h["allow ~/src/app Bash(go test:*)"].Count != 2 || h["allow ~/src/app Bash(go vet:*)"].Count != 1 || len(h) != 2 {
		t.Errorf("hits %+v", h)
	}
	if after, _ := os.ReadFile(s.Path()); string(after) != string(before) {
		t.Error("counting rewrote the rules file")
	}
	if _, err := s.Remove(2, "allow ~/src/app Bash(go vet:*)"); err != nil {
		t.Fatal(err)
	}
	d, _ := s.Decide(w.exec("go test"))
	if err := s.Hit(d); err != nil {
		t.Fatal(err)
	}
	if h, _ := s.Hits(); len(h) != 1 || h["allow ~/src/app Bash(go test:*)"].Count != 3 {
		t.Errorf("after removing rule 2: %+v", h)
	}
}

// TestParseErrors: a file with anything but rules, comments and blank
// lines is invalid, and the error names the line and the fix.
func TestParseErrors(t *testing.T) {
	cases := []struct{ line, want string }{
		{"permit ~/x Bash", "starts with allow or deny"},
		{"allow src/app Bash", "not absolute"},
		{"allow / Bash", "not in /"},
		{"allow ~/x", "the rule is empty"},
		{"allow ~/x Bash()", "parentheses are empty"},
		{"allow ~/x Bash(go test", `ends with ")"`},
		{"allow ~/x Bash(go:* test)", `may only end the rule`},
		{"allow ~/x Bash(go *:*)", `without other wildcards`},
		{"allow ~/x run_shell_command", "gemini-cli's execute tool"},
		{"allow ~/x apply_patch", "write Edit(…)"},
		{"allow ~/x WebSearch(cats)", "only Bash, Edit, Read and WebFetch"},
		{"allow ~/x WebFetch(go.dev)", "domain:HOST"},
		{"allow ~/x WebFetch(domain:go dev)", "not a host name"},
		{"allow ~/x Edit(../secrets/**)", `go up with ".."`},
		{"allow ~/x Edit(src/[a)", "not a valid glob"},
		{"allow ~/x mcp__", "mcp__SERVER"},
		{"allow ~/x mcp__s__a*", "mcp__SERVER"},
		{"allow ~/x Web*", "no wildcards"},
		{"allow ~/x Bash(go\u202etest)", "control character"},
		{`allow "~/x Bash`, "the directory"},
		{"allow ~/x session= Bash", "the session is empty"},
	}
	for _, c := range cases {
		_, err := Parse([]byte("# rules\n\n"+c.line+"\n"), "/home/me")
		if interaction.CodeOf(err) != interaction.CodeInvalidRule || !strings.Contains(err.Error(), "line 3: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v; want INVALID_RULE on line 3 saying %q", c.line, err, c.want)
		}
	}
}

// TestDescribe: a rule is said in words before it is saved.
func TestDescribe(t *testing.T) {
	cases := []struct{ line, want string }{
		{"allow ~/src/app Bash(go test:*)", "allow `go test` with any arguments, from any agent, in ~/src/app"},
		{"allow ~/src/app Bash(npm run *)", "allow `npm run` with any arguments, from any agent, in ~/src/app"},
		{"deny ~/src/app Bash(git push --force)", "deny exactly `git push --force`, from any agent, in ~/src/app"},
		{"allow ~/src/app Bash(git * main)", "allow shell commands matching `git * main`, from any agent, in ~/src/app"},
		{"allow ~/src/app session=codex:7 Bash", "allow any shell command, from session codex:7 only, in ~/src/app"},
		{"allow ~/src/app Edit(src/**)", "allow edits of `src/**`, from any agent, in ~/src/app"},
		{"allow ~/src/app Read", "allow reads of any file, from any agent, in ~/src/app"},
		{"allow ~/src/app WebFetch(domain:*.go.dev)", "allow fetching from any subdomain of go.dev, from any agent, in ~/src/app"},
		{"allow ~/src/app mcp__github", "allow every tool of the MCP server `github`, from any agent, in ~/src/app"},
		{"allow ~/src/app mcp__github__list_issues", "allow the MCP tool `list_issues` of server `github`, from any agent, in ~/src/app"},
		{`allow "/home/me/My Projects/x" WebSearch`, "allow the tool `WebSearch`, from any agent, in /home/me/My Projects/x"},
	}
	for _, c := range cases {
		r := mustRule(t, c.line)
		if got := r.Describe(); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.line, got, c.want)
		}
		if r.String() != strings.Join(strings.Fields(c.line), " ") && !strings.Contains(c.line, `"`) {
			t.Errorf("%q prints as %q", c.line, r.String())
		}
	}
}

// TestReplaceKeepsThePlace: an edited rule keeps its number and every
// other line of the file (comments included); a rule no longer as listed
// is not replaced.
func TestReplaceKeepsThePlace(t *testing.T) {
	home := t.TempDir()
	s := Open(filepath.Join(home, "rules.conf"), filepath.Join(home, "hits.json"), home)
	for _, line := range []string{"allow ~/a Bash(go test:*)", "deny ~/a Bash(git push:*)", "allow ~/a Edit(src/**)"} {
		r, err := ParseRule(line)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	before, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	r, _ := ParseRule("allow ~/a Bash(go vet:*)")
	got, err := s.Replace(1, "allow ~/a Bash(go test:*)", r)
	if err != nil || got.Number != 1 {
		t.Fatalf("Replace: %+v, %v", got, err)
	}
	after, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(string(before), "\nallow ~/a Bash(go test:*)\n", "\nallow ~/a Bash(go vet:*)\n", 1); string(after) != want {
		t.Fatalf("the file after Replace:\n%s\nwant:\n%s", after, want)
	}
	if _, err := s.Replace(1, "allow ~/a Bash(go test:*)", r); err == nil {
		t.Fatal("replaced a rule that is no longer as listed")
	}
}

// TestStoreEditsTakeTurns: edits made at the same moment through
// different Stores of one file (as by different asktui processes) each
// land on the file the last one left: every rule added is there, and of
// ten removals of rule 1 as it was read, one removes it and the others
// fail, saying the rule changed, instead of removing the rules after it.
func TestStoreEditsTakeTurns(t *testing.T) {
	w := newWorld(t)
	path := newStore(t, w).Path()
	const n = 20
	for i := range 10 {
		if _, _, err := newStore(t, w).Add(mustRule(t, "deny ~/src/app Bash(old"+strconv.Itoa(i)+":*)")); err != nil {
			t.Fatal(err)
		}
	}
	start := make(chan struct{})
	type result struct {
		added   string
		removed string
		err     error
	}
	results := make(chan result, 2*n)
	var wg sync.WaitGroup
	for i := range n {
		r := mustRule(t, "allow ~/src/app Bash(new"+strconv.Itoa(i)+":*)")
		wg.Go(func() {
			s := newStore(t, w)
			<-start
			_, added, err := s.Add(r)
			if !added && err == nil {
				err = fmt.Errorf("%s not added", r)
			}
			results <- result{added: r.String(), err: err}
		})
		if i < 10 {
			wg.Go(func() {
				s := newStore(t, w)
				<-start
				r, err := s.Remove(1, "deny ~/src/app Bash(old0:*)")
				results <- result{removed: r.String(), err: err}
			})
		}
	}
	close(start)
	wg.Wait()
	close(results)
	set, err := Open(path, "", w.home).Load()
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]bool{}
	for _, r := range set.Rules() {
		in[r.String()] = true
	}
	removed := 0
	for r := range results {
		switch {
		case r.added != "" && r.err != nil:
			t.Errorf("Add %s: %v", r.added, r.err)
		case r.added != "" && !in[r.added]:
			t.Errorf("Add %s succeeded, but the rule is not in the file", r.added)
		case r.added != "":
		case r.err == nil:
			removed++
			if r.removed != "deny ~/src/app Bash(old0:*)" {
				t.Errorf("Remove(1) removed %s", r.removed)
			}
		case interaction.CodeOf(r.err) != interaction.CodeInvalidRule || !strings.Contains(r.err.Error(), "rule 1 changed since it was read"):
			t.Errorf("Remove(1) failed with %v, want INVALID_RULE saying rule 1 changed", r.err)
		}
	}
	if removed != 1 || set.Len() != 10-1+n || in["deny ~/src/app Bash(old0:*)"] {
		t.Errorf("%d removals succeeded, %d rules left; want 1 and %d", removed, set.Len(), 10-1+n)
	}
}

// TestStoreRemoveChecksTheRule: a rule is removed only as it was read;
// one that changed meanwhile is left, with the file, as it is.
func TestStoreRemoveChecksTheRule(t *testing.T) {
	w := newWorld(t)
	s := newStore(t, w)
	for _, l := range []string{"allow ~/src/app Bash(go test:*)", "deny ~/src/app Bash(rm:*)"} {
		if _, _, err := s.Add(mustRule(t, l)); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := os.ReadFile(s.Path())
	for _, c := range []struct {
		n         int
		old, want string
	}{
		{1, "deny ~/src/app Bash(rm:*)", "rule 1 changed since it was read: it was deny ~/src/app Bash(rm:*), it is now allow ~/src/app Bash(go test:*)"},
		{3, "deny ~/src/app Bash(rm:*)", "rule 3 changed since it was read: it was deny ~/src/app Bash(rm:*), and the rules file now holds 2 rules"},
	} {
		if _, err := s.Remove(c.n, c.old); interaction.CodeOf(err) != interaction.CodeInvalidRule || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Remove(%d, %q) = %v; want INVALID_RULE saying %q", c.n, c.old, err, c.want)
		}
	}
	if after, _ := os.ReadFile(s.Path()); string(after) != string(before) {
		t.Errorf("a refused removal changed the file:\n%s", after)
	}
}

// TestStoreSeesAChangeOfCtime: a rewrite in place to the same size that
// sets the modification time back (touch -d) is noticed by its ctime.
func TestStoreSeesAChangeOfCtime(t *testing.T) {
	if !unixPermissions {
		t.Skip("no ctime")
	}
	w := newWorld(t)
	s := newStore(t, w)
	if _, _, err := s.Add(mustRule(t, "allow ~/src/app Bash(go test:*)")); err != nil {
		t.Fatal(err)
	}
	p := w.exec("go test ./...")
	if d, err := s.Decide(p); d.Verdict != Allowed || err != nil {
		t.Fatalf("before: %v, %v", d.Verdict, err)
	}
	before, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(s.Path())
	edited := strings.Replace(string(data), "allow ~/src/app Bash(go test:*)", "deny  ~/src/app Bash(go test:*)", 1)
	if len(edited) != len(data) {
		t.Fatal("the edit changes the size")
	}
	f, err := os.OpenFile(s.Path(), os.O_WRONLY, 0) // in place: the same inode
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(edited), 0); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	// The clock that stamps ctime may tick coarsely: set the time back
	// until the ctime is another than before.
	for {
		if err := os.Chtimes(s.Path(), before.ModTime(), before.ModTime()); err != nil {
			t.Fatal(err)
		}
		after, err := os.Stat(s.Path())
		if err != nil {
			t.Fatal(err)
		}
		if after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) || inode(after) != inode(before) {
			t.Fatalf("the rewrite changed more than the ctime: %v %v", after.Size(), after.ModTime())
		}
		if !changed(after).Equal(changed(before)) {
			break
		}
	}
	if d, err := s.Decide(p); d.Verdict != Denied || err != nil {
		t.Errorf("after the rewrite: %v, %v; want the rewritten rule's deny", d.Verdict, err)
	}
}

// TestHitsCountEveryAnswer: answers counted at the same moment by
// different Stores (as by different asktui processes) are all counted.
func TestHitsCountEveryAnswer(t *testing.T) {
	w := newWorld(t)
	if _, _, err := newStore(t, w).Add(mustRule(t, "allow ~/src/app Bash(go test:*)")); err != nil {
		t.Fatal(err)
	}
	d, err := newStore(t, w).Decide(w.exec("go test ./..."))
	if err != nil || d.Verdict != Allowed {
		t.Fatal(d.Verdict, err)
	}
	const n = 20
	start := make(chan struct{})
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			s := newStore(t, w)
			<-start
			errs <- s.Hit(d)
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if h, err := newStore(t, w).Hits(); err != nil || h["allow ~/src/app Bash(go test:*)"].Count != n {
		t.Errorf("hits %+v, %v; want %d", h, err, n)
	}
}

// TestStoreGuardsItsOwnDirectory: with rules that allow every edit in
// the home directory, which holds the rules file, neither an edit nor a
// redirection writes in the rules file's directory: an agent that could
// would write its own rules.
func TestStoreGuardsItsOwnDirectory(t *testing.T) {
	w := newWorld(t)
	s := newStore(t, w)
	for _, l := range []string{"allow ~ Edit", "allow ~ Bash(go test:*)"} {
		if _, _, err := s.Add(mustRule(t, l)); err != nil {
			t.Fatal(err)
		}
	}
	conf := filepath.Join(w.home, ".config", "asktui")
	check := func(what string, p *interaction.Permission, want Verdict) {
		t.Helper()
		d, err := s.Decide(p)
		if err != nil || d.Verdict != want {
			t.Errorf("%s: %v (%v), want %v", what, d.Verdict, err, want)
		}
	}
	edit := func(path string) *interaction.Permission {
		return &interaction.Permission{Client: interaction.ClientClaude, Tool: "Write", Kind: interaction.KindEdit,
			Paths: []string{path}, Cwd: w.home, Question: "permission", Allow: "Allow once"}
	}
	check("an edit in the project", edit(filepath.Join(w.proj, "a.go")), Allowed)
	check("an edit of the rules file", edit(filepath.Join(conf, "rules.conf")), Ask)
	check("a new file beside it", edit(filepath.Join(conf, "more.conf")), Ask)
	sh := w.exec("go test > ~/.config/asktui/rules.conf")
	sh.Command = "go test > " + filepath.Join(conf, "rules.conf")
	sh.Cwd = w.home
	check("a redirection into the rules file", sh, Ask)
	sh.Command = "go test > " + filepath.Join(w.home, "log")
	check("a redirection beside the rules' directory", sh, Allowed)
}
