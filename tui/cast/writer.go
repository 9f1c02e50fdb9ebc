package cast

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/asktui/asktui/internal/jsonl"
)

// ErrClosed is returned by a Writer's methods after Close.
var ErrClosed = errors.New("cast: writer is closed")

// Option configures a Writer.
type Option func(*Writer)

// WithClock replaces time.Now, for tests.
func WithClock(now func() time.Time) Option {
	return func(w *Writer) { w.now = now }
}

// WithMaxIdle caps the gap between two events at d, like asciinema's
// idle_time_limit, but applied while recording: a demo that waited ten
// seconds for a keystroke plays back with a pause of d. Zero (the default)
// keeps every gap.
func WithMaxIdle(d time.Duration) Option {
	return func(w *Writer) { w.maxIdle = d }
}

// WithMapNewline records every "\n" as "\r\n", which is what a terminal
// whose output is not in raw mode (termios ONLCR, the default) shows. Use it
// when the program writes to such a terminal and relies on the mapping: a
// bubbletea program whose input is not a terminal (tea.WithInput(nil), or
// stdin not a tty) leaves the terminal cooked and moves to the next line
// with a bare "\n". Leave it off when the program puts the terminal in raw
// mode (bubbletea reading keys from a tty does): there a "\n" only moves
// down, and the bytes written are already exactly what the terminal shows.
func WithMapNewline() Option {
	return func(w *Writer) { w.mapNewline = true }
}

// Writer records what is written to it as "o" events of an asciicast v2
// recording. Each Write becomes one event line, written at once to the
// underlying writer (so a recording cut short by a crash is still readable
// up to that point). It is safe for concurrent use.
type Writer struct {
	mu      sync.Mutex
	out     io.Writer
	now     func() time.Time
	maxIdle time.Duration
	// mapNewline records "\n" as "\r\n"; see WithMapNewline.
	mapNewline bool

	last    time.Time // clock reading of the previous event
	elapsed int64     // recording time of the previous event, µs
	pending []byte    // an incomplete UTF-8 sequence ending the last Write
	line    []byte    // reused buffer for one event line
	err     error     // the first error writing to out
	closed  bool
}

// NewWriter writes h as the header line to out and returns a Writer that
// records events after it. A zero h.Version means 2; the size must be
// positive. The Writer does not close out.
func NewWriter(out io.Writer, h Header, opts ...Option) (*Writer, error) {
	if h.Version == 0 {
		h.Version = Version
	}
	if err := validateHeader(h); err != nil {
		return nil, fmt.Errorf("cast: %w", err)
	}
	w := &Writer{out: out, now: time.Now}
	for _, opt := range opts {
		opt(w)
	}
	line, err := jsonl.MarshalLine(h) // one line, HTML characters as they are
	if err != nil {
		return nil, fmt.Errorf("cast: header: %w", err)
	}
	if _, err := out.Write(line); err != nil {
		return nil, fmt.Errorf("cast: writing the header: %w", err)
	}
	w.last = w.now()
	return w, nil
}

// Write records p as one output event and returns len(p), so it can sit in
// an io.MultiWriter next to the terminal. A UTF-8 sequence cut at the end of
// p is held back until the next Write (or Close) completes it, so every
// event is valid text. After a failed write to the underlying writer, Write
// returns 0 and that error.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return 0, ErrClosed
	}
	if w.err != nil {
		return 0, w.err
	}
	data := append(w.pending, p...)
	cut := incompleteTail(data)
	w.pending = append([]byte(nil), data[cut:]...)
	if cut > 0 {
		text := string(data[:cut])
		if w.mapNewline {
			text = strings.ReplaceAll(text, "\n", "\r\n")
		}
		w.event(Output, text)
	}
	if w.err != nil {
		return 0, w.err
	}
	return len(p), nil
}

// Resize records that the terminal is now width x height cells, as an "r"
// event. An error writing it is returned by later calls and Close.
func (w *Writer) Resize(width, height int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || w.err != nil {
		return
	}
	w.event(Resize, strconv.Itoa(width)+"x"+strconv.Itoa(height))
}

// Mark records a marker event with label; players such as asciinema's use
// markers as chapters. An error writing it is returned by later calls and
// Close.
func (w *Writer) Mark(label string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || w.err != nil {
		return
	}
	w.event(Marker, label)
}

// Close writes out a UTF-8 sequence still held back (invalid by now, so
// each of its bytes is recorded as U+FFFD) and returns the first error met while recording.
// It does not close the underlying writer. Calling Close again returns the
// same error.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.err == nil && len(w.pending) > 0 {
		w.event(Output, string(w.pending))
	}
	w.pending = nil
	return w.err
}

// event writes one event line stamped with the current recording time.
// w.mu is held and w.err is nil.
func (w *Writer) event(typ, data string) {
	now := w.now()
	gap := now.Sub(w.last)
	if gap < 0 {
		gap = 0 // a clock that went backwards: keep times monotonic
	}
	if w.maxIdle > 0 && gap > w.maxIdle {
		gap = w.maxIdle
	}
	w.last = now
	w.elapsed += gap.Microseconds()

	line, err := appendEvent(w.line[:0], Event{Time: float64(w.elapsed) / 1e6, Type: typ, Data: data})
	if err != nil {
		w.err = err
		return
	}
	line = append(line, '\n')
	w.line = line
	if _, err := w.out.Write(line); err != nil {
		w.err = fmt.Errorf("cast: writing an event: %w", err)
	}
}

// incompleteTail returns the index where a UTF-8 sequence that p cuts short
// begins, or len(p) when p ends on a whole character (or on bytes that no
// continuation could make valid, which are left to become U+FFFD).
func incompleteTail(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				return i
			}
			break
		}
	}
	return len(p)
}
