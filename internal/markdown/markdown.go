// Package markdown draws the Markdown agents write (question details,
// option previews, agents' messages) as lines for the terminal, in the
// palette's styles: goldmark parses it (CommonMark with GitHub's tables,
// strikethrough, task lists and autolinks, and definition lists), and
// each block is laid out here with lipgloss; fenced code is coloured by
// internal/highlight.
//
// It replaces glamour, which draws the same from the same parser, but
// whose package links chroma's whole lexer and style registries and an
// HTML sanitizer, whose initialisers cost every asktui process about
// 45 ms and 6 MB before main (docs/benchmarks.md). Nothing here is built
// before the first text is drawn.
package markdown

import (
	"fmt"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"
	"github.com/alecthomas/chroma/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/asktui/asktui/internal/highlight"
	"github.com/asktui/asktui/internal/sanitize"
	"github.com/asktui/asktui/styles"
)

// markdownParser is goldmark's parser with the extensions, built on
// first use.
var markdownParser = sync.OnceValue(func() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList)).Parser()
})

// Render draws src at width as lines, each styled on its own and without
// trailing spaces; there are no blank lines at either end. src should be
// sanitized already: Render also strips what character references
// (&#27;) could bring back.
func Render(src string, width int, st *styles.Styles) []string {
	width = max(width, 1)
	source := []byte(src)
	doc := markdownParser().Parse(text.NewReader(source))
	r := &renderer{src: source, st: st, md: &st.Markdown}
	lines := r.blocks(doc, width, st.Markdown.Text, false)
	for i, l := range lines {
		lines[i] = trimRight(l)
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

type renderer struct {
	src []byte
	st  *styles.Styles
	md  *styles.MarkdownStyles
}

// blocks draws the block children of n, one blank line between them
// unless tight (the items of a tight list).
func (r *renderer) blocks(n ast.Node, width int, base lipgloss.Style, tight bool) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := r.block(c, width, base)
		if lines == nil {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

// block draws one block.
func (r *renderer) block(n ast.Node, width int, base lipgloss.Style) []string {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return r.wrap(r.inline(n, base), width)
	case *ast.Heading:
		if n.Level == 1 {
			title := ansi.Strip(r.inline(n, lipgloss.NewStyle()))
			return r.wrapStyled(title, width-2, r.md.Title)
		}
		marks := strings.Repeat("#", n.Level) + " "
		return r.wrap(r.md.Heading.Render(marks)+r.inline(n, r.md.Heading), width)
	case *ast.ThematicBreak:
		return []string{r.md.Rule.Render(strings.Repeat("─", min(8, width)))}
	case *ast.FencedCodeBlock:
		return r.code(n, highlight.Language(string(n.Language(r.src))), width)
	case *ast.CodeBlock:
		return r.code(n, nil, width)
	case *ast.Blockquote:
		bar := r.md.QuoteBar.Render("│")
		lines := r.blocks(n, width-2, r.md.Quote, false)
		for i, l := range lines {
			if l == "" {
				lines[i] = bar
			} else {
				lines[i] = bar + " " + l
			}
		}
		return lines
	case *ast.List:
		return r.list(n, width, base)
	case *ast.HTMLBlock:
		var b strings.Builder
		r.segments(&b, n.Lines())
		if n.HasClosure() {
			b.Write(n.ClosureLine.Value(r.src))
		}
		return r.plainLines(strings.TrimRight(b.String(), "\n"), width, r.md.HTML)
	case *east.Table:
		return r.table(n, width)
	case *east.DefinitionList:
		return r.blocks(n, width, base, true)
	case *east.DefinitionTerm:
		return r.wrap(r.inline(n, r.md.Strong.Inherit(base)), width)
	case *east.DefinitionDescription:
		return r.indented(r.blocks(n, width-2, base, false), r.md.Marker.Render("→ "), "  ")
	}
	// Anything else: its blocks, or its text.
	if n.HasChildren() && n.FirstChild().Type() == ast.TypeBlock {
		return r.blocks(n, width, base, false)
	}
	return r.wrap(r.inline(n, base), width)
}

// list draws a list's items, each after its bullet, number or task box,
// its lines aligned after it.
func (r *renderer) list(n *ast.List, width int, base lipgloss.Style) []string {
	var out []string
	num := n.Start
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "• "
		if n.IsOrdered() {
			marker = fmt.Sprintf("%d%c ", num, n.Marker)
			num++
		}
		if box := taskBox(item); box != nil {
			marker = "[ ] "
			if box.IsChecked {
				marker = "[✓] "
			}
		}
		w := ansi.StringWidth(marker)
		lines := r.blocks(item, width-w, base, n.IsTight)
		if len(lines) == 0 {
			lines = []string{""}
		}
		if len(out) > 0 && !n.IsTight {
			out = append(out, "")
		}
		out = append(out, r.indented(lines, r.md.Marker.Render(marker), strings.Repeat(" ", w))...)
	}
	return out
}

// taskBox is the task list box at the start of a list item, if any.
func taskBox(item ast.Node) *east.TaskCheckBox {
	if first := item.FirstChild(); first != nil {
		if box, ok := first.FirstChild().(*east.TaskCheckBox); ok {
			return box
		}
	}
	return nil
}

// indented puts head before the first line and pad before the others.
func (r *renderer) indented(lines []string, head, pad string) []string {
	for i, l := range lines {
		switch {
		case i == 0:
			lines[i] = head + l
		case l != "":
			lines[i] = pad + l
		}
	}
	return lines
}

// code draws a code block, coloured by lexer (nil: plain), two cells in.
func (r *renderer) code(n ast.Node, lexer chroma.Lexer, width int) []string {
	var b strings.Builder
	r.segments(&b, n.Lines())
	src := sanitize.Strip(b.String(), ansi.StringWidth)
	var out []string
	for _, l := range highlight.Lines(lexer, src, r.st) {
		for _, w := range r.wrapLine(l, width-2) {
			out = append(out, "  "+w)
		}
	}
	return out
}

// table draws a table as lipgloss does, across the width, its cells
// wrapped, with lines between the columns and under the header.
func (r *renderer) table(n *east.Table, width int) []string {
	var header []string
	var rows [][]string
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, r.inline(cell, r.md.Text))
		}
		if _, ok := row.(*east.TableHeader); ok {
			header = cells
		} else {
			rows = append(rows, cells)
		}
	}
	align := n.Alignments
	t := table.New().
		Border(lipgloss.NormalBorder()).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderStyle(r.md.TableBorder).
		Width(width).Wrap(true).
		Headers(header...).Rows(rows...).
		StyleFunc(func(_, col int) lipgloss.Style {
			st := lipgloss.NewStyle().Margin(0, 1)
			if col < len(align) {
				switch align[col] {
				case east.AlignLeft:
					st = st.Align(lipgloss.Left)
				case east.AlignCenter:
					st = st.Align(lipgloss.Center)
				case east.AlignRight:
					st = st.Align(lipgloss.Right)
				case east.AlignNone:
				}
			}
			return st
		})
	return strings.Split(t.String(), "\n")
}

// inline draws the inline children of n in style st, as one string with
// "\n" at hard line breaks.
func (r *renderer) inline(n ast.Node, st lipgloss.Style) string {
	var b strings.Builder
	r.inlines(&b, n, st)
	return b.String()
}

func (r *renderer) inlines(b *strings.Builder, n ast.Node, st lipgloss.Style) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Segment.Value(r.src)
			if !c.IsRaw() {
				v = unescape(v)
			}
			r.text(b, string(v), st)
			switch {
			case c.HardLineBreak():
				b.WriteByte('\n')
			case c.SoftLineBreak():
				b.WriteByte(' ')
			}
		case *ast.String:
			v := c.Value
			if !c.IsRaw() {
				v = unescape(v)
			}
			r.text(b, string(v), st)
		case *ast.CodeSpan:
			r.text(b, r.codeSpan(c), r.md.Code.Inherit(st))
		case *ast.Emphasis:
			style := r.md.Emph
			if c.Level >= 2 {
				style = r.md.Strong
			}
			r.inlines(b, c, style.Inherit(st))
		case *east.Strikethrough:
			r.inlines(b, c, r.md.Strike.Inherit(st))
		case *ast.Link:
			label := r.inline(c, r.md.Link.Inherit(st))
			b.WriteString(label)
			if dest := string(c.Destination); dest != "" && ansi.Strip(label) != dest {
				b.WriteByte(' ')
				r.text(b, dest, r.md.URL)
			}
		case *ast.AutoLink:
			r.text(b, string(c.URL(r.src)), r.md.URL)
		case *ast.Image:
			r.text(b, "Image: "+ansi.Strip(r.inline(c, st))+" →", r.md.Image)
			b.WriteByte(' ')
			r.text(b, string(c.Destination), r.md.URL)
		case *ast.RawHTML:
			for i := 0; i < c.Segments.Len(); i++ {
				seg := c.Segments.At(i)
				r.text(b, string(seg.Value(r.src)), r.md.HTML)
			}
		case *east.TaskCheckBox:
			// Drawn as the item's marker.
		default:
			r.inlines(b, c, st)
		}
	}
}

// codeSpan is the text of a code span, as written.
func (r *renderer) codeSpan(c *ast.CodeSpan) string {
	var code strings.Builder
	for t := c.FirstChild(); t != nil; t = t.NextSibling() {
		switch s := t.(type) {
		case *ast.Text:
			code.Write(s.Segment.Value(r.src))
		case *ast.String:
			code.Write(s.Value)
		}
	}
	return code.String()
}

// text writes s in style st, made inert (a character reference can spell
// a control) and one line per line.
func (r *renderer) text(b *strings.Builder, s string, st lipgloss.Style) {
	s = sanitize.Strip(s, ansi.StringWidth)
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if line != "" {
			b.WriteString(st.Render(line))
		}
	}
}

// unescape resolves backslash escapes and character references.
func unescape(v []byte) []byte {
	return util.UnescapePunctuations(util.ResolveNumericReferences(util.ResolveEntityNames(v)))
}

// segments writes the lines of a block as written.
func (r *renderer) segments(b *strings.Builder, lines *text.Segments) {
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(r.src))
	}
}

// wrap breaks styled text into lines of at most width cells, each styled
// on its own.
func (r *renderer) wrap(s string, width int) []string {
	if s == "" {
		return []string{""}
	}
	return strings.Split(lipgloss.Wrap(s, max(width, 1), ""), "\n")
}

// wrapLine is wrap for one line of code.
func (r *renderer) wrapLine(s string, width int) []string {
	if ansi.StringWidth(s) <= width {
		return []string{s}
	}
	return r.wrap(s, width)
}

// wrapStyled wraps plain text and styles each line with st.
func (r *renderer) wrapStyled(s string, width int, st lipgloss.Style) []string {
	lines := strings.Split(ansi.Wrap(s, max(width, 1), ""), "\n")
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return lines
}

// plainLines draws text as written, wrapped, in st.
func (r *renderer) plainLines(s string, width int, st lipgloss.Style) []string {
	var b strings.Builder
	r.text(&b, s, st)
	return r.wrap(b.String(), width)
}

// trimRight drops a styled line's trailing spaces.
func trimRight(l string) string {
	plain := ansi.Strip(l)
	keep := strings.TrimRight(plain, " ")
	switch {
	case len(keep) == len(plain):
		return l
	case keep == "":
		return ""
	}
	return ansi.Truncate(l, ansi.StringWidth(keep), "") + "\x1b[m"
}
