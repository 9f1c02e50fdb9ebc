package compat

import (
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"

	"github.com/asktui/asktui/internal/ptytest"
)

// vterm is a pseudo-terminal with a terminal emulator reading it: the
// screen as drawn, for waits on text the programs redraw in pieces
// (streamed replies, Claude Code's and Gemini CLI's own screens). The
// emulator answers the programs' queries (cursor position, device
// attributes) on the terminal, as a real terminal does.
type vterm struct {
	*ptytest.Terminal
	t   *testing.T
	mu  sync.Mutex
	emu *vt.Emulator
}

func newVTerm(t *testing.T, cols, rows int) *vterm {
	t.Helper()
	v := &vterm{t: t, emu: vt.NewEmulator(cols, rows)}
	v.Terminal = ptytest.New(t, ptytest.Options{Cols: cols, Rows: rows, OnRead: func(chunk []byte) {
		v.mu.Lock()
		defer v.mu.Unlock()
		_, _ = v.emu.Write(chunk)
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
	v.WaitUntil(0, strings.Join(want, " and ")+" on the screen", func() bool {
		s := v.Screen()
		for _, w := range want {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
}

// typeInto types text where the screen then shows it after prefix (an
// editor's border, a CLI's prompt sign), typing it again until it does:
// asktui drops keys typed while its keys are held (a moment after the
// program moved them, as after a question is answered), as a human's
// would be.
func (v *vterm) typeInto(prefix, text string) {
	v.t.Helper()
	deadline := time.Now().Add(ptytest.Within)
	for {
		v.Type(text)
		shown := time.Now().Add(2 * time.Second)
		for time.Now().Before(shown) {
			if strings.Contains(v.Screen(), prefix+text) {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		if time.Now().After(deadline) {
			v.t.Fatalf("the screen never showed %q after typing it:\n%s", prefix+text, v.Screen())
		}
	}
}
