package styles

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"

	"charm.land/glamour/v2/ansi"
	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// Markdown returns the glamour style for Markdown (question details,
// option previews, agents' messages), derived from the same palette as
// every other style: code blocks are coloured with it too, and the mono
// palette gives Markdown with no colour at all.
func (s *Styles) Markdown() ansi.StyleConfig { return s.markdown }

// MarkdownFormatter is the chroma formatter for Markdown's code blocks:
// the ANSI palette's code stays within the terminal's 16 colours.
func (s *Styles) MarkdownFormatter() string { return s.codeFormatter }

// Code highlighting in Markdown: glamour registers the chroma style of a
// StyleConfig under one global name the first time it renders, so two
// palettes in one process would share the first one's colours. Each
// built-in palette's style is registered here once, under its own name,
// and a StyleConfig names it.
var (
	codeThemesOnce sync.Once
	codeThemes     = map[string]string{} // palette fingerprint → chroma style name
)

// fingerprint names a palette by its colours.
func fingerprint(p Palette) string {
	var b strings.Builder
	for _, c := range []color.Color{p.Fg, p.Muted, p.Subtle, p.Accent, p.Highlight, p.Success, p.Warning, p.Error, p.OnAccent} {
		if v := colorString(c); v != nil {
			b.WriteString(*v)
		}
		b.WriteByte(',')
	}
	return b.String()
}

// ansiHex stands in for the 16 ANSI colours in a chroma style; the
// terminal16 formatter maps them back to the terminal's own.
var ansiHex = map[string]string{
	"0": "#000000", "1": "#800000", "2": "#008000", "3": "#808000", "4": "#000080", "5": "#800080", "6": "#008080", "7": "#c0c0c0",
	"8": "#808080", "9": "#ff0000", "10": "#00ff00", "11": "#ffff00", "12": "#0000ff", "13": "#ff00ff", "14": "#00ffff", "15": "#ffffff",
}

// chromaColor is c in a chroma style entry ("#rrggbb"), or "".
func chromaColor(c color.Color) string {
	v := colorString(c)
	switch {
	case v == nil:
		return ""
	case strings.HasPrefix(*v, "#"):
		return *v
	}
	return ansiHex[*v]
}

// codeTheme registers the built-in palettes' code styles (once) and
// returns p's, or "" (plain code) for a palette of its own.
func codeTheme(p Palette) string {
	codeThemesOnce.Do(func() {
		for name, pal := range map[string]Palette{"dark": DarkPalette(), "light": LightPalette(), "ansi": ANSIPalette(), "mono": MonoPalette()} {
			styleName := "asktui-" + name
			if _, ok := chromastyles.Registry[styleName]; !ok {
				chromastyles.Register(chroma.MustNewStyle(styleName, codeEntries(pal)))
			}
			codeThemes[fingerprint(pal)] = styleName
		}
	})
	return codeThemes[fingerprint(p)]
}

// codeEntries is the chroma style of a palette.
func codeEntries(p Palette) chroma.StyleEntries {
	e := func(c color.Color, attrs ...string) string {
		parts := attrs
		if v := chromaColor(c); v != "" {
			parts = append([]string{v}, attrs...)
		}
		return strings.Join(parts, " ")
	}
	return chroma.StyleEntries{
		chroma.Text:              e(p.Fg),
		chroma.Error:             e(p.Error),
		chroma.Comment:           e(p.Muted, "italic"),
		chroma.CommentPreproc:    e(p.Highlight),
		chroma.Keyword:           e(p.Accent, "bold"),
		chroma.KeywordType:       e(p.Highlight),
		chroma.Operator:          e(p.Muted),
		chroma.Punctuation:       e(p.Muted),
		chroma.Name:              e(p.Fg),
		chroma.NameBuiltin:       e(p.Highlight),
		chroma.NameTag:           e(p.Accent),
		chroma.NameAttribute:     e(p.Highlight),
		chroma.NameClass:         e(p.Highlight, "bold"),
		chroma.NameDecorator:     e(p.Warning),
		chroma.NameFunction:      e(p.Success),
		chroma.LiteralNumber:     e(p.Warning),
		chroma.LiteralString:     e(p.Success),
		chroma.GenericDeleted:    e(p.Error),
		chroma.GenericInserted:   e(p.Success),
		chroma.GenericEmph:       "italic",
		chroma.GenericStrong:     "bold",
		chroma.GenericSubheading: e(p.Muted),
	}
}

// colorString is c as glamour reads a colour ("#rrggbb" or an ANSI
// number), or nil for no colour.
func colorString(c color.Color) *string {
	var v string
	switch c := c.(type) {
	case nil, lipgloss.NoColor:
		return nil
	case xansi.BasicColor:
		v = strconv.Itoa(int(c))
	case xansi.IndexedColor:
		v = strconv.Itoa(int(c))
	default:
		r, g, b, _ := c.RGBA()
		v = fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
	}
	return &v
}

// mono returns true (for Inverse) when the palette has no colour, so a
// heading still stands out; nil otherwise.
func mono(p Palette) *bool {
	if _, ok := p.Accent.(lipgloss.NoColor); ok {
		yes := true
		return &yes
	}
	return nil
}

func markdownStyle(p Palette) ansi.StyleConfig {
	yes := true
	zero := uint(0)
	two := uint(2)
	one := uint(1)
	bar := "│ "
	c := colorString
	prim := func(col color.Color) ansi.StylePrimitive { return ansi.StylePrimitive{Color: c(col)} }
	return ansi.StyleConfig{
		Document:       ansi.StyleBlock{StylePrimitive: prim(p.Fg), Margin: &zero},
		Paragraph:      ansi.StyleBlock{},
		BlockQuote:     ansi.StyleBlock{StylePrimitive: prim(p.Muted), Indent: &one, IndentToken: &bar},
		List:           ansi.StyleList{LevelIndent: 2},
		Heading:        ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{BlockSuffix: "\n", Color: c(p.Accent), Bold: &yes}},
		H1:             ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: " ", Suffix: " ", Color: c(p.OnAccent), BackgroundColor: c(p.Accent), Inverse: mono(p)}},
		H2:             ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "## "}},
		H3:             ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "### "}},
		H4:             ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "#### "}},
		H5:             ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "##### "}},
		H6:             ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "###### "}},
		Strikethrough:  ansi.StylePrimitive{CrossedOut: &yes},
		Emph:           ansi.StylePrimitive{Italic: &yes},
		Strong:         ansi.StylePrimitive{Bold: &yes},
		HorizontalRule: ansi.StylePrimitive{Color: c(p.Subtle), Format: "\n────────\n"},
		Item:           ansi.StylePrimitive{BlockPrefix: "• "},
		Enumeration:    ansi.StylePrimitive{BlockPrefix: ". "},
		Task:           ansi.StyleTask{Ticked: "[✓] ", Unticked: "[ ] "},
		Link:           ansi.StylePrimitive{Color: c(p.Accent), Underline: &yes},
		LinkText:       ansi.StylePrimitive{Color: c(p.Accent), Bold: &yes},
		Image:          ansi.StylePrimitive{Color: c(p.Accent), Underline: &yes},
		ImageText:      ansi.StylePrimitive{Color: c(p.Muted), Format: "Image: {{.text}} →"},
		Code:           ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Color: c(p.Highlight)}},
		CodeBlock: ansi.StyleCodeBlock{
			StyleBlock: ansi.StyleBlock{StylePrimitive: prim(p.Fg), Margin: &two},
			Theme:      codeTheme(p),
		},
		Table:                 ansi.StyleTable{StyleBlock: ansi.StyleBlock{StylePrimitive: prim(p.Fg)}},
		DefinitionDescription: ansi.StylePrimitive{BlockPrefix: "\n→ "},
	}
}
