// Package termstate follows what a program's output does to a terminal's
// modes, and reads a terminal's line settings, so that asktui's tests can
// check it leaves the human's terminal as it found it: off the alternate
// screen, cursor shown, no mouse or paste or focus reporting, no keyboard
// enhancements, the same termios. Only tests import it.
package termstate

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"
)

// Tracker is an io.Writer that parses everything a program writes to a
// terminal and keeps the modes that output set. Feed it the whole output,
// in as many writes as it arrives in; it is safe for concurrent use.
type Tracker struct {
	mu     sync.Mutex
	parser *ansi.Parser
	text   strings.Builder

	// modes holds the last setting of every DEC private mode the output
	// touched (true: CSI ? n h, false: CSI ? n l); changed, the modes it
	// ever moved away from their default.
	modes   map[int]bool
	changed map[int]bool
	// kitty is the number of Kitty keyboard entries pushed (CSI > f u)
	// and not popped (CSI < n u); pushed says whether any ever was.
	kitty  int
	pushed bool
	// otherKeys is the last modifyOtherKeys level (CSI > 4 ; n m).
	otherKeys int
	// title is the last window title (OSC 0 or 2); titled says whether the
	// output ever set one.
	title  string
	titled bool
}

// NewTracker returns a Tracker for a terminal in its default state.
func NewTracker() *Tracker {
	t := &Tracker{parser: ansi.NewParser(), modes: map[int]bool{}, changed: map[int]bool{}}
	t.parser.SetHandler(ansi.Handler{
		Print:     func(r rune) { t.text.WriteRune(r) },
		HandleCsi: t.csi,
		HandleOsc: t.osc,
	})
	return t
}

// Write parses p; a sequence split across writes is put together.
func (t *Tracker) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, b := range p {
		t.parser.Advance(b)
	}
	return len(p), nil
}

// Text returns the printable text of the output so far, without escape
// sequences and control characters, for waiting on what was drawn.
func (t *Tracker) Text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.text.String()
}

func (t *Tracker) csi(cmd ansi.Cmd, params ansi.Params) {
	if cmd.Intermediate() != 0 {
		return // mode requests (CSI ? n $ p) and the like change nothing
	}
	switch prefix, final := cmd.Prefix(), cmd.Final(); {
	case prefix == '?' && (final == 'h' || final == 'l'):
		params.ForEach(-1, func(_, mode int, _ bool) {
			if mode < 0 {
				return
			}
			t.modes[mode] = final == 'h'
			if t.modes[mode] != modeDefaults[mode] {
				t.changed[mode] = true
			}
		})
	case prefix == '>' && final == 'u':
		t.kitty++
		t.pushed = true
	case prefix == '<' && final == 'u':
		n, _, _ := params.Param(0, 1)
		t.kitty = max(0, t.kitty-max(n, 1))
	case prefix == '>' && final == 'm':
		if resource, _, _ := params.Param(0, 0); resource == 4 {
			t.otherKeys, _, _ = params.Param(1, 0)
		}
	}
}

func (t *Tracker) osc(cmd int, data []byte) {
	if cmd != 0 && cmd != 2 {
		return
	}
	// data is "n;title".
	_, title, _ := strings.Cut(string(data), ";")
	t.title, t.titled = title, true
}

// modeNames name the private modes a full-screen program uses.
var modeNames = map[int]string{
	1:    "application cursor keys",
	7:    "auto-wrap",
	25:   "cursor visible",
	47:   "alternate screen (47)",
	1000: "mouse click reporting",
	1002: "mouse button-motion reporting",
	1003: "mouse all-motion reporting",
	1004: "focus reporting",
	1006: "SGR mouse encoding",
	1047: "alternate screen (1047)",
	1049: "alternate screen",
	2004: "bracketed paste",
	2026: "synchronized output",
	2027: "unicode core",
}

// modeDefaults are the private modes that a terminal starts with set; every
// other mode starts reset.
var modeDefaults = map[int]bool{7: true, 25: true}

// Changed reports whether the output ever moved the private mode away
// from its default (set the alternate screen, hid the cursor), so a test
// can tell that it checks something the program really turned on.
func (t *Tracker) Changed(mode int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.changed[mode]
}

// Pushed reports whether the output ever pushed Kitty keyboard flags.
func (t *Tracker) Pushed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.pushed
}

// Leftovers lists, in a stable order, everything the output changed and
// did not change back: private modes not at their default, Kitty keyboard
// entries not popped, modifyOtherKeys still on, a window title not
// cleared. None means the terminal is as the program found it.
func (t *Tracker) Leftovers() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var left []string
	modes := make([]int, 0, len(t.modes))
	for m := range t.modes {
		modes = append(modes, m)
	}
	slices.Sort(modes)
	for _, m := range modes {
		if on := t.modes[m]; on != modeDefaults[m] {
			state := "left reset"
			if on {
				state = "left set"
			}
			left = append(left, fmt.Sprintf("mode ?%d (%s) %s", m, orDefault(modeNames[m], "unnamed"), state))
		}
	}
	if t.kitty > 0 {
		left = append(left, fmt.Sprintf("%d Kitty keyboard entries pushed and not popped", t.kitty))
	}
	if t.otherKeys != 0 {
		left = append(left, fmt.Sprintf("modifyOtherKeys left at %d", t.otherKeys))
	}
	if t.titled && t.title != "" {
		left = append(left, fmt.Sprintf("window title left as %q", t.title))
	}
	return left
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Stty returns tty's line settings as `stty -g` prints them: the termios
// that raw mode changes and a program must restore.
func Stty(tty *os.File) (string, error) {
	cmd := exec.CommandContext(context.Background(), "stty", "-g")
	cmd.Stdin = tty
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("stty -g: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}
