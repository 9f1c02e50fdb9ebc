package styles

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// MarkdownStyles are the styles of rendered Markdown (question details,
// option previews, agents' messages; internal/markdown draws it). Code
// blocks take the Code styles, so a fenced block and a diff look alike.
type MarkdownStyles struct {
	// Text is a paragraph's text.
	Text lipgloss.Style
	// Title is a first-level heading, drawn as a badge; Heading every
	// other level (after its ## marks).
	Title, Heading lipgloss.Style
	// Emph, Strong and Strike are *emphasis*, **strong** and ~~struck~~
	// text, laid over the text around them.
	Emph, Strong, Strike lipgloss.Style
	// Code is `inline code`.
	Code lipgloss.Style
	// Link is a link's text, URL its address (and an autolink's).
	Link, URL lipgloss.Style
	// Image is the "Image:" label and the alternative text before an
	// image's address.
	Image lipgloss.Style
	// Quote is a block quote's text, QuoteBar the bar before it.
	Quote, QuoteBar lipgloss.Style
	// Marker is a list item's bullet, number or task box.
	Marker lipgloss.Style
	// Rule is a thematic break; TableBorder a table's lines.
	Rule, TableBorder lipgloss.Style
	// HTML is raw HTML, shown as written.
	HTML lipgloss.Style
	// Break is the mark (↩, its string) at the end of a line where a
	// word too wide for the line is cut, the rest of it on the next
	// line: text wraps only at spaces, so a command's arguments and a
	// path are never split where a line merely ends.
	Break lipgloss.Style
}

func markdownStyles(p Palette, mono bool) MarkdownStyles {
	fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	title := lipgloss.NewStyle().Bold(true).Foreground(p.OnAccent).Background(p.Accent).Padding(0, 1)
	if mono {
		// Without colour, reverse video carries the badge.
		title = title.Reverse(true)
	}
	return MarkdownStyles{
		Text:        fg(p.Fg),
		Title:       title,
		Heading:     fg(p.Accent).Bold(true),
		Emph:        lipgloss.NewStyle().Italic(true),
		Strong:      lipgloss.NewStyle().Bold(true),
		Strike:      lipgloss.NewStyle().Strikethrough(true),
		Code:        fg(p.Highlight),
		Link:        fg(p.Accent).Bold(true),
		URL:         fg(p.Accent).Underline(true),
		Image:       fg(p.Muted),
		Quote:       fg(p.Muted),
		QuoteBar:    fg(p.Subtle),
		Marker:      fg(p.Fg),
		Rule:        fg(p.Subtle),
		TableBorder: fg(p.Subtle),
		HTML:        fg(p.Muted),
		Break:       fg(p.Muted).SetString("↩"),
	}
}
