package tui

import (
	"regexp"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// mdInline finds the inline Markdown agents write in messages, questions
// and descriptions: **bold** and `code`.
var mdInline = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("\\*\\*([^*\n]+)\\*\\*|`([^`\n]+)`")
})

// mdListItem finds a list item's marker and the space after it: "- ",
// "* ", "+ ", "1. ", "2) ", indented or not.
var mdListItem = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:[-*+]|\d{1,3}[.)])\s+`)
})

// inlineMarkdown renders **bold** and `code` in one line of text; the
// rest stays as written.
func inlineMarkdown(line string, base, code lipgloss.Style) string {
	var b strings.Builder
	last := 0
	for _, m := range mdInline().FindAllStringSubmatchIndex(line, -1) {
		b.WriteString(base.Render(line[last:m[0]]))
		if m[2] >= 0 {
			b.WriteString(base.Bold(true).Render(line[m[2]:m[3]]))
		} else {
			b.WriteString(code.Render(line[m[4]:m[5]]))
		}
		last = m[1]
	}
	b.WriteString(base.Render(line[last:]))
	return b.String()
}

// plainMarkdown drops the marks of **bold** and `code` from a line shown
// where it cannot be styled: a notice, the window title, a desktop
// notification.
func plainMarkdown(line string) string {
	return mdInline().ReplaceAllString(line, "$1$2")
}

// wrapMarkdown styles text's inline Markdown and wraps it to width. A list
// item that wraps keeps its text aligned after the marker, so the list
// still reads as a list.
func wrapMarkdown(text string, width int, base, code lipgloss.Style) []string {
	width = max(width, 1)
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		head := ""
		if loc := mdListItem().FindStringIndex(line); loc != nil && cellWidth(line[:loc[1]]) < width/2 {
			head = line[:loc[1]]
		}
		body := inlineMarkdown(line[len(head):], base, code)
		if head == "" {
			out = append(out, strings.Split(ansi.Wrap(body, width, ""), "\n")...)
			continue
		}
		indent := cellWidth(head)
		pad := strings.Repeat(" ", indent)
		for i, l := range strings.Split(ansi.Wrap(body, width-indent, ""), "\n") {
			if i == 0 {
				out = append(out, base.Render(head)+l)
			} else {
				out = append(out, pad+l)
			}
		}
	}
	return out
}

// styleLines styles each line of s on its own, so wrapping never carries
// a style across the prefix of the next row.
func styleLines(s string, st lipgloss.Style) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return strings.Join(lines, "\n")
}

// capLines keeps the first n lines of s and says how many were cut.
func capLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) <= n {
		return strings.Join(lines, "\n")
	}
	return strings.Join(lines[:n], "\n") + "\n… " + plural(len(lines)-n, "more line", "more lines")
}
