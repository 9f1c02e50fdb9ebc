package tui

import (
	"github.com/asktui/asktui/internal/markdown"
	"github.com/asktui/asktui/styles"
)

// mdRenderer renders Markdown (question details, option previews, agents'
// messages) with internal/markdown, in styles derived from asktui's
// palette, and remembers what it rendered: a 2,000-line detail is
// rendered once per width, not once per frame. Its input is already
// sanitized.
type mdRenderer struct {
	st    *styles.Styles
	cache map[mdKey][]string
	order []mdKey // oldest first, for eviction
}

type mdKey struct {
	text  string
	width int
}

// mdCacheSize bounds the rendered texts kept.
const mdCacheSize = 256

func newMDRenderer(st *styles.Styles) *mdRenderer {
	return &mdRenderer{st: st, cache: map[mdKey][]string{}}
}

// Fresh renders text at width without keeping it: for text drawn once
// and replaced (the block a message is streaming into).
func (r *mdRenderer) Fresh(text string, width int) []string {
	return markdown.Render(text, max(width, 10), r.st)
}

// Render returns text rendered at width, as lines without trailing
// spaces.
func (r *mdRenderer) Render(text string, width int) []string {
	width = max(width, 10)
	k := mdKey{text, width}
	if lines, ok := r.cache[k]; ok {
		return lines
	}
	lines := markdown.Render(text, width, r.st)
	if len(r.order) >= mdCacheSize {
		delete(r.cache, r.order[0])
		r.order = r.order[1:]
	}
	r.cache[k] = lines
	r.order = append(r.order, k)
	return lines
}
