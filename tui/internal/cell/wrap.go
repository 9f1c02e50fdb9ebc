package cell

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/asktui/asktui/internal/markdown"
	"github.com/asktui/asktui/styles"
)

// Plain text in lines: what is not Markdown (tool output, the activity's
// results) is wrapped line by line.

// StyleLines styles each line of s on its own, so wrapping never carries
// a style across the prefix of the next row.
func StyleLines(s string, st lipgloss.Style) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return strings.Join(lines, "\n")
}

// CapLines keeps the first n lines of s and says how many were cut.
func CapLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) <= n {
		return strings.Join(lines, "\n")
	}
	return strings.Join(lines[:n], "\n") + "\n… " + Plural(len(lines)-n, "more line", "more lines")
}

// WrapExact wraps text shown as sent (a detail or preview in raw view)
// to width, each line in style: only at spaces, a word wider than the
// line cut with the mark (markdown.Wrap), so what the human approves
// reads as the words it holds.
func WrapExact(text string, width int, st *styles.Styles, style lipgloss.Style) []string {
	width = max(width, 4)
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		out = append(out, markdown.Wrap(style.Render(line), width, st)...)
	}
	return out
}

// WrapWords wraps one-paragraph text (a dialog's, a rule in words) to
// width as markdown.Wrap does, at spaces only, its lines joined: a
// rule's `git push --force` is never shown as "--" and "force".
func WrapWords(s string, width int, st *styles.Styles) string {
	return strings.Join(markdown.Wrap(s, width, st), "\n")
}
