package tui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/styles"
)

// The help is drawn from the focused pane's actions (focus.go), the same
// list that dispatches keys: the bar shows the actions marked for it, in
// order, as many as fit; the ? overlay lists every action of the pane it
// was opened from, one per line, with its description whole.

// barKeys are the help bar's bindings for pane p, and the rank of each
// when the bar is too narrow for all: 0 the pane's main key, 1 the help
// key, 2 the others it keeps, 3 the rest.
func barKeys(p pane) (bs []key.Binding, rank []int) {
	for _, a := range acting(p) {
		switch {
		case !a.bar:
			continue
		case a.barKey != nil:
			bs = append(bs, *a.barKey)
		default:
			bs = append(bs, a.key)
		}
		r := 3
		switch {
		case len(rank) == 0:
			r = 0
		case a.isHelp:
			r = 1
		case a.keep:
			r = 2
		}
		rank = append(rank, r)
	}
	return bs, rank
}

// helpBar draws the help: the one-line bar at the bottom of the screen,
// and the ? overlay's list. The bar is drawn on every frame and its keys
// rarely change between two, so the last one drawn is kept while the
// bindings, width and styles stay the same.
type helpBar struct {
	model help.Model
	st    *styles.Styles
	cache struct {
		key  string
		view string
	}
}

func newHelpBar() helpBar { return helpBar{model: help.New()} }

// setStyles restyles the bar.
func (h *helpBar) setStyles(st *styles.Styles) {
	h.model.Styles = st.Help
	h.st = st
	h.cache.key, h.cache.view = "", ""
}

// View is the bar: the bindings that fit in width, in their order, the
// best ranked first.
func (h *helpBar) View(bs []key.Binding, rank []int, width int) string {
	ck := cacheKey(bs, rank, width)
	if h.cache.key == ck {
		return h.cache.view
	}
	h.model.SetWidth(width)
	v := h.model.ShortHelpView(h.fit(bs, rank, width))
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
		b.WriteByte(byte('0' + rank[i]))
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
		w := cellWidth(h.model.ShortHelpView(bs[i : i+1]))
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

// overlayLines are the ? overlay's lines for actions at width: a heading
// per section, then one line per key, its description wrapped under
// itself when the line is too narrow, never cut.
func (h *helpBar) overlayLines(acts []action, width int) []string {
	st := h.st
	keyW := 0
	for _, a := range acts {
		keyW = max(keyW, cellWidth(a.key.Help().Key))
	}
	keyW = min(keyW, max(width/3, 6))
	descW := max(width-keyW-2, 8)
	var lines []string
	section := "\x00"
	for _, a := range acts {
		hp := a.key.Help()
		if hp.Key == "" && hp.Desc == "" {
			continue
		}
		if a.section != section {
			section = a.section
			if len(lines) > 0 {
				lines = append(lines, "")
			}
			if section != "" {
				lines = append(lines, st.Review.Question.Render(section))
			}
		}
		k := hp.Key
		pad := keyW - cellWidth(k)
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

// overlayView is the ? overlay in width×height: a title, then the lines
// from scroll on, with a mark where more follow.
func (h *helpBar) overlayView(lines []string, scroll, width, height int) string {
	st := h.st
	rows := max(height-2, 1)
	scroll = min(max(scroll, 0), max(len(lines)-rows, 0))
	end := min(scroll+rows, len(lines))
	shown := append([]string(nil), lines[scroll:end]...)
	title := st.Review.Title.Render("Keys")
	switch {
	case scroll > 0 && end < len(lines):
		title += st.Question.ScrollHint.Render("  ↕ " + strconv.Itoa(scroll+1) + "–" + strconv.Itoa(end) + " of " + strconv.Itoa(len(lines)) + " · j/k scroll")
	case end < len(lines):
		title += st.Question.ScrollHint.Render("  ↓ more · j/k scroll")
	case scroll > 0:
		title += st.Question.ScrollHint.Render("  ↑ more above")
	}
	out := append([]string{ansi.Truncate(title, width, "…"), ""}, shown...)
	return strings.Join(out, "\n")
}

// helpLines are the overlay's lines for the pane it was opened from.
func (m *model) helpLines() []string {
	return m.help.overlayLines(acting(m.paneFor(m.back)), m.contentWidth())
}

// helpScrollMax is how far the overlay scrolls.
func (m *model) helpScrollMax() int {
	return max(len(m.helpLines())-max(m.bodyHeight()-2, 1), 0)
}

// helpView is the help bar of the focused pane.
func (m *model) helpView() string {
	bs, rank := barKeys(m.paneFor(m.focus))
	return m.help.View(bs, rank, m.contentWidth())
}
