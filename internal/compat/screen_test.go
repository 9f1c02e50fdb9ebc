package compat

import (
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"

	"github.com/asktui/asktui/internal/compat/mockmodel"
	"github.com/asktui/asktui/internal/ptytest"
)

// vterm is a pseudo-terminal with a terminal emulator reading it: the
// screen as drawn, for waits on text the programs redraw in pieces
// (streamed replies, Claude Code's and Gemini CLI's own screens). The
// emulator answers the programs' queries (cursor position, device
// attributes) on the terminal, as a real terminal does.
type vterm struct {
	*ptytest.Terminal
	t       *testing.T
	mu      sync.Mutex
	emu     *vt.Emulator
	changed chan struct{} // a send after each read, dropped when full
}

// newVTerm is a 120x40 terminal whose screen the tests read.
func newVTerm(t *testing.T) *vterm {
	t.Helper()
	const cols, rows = 120, 40
	v := &vterm{t: t, emu: vt.NewEmulator(cols, rows), changed: make(chan struct{}, 1)}
	v.Terminal = ptytest.New(t, ptytest.Options{Cols: cols, Rows: rows, OnRead: func(chunk []byte) {
		v.mu.Lock()
		_, _ = v.emu.Write(chunk)
		v.mu.Unlock()
		select {
		case v.changed <- struct{}{}:
		default:
		}
	}})
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		_, _ = io.Copy(v.Master, v.emu)
	}()
	// Runs before the Terminal's own cleanup, which closes the master.
	t.Cleanup(func() {
		if c, ok := v.emu.InputPipe().(io.Closer); ok {
			_ = c.Close()
		}
		<-answered
	})
	return v
}

// Screen returns the screen's text as drawn now, no-break spaces as
// spaces and trailing blanks cut.
func (v *vterm) Screen() string {
	v.mu.Lock()
	s := v.emu.String()
	v.mu.Unlock()
	// Claude Code draws a no-break space after its prompt sign.
	lines := strings.Split(strings.ReplaceAll(s, "\u00a0", " "), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// WaitScreen waits until the screen shows every one of want.
func (v *vterm) WaitScreen(want ...string) {
	v.t.Helper()
	v.WaitUntil(strings.Join(want, " and ")+" on the screen", func() bool {
		s := v.Screen()
		for _, w := range want {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
}

// WaitUntil waits until ok reports true, checked after every read from
// the terminal and every second; what names the wait in a failure. It
// gives up after mockmodel.Within: the real CLIs are slow to start on a
// loaded machine.
func (v *vterm) WaitUntil(what string, ok func() bool) {
	v.t.Helper()
	deadline := time.After(mockmodel.Within)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for !ok() {
		select {
		case <-v.changed:
		case <-tick.C:
		case <-deadline:
			v.t.Fatalf("the terminal never showed %s; the screen:\n%s", what, v.Screen())
		}
	}
}

// WaitSeen waits until the question shown after mark takes keys, as
// ptytest.Terminal.WaitSeen does: asktui's "keys held" cue has given way
// to the question's hint.
func (v *vterm) WaitSeen(mark int) {
	v.t.Helper()
	v.WaitUntil("the keys held to be released", func() bool {
		text := v.Text(mark)
		rest := text[max(strings.LastIndex(text, "held"), 0):]
		return strings.Contains(rest, "Pick") || strings.Contains(rest, "confirm,")
	})
}

// typeInto types text where the screen then shows it: on the last line
// holding prefix (an editor's border, a CLI's prompt sign; the lines above
// may hold earlier prompts), typing it again until it does: asktui drops
// keys typed while its keys are held (a moment after the program moved
// them, as after a question is answered), as a human's would be.
func (v *vterm) typeInto(prefix, text string) {
	v.t.Helper()
	deadline := time.Now().Add(mockmodel.Within)
	for {
		v.Type(text)
		shown := time.Now().Add(2 * time.Second)
		for time.Now().Before(shown) {
			if v.lastLine(prefix) == prefix+text {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		if time.Now().After(deadline) {
			v.t.Fatalf("the screen never showed %q after typing it:\n%s", prefix+text, v.Screen())
		}
	}
}

// lastLine returns the screen's last line holding prefix, from prefix
// on, trailing blanks and box borders cut.
func (v *vterm) lastLine(prefix string) string {
	lines := strings.Split(v.Screen(), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if j := strings.Index(lines[i], prefix); j >= 0 {
			return strings.TrimRight(lines[i][j:], " │")
		}
	}
	return ""
}
