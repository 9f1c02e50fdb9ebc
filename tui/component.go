package tui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// component is the contract of every part of the screen, and of [Panel],
// after soft-serve's common.Component (pkg/ui/common/component.go)
// without tea.Model, which only the root model is:
//
//   - SetSize gives it its cells. The layout pass (relayout, layout.go) is
//     the only caller in the program: it runs once an Update has changed
//     the screen's size or what is shown, and decides every component's
//     size at once, so nothing is sized while it is drawn.
//   - View draws it in that size, never more.
//   - ShortHelp and FullHelp (help.KeyMap) are the keys that act now,
//     from the same actions that dispatch them (see pane).
//   - Focus gives it the keys, returning what starts its text cursor;
//     Blur takes them; Focused says whether it has them. In the program
//     one pane has them at a time: m.focus names it, and syncFocus calls
//     Focus and Blur as the focus moves, however it came to move.
type component interface {
	SetSize(width, height int)
	View() string
	Focus() tea.Cmd
	Blur()
	Focused() bool
	help.KeyMap
}

// pane is a component of the program that answers keys: every part of the
// screen that can have the focus. One type per pane owns its state, its
// view and its keys.
type pane interface {
	component
	// actions are the keys the pane answers to now, most important
	// first: dispatch (handleKey) tries them in order, and the help bar,
	// the ? overlay and docs/keys.md list them.
	actions() []action
	// typist takes a key or paste no action matched when a text input of
	// the pane has the keys (it types); nil when none has.
	typist() func(tea.Msg) tea.Cmd
}

var (
	_ component = (*Panel)(nil)
	_ pane      = (*questionPane)(nil)
	_ pane      = (*inboxPane)(nil)
	_ pane      = (*activityPane)(nil)
	_ pane      = (*pastPane)(nil)
	_ pane      = (*overlayPane)(nil)
	_ pane      = (*idlePane)(nil)
	_ pane      = (*agentsPane)(nil)
	_ pane      = (*rulesPane)(nil)
	_ pane      = (*promptEditor)(nil)
	_ pane      = (*transcriptPane)(nil)
	_ pane      = (*confirmDialog)(nil)
	_ pane      = (*noteEditor)(nil)
	_ pane      = (*rememberDialog)(nil)
)

// box is the part of the contract every pane keeps alike: its size and
// whether it has the keys. A pane embeds it, and draws in
// width×height.
type box struct {
	width, height int
	focused       bool
}

// SetSize keeps the size the layout gave.
func (b *box) SetSize(width, height int) {
	b.width, b.height = max(width, 0), max(height, 0)
}

// Focus gives the pane the keys.
func (b *box) Focus() tea.Cmd {
	b.focused = true
	return nil
}

// Blur takes the keys away.
func (b *box) Blur() { b.focused = false }

// Focused reports whether the pane has the keys.
func (b *box) Focused() bool { return b.focused }

// shortHelp is p's ShortHelp: the actions it shows in the help bar.
func shortHelp(p pane) []key.Binding {
	bs, _ := barKeys(p)
	return bs
}

// fullHelp is p's FullHelp: every action that acts now, grouped by the
// overlay's sections.
func fullHelp(p pane) [][]key.Binding {
	var groups [][]key.Binding
	section := "\x00"
	for _, a := range acting(p) {
		if a.section != section || len(groups) == 0 {
			section = a.section
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], a.key)
	}
	return groups
}

// syncFocus gives the keys to the pane m.focus names and takes them from
// the one that had them, whatever moved the focus (a key, an arrival, a
// request ending, a conversation switched): one pane has them at a time.
func (m *model) syncFocus() tea.Cmd {
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
