package app

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/ui"
)

// The help is drawn from the focused pane's actions (focus.go), the same
// list that dispatches keys: the bar shows the actions marked for it, in
// order, as many as fit; the ? overlay lists every action of the pane it
// was opened from, one per line, with its description whole.

// helpBar is the one-line help bar at the bottom of the screen: the keys
// of the pane with the focus that fit. The bar is drawn on every frame
// and its keys rarely change between two, so the last one drawn is kept
// while the bindings, width and styles stay the same.
type helpBar struct {
	host  barHost
	model help.Model
	st    *styles.Styles
	width int
	cache struct {
		key  string
		view string
	}
}

// barHost is what the help bar asks of the program.
type barHost interface {
	// Focused is the pane with the keys, whose keys the bar shows.
	Focused() ui.Pane
}

func newHelpBar(host barHost) helpBar { return helpBar{host: host, model: help.New()} }

// setStyles restyles the bar.
func (h *helpBar) setStyles(st *styles.Styles) {
	h.model.Styles = st.Help
	h.st = st
	h.cache.key, h.cache.view = "", ""
}

// SetSize gives the bar its width; it is one row high, always (the keys
// that do not fit are left out, and the ? overlay lists them all), so
// the body's height never depends on which keys act.
func (h *helpBar) SetSize(width, _ int) {
	h.width = width
	h.model.SetWidth(width)
}

// View is the bar: the focused pane's bindings that fit, in their order,
// the best ranked first.
func (h *helpBar) View() string {
	bs, rank := ui.BarKeys(h.host.Focused())
	ck := cacheKey(bs, rank, h.width)
	if h.cache.key == ck {
		return h.cache.view
	}
	v := h.model.ShortHelpView(h.fit(bs, rank, h.width))
	h.cache.key, h.cache.view = ck, v
	return v
}

// cacheKey names what the bar depends on but the styles, whose change
// clears the cache: the width and each binding's help text.
func cacheKey(bs []key.Binding, rank []int, width int) string {
	var b strings.Builder
	b.Grow(256)
	b.WriteString(strconv.Itoa(width))
	b.WriteByte('|')
	for i, kb := range bs {
		hp := kb.Help()
		b.WriteString(hp.Key)
		b.WriteByte(0)
		b.WriteString(hp.Desc)
		b.WriteByte(byte('0' + rank[i])) //nolint:gosec // a rank of one digit
	}
	return b.String()
}

// fit keeps the bindings that fit on one row, in their order, taking them
// by rank, and in order within a rank (the panes list their keys most
// important first).
func (h *helpBar) fit(bs []key.Binding, rank []int, width int) []key.Binding {
	const sep = 3 // " • "
	on := make([]bool, len(bs))
	used := -sep
	take := func(i int) {
		w := cell.Width(h.model.ShortHelpView(bs[i : i+1]))
		if !on[i] && used+sep+w <= width {
			on[i] = true
			used += sep + w
		}
	}
	for r := range 4 {
		for i := range bs {
			if rank[i] == r {
				take(i)
			}
		}
	}
	out := make([]key.Binding, 0, len(bs))
	for i, b := range bs {
		if on[i] {
			out = append(out, b)
		}
	}
	return out
}

var _ ui.Pane = (*overlayPane)(nil)

// overlayPane is the ? overlay: every key of the pane it was opened
// over, one per line with its description whole, scrolled when they do
// not fit.
type overlayPane struct {
	ui.Box
	com    *ui.Common
	host   overlayHost
	scroll int // the first line shown
}

// overlayHost is what the ? overlay asks of the program.
type overlayHost interface {
	// Quit is ctrl+c, listed in the help.
	Quit() ui.Action
	// Under is the pane the overlay was opened over, whose keys it
	// lists.
	Under() ui.Pane
	// Close closes the overlay: the keys go back to the pane under it.
	Close()
}

func newOverlayPane(com *ui.Common, host overlayHost) overlayPane {
	return overlayPane{com: com, host: host}
}

// lines are the overlay's lines: a heading per section, then one line
// per key, its description wrapped under itself when the line is too
// narrow, never cut.
func (o *overlayPane) lines() []string {
	st := o.com.Styles
	acts := ui.Acting(o.host.Under())
	width := o.Width()
	keyW := 0
	for _, a := range acts {
		keyW = max(keyW, cell.Width(a.Key.Help().Key))
	}
	keyW = min(keyW, max(width/3, 6))
	descW := max(width-keyW-2, 8)
	var lines []string
	section := "\x00"
	for _, a := range acts {
		hp := a.Key.Help()
		if hp.Key == "" && hp.Desc == "" {
			continue
		}
		if a.Section != section {
			section = a.Section
			if len(lines) > 0 {
				lines = append(lines, "")
			}
			if section != "" {
				lines = append(lines, st.Review.Question.Render(section))
			}
		}
		k := hp.Key
		pad := keyW - cell.Width(k)
		if pad < 0 {
			// A key wider than the column takes a line of its own.
			lines = append(lines, st.Help.FullKey.Render(ansi.Truncate(k, width, "…")))
			k, pad = "", keyW
		}
		desc := strings.Split(ansi.Wrap(hp.Desc, descW, ""), "\n")
		for i, d := range desc {
			left := strings.Repeat(" ", keyW)
			if i == 0 {
				left = st.Help.FullKey.Render(k) + strings.Repeat(" ", pad)
			}
			lines = append(lines, left+"  "+st.Help.FullDesc.Render(d))
		}
	}
	return lines
}

// View is the overlay: a title, then the lines from scroll on, with a
// mark where more follow.
func (o *overlayPane) View() string {
	st := o.com.Styles
	lines := o.lines()
	rows := max(o.Height()-2, 1)
	scroll := min(max(o.scroll, 0), max(len(lines)-rows, 0))
	end := min(scroll+rows, len(lines))
	shown := append([]string(nil), lines[scroll:end]...)
	title := st.Review.Title.Render("Keys")
	switch {
	case scroll > 0 && end < len(lines):
		title += st.Question.ScrollHint.Render("  ↕ " + strconv.Itoa(scroll+1) + "–" + strconv.Itoa(end) + " of " + strconv.Itoa(len(lines)) + " · " + keys.Name(o.com.Keys.Overlay.Letters) + " scroll")
	case end < len(lines):
		title += st.Question.ScrollHint.Render("  ↓ more · " + keys.Name(o.com.Keys.Overlay.Letters) + " scroll")
	case scroll > 0:
		title += st.Question.ScrollHint.Render("  ↑ more above")
	}
	out := append([]string{ansi.Truncate(title, o.Width(), "…"), ""}, shown...)
	return strings.Join(out, "\n")
}

// scrollMax is how far the overlay scrolls.
func (o *overlayPane) scrollMax() int {
	return max(len(o.lines())-max(o.Height()-2, 1), 0)
}

// Actions are the overlay's keys: closing it, and scrolling when its
// lines do not fit.
func (o *overlayPane) Actions() []ui.Action {
	k := o.com.Keys.Overlay
	back := func(ui.KeyMsg) tea.Cmd { o.host.Close(); return nil }
	out := []ui.Action{ui.Move(k.Close, back).InBar().In("Help")}
	if o.scrollMax() > 0 {
		scroll := func(d int) func(ui.KeyMsg) tea.Cmd {
			return func(ui.KeyMsg) tea.Cmd { o.scroll = min(max(o.scroll+d, 0), o.scrollMax()); return nil }
		}
		page := max(o.Height()-3, 1)
		out = append(out,
			ui.Move(k.Down, scroll(+1)).InBar(k.Scroll).In("Help"),
			ui.Move(k.Up, scroll(-1)).In("Help"),
			ui.Move(k.PageDown, scroll(+page)).InBar().In("Help"),
			ui.Move(k.PageUp, scroll(-page)).In("Help"),
		)
	}
	return append(out, o.host.Quit())
}

func (*overlayPane) Typist() func(tea.Msg) tea.Cmd { return nil }

// ShortHelp implements help.KeyMap.
func (o *overlayPane) ShortHelp() []key.Binding { return ui.ShortHelp(o) }

// FullHelp implements help.KeyMap.
func (o *overlayPane) FullHelp() [][]key.Binding { return ui.FullHelp(o) }
