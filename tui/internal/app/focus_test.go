package app

import (
	"strings"
	"testing"

	"github.com/asktui/asktui/tui/internal/activity"
	"github.com/asktui/asktui/tui/internal/chat"
	"github.com/asktui/asktui/tui/internal/inboxlist"
	"github.com/asktui/asktui/tui/internal/past"
	"github.com/asktui/asktui/tui/internal/question"
	"github.com/asktui/asktui/tui/internal/ui"
)

// checkContract fails unless the pane with the keys is the one focused,
// the only one, and draws within the size the layout pass gave it; and
// unless drawing twice changes nothing (a View sizes nothing).
func checkContract(t *testing.T, m *Model, where string) {
	t.Helper()
	p := m.paneFor(m.focus)
	if !p.Focused() || m.focused != p {
		t.Fatalf("%s: the pane with the keys (%T) is not the focused one (%T)", where, p, m.focused)
	}
	for _, other := range []ui.Pane{&m.qpane, &m.inbox, &m.activity, &m.past, &m.overlay, &m.idle, &m.picker} {
		if other != p && other.Focused() {
			t.Fatalf("%s: %T is focused beside %T", where, other, p)
		}
	}
	var w, h int
	switch b := p.(type) {
	case *question.Pane:
		w, h = b.Width(), b.Height()
	case *inboxlist.Pane:
		w, h = b.Width(), b.Height()
	case *activity.Pane:
		w, h = b.Width(), b.Height()
	case *past.Pane:
		w, h = b.Width(), b.Height()
	case *overlayPane:
		w, h = b.Width(), b.Height()
	case *idlePane:
		w, h = b.Width(), b.Height()
	case *chat.Picker:
		w, h = b.Width(), b.Height()
	case *chat.Prompt:
		w, h = b.Width(), b.Height()
	case *chat.Transcript:
		w, h = b.Width(), b.Height()
	}
	v := p.View()
	if n := strings.Count(v, "\n") + 1; n > h {
		t.Errorf("%s: %T draws %d rows in %d", where, p, n, h)
	}
	if n := maxLineWidth(v); n > w {
		t.Errorf("%s: %T draws %d columns in %d", where, p, n, w)
	}
	before := screen(m)
	if again := screen(m); again != before {
		t.Errorf("%s: drawing twice drew two screens", where)
	}
	if len(p.ShortHelp()) == 0 || len(p.FullHelp()) == 0 {
		t.Errorf("%s: %T says no key acts", where, p)
	}
}

// Every pane of the session view keeps the contract as the human moves
// through them, at a wide and a narrow size.
func TestPanesKeepTheContract(t *testing.T) {
	for _, size := range [][2]int{{140, 40}, {80, 24}, {60, 20}} {
		run(t, func(t *testing.T) {
			m := testSession(t, size[0], size[1])
			checkContract(t, m, "idle")
			ask(t, m, setupRequest())
			askFrom(t, m, "codex", deployQuestion())
			glance(m)
			for _, keys := range [][]string{{}, {"/"}, {"esc"}, {"tab", "tab", "tab"}, {"tab"}, {"esc"}, {"n"}, {"tab", "up"}, {"n"}, {"esc"}, {"ctrl+g"}, {"esc", "ctrl+t"}, {"esc", "ctrl+o"}, {"esc", "?"}} {
				press(m, keys...)
				checkContract(t, m, strings.Join(keys, " "))
			}
		})
	}
}

// The conversation view's panes keep it too: the prompt editor, the
// transcript, the agent picker.
func TestConversationPanesKeepTheContract(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		events(m, f.info.ID, msgChunk("A reply with **bold** words."))
		checkContract(t, m, "prompt")
		for _, keys := range [][]string{{"ctrl+t"}, {"esc", "ctrl+l"}, {"esc"}} {
			press(m, keys...)
			checkContract(t, m, strings.Join(keys, " "))
		}
	})
}
