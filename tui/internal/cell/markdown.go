package cell

import (
	"github.com/asktui/asktui/internal/markdown"
	"github.com/asktui/asktui/styles"
)

// Markdown renders Markdown (question details, option previews, agents'
// messages) with internal/markdown, in styles derived from asktui's
// palette, and remembers what it rendered: a 2,000-line detail is
// rendered once per width, not once per frame. Its input is already
// sanitized.
type Markdown struct {
	st    *styles.Styles
	cache map[markdownKey][]string
	order []markdownKey // oldest first, for eviction
}

type markdownKey struct {
	text  string
	width int
}

// markdownCacheSize bounds the rendered texts kept.
const markdownCacheSize = 256

// NewMarkdown is a renderer in st's look.
func NewMarkdown(st *styles.Styles) *Markdown {
	return &Markdown{st: st, cache: map[markdownKey][]string{}}
}

// Fresh renders text at width without keeping it: for text drawn once
// and replaced (the block a message is streaming into).
func (r *Markdown) Fresh(text string, width int) []string {
	return markdown.Render(text, max(width, 10), r.st)
}

// Render returns text rendered at width, as lines without trailing
// spaces.
func (r *Markdown) Render(text string, width int) []string {
	width = max(width, 10)
	k := markdownKey{text, width}
	if lines, ok := r.cache[k]; ok {
		return lines
	}
	lines := markdown.Render(text, width, r.st)
	if len(r.order) >= markdownCacheSize {
		delete(r.cache, r.order[0])
		r.order = r.order[1:]
	}
	r.cache[k] = lines
	r.order = append(r.order, k)
	return lines
}
