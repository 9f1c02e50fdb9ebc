package highlight

import (
	"embed"
	"io/fs"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"

	"github.com/asktui/asktui/styles"
)

//go:embed lexers/*.xml
var definitions embed.FS

// registry is the curated set, registered on first use.
var registry = sync.OnceValue(func() *chroma.LexerRegistry {
	reg := chroma.NewLexerRegistry()
	paths, err := fs.Glob(definitions, "lexers/*.xml")
	if err != nil {
		panic(err) // the pattern is valid
	}
	for _, p := range paths {
		reg.Register(chroma.MustNewXMLLexer(definitions, p))
	}
	reg.Register(goLexer())
	return reg
})

// Language returns the lexer for a language's name or alias as written
// after a Markdown fence ("go", "py", "TypeScript", "c++"), or for a file
// extension ("rs"); nil when the set has none.
func Language(name string) chroma.Lexer {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil
	}
	return registry().Get(name)
}

// File returns the lexer for a file's name ("main.go", "Dockerfile"), or
// nil when the set has none.
func File(path string) chroma.Lexer {
	if path == "" {
		return nil
	}
	return registry().Match(path)
}

// maxText bounds the code highlighted: longer code is drawn plain, as
// lexing time grows with it.
const maxText = 1 << 20

// Lines colours text with lexer in the palette's code styles and returns
// it as lines, each styled on its own. With no lexer (or code too long to
// lex) the lines are plain.
func Lines(lexer chroma.Lexer, text string, st *styles.Styles) []string {
	raw := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if lexer == nil || len(text) > maxText {
		return plain(raw, st)
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, text)
	if err != nil {
		return plain(raw, st)
	}
	out := make([]string, 0, len(raw))
	var cur strings.Builder
	for tok := it(); tok != chroma.EOF; tok = it() {
		style := Style(tok.Type, st)
		for i, part := range strings.Split(tok.Value, "\n") {
			if i > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
			if part != "" {
				cur.WriteString(style.Render(part))
			}
		}
	}
	if cur.Len() > 0 || len(out) < len(raw) {
		out = append(out, cur.String())
	}
	return out
}

func plain(lines []string, st *styles.Styles) []string {
	for i, l := range lines {
		lines[i] = st.Code.Plain.Render(l)
	}
	return lines
}

// Style is the palette's style of a token. (Chroma's name tokens all
// share one subcategory, so names are told apart one by one.)
func Style(t chroma.TokenType, st *styles.Styles) lipgloss.Style {
	c := st.Code
	switch {
	case t == chroma.KeywordType:
		return c.Type
	case t.InCategory(chroma.Keyword):
		return c.Keyword
	case t == chroma.NameFunction, t == chroma.NameFunctionMagic, t == chroma.NameDecorator:
		return c.Function
	case t == chroma.NameClass, t == chroma.NameBuiltin, t == chroma.NameBuiltinPseudo, t == chroma.NameTag,
		t == chroma.NameException, t == chroma.NameNamespace:
		return c.Type
	case t.InSubCategory(chroma.LiteralString):
		return c.String
	case t.InSubCategory(chroma.LiteralNumber):
		return c.Number
	case t.InCategory(chroma.Comment):
		return c.Comment
	case t.InCategory(chroma.Operator), t.InCategory(chroma.Punctuation):
		return c.Operator
	case t == chroma.GenericDeleted:
		return st.Diff.Removed
	case t == chroma.GenericInserted:
		return st.Diff.Added
	}
	return c.Plain
}
