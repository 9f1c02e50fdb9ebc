package app

import (
	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/tui/internal/ui"
)

var (
	_ ui.Pane = (*overlayPane)(nil)
	_ ui.Pane = (*idlePane)(nil)
)

// syncFocus gives the keys to the pane m.focus names and takes them from
// the one that had them, whatever moved the focus (a key, an arrival, a
// request ending, a conversation switched): one pane has them at a time.
func (m *Model) syncFocus() tea.Cmd {
	p := m.paneFor(m.focus)
	if p == m.focused {
		return nil
	}
	if m.focused != nil {
		m.focused.Blur()
	}
	m.focused = p
	return p.Focus()
}
