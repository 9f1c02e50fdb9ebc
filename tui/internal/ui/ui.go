// Package ui is the contract every part of asktui's screen keeps, the
// rooms of tui/internal alike: a Component draws in the size it was
// given and says which keys act; a Pane is a component that answers
// keys, through the Actions it lists. The program (tui/internal/app's
// Model) is the one tea.Model; every pane is its child, and no pane holds it:
// a pane reads the look, the key table and the clock from the Common it
// shares, and asks the program for the rest through a small host
// interface of its own, declared beside it (after soft-serve's
// common.Component and crush's dialogs, which report to their parent
// rather than reach into it).
package ui

import (
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
)

// Component is the contract of every part of the screen, and of tui's
// Panel, after soft-serve's common.Component (pkg/ui/common/component.go)
// without tea.Model, which only the root model is:
//
//   - SetSize gives it its cells. The layout pass (the program's relayout) is
//     the only caller in the program: it runs once an Update has changed
//     the screen's size or what is shown, and decides every component's
//     size at once, so nothing is sized while it is drawn.
//   - View draws it in that size, never more.
//   - ShortHelp and FullHelp (help.KeyMap) are the keys that act now,
//     from the same actions that dispatch them (see Pane).
//   - Focus gives it the keys, returning what starts its text cursor;
//     Blur takes them; Focused says whether it has them. In the program
//     one pane has them at a time: the program's focus names it, and it
//     calls Focus and Blur as the focus moves, however it came to move.
type Component interface {
	SetSize(width, height int)
	View() string
	Focus() tea.Cmd
	Blur()
	Focused() bool
	help.KeyMap
}

// Pane is a component that answers keys: every part of the screen that
// can have the focus, and every dialog inside one. One type per pane
// owns its state, its view and its keys.
type Pane interface {
	Component
	// Actions are the keys the pane answers to now, most important
	// first: the program's dispatch tries them in order, and the help
	// bar, the ? overlay and docs/keys.md list them.
	Actions() []Action
	// Typist takes a key or paste no action matched when a text input of
	// the pane has the keys (it types); nil when none has.
	Typist() func(tea.Msg) tea.Cmd
}

// Common is what every pane shares with the program, and reads but
// never writes (after soft-serve's common.Common): the look, which the
// program replaces when it learns the terminal's background, the one key
// table, and the clock of ages and countdowns.
type Common struct {
	// Styles is the look, for the terminal's background.
	Styles *styles.Styles
	// Markdown renders agent text in Styles, once per width.
	Markdown *cell.Markdown
	// Keys is the one key table.
	Keys keys.Map
	// Now is the clock of ages and countdowns.
	Now func() time.Time
}

// Globals are the program's own keys, which every pane offers after its
// actions: switching panes and requests, the help, quitting. The program
// hands each pane the ones offered from it.
type Globals interface {
	// Globals are the keys of the program as a whole, offered from the
	// pane; typing says a text input of the pane has the keys.
	Globals(typing bool) []Action
	// Help opens the ? overlay; while typing, only F1 does.
	Help(typing bool) Action
	// Quit is ctrl+c, which the program takes before any pane: it is
	// listed in the help only.
	Quit() Action
}

// Box is the part of the contract every pane keeps alike: its size and
// whether it has the keys. A pane embeds it, and draws in Width×Height.
type Box struct {
	width, height int
	focused       bool
}

// SetSize keeps the size the layout gave.
func (b *Box) SetSize(width, height int) {
	b.width, b.height = max(width, 0), max(height, 0)
}

// Width is the width the layout gave.
func (b *Box) Width() int { return b.width }

// Height is the height the layout gave.
func (b *Box) Height() int { return b.height }

// Focus gives the pane the keys.
func (b *Box) Focus() tea.Cmd {
	b.focused = true
	return nil
}

// Blur takes the keys away.
func (b *Box) Blur() { b.focused = false }

// Focused reports whether the pane has the keys.
func (b *Box) Focused() bool { return b.focused }

// ShortHelp is p's ShortHelp: the actions it shows in the help bar.
func ShortHelp(p Pane) []key.Binding {
	bs, _ := BarKeys(p)
	return bs
}

// FullHelp is p's FullHelp: every action that acts now, grouped by the
// overlay's sections.
func FullHelp(p Pane) [][]key.Binding {
	var groups [][]key.Binding
	section := "\x00"
	for _, a := range Acting(p) {
		if a.Section != section || len(groups) == 0 {
			section = a.Section
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], a.Key)
	}
	return groups
}
