package history

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
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
}

// Open opens the history file at path for appending, creating it with mode
// 0600 (and its directory with mode 0700) when missing, and tightening an
// existing file's mode to 0600 since it holds the human's answers. When the
// file ends in a partial line, left by a crash, Open ends that line so the
// next record is not glued onto it.
func Open(path string) (*Log, error) {
	if path == "" {
		return nil, errors.New("history: no path for the history file: set XDG_STATE_HOME or HOME")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	l := &Log{f: f, path: path, maxLine: MaxLineBytes}
	if err := l.prepare(); err != nil {
		_ = f.Close() // the error to report is prepare's
		return nil, fmt.Errorf("history: %s: %w", path, err)
	}
	return l, nil
}

// prepare tightens the file's mode and notes whether it ends in a partial
// line.
func (l *Log) prepare() error {
	fi, err := l.f.Stat()
	if err != nil {
		return err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := l.f.Chmod(0o600); err != nil {
			return err
		}
	}
	if fi.Size() == 0 {
		return nil
	}
	var last [1]byte
	if _, err := l.f.ReadAt(last[:], fi.Size()-1); err != nil {
		return err
	}
	l.torn = last[0] != '\n'
	return nil
}

// Path returns the file the log writes to.
func (l *Log) Path() string { return l.path }

// Append writes r as one line and syncs the file to disk before returning,
// so a record Append reported written survives a crash. A record whose
// line would exceed [MaxLineBytes] is written with its request shortened.
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
