package markdown

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/styles"
)

func plain(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(ansi.Strip(l))
		b.WriteByte('\n')
	}
	return b.String()
}

func TestBlocks(t *testing.T) {
	st := styles.For(styles.ThemeDark, true)
	tests := []struct{ name, in, want string }{
		{"headings", "# Title\n\n## Two\n\ntext", " Title\n\n## Two\n\ntext\n"},
		{"paragraph wraps", "one two three four five six", "one two three four\nfive six\n"},
		{"soft and hard breaks", "a\nb  \nc", "a b\nc\n"},
		{"emphasis and code", "**b** *i* ~~s~~ `c`", "b i s c\n"},
		{"escapes and references", `\*not\* &amp; &lt;x&gt; &#65;`, "*not* & <x> A\n"},
		{"a control by reference is marked", "a&#27;[31mb", "a␛[31mb\n"},
		{"link", "[docs](https://x.example/d) <https://y.example>", "docs\nhttps://x.example/\nd\nhttps://y.example\n"},
		{"list", "- one\n- two words that wrap here\n  - nested", "• one\n• two words that\n  wrap here\n  • nested\n"},
		{"ordered and tasks", "1. a\n2. b\n\n- [x] done\n- [ ] open", "1. a\n2. b\n\n[✓] done\n[ ] open\n"},
		{"quote", "> quoted\n>\n> again", "│ quoted\n│\n│ again\n"},
		{"rule", "---", "────────\n"},
		{"code", "```go\nfunc f() {}\n```", "  func f() {}\n"},
		{"indented code", "    x := 1", "  x := 1\n"},
		{"image", "![alt](https://i/p.png)", "Image: alt →\nhttps://i/p.png\n"},
		{"table", "| a | b |\n|---|--:|\n| 1 | 22 |", " a       │      b\n─────────┼────────\n 1       │     22\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := plain(Render(tt.in, 18, st)); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// Every line fits its width, in every theme, at every width; the mono
// palette draws no colour.
func TestFits(t *testing.T) {
	corpus, err := os.ReadFile("testdata/corpus.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, th := range []styles.Theme{styles.ThemeDark, styles.ThemeLight, styles.ThemeANSI, styles.ThemeMono} {
		st := styles.For(th, true)
		for width := 10; width <= 120; width += 7 {
			lines := Render(string(corpus), width, st)
			if len(lines) == 0 {
				t.Fatalf("%s at %d: nothing drawn", th, width)
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > width {
					t.Errorf("%s at %d: line %d is %d wide: %q", th, width, i, w, ansi.Strip(l))
				}
				if strings.HasSuffix(ansi.Strip(l), " ") {
					t.Errorf("%s at %d: line %d has trailing spaces: %q", th, width, i, ansi.Strip(l))
				}
				if th == styles.ThemeMono && hasColour(l) {
					t.Errorf("mono at %d: line %d has colour: %q", width, i, l)
				}
			}
		}
	}
}

var sgr = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// hasColour reports whether s sets a foreground or background colour.
func hasColour(s string) bool {
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		for _, p := range strings.Split(m[1], ";") {
			n, _ := strconv.Atoi(p)
			if n >= 30 && n <= 48 && n != 39 || n >= 90 && n <= 107 {
				return true
			}
		}
	}
	return false
}

// Fenced code is coloured in the palette's code styles.
func TestCodeHighlighted(t *testing.T) {
	st := styles.For(styles.ThemeDark, true)
	lines := Render("```go\nfunc f() { return }\n```", 40, st)
	if len(lines) != 1 || !strings.Contains(lines[0], st.Code.Keyword.Render("func")) || !strings.Contains(lines[0], st.Code.Keyword.Render("return")) {
		t.Errorf("keywords not coloured: %q", lines)
	}
	unknown := Render("```klingon\nqapla'\n```", 40, st)
	if len(unknown) != 1 || ansi.Strip(unknown[0]) != "  qapla'" {
		t.Errorf("unknown language: %q", unknown)
	}
}

// BenchmarkRender draws testdata/corpus.md (every kind of block, and Go
// code) at 80 columns; BenchmarkFirstRender is the first text a process
// draws, with the parser and the Go lexer still to be built (run it with
// -benchtime 1x -count N: only the first op of a process is cold).
func BenchmarkRender(b *testing.B) {
	corpus, err := os.ReadFile("testdata/corpus.md")
	if err != nil {
		b.Fatal(err)
	}
	st := styles.For(styles.ThemeDark, true)
	b.ReportAllocs()
	for range b.N {
		Render(string(corpus), 80, st)
	}
}
