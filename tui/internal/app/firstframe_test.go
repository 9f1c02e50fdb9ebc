package app

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
)

// The first frame is drawn as soon as the terminal's size is known, even
// within a frame of an earlier View: nothing is laid out before it (a
// screen for no width is thrown away), and a new size is never shown the
// screen laid out for the old one.
func TestSizeIsDrawnAtOnce(t *testing.T) {
	run(t, func(t *testing.T) {
		m := newModel(styles.ThemeDark, true, func() time.Time { return fixedNow })
		m.clock = func() time.Time { return fixedNow }
		m.answers = newFakeInbox()
		wall := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
		m.wall = func() time.Time { return wall }

		// As a program starts: the question may come before the size.
		m.Update(askMsg{req: askReq(1, interaction.Request{Questions: []interaction.Question{{ID: "q", Question: "Deploy now?", Options: opts("Yes", "No")}}})})
		if v := m.View(); v.Content != "" || !v.AltScreen {
			t.Fatalf("drawn before the size was known: %q (alt screen %v)", ansi.Strip(v.Content), v.AltScreen)
		}
		wall = wall.Add(frameInterval / 4)
		m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
		v := ansi.Strip(m.View().Content)
		if !strings.Contains(v, "Deploy now?") || strings.Count(v, "\n") != 29 {
			t.Fatalf("the first frame waited, or is not 100x30:\n%s", v)
		}

		// A resize within the same frame is drawn at the new size at once.
		wall = wall.Add(frameInterval / 4)
		m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
		v = ansi.Strip(m.View().Content)
		if n := strings.Count(v, "\n"); n != 19 || maxLineWidth(v) > 60 {
			t.Fatalf("the resize waited for the frame's end: %d lines, %d wide:\n%s", n+1, maxLineWidth(v), v)
		}
	})
}
