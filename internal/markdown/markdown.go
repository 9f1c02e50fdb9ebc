// Package markdown draws the Markdown agents write as lines for the
// terminal, in the palette's styles: the one dialect of every text an
// agent writes on asktui's screen (questions, details, previews, option
// descriptions, messages, thoughts, activity). goldmark parses it
// (CommonMark with GitHub's tables, strikethrough, task lists and
// autolinks, and definition lists), and each block is laid out here with
// lipgloss; fenced code is coloured by internal/highlight.
//
// The dialect is GitHub's for comments: a line break in a paragraph is a
// line break on screen, as an agent that writes one means it. A URL is
// never broken across lines (a URL wider than the line is cut short, and
// links to the whole); an http or https link is an OSC 8 hyperlink,
// which terminals that know them make clickable and the others ignore;
// a link of any other scheme is plain text. Everything drawn is made
// inert first (internal/sanitize), and a link's target is one only when
// it is printable ASCII, so an agent's URL cannot carry an escape.
//
// It replaces glamour, which draws the same from the same parser, but
// whose package links chroma's whole lexer and style registries and an
// HTML sanitizer, whose initialisers cost every asktui process about
// 45 ms and 6 MB before main (docs/benchmarks.md). Nothing here is built
// before the first text is drawn.
package markdown

import (
	"fmt"
	"math"
	"net/url"
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

// Render draws src at width as lines, each styled on its own, at most
// width wide and without trailing spaces; there are no blank lines at
// either end. src should be sanitized already: Render also strips what
// character references (&#27;) could bring back.
func Render(src string, width int, st *styles.Styles) []string {
	return RenderIn(src, width, st, st.Markdown.Text)
}

// RenderIn is Render with base as the style of the text (a question's
// bold, the activity's muted thoughts), which emphasis and code lay their
// own over.
func RenderIn(src string, width int, st *styles.Styles, base lipgloss.Style) []string {
	width = max(width, 1)
	source := []byte(src)
	doc := markdownParser().Parse(text.NewReader(source))
	r := &renderer{src: source, st: st, md: &st.Markdown}
	lines := r.blocks(doc, width, base, false)
	for i, l := range lines {
		l = trimRight(l)
		if ansi.StringWidth(l) > width {
			// Indents (a list's, a quote's, code's) outgrow a very
			// narrow width; the line is cut to it.
			l = ansi.Truncate(l, width, "")
		}
		lines[i] = closeLink(l)
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
	// line draws one line: breaks become spaces, and nothing is wrapped.
	line bool
}

// Line draws src's text on one line in base, its inline Markdown styled
// (a title, an inbox row): breaks and blocks become spaces, code blocks
// their text, nothing wraps. st nil draws it without styles.
func Line(src string, st *styles.Styles, base lipgloss.Style) string {
	source := []byte(src)
	doc := markdownParser().Parse(text.NewReader(source))
	r := &renderer{src: source, st: st, md: &styles.MarkdownStyles{}, line: true}
	if st != nil {
		r.md = &st.Markdown
	}
	var b strings.Builder
	for n := ast.Node(doc); n != nil; n = next(n, doc) {
		switch n := n.(type) {
		case *ast.Paragraph, *ast.TextBlock, *ast.Heading, *east.TableCell, *east.DefinitionTerm:
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			r.inlines(&b, n, base, math.MaxInt)
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			var code strings.Builder
			r.segments(&code, n.Lines())
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			r.text(&b, strings.Join(strings.Fields(code.String()), " "), r.md.Code.Inherit(base))
		}
	}
	return closeLink(strings.TrimSpace(b.String()))
}

// Plain is src's text on one line without its marks: for a notice, a
// window title, a desktop notification.
func Plain(src string) string {
	return ansi.Strip(Line(src, nil, lipgloss.NewStyle()))
}

// next is the node after n in document order, leaves' inlines skipped.
func next(n, root ast.Node) ast.Node {
	if n.HasChildren() && n.FirstChild().Type() == ast.TypeBlock || n == root {
		if c := n.FirstChild(); c != nil {
			return c
		}
	}
	for ; n != nil && n != root; n = n.Parent() {
		if s := n.NextSibling(); s != nil {
			return s
		}
	}
	return nil
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
		return r.wrap(r.inline(n, base, width), width)
	case *ast.Heading:
		if n.Level == 1 {
			title := ansi.Strip(r.inline(n, lipgloss.NewStyle(), width-2))
			return r.wrapStyled(title, width-2, r.md.Title)
		}
		marks := strings.Repeat("#", n.Level) + " "
		return r.wrap(r.md.Heading.Render(marks)+r.inline(n, r.md.Heading, width-len(marks)), width)
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
		return r.wrap(r.inline(n, r.md.Strong.Inherit(base), width), width)
	case *east.DefinitionDescription:
		return r.indented(r.blocks(n, width-2, base, false), r.md.Marker.Render("→ "), "  ")
	}
	// Anything else: its blocks, or its text.
	if n.HasChildren() && n.FirstChild().Type() == ast.TypeBlock {
		return r.blocks(n, width, base, false)
	}
	return r.wrap(r.inline(n, base, width), width)
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
			cells = append(cells, r.inline(cell, r.md.Text, width))
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
// "\n" at line breaks, for lines of width cells (a URL is cut to fit
// one).
func (r *renderer) inline(n ast.Node, st lipgloss.Style, width int) string {
	var b strings.Builder
	r.inlines(&b, n, st, width)
	return b.String()
}

func (r *renderer) inlines(b *strings.Builder, n ast.Node, st lipgloss.Style, width int) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Segment.Value(r.src)
			if !c.IsRaw() {
				v = unescape(v)
			}
			r.text(b, string(v), st)
			switch {
			case r.line && (c.HardLineBreak() || c.SoftLineBreak()):
				b.WriteByte(' ')
			case c.HardLineBreak(), c.SoftLineBreak():
				b.WriteByte('\n') // a line break is one, as agents mean it
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
			r.inlines(b, c, style.Inherit(st), width)
		case *east.Strikethrough:
			r.inlines(b, c, r.md.Strike.Inherit(st), width)
		case *ast.Link:
			dest := string(unescape(c.Destination))
			label := r.inline(c, r.md.Link.Inherit(st), width)
			b.WriteString(hyperlink(label, dest))
			if dest != "" && ansi.Strip(label) != dest {
				b.WriteByte(' ')
				r.url(b, dest, dest, width)
			}
		case *ast.AutoLink:
			dest := string(c.URL(r.src)) // www.example.com links to http://
			if c.AutoLinkType == ast.AutoLinkEmail {
				dest = "" // mailto: a scheme that is not a link here
			}
			r.url(b, string(c.Label(r.src)), dest, width)
		case *ast.Image:
			r.text(b, "Image: "+ansi.Strip(r.inline(c, st, width))+" →", r.md.Image)
			b.WriteByte(' ')
			dest := string(unescape(c.Destination))
			r.url(b, dest, dest, width)
		case *ast.RawHTML:
			for i := 0; i < c.Segments.Len(); i++ {
				seg := c.Segments.At(i)
				r.text(b, string(seg.Value(r.src)), r.md.HTML)
			}
		case *east.TaskCheckBox:
			// Drawn as the item's marker.
		default:
			r.inlines(b, c, st, width)
		}
	}
}

// url writes the address shown, linked to dest (when dest is a link),
// on one line: cut short with "…" when wider than width, never broken.
func (r *renderer) url(b *strings.Builder, shown, dest string, width int) {
	shown = sanitize.StripLine(shown, ansi.StringWidth)
	if !r.line && ansi.StringWidth(shown) > width {
		shown = ansi.Truncate(shown, max(width, 1), "…")
	}
	var u strings.Builder
	r.text(&u, shown, r.md.URL)
	b.WriteString(hyperlink(u.String(), dest))
}

// hyperlink makes s a link to dest (OSC 8) when dest is an http or https
// URL of printable ASCII; anything else stays text.
func hyperlink(s, dest string) string {
	target, ok := linkTarget(dest)
	if !ok || s == "" {
		return s
	}
	return ansi.SetHyperlink(target) + s + ansi.ResetHyperlink()
}

// linkTarget is dest as the target of an OSC 8 link: an absolute http or
// https URL with a host, in printable ASCII without spaces (a control, an
// escape or a byte past ASCII refuses it), at most 2 KiB.
func linkTarget(dest string) (string, bool) {
	if len(dest) > 2048 {
		return "", false
	}
	u, err := url.Parse(dest)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return "", false
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return "", false
	}
	target := u.String()
	for i := 0; i < len(target); i++ {
		if target[i] <= ' ' || target[i] >= 0x7f {
			return "", false
		}
	}
	return target, true
}

// closeLink ends a line with its hyperlink closed, if one is still open
// at its end, so a link never runs on past the line it is drawn on.
func closeLink(l string) string {
	i := strings.LastIndex(l, "\x1b]8;")
	if i < 0 {
		return l
	}
	rest := l[i+len("\x1b]8;"):]
	_, uri, ok := strings.Cut(rest, ";")
	if !ok {
		return l
	}
	if end := strings.IndexAny(uri, "\x07\x1b"); end >= 0 {
		uri = uri[:end]
	}
	if uri == "" {
		return l
	}
	return l + ansi.ResetHyperlink()
}

// codeSpan is the text of a code span, as written, its line endings
// spaces (CommonMark's rule).
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
	return strings.ReplaceAll(code.String(), "\n", " ")
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
// on its own, only at spaces (see [Wrap]).
func (r *renderer) wrap(s string, width int) []string {
	if s == "" {
		return []string{""}
	}
	lines, cut := wrapLines(s, width)
	return marked(lines, cut, r.mark())
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
	lines, cut := wrapLines(s, width)
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return marked(lines, cut, r.mark())
}

// mark is the mark of a cut word, styled.
func (r *renderer) mark() string {
	if m := r.md.Break.String(); m != "" {
		return m
	}
	return breakMark
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

// Code is s as Markdown inline code that its own backticks cannot close:
// what is shown between the ticks is s, exactly.
func Code(s string) string {
	ticks := "`"
	for strings.Contains(s, ticks) {
		ticks += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return ticks + s + ticks
}

// Escape is s as Markdown text that shows s exactly: every ASCII
// punctuation character is escaped, so none of them starts emphasis, a
// link or code.
func Escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c > ' ' && c < 0x7f && !alnum(c) {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// alnum reports whether c is an ASCII letter or digit.
func alnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// Fence is text in a Markdown code block of language lang that its own
// backticks cannot close, ending in a new line.
func Fence(lang, text string) string {
	ticks := "```"
	for strings.Contains(text, ticks) {
		ticks += "`"
	}
	return ticks + lang + "\n" + strings.TrimRight(text, "\n") + "\n" + ticks + "\n"
}
