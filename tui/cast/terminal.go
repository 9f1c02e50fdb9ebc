package cast

import (
	"os"
)

// Terminal is a terminal whose output is also recorded. Hand it to
// bubbletea as its output (tea.WithOutput) in place of
// io.MultiWriter(tty, rec): bubbletea measures the window, follows resizes
// and detects the colour profile only when its output is a terminal file
// (it looks for an Fd), which a MultiWriter is not, so a program drawing
// through one comes out colourless and without a size.
//
// Writes go to the terminal first; what it took is then recorded. An error
// of the recording never fails a write to the terminal (the UI stays up):
// the Writer keeps it and returns it from Close.
type Terminal struct {
	tty *os.File
	rec *Writer
}

// NewTerminal returns tty with everything written to it also recorded by
// rec.
func NewTerminal(tty *os.File, rec *Writer) *Terminal {
	return &Terminal{tty: tty, rec: rec}
}

// Write writes p to the terminal and records the part it took.
func (t *Terminal) Write(p []byte) (int, error) {
	n, err := t.tty.Write(p)
	if n > 0 {
		_, _ = t.rec.Write(p[:n])
	}
	return n, err
}

// WriteString is Write for a string. It is defined so that io.WriteString
// cannot reach the terminal's own WriteString and skip the recording.
func (t *Terminal) WriteString(s string) (int, error) {
	return t.Write([]byte(s))
}

// Read reads from the terminal.
func (t *Terminal) Read(p []byte) (int, error) { return t.tty.Read(p) }

// Fd returns the terminal's file descriptor, by which bubbletea knows it is
// drawing on a terminal.
func (t *Terminal) Fd() uintptr { return t.tty.Fd() }

// Close closes the terminal, not the recording.
func (t *Terminal) Close() error { return t.tty.Close() }
