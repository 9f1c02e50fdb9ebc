package question

import (
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/request"
)

// panelLayout is the vertical layout of a request's question panel,
// decided by the layout pass (Pane.SetSize): what is drawn and the
// field's size both come from it.
type panelLayout struct {
	width, height int
	who           bool     // the "<agent> asks" row (session view)
	tabs, tabsGap bool     // the tab row, and a gap under it
	header        bool     // the header row of a lone question
	text          []string // the question text, wrapped
	textRows      int      // rows of question text shown
	hasCall       bool     // the question has a call (a detail) to show
	callAt        int      // the line of text where it starts
	moreText      bool     // the text does not fit: its scroll state is shown
	hint          bool     // the row saying what kind of answer it takes
	formGap       bool     // a gap above the form
	formRows      int      // rows for the form (and a preview beside it)
	// Options with previews show the one under the cursor beside the list
	// (listW columns for the list, previewW for the preview, from 100
	// columns) or below it (previewRows of formRows).
	listW, previewW, previewRows int
}

// previewSideFrom is the width from which a preview goes beside the
// option list.
const previewSideFrom = 100

// Rows the form gets before the question text takes any more: the text
// yields to the options first, so at every size at least one option (and
// the marker saying more follow) stays visible.
const (
	formMinRows  = 3
	formWantRows = 6
)

// layoutFor fits request r's panel in w×h. The rows go, in this order:
// the agent row, the tabs, one row of question text and formMinRows of
// form; then the text down to the first line of the call (the detail: for
// a permission, the command or file approved); then the header and the
// hint; then the form up to formWantRows; then the rest of the text; then
// the gaps; whatever is left goes to the form. With fit, the form gets
// only the rows it needs (an inline prompt, or a panel sharing a narrow
// screen).
func (p *Pane) layoutFor(r *request.Request, w, h int, fit bool) panelLayout {
	l := panelLayout{width: w, height: h}
	rest := h
	take := func() bool { // a row, if there is one left
		if rest >= 1 {
			rest--
			return true
		}
		return false
	}
	l.who = p.host.Many() && take()
	l.tabs = !r.Single() && take()
	q := r.Current()
	if q == nil {
		l.tabsGap = l.tabs && rest >= 10 && take()
		l.formRows = rest
		if fit {
			l.formRows = min(rest, len(r.Questions)+5) // the review's rows
		}
		return l
	}
	l.text = q.Context(w, p.com.Styles, p.com.Markdown, p.raw)
	l.callAt = q.CallLine()
	l.hasCall = l.callAt >= 0
	l.listW = w
	if q.Previews != nil && q.Draft != nil {
		if p.host.ScreenWidth() >= previewSideFrom && w >= 70 {
			l.listW = w * 9 / 20
			l.previewW = w - l.listW - 3 // " │ "
		}
	}
	natural := naturalRows(q, l.listW)
	formMin := min(natural, formMinRows)
	rest -= formMin + 1
	// What is approved is seen before anything else the panel could
	// show: the call's first line comes before the header, the hint and
	// the options' descriptions.
	call := 0
	if l.hasCall {
		call = min(l.callAt, max(rest, 0))
	}
	rest -= call
	l.header = r.Single() && q.Header != "" && take()
	l.hint = take()
	more := min(max(min(natural, formWantRows)-formMin, 0), max(rest, 0))
	rest -= more
	extra := min(len(l.text)-1-call, max(rest, 0))
	rest -= extra
	l.textRows = 1 + call + extra
	if l.hasCall && !l.showsCall(0) && !l.hint && l.textRows > 1 {
		// The call cannot show: the hint row, which says to scroll to
		// it, comes before a row of text that scrolls anyway.
		l.textRows--
		l.hint = true
	}
	l.moreText = l.textRows < len(l.text)
	l.formGap = take()
	l.tabsGap = l.tabs && take()
	l.formRows = max(formMin+more+max(rest, 0), 1)
	if fit {
		l.formRows = min(l.formRows, natural)
	}
	if q.Previews != nil && q.Draft != nil && l.previewW == 0 {
		// Below the list: a third of the rows, never the list's minimum.
		l.previewRows = min(max(l.formRows/3, 3), l.formRows-formMin)
		if l.previewRows < 2 {
			l.previewRows = 0
		}
	}
	return l
}

// showsCall reports whether the text, scrolled to line scroll, shows the
// first line of the call; true when the question has none.
func (l panelLayout) showsCall(scroll int) bool {
	return !l.hasCall || scroll <= l.callAt && l.callAt < scroll+l.textRows
}

// naturalRows is the rows the question's form would use with room for
// everything, at width w.
func naturalRows(q *request.Question, w int) int {
	switch {
	case q.Choice != nil:
		return q.Choice.Height(500)
	case q.Free():
		return 5
	}
	n := 1 // the Other row
	if q.Raw.NoOther {
		n = 0
	}
	for i := range q.Raw.Options {
		n++
		if q.Descs != nil && q.Descs[i] != "" {
			n += min(1+cell.Width(q.Descs[i])/max(w-8, 1), 3)
		}
	}
	return n
}

// used is the rows the panel uses; in inline mode the body shrinks to
// it.
func (l panelLayout) used() int {
	n := l.textRows + l.formRows
	for _, on := range []bool{l.who, l.tabs, l.tabsGap, l.header, l.hint, l.formGap} {
		if on {
			n++
		}
	}
	return n
}
