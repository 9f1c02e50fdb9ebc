package history

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
)

// MaxLineBytes bounds one line of the log: [Read] skips longer lines, and
// [Log.Append] shortens a record whose line would be longer (see
// [Record.Truncated]). It leaves room for a request of
// [interaction.MaxRequestBytes] plus its answer.
const MaxLineBytes = interaction.MaxRequestBytes + 16<<20

// DefaultPath returns where the history lives in the environment that
// getenv reads (os.Getenv, or the caller's own lookup):
// $XDG_STATE_HOME/asktui/history.jsonl, or
// $HOME/.local/state/asktui/history.jsonl when XDG_STATE_HOME is unset or
// not an absolute path. It returns "" when neither is known.
func DefaultPath(getenv func(string) string) string {
	if dir := getenv("XDG_STATE_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "asktui", "history.jsonl")
	}
	home := getenv("HOME")
	if home == "" && runtime.GOOS == "windows" {
		home = getenv("USERPROFILE")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "state", "asktui", "history.jsonl")
}

// Log appends records to a history file. It is safe for concurrent use,
// and several processes may append to the same file: every record is a
// single write to a file opened for appending.
type Log struct {
	mu   sync.Mutex
	f    *os.File
	path string
	// torn is set when a write may have left a partial line, so the next
	// record starts on a fresh line.
	torn bool
	// maxLine is MaxLineBytes, smaller in tests.
	maxLine int
	// prefix and seq make the records' IDs: unique per process and log.
	prefix string
	seq    atomic.Uint64
}

// newID returns a new record ID: a random prefix chosen when the log was
// opened, so processes sharing a file do not collide, and a sequence
// number.
func (l *Log) newID() string {
	return l.prefix + "-" + strconv.FormatUint(l.seq.Add(1), 10)
}

// Open opens the history file at path for appending, creating it with mode
// 0600 (and its directory with mode 0700) when missing. The file holds the
// human's answers, so Open refuses anything but a regular file of the
// current user's (a symbolic link, a device such as /dev/null, a pipe,
// another user's file) with an error that says so, and tightens the mode
// of the file it opens to 0600. When the file ends in a partial line, left
// by a crash, Open ends that line so the next record is not glued onto it.
func Open(path string) (*Log, error) {
	if path == "" {
		return nil, errors.New("history: no path for the history file: set XDG_STATE_HOME or HOME")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	var raw [6]byte
	_, _ = rand.Read(raw[:]) // never fails (crypto/rand)
	l := &Log{path: path, maxLine: MaxLineBytes, prefix: hex.EncodeToString(raw[:])}
	f, err := l.open()
	if err != nil {
		return nil, err
	}
	l.f = f
	return l, nil
}

// open opens l's path and checks the file (see Open).
func (l *Log) open() (*os.File, error) {
	// Look before opening: opening a device or a pipe can have effects of
	// its own.
	if fi, err := os.Lstat(l.path); err == nil {
		if err := l.check(fi); err != nil {
			return nil, err
		}
	}
	f, err := os.OpenFile(l.path, os.O_RDWR|os.O_CREATE|os.O_APPEND|openFlags, 0o600)
	if err != nil {
		if isLoop(err) {
			return nil, l.refuse("it is a symbolic link")
		}
		return nil, fmt.Errorf("history: %w", err)
	}
	if err := l.prepare(f); err != nil {
		_ = f.Close() // the error to report is prepare's
		return nil, err
	}
	return f, nil
}

// ErrRefused is wrapped by the error of [Open] for a path that is not a
// regular file of the current user's.
var ErrRefused = errors.New("not a regular file of yours")

// refusal is the error for a path Log will not use; it is ErrRefused.
type refusal struct{ msg string }

func (r refusal) Error() string        { return r.msg }
func (r refusal) Is(target error) bool { return target == ErrRefused }

// refuse is the error for a history path that is not a file Log may use.
func (l *Log) refuse(why string) error {
	return refusal{fmt.Sprintf("history: refusing %s: %s; give --history a regular file of your own, or --history off", l.path, why)}
}

// check refuses what fi describes unless it is a regular file of the
// current user's.
func (l *Log) check(fi os.FileInfo) error {
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return l.refuse("it is a symbolic link")
	case !fi.Mode().IsRegular():
		return l.refuse(fmt.Sprintf("it is not a regular file (mode %v)", fi.Mode()))
	}
	if owner, ok := fileOwner(fi); ok && owner != os.Getuid() {
		return l.refuse(fmt.Sprintf("it belongs to another user (uid %d)", owner))
	}
	return nil
}

// prepare checks the file that was opened (it may not be the one Lstat
// saw), tightens its mode and notes whether it ends in a partial line.
func (l *Log) prepare(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("history: %s: %w", l.path, err)
	}
	if err := l.check(fi); err != nil {
		return err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			return fmt.Errorf("history: %s: %w", l.path, err)
		}
	}
	l.torn = false
	if fi.Size() == 0 {
		return nil
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], fi.Size()-1); err != nil {
		return fmt.Errorf("history: %s: %w", l.path, err)
	}
	l.torn = last[0] != '\n'
	return nil
}

// reopen opens the path again when the file l writes to is no longer
// there: log rotation renamed or deleted it. It is called with l.mu held.
func (l *Log) reopen() error {
	cur, err := l.f.Stat()
	if err != nil {
		return fmt.Errorf("history: %s: %w", l.path, err)
	}
	if now, err := os.Lstat(l.path); err == nil && os.SameFile(cur, now) {
		return nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("history: %w", err)
	}
	f, err := l.open()
	if err != nil {
		return err
	}
	_ = l.f.Close() // renamed or deleted: nothing more goes there
	l.f = f
	return nil
}

// Path returns the file the log writes to.
func (l *Log) Path() string { return l.path }

// Append writes r as one line and syncs the file to disk before returning,
// so a record Append reported written survives a crash. A record whose
// line would exceed [MaxLineBytes] is written with its request shortened.
// When the file was renamed or deleted since it was opened (log rotation),
// Append opens the path again, as [Open] does, and writes there.
func (l *Log) Append(r Record) error {
	line, err := jsonl.MarshalLine(r)
	if err != nil {
		return fmt.Errorf("history: encoding the record: %w", err)
	}
	if len(line) > l.maxLine {
		r.Request = shorten(r.Request)
		r.Truncated = true
		if line, err = jsonl.MarshalLine(r); err != nil {
			return fmt.Errorf("history: encoding the record: %w", err)
		}
	}

	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("history: %s: %w", l.path, os.ErrClosed)
	}
	if err := l.reopen(); err != nil {
		return err
	}
	if l.torn {
		// One write: the newline that ends the torn line goes with the
		// record.
		line = append([]byte{'\n'}, line...)
	}
	if _, err := l.f.Write(line); err != nil {
		l.torn = true
		return fmt.Errorf("history: %w", err)
	}
	l.torn = false
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	return nil
}

// Close closes the file. Appends after Close fail; closing twice is
// harmless.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	return nil
}

// shortLen bounds each question's text in a shortened request.
const shortLen = 1024

// shorten keeps each question's id, header and the start of its text, and
// drops the options, so a record that is too large to log still says what
// was asked.
func shorten(req interaction.Request) interaction.Request {
	out := interaction.Request{Agent: req.Agent, Questions: make([]interaction.Question, len(req.Questions))}
	for i, q := range req.Questions {
		out.Questions[i] = interaction.Question{
			ID:          cut(q.ID, shortLen),
			Header:      cut(q.Header, shortLen),
			Question:    cut(q.Question, shortLen),
			MultiSelect: q.MultiSelect,
		}
	}
	return out
}

// cut returns at most n bytes of s, not splitting a character.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
