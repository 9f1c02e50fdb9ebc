package cast

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// Replay plays the output events of a recording through a terminal emulator
// of the header's size, following resize events, and returns the screen it
// ends on as [PlainText]: no styles, trailing spaces and trailing blank lines
// trimmed.
//
// A full-screen program leaves the alternate screen when it quits, so what
// Replay returns for it is the normal screen it returned to; use
// [ReplayAltScreen] for the program's last frame.
func Replay(h Header, events []Event) (string, error) {
	final, _, err := replay(h, events)
	return final, err
}

// ReplayAltScreen is like [Replay] but returns the alternate screen as it
// was when the recording last left it (or at the end, if it never left):
// the last frame a full-screen program drew before quitting. It returns ""
// if the recording never used the alternate screen.
func ReplayAltScreen(h Header, events []Event) (string, error) {
	_, alt, err := replay(h, events)
	return alt, err
}

// PlainText puts a screen or a view into the form Replay returns: escape
// sequences removed, trailing spaces of each line trimmed, trailing blank
// lines dropped, no final newline. Compare a model's View content with a
// replay through it.
func PlainText(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \r")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// altScreenExit matches a DEC private mode reset that may leave the
// alternate screen (modes 47, 1047, 1049). A false match only costs an
// extra look at the screen: the bytes still reach the emulator unchanged.
var altScreenExit = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\x1b\[\?[0-9;]*l`) })

// leavesAltScreen reports whether the mode reset seq names an alternate
// screen mode.
func leavesAltScreen(seq []byte) bool {
	params := seq[3 : len(seq)-1]
	for _, p := range bytes.Split(params, []byte(";")) {
		switch string(p) {
		case "47", "1047", "1049":
			return true
		}
	}
	return false
}

// replay runs the recording through a vt emulator and returns the final
// screen and the last alternate screen.
func replay(h Header, events []Event) (final, alt string, err error) {
	if err := validateHeader(h); err != nil {
		return "", "", fmt.Errorf("cast: %w", err)
	}
	emu := vt.NewEmulator(h.Width, h.Height)

	// The emulator answers queries in the output (cursor position, device
	// attributes, colours) by writing to an unbuffered pipe, which would
	// block without a reader. Drain it, and end the drain by closing the
	// pipe's writer: Emulator.Close would race with the blocked Read.
	var drained sync.WaitGroup
	drained.Add(1)
	go func() {
		defer drained.Done()
		_, _ = io.Copy(io.Discard, emu)
	}()
	defer func() {
		if c, ok := emu.InputPipe().(io.Closer); ok {
			_ = c.Close()
		}
		drained.Wait()
		_ = emu.Close()
	}()

	sawAlt := false
	snapshot := func() {
		if emu.IsAltScreen() {
			alt, sawAlt = emu.String(), true
		}
	}
	// Consecutive output events are joined so that a sequence split across
	// two events is still found.
	var out []byte
	flush := func() {
		rest := out
		for _, m := range altScreenExit().FindAllIndex(out, -1) {
			if !leavesAltScreen(out[m[0]:m[1]]) {
				continue
			}
			before := len(out) - len(rest)
			_, _ = emu.Write(rest[:m[0]-before])
			rest = rest[m[0]-before:]
			snapshot()
		}
		_, _ = emu.Write(rest)
		out = out[:0]
	}
	for i, ev := range events {
		switch ev.Type {
		case Output:
			out = append(out, ev.Data...)
		case Resize:
			flush()
			w, hh, err := parseSize(ev.Data)
			if err != nil {
				return "", "", fmt.Errorf("cast: event %d: %w", i+1, err)
			}
			emu.Resize(w, hh)
		}
	}
	flush()
	snapshot()
	if !sawAlt {
		alt = ""
	}
	return PlainText(emu.String()), PlainText(alt), nil
}
