package field

import (
	"slices"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/internal/markdown"
	"github.com/asktui/asktui/styles"
)

// Texts the field shows.
const (
	otherLabel      = "Other — type your own answer"
	otherPrefix     = "Other: "
	replacesHint    = "typing here sets the options checked above aside"
	replacesOne     = "typing here sets the option chosen above aside"
	asideHint       = "replaces the options checked above; erase it and they count again"
	asideOne        = "replaces the option chosen above; erase it and it counts again"
	noMatches       = "no matches"
	recommendedText = "★ Recommended"
	recommended     = "(recommended)"
	ellipsis        = "…"
	minLabelLines   = 3 // a label or description shows at least this many lines
	minDescLines    = 3
	descIndent      = 2
	maxLayouts      = 4096
)

// painter renders text in a style. lipgloss's Render weighs every style
// property on each call; for a plain style (colours, bold, italic) the
// result is always the same prefix and suffix around the text, so painter
// finds them once and concatenates. Styles that treat text more cleverly
// (underlined spaces, padding, widths) fail the check and keep Render.
type painter struct {
	style    lipgloss.Style
	pre, suf string
	fast     bool
}

func newPainter(s lipgloss.Style) painter {
	p := painter{style: s}
	x := s.Render("x")
	i := strings.IndexByte(x, 'x')
	if i < 0 {
		return p
	}
	p.pre, p.suf = x[:i], x[i+1:]
	for _, probe := range []string{"ab c", "界 é", " lead", "trail "} {
		if s.Render(probe) != p.pre+probe+p.suf {
			return p
		}
	}
	p.fast = true
	return p
}

// Render styles t, a single line without tabs.
func (p *painter) Render(t string) string {
	if t == "" {
		return ""
	}
	if p.fast {
		return p.pre + t + p.suf
	}
	return p.style.Render(t)
}

// paints are the painters of the option list's text styles.
type paints struct {
	label, focused, chosen, desc painter
}

func newPaints(st *styles.Styles) paints {
	o := st.Option
	return paints{
		label:   newPainter(o.Label),
		focused: newPainter(o.Focused),
		chosen:  newPainter(o.Chosen),
		desc:    newPainter(o.Description),
	}
}

// descLines draws a description as the Markdown agents write, in w
// columns and at most maxLines lines, ending with "…" when text was
// dropped; only a prefix of a long description is drawn.
func (c *Choice) descLines(s string, w, maxLines int) []string {
	w = max(w, 1)
	cut := false
	if limit := 2*w*maxLines + 8; len(s) > limit {
		t := ansi.Truncate(s, limit, "")
		cut = len(t) < len(s)
		s = t
	}
	lines := markdown.RenderIn(s, w, c.st, c.p.desc.style)
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		cut = true
	}
	if cut && len(lines) > 0 {
		last := lines[len(lines)-1]
		if ansi.StringWidth(last)+1 > w {
			last = ansi.Truncate(last, w-1, "")
		}
		lines[len(lines)-1] = last + c.p.desc.Render(ellipsis)
	}
	return lines
}

// glyphs are the pieces every row starts with, rendered once per field.
type glyphs struct {
	cursor, noCursor string // focus column, with its trailing space
	nums             [9]string
	noNum            string
	on, off          string // chosen / not chosen marker, same width, trailing space
	aside            string // a chosen marker set aside by Other text, dimmed
	prefixW          int    // columns before a label
	indent           string // prefixW spaces
	badge            string
	badgeW           int
}

func newGlyphs(st *styles.Styles, multi bool) glyphs {
	o := st.Option
	var g glyphs
	cur := o.Cursor.String()
	cw := lipgloss.Width(cur)
	g.cursor = cur + " "
	g.noCursor = strings.Repeat(" ", cw+1)
	for i := range g.nums {
		g.nums[i] = o.Number.Render(strconv.Itoa(i+1)+".") + " "
	}
	g.noNum = "   "
	var on, off string
	if multi {
		on, off = o.Checked.String(), o.Unchecked.String()
	} else {
		on, off = o.Chosen.UnsetString().Render("●"), o.Unchecked.UnsetString().Render("○")
	}
	mw := max(lipgloss.Width(on), lipgloss.Width(off))
	g.on = on + strings.Repeat(" ", mw-lipgloss.Width(on)+1)
	g.off = off + strings.Repeat(" ", mw-lipgloss.Width(off)+1)
	plainOn := ansi.Strip(on)
	g.aside = o.Description.Render(plainOn) + strings.Repeat(" ", mw-lipgloss.Width(plainOn)+1)
	g.prefixW = cw + 1 + len(g.noNum) + mw + 1
	g.indent = strings.Repeat(" ", g.prefixW)
	g.badge = o.Recommended.Render(recommendedText)
	g.badgeW = lipgloss.Width(g.badge)
	return g
}

// Where a row's Recommended badge goes.
const (
	badgeNone = iota
	badgeInline
	badgeOwnLine
)

// rowLayout is an option's text wrapped to the current width (plain text);
// it fixes the row's height without styling anything.
type rowLayout struct {
	label []string
	badge int
	desc  []string
}

func (l *rowLayout) height() int {
	h := len(l.label) + len(l.desc)
	if l.badge == badgeOwnLine {
		h++
	}
	return h
}

// splitRecommended strips a trailing "(Recommended)" (any case, trailing
// spaces ignored) from a label.
func splitRecommended(s string) (string, bool) {
	t := strings.TrimRight(s, " ")
	if len(t) < len(recommended) || !strings.EqualFold(t[len(t)-len(recommended):], recommended) {
		return s, false
	}
	return strings.TrimRight(t[:len(t)-len(recommended)], " "), true
}

// wrapCap wraps s to w columns and keeps at most maxLines lines, ending with
// "…" when text was dropped. Only a prefix of a long s is wrapped.
func wrapCap(s string, w, maxLines int) []string {
	w = max(w, 1)
	cut := false
	// A wrapped line holds at least about w/2 columns, and a byte is at
	// most one column, so this prefix always fills maxLines lines.
	if limit := 2*w*maxLines + 8; len(s) > limit {
		t := ansi.Truncate(s, limit, "")
		cut = len(t) < len(s)
		s = t
	}
	lines := strings.Split(ansi.Wrap(s, w, ""), "\n")
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		cut = true
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	if cut {
		last := lines[len(lines)-1]
		if ansi.StringWidth(last)+1 > w {
			last = ansi.Truncate(last, w-1, "")
		}
		lines[len(lines)-1] = last + ellipsis
	}
	return lines
}

// untab turns tabs into spaces: a tab's width depends on the terminal.
func untab(s string) string {
	if strings.IndexByte(s, '\t') < 0 {
		return s
	}
	return strings.ReplaceAll(s, "\t", "    ")
}

func (c *Choice) labelWidth() int { return max(c.viewWidth()-c.g.prefixW, 1) }

// rowKey identifies a rendered option row: the option, and the state its
// look depends on.
type rowKey struct {
	opt             int32
	slot            int8 // the number shown (0–8), or -1
	cur, chk, aside bool
}

// checkCaches empties the layout and row caches when the width changed or
// they grew large.
func (c *Choice) checkCaches() {
	w, lines := c.viewWidth(), c.lineCap()
	if c.layouts == nil || c.layoutW != w || c.layoutCap != lines || len(c.layouts) >= maxLayouts {
		c.layouts = make(map[int32]*rowLayout, 64)
		c.layoutW, c.layoutCap = w, lines
		c.rows = make(map[rowKey][]string, 64)
	}
	if len(c.rows) >= maxLayouts {
		c.rows = make(map[rowKey][]string, 64)
	}
}

// lineCap is the most lines one option's label (and, apart, its
// description) wraps to before it is cut with "…": at least three, and up
// to half the field's height, so a long label shows whole where there is
// room and one option never fills the list.
func (c *Choice) lineCap() int { return max(minLabelLines, c.viewHeight()/2) }

// layout returns option opt's layout at the current width, cached.
func (c *Choice) layout(opt int) *rowLayout {
	c.checkCaches()
	if l, ok := c.layouts[int32(opt)]; ok { //nolint:gosec // an option index: a question has at most interaction.MaxOptions (100,000)
		return l
	}
	lw := c.labelWidth()
	text, rec := splitRecommended(untab(c.label(opt)))
	l := &rowLayout{}
	if text != "" || !rec {
		l.label = wrapCap(text, lw, c.lineCap())
	}
	if rec {
		switch {
		case len(l.label) == 0:
			l.label = []string{""}
			l.badge = badgeInline
		case ansi.StringWidth(l.label[len(l.label)-1])+1+c.g.badgeW <= lw:
			l.badge = badgeInline
		default:
			l.badge = badgeOwnLine
		}
	}
	if c.descs != nil && c.descs[opt] != "" {
		l.desc = c.descLines(c.descs[opt], lw-descIndent, max(minDescLines, c.lineCap()/2))
	}
	c.layouts[int32(opt)] = l //nolint:gosec // an option index: a question has at most interaction.MaxOptions (100,000)
	return l
}

// rowHeight is the number of lines row takes.
func (c *Choice) rowHeight(row int) int {
	if row >= c.nf() {
		return c.otherHeight()
	}
	return c.layout(c.optionAt(row)).height()
}

// otherHint says what the Other text does to the options checked: while
// text is typed they are set aside, and they come back when it is erased.
func (c *Choice) otherHint() string {
	switch {
	case c.nChosen == 0 || c.noOther:
		return ""
	case c.draft.OtherChosen && c.multi:
		return asideHint
	case c.draft.OtherChosen:
		return asideOne
	case c.focused && c.onOther():
		if c.multi {
			return replacesHint
		}
		return replacesOne
	}
	return ""
}

func (c *Choice) otherHeight() int { return 1 + len(c.otherHintLines()) }

// otherHintLines is the hint under the Other row, wrapped to the label
// column (at most two lines).
func (c *Choice) otherHintLines() []string {
	h := c.otherHint()
	if h == "" {
		return nil
	}
	return wrapCap(h, c.labelWidth(), 2)
}

// numSlot is the number shown beside row (0 for "1."), or -1 for none:
// only the first nine rows have one, and not while typing.
func (c *Choice) numSlot(row int) int {
	if row < len(c.g.nums) && !c.Typing() {
		return row
	}
	return -1
}

// lead is the cursor, number and marker columns of a row; a chosen
// option set aside by Other text has a dimmed marker.
func (c *Choice) lead(row int, cur, chosen bool) string {
	g := &c.g
	var b strings.Builder
	b.Grow(64)
	if cur {
		b.WriteString(g.cursor)
	} else {
		b.WriteString(g.noCursor)
	}
	if slot := c.numSlot(row); slot >= 0 {
		b.WriteString(g.nums[slot])
	} else {
		b.WriteString(g.noNum)
	}
	switch {
	case chosen && row < c.nf() && c.draft.OtherChosen:
		b.WriteString(g.aside)
	case chosen:
		b.WriteString(g.on)
	default:
		b.WriteString(g.off)
	}
	return b.String()
}

// appendOption renders option row row (option opt), from the cache when
// the row looks as it did before.
func (c *Choice) appendOption(dst []string, row, opt int, cur bool) []string {
	chosen := c.draft.Chosen[opt]
	c.checkCaches()
	k := rowKey{opt: int32(opt), slot: int8(c.numSlot(row)), cur: cur, chk: chosen, aside: chosen && c.draft.OtherChosen} //nolint:gosec // an option index (at most interaction.MaxOptions) and a number slot (1–9)
	if lines, ok := c.rows[k]; ok {
		return append(dst, lines...)
	}
	start := len(dst)
	dst = c.renderOption(dst, row, opt, cur, chosen)
	c.rows[k] = slices.Clone(dst[start:])
	return dst
}

func (c *Choice) renderOption(dst []string, row, opt int, cur, chosen bool) []string {
	l := c.layout(opt)
	style := &c.p.label
	switch {
	case cur:
		style = &c.p.focused
	case chosen && c.draft.OtherChosen:
		style = &c.p.desc // set aside by the Other text
	case chosen:
		style = &c.p.chosen
	}
	for i, t := range l.label {
		s := style.Render(t)
		if i == len(l.label)-1 && l.badge == badgeInline {
			if t != "" {
				s += " "
			}
			s += c.g.badge
		}
		if i == 0 {
			dst = append(dst, c.lead(row, cur, chosen)+s)
		} else {
			dst = append(dst, c.g.indent+s)
		}
	}
	if l.badge == badgeOwnLine {
		b := c.g.badge
		if lw := c.labelWidth(); c.g.badgeW > lw {
			b = ansi.Truncate(b, lw, "")
		}
		dst = append(dst, c.g.indent+b)
	}
	for _, t := range l.desc {
		dst = append(dst, c.g.indent+"  "+t)
	}
	return dst
}

// appendOther renders the Other row.
func (c *Choice) appendOther(dst []string, row int, cur bool) []string {
	o := &c.st.Option
	d := c.draft
	lw := c.labelWidth()
	var body string
	switch {
	case cur && c.Typing():
		c.otherInput.SetWidth(max(lw-lipgloss.Width(otherPrefix)-1, 1))
		body = c.otherInput.View()
	case d.OtherText != "":
		style := o.Other
		if d.OtherChosen {
			style = o.Chosen
		}
		if cur {
			style = o.Focused
		}
		body = style.Render(ansi.Truncate(otherPrefix+d.OtherText, lw, ellipsis))
	default:
		style := o.Other
		if cur {
			style = o.Focused
		}
		body = style.Render(ansi.Truncate(otherLabel, lw, ellipsis))
	}
	dst = append(dst, fitWidth(c.lead(row, cur, d.OtherChosen)+body, c.viewWidth()))
	for _, h := range c.otherHintLines() {
		dst = append(dst, c.g.indent+o.Description.Render(h))
	}
	return dst
}

// appendRow renders one row.
func (c *Choice) appendRow(dst []string, row int) []string {
	cur := c.focused && row == c.row
	if row >= c.nf() {
		if c.noOther {
			return dst
		}
		return c.appendOther(dst, row, cur)
	}
	return c.appendOption(dst, row, c.optionAt(row), cur)
}

func (c *Choice) filterLine(w int) string {
	o := &c.st.Option
	counter := o.Counter.Render(strconv.Itoa(c.nf()) + "/" + strconv.Itoa(c.n))
	room := max(w-lipgloss.Width(counter)-2, 1)
	var f string
	if c.filterEditing && c.focused {
		c.filterInput.SetWidth(max(room-lipgloss.Width(c.filterInput.Prompt)-1, 1))
		f = c.filterInput.View()
	} else {
		f = o.Filter.Render(ansi.Truncate("/"+c.draft.Filter, room, ellipsis))
	}
	gap := max(w-lipgloss.Width(f)-lipgloss.Width(counter), 2)
	return fitWidth(f+strings.Repeat(" ", gap)+counter, w)
}

// fitWidth truncates a line wider than w columns.
func fitWidth(line string, w int) string {
	if ansi.StringWidth(line) > w {
		return ansi.Truncate(line, w, "")
	}
	return line
}

func (c *Choice) scrollLine(arrow string, n int) string {
	return c.g.noCursor + c.st.Option.Scroll.Render(arrow+" "+strconv.Itoa(n)+" more")
}

// bothScrollLine marks a list cut at both ends when there is room for one
// marker line only.
func (c *Choice) bothScrollLine(above, below int) string {
	return c.g.noCursor + c.st.Option.Scroll.Render("↑ "+strconv.Itoa(above)+" · ↓ "+strconv.Itoa(below)+" more")
}

// fit returns the first row of a window of budget lines that starts at off
// or later and shows the cursor row: off itself when it already does. It
// measures only the rows between the two.
func (c *Choice) fit(cur, off, budget int) int {
	off = min(off, cur)
	used, s := c.rowHeight(cur), cur
	for s > off {
		h := c.rowHeight(s - 1)
		if used+h > budget {
			break
		}
		used += h
		s--
	}
	return s
}

// View renders the filter line, the visible rows and the scroll
// indicators, within the field's width and height. It measures only the
// rows near the cursor.
func (c *Choice) View() string {
	if !c.viewOK {
		c.view = c.render()
		c.viewOK = true
	}
	return c.view
}

func (c *Choice) render() string {
	w, h := c.viewWidth(), c.viewHeight()
	o := &c.st.Option
	lines := make([]string, 0, h+2)
	if (c.filterEditing || c.filtered) && h >= 2 {
		lines = append(lines, c.filterLine(w))
	}
	avail := h - len(lines)
	if c.nf() == 0 && c.filtered && avail >= 2 {
		lines = append(lines, c.g.noCursor+o.Description.Render(noMatches))
		avail--
	}
	win := c.window(avail)
	c.draft.Offset = win.off
	lines = c.drawRows(lines, win, w)
	if len(lines) > h {
		lines = lines[:h]
	}
	if c.height <= 0 {
		// Until told its height the field claims naturalHeight lines, so
		// that huh's group, which only ever shrinks a field taller than
		// the form, always tells it.
		for len(lines) < h {
			lines = append(lines, "")
		}
	}
	// Rows fit by construction once the label column has room; the filter
	// and Other lines are fitted where they are drawn.
	if w < c.g.prefixW+descIndent+1 {
		for i, l := range lines {
			lines[i] = fitWidth(l, w)
		}
	}
	return strings.Join(lines, "\n")
}

// rowWindow is which rows a render shows: from off, in budget lines,
// with which scroll markers.
type rowWindow struct {
	off, budget int
	// up is an "↑ N more" line above; indicators a "↓ N more" line below
	// when rows are cut there; both one line carrying both counts.
	up, indicators, both bool
}

// window chooses the rows to show in avail lines. Every cut is marked:
// with room for a row and a marker, a "↓ N more" line; with room for two
// rows and both markers, "↑ N more" too; with less, one line carries both
// counts.
func (c *Choice) window(avail int) rowWindow {
	win := rowWindow{budget: avail}
	if !c.scrolls(avail) {
		return win
	}
	win.indicators = avail >= 2
	if win.indicators {
		win.budget-- // the ↓ line
	}
	win.off = c.fit(c.row, c.draft.Offset, win.budget)
	if win.off > 0 && win.indicators {
		if win.budget >= 3 {
			win.budget-- // the ↑ line
			win.up = true
			win.off = c.fit(c.row, win.off, win.budget)
		} else {
			win.both = true
		}
	}
	c.pullUp(&win)
	return win
}

// scrolls reports whether the rows need more than avail lines. Only a
// short list can fit, so only a short one is measured in full.
func (c *Choice) scrolls(avail int) bool {
	nRows := c.nRows()
	if nRows > avail {
		return true
	}
	total := 0
	for r := 0; r < nRows && total <= avail; r++ {
		total += c.rowHeight(r)
	}
	return total > avail
}

// pullUp moves the window up near the end of the list, to use the space
// left below the last row.
func (c *Choice) pullUp(win *rowWindow) {
	nRows := c.nRows()
	used, last := 0, win.off
	for ; last < nRows && used <= win.budget; last++ {
		used += c.rowHeight(last)
	}
	if last != nRows || used >= win.budget {
		return
	}
	for win.off > 0 {
		h := c.rowHeight(win.off - 1)
		room := win.budget - used
		if win.off == 1 && win.up {
			room++ // the ↑ line goes too
		}
		if h > room {
			break
		}
		win.off--
		used += h
	}
	if win.off == 0 && win.up {
		win.up = false
		win.budget++
	}
}

// drawRows appends the rows of win and its scroll markers to lines.
func (c *Choice) drawRows(lines []string, win rowWindow, w int) []string {
	nRows, cur := c.nRows(), c.row
	if win.up {
		lines = append(lines, c.scrollLine("↑", win.off))
	}
	used, shown, r := 0, 0, win.off
	for ; r < nRows && used < win.budget; r++ {
		start := len(lines)
		lines = c.appendRow(lines, r)
		rh := len(lines) - start
		if used+rh > win.budget {
			if r != cur && shown > 0 {
				lines = lines[:start]
				break
			}
			// Clip a row taller than the window, and say so.
			lines = lines[:start+win.budget-used]
			last := len(lines) - 1
			lines[last] = ansi.Truncate(lines[last], max(w-1, 0), "") + ellipsis
			rh = win.budget - used
		}
		used += rh
		shown++
	}
	switch {
	case win.both && r < nRows:
		lines = append(lines, c.bothScrollLine(win.off, nRows-r))
	case win.both:
		lines = append(lines, c.scrollLine("↑", win.off))
	case r < nRows && win.indicators:
		lines = append(lines, c.scrollLine("↓", nRows-r))
	}
	c.pageRows = max(shown, 1)
	return lines
}

// Height returns the lines the field needs to show every row at its width
// (the filter line and the Other row included), or limit when it needs
// more: the height to give it where space is not fixed (an inline prompt).
// It measures at most limit rows.
func (c *Choice) Height(limit int) int {
	h := 0
	if c.filterEditing || c.filtered {
		h++
	}
	for r := 0; r < c.nRows() && h < limit; r++ {
		h += c.rowHeight(r)
	}
	return min(h, limit)
}
