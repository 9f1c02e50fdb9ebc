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
// the file when first asked and again whenever the file has changed
// since, which a stat of it (and of each directory on its way, to trust
// it) tells at every decision, so an edit by hand, by `asktui rules` or
// by another asktui takes effect at the next request. It is safe for
// concurrent use, and its edits are safe against other processes' that
// take the same lock file.
type Store struct {
	path, statePath, home string
	now                   func() time.Time

	mu    sync.Mutex
	stamp stamp // of what set and err were read from
	read  bool  // set and err are current for stamp
	set   *Set
	err   error

	// editMu lets one edit at a time through in this process; the lock
	// file does the same between processes (and between Stores).
	editMu sync.Mutex
	hitsMu sync.Mutex

	// waiting are the permission requests Wrap has put to the human, by
	// their permission, with the rules saved from each meanwhile
	// (Remembered).
	savedMu sync.Mutex
	waiting map[*interaction.Permission]*waitingCall
}

// stamp is what a stat tells of the file: when any of it changes the
// file is read again. Whether the directories on its way can be trusted
// is checked at every stat, not kept.
type stamp struct {
	exists  bool
	real    string // the file's path with symbolic links followed
	size    int64
	mod     time.Time
	changed time.Time // ctime: any write sets it, and nothing sets it back
	mode    fs.FileMode
	ino     [2]uint64
	owner   int
}

// walked is where a path leads.
type walked struct {
	// real is the path with every symbolic link followed; the names from
	// the first that does not exist on are as written.
	real string
	// fi is what is at real, or nil when nothing is.
	fi fs.FileInfo
}

// distrust is why a path cannot be trusted: what on its way others
// could replace, and how to stop them.
type distrust struct{ why string }

func (d *distrust) Error() string { return d.why }

func distrustf(format string, args ...any) error {
	return &distrust{why: fmt.Sprintf(format, args...)}
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
// was last read. A missing file holds no rules. A file others can write,
// or that is not the user's, or that others could replace (a directory
// on its way, or on the way of a symbolic link to it, that someone else
// may write or owns) is refused with an UNTRUSTED error; a file with a
// line that is not a rule with an INVALID_RULE error naming the line;
// while either holds, no rule answers.
func (s *Store) Load() (*Set, error) {
	set, _, err := s.load(false)
	return set, err
}

// load is Load, also returning what the file was when read; afresh reads
// it whether or not it seems to have changed.
func (s *Store) load(afresh bool) (*Set, stamp, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for try := 0; ; try++ {
		st, err := s.statFile()
		if err != nil {
			return nil, st, err
		}
		if !afresh && s.read && st.same(s.stamp) {
			return s.set, st, s.err
		}
		set, err := s.readFile(st)
		if errors.Is(err, errChanged) {
			if try < maxTries {
				continue
			}
			return nil, st, changing(s.path)
		}
		s.stamp, s.read, s.set, s.err = st, true, set, err
		return set, st, err
	}
}

// same reports whether a and b describe the same file, unchanged.
func (a stamp) same(b stamp) bool {
	return a.exists == b.exists && a.real == b.real && a.size == b.size && a.mod.Equal(b.mod) &&
		a.changed.Equal(b.changed) && a.mode == b.mode && a.ino == b.ino && a.owner == b.owner
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

// statFile walks to the file, checking that no one else could have put
// it there (walk, trust), and stats it. A symbolic link is followed: a
// rules file linked from a dotfiles repository is read and edited where
// it lives.
func (s *Store) statFile() (stamp, error) {
	return s.stat(false)
}

// stat is statFile; strict checks the way to the file even when there is
// no file there yet, as before one is written.
func (s *Store) stat(strict bool) (stamp, error) {
	if s.path == "" {
		return stamp{}, nil
	}
	w, err := walk(s.path, strict)
	if d := (*distrust)(nil); errors.As(err, &d) {
		return stamp{}, interaction.Errorf(interaction.CodeUntrusted, "no rule answers: the rules file %s %s", s.path, d.why)
	}
	if err != nil {
		return stamp{}, interaction.WrapError(interaction.CodeInternal, err, "cannot read the rules file %s: %v", s.path, err)
	}
	if w.fi == nil {
		return stamp{real: w.real}, nil
	}
	fi := w.fi
	st := stamp{exists: true, real: w.real, size: fi.Size(), mod: fi.ModTime(), changed: changed(fi), mode: fi.Mode(), ino: inode(fi), owner: -1}
	if uid, ok := fileOwner(fi); ok {
		st.owner = uid
	}
	return st, s.trust(st)
}

// changing is the error of an edit or a read that kept finding the file
// changed under it.
func changing(path string) error {
	return interaction.Errorf(interaction.CodeInternal,
		"the rules file %s kept changing while asktui read or edited it; try again", path)
}

// readFile reads the file that st describes.
func (s *Store) readFile(st stamp) (*Set, error) {
	if !st.exists {
		return &Set{}, nil
	}
	f, err := os.Open(st.real)
	if err != nil {
		return nil, interaction.WrapError(interaction.CodeInternal, err, "cannot read the rules file %s: %v", s.path, err)
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	// The file walked and trusted, not another one renamed there since.
	if fi, err := f.Stat(); err != nil || inode(fi) != st.ino || !fi.Mode().IsRegular() {
		return nil, errChanged
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, interaction.WrapError(interaction.CodeInternal, err, "cannot read the rules file %s: %v", s.path, err)
	}
	set, err := Parse(data, s.home)
	if err != nil {
		return nil, invalid("%s: %s", s.path, messageOf(err))
	}
	set.guard(filepath.Dir(s.path), filepath.Dir(st.real))
	return set, nil
}

// trust refuses a rules file that is not a regular file of the user's,
// or that others can write; walk has checked the way to it.
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
		return refuse("can be written by others (mode %#o); make it yours alone: chmod 600 %s", st.mode.Perm(), st.real)
	}
	return nil
}

// maxTries bounds how often a read or an edit is redone because the file
// changed while it was being made.
const maxTries = 3

// errChanged is why a read or an edit is redone.
var errChanged = errors.New("the rules file changed while it was being read or edited")

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

// Remove removes rule n (from 1, as [Set.Rules] numbers them), which
// must still read as old (Rule.String), and returns it; every other line
// of the file is kept as it is. Numbers shift when a rule before goes,
// so a rule is removed only as it was listed: when rule n is no longer
// old, Remove fails and changes nothing.
func (s *Store) Remove(n int, old string) (Rule, error) {
	got, err := edit(s, func(set *Set) ([]byte, Numbered, error) {
		if err := still(set, n, old); err != nil {
			return nil, Numbered{}, err
		}
		return set.without(n), Numbered{n, set.rules[n-1]}, nil
	})
	return got.Rule, err
}

// RemoveRule removes the rule that reads line (Rule.String), wherever it
// is now, and returns it with the number it had.
func (s *Store) RemoveRule(line string) (Numbered, error) {
	return edit(s, func(set *Set) ([]byte, Numbered, error) {
		for i, r := range set.rules {
			if r.String() == line {
				return set.without(i + 1), Numbered{i + 1, r}, nil
			}
		}
		return nil, Numbered{}, invalid("no rule reads %s (asktui rules list shows them as they are written)", line)
	})
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
		if err := still(set, n, old); err != nil {
			return nil, Numbered{}, err
		}
		for i, other := range set.rules {
			if i != n-1 && other.String() == r.String() {
				return nil, Numbered{}, invalid("%s is already rule %d", r, i+1)
			}
		}
		return set.replacing(n, r), Numbered{n, r}, nil
	})
}

// still checks that rule n of set reads old, as when it was listed.
func still(set *Set, n int, old string) error {
	switch {
	case n >= 1 && n <= set.Len() && set.rules[n-1].String() == old:
		return nil
	case n >= 1 && n <= set.Len():
		return invalid("rule %d changed since it was read: it was %s, it is now %s; list the rules again (asktui rules list) and try again", n, old, set.rules[n-1])
	case n >= 1 && old != "":
		return invalid("rule %d changed since it was read: it was %s, and the rules file now holds %d %s; list the rules again (asktui rules list) and try again",
			n, old, set.Len(), pluralRules(set.Len()))
	}
	return invalid("there is no rule %d: the rules file holds %d (asktui rules list numbers them)", n, set.Len())
}

func pluralRules(n int) string {
	if n == 1 {
		return "rule"
	}
	return "rules"
}

// edit rewrites the file with what change makes of its rules (nil data:
// nothing to write). It holds the lock of the file (lock) from reading it
// to the rename, so that edits made at the same moment, by this process
// or another asktui, follow one another, each on the file the last one
// left; it redoes the edit when the file changed meanwhile all the same
// (by hand, or by a program that does not take the lock).
func edit(s *Store, change func(*Set) ([]byte, Numbered, error)) (Numbered, error) {
	if s.path == "" {
		return Numbered{}, interaction.Errorf(interaction.CodeInternal, "no path for the rules file: set XDG_CONFIG_HOME or HOME")
	}
	unlock, err := s.lock()
	if err != nil {
		return Numbered{}, err
	}
	defer unlock()
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
		if errors.Is(err, errChanged) {
			if try < maxTries {
				continue
			}
			return Numbered{}, changing(s.path)
		}
		if err != nil {
			return Numbered{}, err
		}
		return got, nil
	}
}

// lockName is the lock file's name beside the file it locks.
func lockName(path string) string { return path + ".lock" }

// lock takes the lock of the rules file for an edit: this process's
// first, then the lock file beside the rules file (rules.conf.lock), which
// every asktui that edits the file takes, and returns what releases both.
// The way to the file is checked first (walk), even when there is no file
// yet: nothing is written where someone else could replace it.
func (s *Store) lock() (func(), error) {
	s.editMu.Lock()
	fail := func(err error) (func(), error) {
		s.editMu.Unlock()
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fail(interaction.WrapError(interaction.CodeInternal, err, "cannot write the rules file %s: %v", s.path, err))
	}
	if _, err := s.stat(true); err != nil {
		return fail(err)
	}
	unlock, err := lockFile(lockName(s.path))
	if err != nil {
		return fail(interaction.WrapError(interaction.CodeInternal, err, "cannot lock the rules file %s: %v", s.path, err))
	}
	return func() {
		unlock()
		s.editMu.Unlock()
	}, nil
}

// write replaces the file with data, through a temporary file and a
// rename, unless the file no longer is what st describes.
func (s *Store) write(data []byte, st stamp) error {
	fail := func(err error) error {
		return interaction.WrapError(interaction.CodeInternal, err, "cannot write the rules file %s: %v", s.path, err)
	}
	target := st.real
	if target == "" {
		target = s.path
	}
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

// Hit counts one answer of each rule of d. Processes that count at the
// same moment take turns, through a lock file beside the state file
// (rules-hits.json.lock).
func (s *Store) Hit(d Decision) error {
	if s.statePath == "" || len(d.Rules) == 0 {
		return nil
	}
	s.hitsMu.Lock()
	defer s.hitsMu.Unlock()
	if err := os.MkdirAll(filepath.Dir(s.statePath), 0o700); err != nil {
		return err
	}
	unlock, err := lockFile(lockName(s.statePath))
	if err != nil {
		return err
	}
	defer unlock()
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
