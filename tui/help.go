package tui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/styles"
)

// helpKeys are the bindings of one mode, for the help bar (short) and the
// ? overlay (full). keep indexes the short bindings that stay when the bar
// is too narrow for all of them.
type helpKeys struct {
	short []key.Binding
	full  [][]key.Binding
	keep  []int
}

func (h helpKeys) ShortHelp() []key.Binding  { return h.short }
func (h helpKeys) FullHelp() [][]key.Binding { return h.full }

// helpBar draws the help: the one-line bar at the bottom of the screen,
// and the full list the ? overlay shows. Layout asks for the bar several
// times per frame (its height sizes the body), so the last one drawn is
// kept while the bindings, width and styles stay the same.
type helpBar struct {
	model help.Model
	cache struct {
		key  string
		view string
	}
}

func newHelpBar() helpBar { return helpBar{model: help.New()} }

// setStyles restyles the bar.
func (h *helpBar) setStyles(st *styles.Styles) {
	h.model.Styles = st.Help
	h.cache.key, h.cache.view = "", ""
}

// View is the bar: the short bindings that fit in width, the ones in keep
// first, in their order.
func (h *helpBar) View(k helpKeys, width int) string {
	ck := cacheKey(k, width)
	if h.cache.key == ck && ck != "" {
		return h.cache.view
	}
	h.model.SetWidth(width)
	v := h.model.ShortHelpView(h.fit(k, width))
	h.cache.key, h.cache.view = ck, v
	return v
}

// cacheKey names what the bar depends on but the styles, whose change
// clears the cache: the width and each binding's help text and state.
func cacheKey(k helpKeys, width int) string {
	var b strings.Builder
	b.Grow(256)
	b.WriteString(strconv.Itoa(width))
	for _, i := range k.keep {
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(i))
	}
	b.WriteByte('|')
	for _, kb := range k.short {
		hp := kb.Help()
		b.WriteString(hp.Key)
		b.WriteByte(0)
		b.WriteString(hp.Desc)
		if kb.Enabled() {
			b.WriteByte(1)
		}
		b.WriteByte(2)
	}
	return b.String()
}

// fit drops the short help's least important bindings until the rest fits
// on one row, keeping their order; the bindings in keep go first.
func (h *helpBar) fit(k helpKeys, width int) []key.Binding {
	const sep = 3 // " • "
	on := make([]bool, len(k.short))
	used := 0
	take := func(i int) {
		w := cellWidth(h.model.ShortHelpView(k.short[i : i+1]))
		if !on[i] && used+w+sep <= width+sep {
			on[i] = true
			used += w + sep
		}
	}
	for _, i := range k.keep {
		take(i)
	}
	for i := range k.short {
		take(i)
	}
	out := make([]key.Binding, 0, len(k.short))
	for i, b := range k.short {
		if on[i] {
			out = append(out, b)
		}
	}
	return out
}

// Full shows every binding of groups: side by side when they fit in
// width, else refolded into as many columns as fit, so no key is cut off
// on a narrow screen.
func (h *helpBar) Full(groups [][]key.Binding, width int) string {
	m := h.model
	m.SetWidth(0) // measure without truncation
	if v := m.FullHelpView(groups); cellWidth(firstLine(v)) <= width && maxLineWidth(v) <= width {
		return v
	}
	var flat []key.Binding
	for _, g := range groups {
		flat = append(flat, g...)
	}
	for cols := len(groups) - 1; cols >= 1; cols-- {
		per := (len(flat) + cols - 1) / cols
		var folded [][]key.Binding
		for i := 0; i < len(flat); i += per {
			folded = append(folded, flat[i:min(i+per, len(flat))])
		}
		if v := m.FullHelpView(folded); maxLineWidth(v) <= width {
			return v
		}
	}
	lines := strings.Split(m.FullHelpView([][]key.Binding{flat}), "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, width, "…")
	}
	return strings.Join(lines, "\n")
}

func maxLineWidth(s string) int {
	w := 0
	for l := range strings.SplitSeq(s, "\n") {
		w = max(w, cellWidth(l))
	}
	return w
}

// overlayView is the ? overlay: every key of the mode it was opened from,
// in the groups they belong to when those fit, else in as few columns as
// fit the rows there are.
func (h *helpBar) overlayView(groups [][]key.Binding, width, height int, st *styles.Styles) string {
	title := st.Review.Title.Render("Keys")
	rows := max(height-2, 1)
	m := h.model
	m.SetWidth(0) // measure without truncation
	fits := func(v string) bool { return maxLineWidth(v) <= width && lineCount(v) <= rows }
	body := m.FullHelpView(groups)
	if !fits(body) {
		var flat []key.Binding
		for _, g := range groups {
			flat = append(flat, g...)
		}
		for cols := 1; cols <= len(flat); cols++ {
			per := (len(flat) + cols - 1) / cols
			var folded [][]key.Binding
			for i := 0; i < len(flat); i += per {
				folded = append(folded, flat[i:min(i+per, len(flat))])
			}
			body = m.FullHelpView(folded)
			if fits(body) || maxLineWidth(body) > width {
				break
			}
		}
	}
	lines := append([]string{title, ""}, strings.Split(body, "\n")...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, width, "…")
	}
	if len(lines) > height {
		lines = append(lines[:max(height-1, 1)], st.Question.ScrollHint.Render("… more keys than fit: make the window larger"))
	}
	return strings.Join(lines, "\n")
}
