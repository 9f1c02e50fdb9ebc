package rules

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/asktui/asktui/interaction"
)

// DefaultPath returns where the rules file lives in the environment getenv
// reads: $XDG_CONFIG_HOME/asktui/rules.conf, or
// $HOME/.config/asktui/rules.conf when XDG_CONFIG_HOME is unset or not
// absolute; "" when neither is known.
func DefaultPath(getenv func(string) string) string {
	if dir := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "asktui", "rules.conf")
	}
	if home := homeOf(getenv); home != "" {
		return filepath.Join(home, ".config", "asktui", "rules.conf")
	}
	return ""
}

// DefaultStatePath returns where the counts of the rules' answers live:
// $XDG_STATE_HOME/asktui/rules-hits.json, or
// $HOME/.local/state/asktui/rules-hits.json; "" when neither is known.
// They are kept apart from the rules so that the human's file is never
// rewritten because a rule answered.
func DefaultStatePath(getenv func(string) string) string {
	if dir := getenv("XDG_STATE_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "asktui", "rules-hits.json")
	}
	if home := homeOf(getenv); home != "" {
		return filepath.Join(home, ".local", "state", "asktui", "rules-hits.json")
	}
	return ""
}

// homeOf is the home directory in getenv's environment.
func homeOf(getenv func(string) string) string {
	home := getenv("HOME")
	if home == "" && runtime.GOOS == "windows" {
		home = getenv("USERPROFILE")
	}
	if !filepath.IsAbs(home) {
		return ""
	}
	return home
}

// Store is a rules file and the counts of its rules' answers. It reads
// the file when first asked and again whenever the file (or its
// directory) has changed since, which a stat of each tells at every
// decision, so an edit by hand, by `asktui rules` or by another asktui
// takes effect at the next request. It is safe for concurrent use.
type Store struct {
	path, statePath, home string
	now                   func() time.Time

	mu    sync.Mutex
	stamp stamp // of what set and err were read from
	read  bool  // set and err are current for stamp
	set   *Set
	err   error

	hitsMu sync.Mutex

	// waiting are the permission requests Wrap has put to the human, by
	// their permission, with the rules saved from each meanwhile
	// (Remembered).
	savedMu sync.Mutex
	waiting map[*interaction.Permission]*waitingCall
}

// stamp is what a stat tells of the file and its directory: when any of
// it changes the file is read again.
type stamp struct {
	exists  bool
	size    int64
	mod     time.Time
	mode    fs.FileMode
	ino     [2]uint64
	owner   int
	dirMode fs.FileMode
	dirOwn  int
}

// Open returns the Store of the rules file at path, with the counts of
// its answers at statePath ("": not kept); home is the directory "~"
// stands for in the file. Nothing is read until the rules are needed.
func Open(path, statePath, home string) *Store {
	return &Store{path: path, statePath: statePath, home: home, now: time.Now}
}

// Path returns the rules file's path.
func (s *Store) Path() string { return s.path }

// Home returns the directory "~" stands for.
func (s *Store) Home() string { return s.home }

// Load returns the rules, reading the file again if it changed since it
// was last read. A missing file holds no rules. A file others can write
// (or its directory), or that is not the user's, is refused with an
// UNTRUSTED error; a file with a line that is not a rule with an
// INVALID_RULE error naming the line; while either holds, no rule
// answers.
func (s *Store) Load() (*Set, error) {
	set, _, err := s.load(false)
	return set, err
}

// load is Load, also returning what the file was when read; afresh reads
// it whether or not it seems to have changed.
func (s *Store) load(afresh bool) (*Set, stamp, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.statFile()
	if err != nil {
		return nil, st, err
	}
	if !afresh && s.read && st.same(s.stamp) {
		return s.set, st, s.err
	}
	s.stamp, s.read = st, true
	s.set, s.err = s.readFile(st)
	return s.set, st, s.err
}

// same reports whether a and b describe the same file, unchanged.
func (a stamp) same(b stamp) bool {
	return a.exists == b.exists && a.size == b.size && a.mod.Equal(b.mod) && a.mode == b.mode &&
		a.ino == b.ino && a.owner == b.owner && a.dirMode == b.dirMode && a.dirOwn == b.dirOwn
}

// Decide returns the rules' decision on p (see [Set.Decide]), with the
// rules as they are now; an unusable rules file decides nothing and says
// why.
func (s *Store) Decide(p *interaction.Permission) (Decision, error) {
	set, err := s.Load()
	if err != nil {
		return Decision{}, err
	}
	return set.Decide(p), nil
}

// statFile stats the file and its directory.
func (s *Store) statFile() (stamp, error) {
	if s.path == "" {
		return stamp{}, nil
	}
	fi, err := os.Stat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return stamp{}, nil
	}
	if err != nil {
		return stamp{}, interaction.WrapError(interaction.CodeInternal, err, "cannot read the rules file: %v", err)
	}
	st := stamp{exists: true, size: fi.Size(), mod: fi.ModTime(), mode: fi.Mode(), ino: inode(fi), owner: -1, dirOwn: -1}
	if uid, ok := fileOwner(fi); ok {
		st.owner = uid
	}
	if dfi, err := os.Stat(filepath.Dir(s.realPath())); err == nil {
		st.dirMode = dfi.Mode()
		if uid, ok := fileOwner(dfi); ok {
			st.dirOwn = uid
		}
	}
	return st, nil
}

// realPath is the file's path with symbolic links followed: a rules file
// linked from a dotfiles repository is edited where it lives.
func (s *Store) realPath() string {
	if p, err := filepath.EvalSymlinks(s.path); err == nil {
		return p
	}
	return s.path
}

// readFile checks and reads the file that st describes.
func (s *Store) readFile(st stamp) (*Set, error) {
	if !st.exists {
		return &Set{}, nil
	}
	if err := s.trust(st); err != nil {
		return nil, err
	}
	f, err := os.Open(s.path)
	if err != nil {
		return nil, interaction.WrapError(interaction.CodeInternal, err, "cannot read the rules file: %v", err)
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, interaction.WrapError(interaction.CodeInternal, err, "cannot read the rules file %s: %v", s.path, err)
	}
	set, err := Parse(data, s.home)
	if err != nil {
		return nil, invalid("%s: %s", s.path, messageOf(err))
	}
	set.guard(filepath.Dir(s.path), filepath.Dir(s.realPath()))
	return set, nil
}

// trust refuses a rules file that is not a regular file of the user's,
// or that others can write, or whose directory others can write.
func (s *Store) trust(st stamp) error {
	refuse := func(format string, args ...any) error {
		return interaction.Errorf(interaction.CodeUntrusted, "no rule answers: the rules file %s %s", s.path, fmt.Sprintf(format, args...))
	}
	switch {
	case !st.mode.IsRegular():
		return refuse("is not a regular file")
	case !unixPermissions:
		return nil
	case st.owner >= 0 && st.owner != os.Getuid():
		return refuse("belongs to another user (uid %d)", st.owner)
	case st.mode.Perm()&0o022 != 0:
		return refuse("can be written by others (mode %#o); make it yours alone: chmod 600 %s", st.mode.Perm(), s.realPath())
	case st.dirOwn >= 0 && st.dirOwn != os.Getuid() && st.dirOwn != 0:
		return refuse("is in a directory of another user's (uid %d)", st.dirOwn)
	case st.dirMode.Perm()&0o022 != 0:
		dir := filepath.Dir(s.realPath())
		return refuse("is in a directory others can write (mode %#o), where they could replace it; chmod 700 %s", st.dirMode.Perm(), dir)
	}
	return nil
}

// maxTries bounds how often an edit is redone because the file changed
// while it was being made.
const maxTries = 3

// errChanged is why an edit is redone.
var errChanged = errors.New("the rules file changed while it was being edited")

// Add adds r at the end of the file (creating it, mode 0600, in a
// directory of mode 0700, with a header that explains the format) and
// returns it with its number, and true. A rule already in the file is
// not added twice: Add returns it with its number, and false. An
// unusable file is not edited.
func (s *Store) Add(r Rule) (Numbered, bool, error) {
	if _, err := ParseRule(r.String()); err != nil {
		return Numbered{}, false, err
	}
	added := false
	n, err := edit(s, func(set *Set) ([]byte, Numbered, error) {
		for i, old := range set.rules {
			if old.String() == r.String() {
				added = false
				return nil, Numbered{i + 1, old}, nil
			}
		}
		added = true
		return set.withRule(r), Numbered{set.Len() + 1, r}, nil
	})
	return n, added && err == nil, err
}

// Remove removes rule n (from 1, as [Set.Rules] numbers them) and
// returns it; every other line of the file is kept as it is.
func (s *Store) Remove(n int) (Rule, error) {
	got, err := edit(s, func(set *Set) ([]byte, Numbered, error) {
		if n < 1 || n > set.Len() {
			return nil, Numbered{}, invalid("there is no rule %d: the rules file holds %d (asktui rules list numbers them)", n, set.Len())
		}
		return set.without(n), Numbered{n, set.rules[n-1]}, nil
	})
	return got.Rule, err
}

// edit rewrites the file with what change makes of its rules (nil data:
// nothing to write), redoing it when the file changed meanwhile.
func edit(s *Store, change func(*Set) ([]byte, Numbered, error)) (Numbered, error) {
	if s.path == "" {
		return Numbered{}, interaction.Errorf(interaction.CodeInternal, "no path for the rules file: set XDG_CONFIG_HOME or HOME")
	}
	for try := 0; ; try++ {
		set, st, err := s.load(true)
		if err != nil {
			return Numbered{}, err
		}
		data, got, err := change(set)
		if err != nil || data == nil {
			return got, err
		}
		err = s.write(data, st)
		if errors.Is(err, errChanged) && try < maxTries {
			continue
		}
		if err != nil {
			return Numbered{}, err
		}
		return got, nil
	}
}

// Replace puts rule r in the place of rule n, which must still read as
// old (Rule.String), keeping its number and every other line; it fails,
// changing nothing, when rule n is no longer old (the file changed since
// it was listed) or r is already another rule of the file.
func (s *Store) Replace(n int, old string, r Rule) (Numbered, error) {
	if _, err := ParseRule(r.String()); err != nil {
		return Numbered{}, err
	}
	return edit(s, func(set *Set) ([]byte, Numbered, error) {
		if n < 1 || n > set.Len() || set.rules[n-1].String() != old {
			return nil, Numbered{}, invalid("rule %d is no longer %s: the rules file changed; list the rules again", n, old)
		}
		for i, other := range set.rules {
			if i != n-1 && other.String() == r.String() {
				return nil, Numbered{}, invalid("%s is already rule %d", r, i+1)
			}
		}
		return set.replacing(n, r), Numbered{n, r}, nil
	})
}

// write replaces the file with data, through a temporary file and a
// rename, unless the file no longer is what st describes.
func (s *Store) write(data []byte, st stamp) error {
	fail := func(err error) error {
		return interaction.WrapError(interaction.CodeInternal, err, "cannot write the rules file %s: %v", s.path, err)
	}
	target := s.realPath()
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail(err)
	}
	tmp, err := os.CreateTemp(dir, ".rules-*.tmp") // mode 0600
	if err != nil {
		return fail(err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // after the rename, nothing is there
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if now, err := s.statFile(); err != nil || !now.same(st) {
		return errChanged
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return fail(err)
	}
	if d, err := os.Open(dir); err == nil { //nolint:gosec // the rules file's own directory, to sync the rename
		_ = d.Sync() // the rename itself, on file systems that need it
		_ = d.Close()
	}
	s.read = false
	return nil
}

// Hits is how often a rule answered, and when it last did.
type Hits struct {
	Count int       `json:"count"`
	Last  time.Time `json:"last"`
}

// hitsFile is the state file's content.
type hitsFile struct {
	// Rules holds the counts by rule line (Rule.String): a rule that is
	// edited starts again from 0.
	Rules map[string]Hits `json:"rules"`
}

// Hit counts one answer of each rule of d. The counts are best effort:
// two processes counting at the same moment may lose one.
func (s *Store) Hit(d Decision) error {
	if s.statePath == "" || len(d.Rules) == 0 {
		return nil
	}
	s.hitsMu.Lock()
	defer s.hitsMu.Unlock()
	h, _ := s.readHits() // an unreadable state file starts again
	now := s.now()
	for _, n := range d.Rules {
		k := n.Rule.String()
		h.Rules[k] = Hits{Count: h.Rules[k].Count + 1, Last: now}
	}
	if set, err := s.Load(); err == nil {
		keep := map[string]bool{}
		for _, r := range set.rules {
			keep[r.String()] = true
		}
		for k := range h.Rules {
			if !keep[k] {
				delete(h.Rules, k)
			}
		}
	}
	data, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		return err
	}
	return writeState(s.statePath, append(data, '\n'))
}

// Hits returns how often each rule answered, by its line (Rule.String).
func (s *Store) Hits() (map[string]Hits, error) {
	s.hitsMu.Lock()
	defer s.hitsMu.Unlock()
	h, err := s.readHits()
	return h.Rules, err
}

// readHits reads the state file; a missing one holds no counts.
func (s *Store) readHits() (hitsFile, error) {
	h := hitsFile{Rules: map[string]Hits{}}
	if s.statePath == "" {
		return h, nil
	}
	data, err := os.ReadFile(s.statePath)
	if errors.Is(err, fs.ErrNotExist) {
		return h, nil
	}
	if err != nil {
		return h, err
	}
	if err := json.Unmarshal(data, &h); err != nil {
		return hitsFile{Rules: map[string]Hits{}}, fmt.Errorf("rules: the counts in %s: %w", s.statePath, err)
	}
	if h.Rules == nil {
		h.Rules = map[string]Hits{}
	}
	return h, nil
}

// writeState replaces the state file at path with data, mode 0600.
func writeState(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".rules-hits-*.tmp")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
