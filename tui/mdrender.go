package tui

import (
	"strings"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/styles"
)

// mdRenderer renders Markdown (question details, option previews, agents'
// messages) with glamour, in styles derived from asktui's palette, and
// remembers what it rendered: a 2,000-line detail is rendered once per
// width, not once per frame. Its input is already sanitized.
type mdRenderer struct {
	st        *styles.Styles
	renderers map[int]*glamour.TermRenderer
	cache     map[mdKey][]string
	order     []mdKey // oldest first, for eviction
}

type mdKey struct {
	text  string
	width int
}

// mdCacheSize bounds the rendered texts kept.
const mdCacheSize = 256

func newMDRenderer(st *styles.Styles) *mdRenderer {
	return &mdRenderer{st: st, renderers: map[int]*glamour.TermRenderer{}, cache: map[mdKey][]string{}}
}

// Render returns text rendered at width, as lines without trailing
// spaces. A text glamour cannot render is shown as it is, wrapped.
func (r *mdRenderer) Render(text string, width int) []string {
	width = max(width, 10)
	k := mdKey{text, width}
	if lines, ok := r.cache[k]; ok {
		return lines
	}
	lines := r.render(text, width)
	if len(r.order) >= mdCacheSize {
		delete(r.cache, r.order[0])
		r.order = r.order[1:]
	}
	r.cache[k] = lines
	r.order = append(r.order, k)
	return lines
}

func (r *mdRenderer) render(text string, width int) []string {
	tr, ok := r.renderers[width]
	if !ok {
		var err error
		tr, err = glamour.NewTermRenderer(
			glamour.WithStyles(r.st.Markdown()),
			glamour.WithWordWrap(width),
			glamour.WithTableWrap(true),
			glamour.WithChromaFormatter(r.st.MarkdownFormatter()),
		)
		if err != nil {
			return wrapMarkdown(text, width, r.st.Question.Text, r.st.Question.Code)
		}
		r.renderers[width] = tr
	}
	out, err := tr.Render(text)
	if err != nil {
		return wrapMarkdown(text, width, r.st.Question.Text, r.st.Question.Code)
	}
	lines := strings.Split(strings.Trim(out, "\n"), "\n")
	for i, l := range lines {
		lines[i] = trimStyledRight(l)
	}
	// glamour leaves blank lines at the top and bottom of some blocks.
	for len(lines) > 0 && strings.TrimSpace(stripped(lines[0])) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(stripped(lines[len(lines)-1])) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// trimStyledRight drops the trailing spaces of a styled line: glamour pads
// every line to the wrap width, each space in its own styling.
func trimStyledRight(l string) string {
	plain := stripped(l)
	keep := strings.TrimRight(plain, " ")
	if len(keep) == len(plain) {
		return l
	}
	if keep == "" {
		return ""
	}
	return ansi.Truncate(l, cellWidth(keep), "") + "\x1b[m"
}
