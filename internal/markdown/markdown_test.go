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
		{"line breaks are kept", "a\nb  \nc", "a\nb\nc\n"},
		{"emphasis and code", "**b** *i* ~~s~~ `c`", "b i s c\n"},
		{"escapes and references", `\*not\* &amp; &lt;x&gt; &#65;`, "*not* & <x> A\n"},
		{"a control by reference is marked", "a&#27;[31mb", "a␛[31mb\n"},
		{"a URL is never broken", "[docs](https://x.example/d) <https://y.example>", "docs\nhttps://x.example…\nhttps://y.example\n"},
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

// http and https links are OSC 8 hyperlinks to their whole target, on
// every line they are drawn on; other schemes, and a target that would
// carry an escape or a control, are text.
func TestLinks(t *testing.T) {
	st := styles.For(styles.ThemeDark, true)
	link := func(target string) string { return "\x1b]8;;" + target }
	tests := []struct {
		name, in string
		links    []string // targets linked
		text     string   // what shows
	}{
		{"http", "[docs](http://x.example/d)", []string{"http://x.example/d"}, "docs http://x.example/d"},
		{"a long URL links whole", "<https://example.com/a/very/long/path/that/does/not/fit>", []string{"https://example.com/a/very/long/path/that/does/not/fit"}, "https://example.com/a/ver…"},
		{"bare", "see https://y.example/z now", []string{"https://y.example/z"}, "see https://y.example/z now"},
		{"www", "www.example.com", []string{"http://www.example.com"}, "www.example.com"},
		{"mailto is text", "<me@example.com>", nil, "me@example.com"},
		{"javascript is text", "[x](javascript:alert(1))", nil, "x javascript:alert(1)"},
		{"file is text", "[x](file:///etc/passwd)", nil, "x file:///etc/passwd"},
		{"an escape by reference", "[x](https://e.example/&#27;]8;;evil&#7;)", nil, "x https://e.example/␛"}, // the escape goes whole, and leaves its mark
		{"a space", "[x](<https://e.example/a b>)", []string{"https://e.example/a%20b"}, "x https://e.example/a b"},
		{"a raw escape", "[x](<https://e.example/\x1b]8;;evil\x07>)", nil, "x https://e.example/␛"}, // the escape goes whole, and leaves its mark
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := Render(tt.in, 26, st)
			all := strings.Join(lines, "\n")
			for _, want := range tt.links {
				if !strings.Contains(all, link(want)+"\x1b\\") && !strings.Contains(all, link(want)+"\a") {
					t.Errorf("no link to %q in %q", want, all)
				}
			}
			if tt.links == nil && strings.Contains(all, "\x1b]8;;h") {
				t.Errorf("a link in %q", all)
			}
			if got := strings.Join(strings.Fields(ansi.Strip(all)), " "); got != tt.text {
				t.Errorf("shows %q, want %q", got, tt.text)
			}
			for _, l := range lines {
				if strings.Count(l, "\x1b]8;;h") > strings.Count(l, "\x1b]8;;\a") {
					t.Errorf("a link left open at the end of %q", l)
				}
			}
		})
	}
}

// Line draws inline Markdown on one line; Plain drops its marks.
func TestLineAndPlain(t *testing.T) {
	st := styles.For(styles.ThemeDark, true)
	in := "Deploy **now**, `v2`\nor *later*? [docs](https://x.example)"
	if got := ansi.Strip(Line(in, st, st.Markdown.Text)); got != "Deploy now, v2 or later? docs https://x.example" {
		t.Errorf("Line = %q", got)
	}
	if got := Line(in, st, st.Markdown.Text); !strings.Contains(got, "\x1b[1;") {
		t.Errorf("Line does not style: %q", got)
	}
	if got := Plain(in); got != "Deploy now, v2 or later? docs https://x.example" {
		t.Errorf("Plain = %q", got)
	}
	if got := Plain("# Title\n\n```\ncode here\n```\n\n- item"); got != "Title code here item" {
		t.Errorf("Plain of blocks = %q", got)
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

// Escape shows text exactly: no emphasis, link or code out of its marks.
func TestEscape(t *testing.T) {
	st := styles.For(styles.ThemeMono, true)
	for _, s := range []string{"mcp__github__create_issue", "*a* _b_ `c` [d](e) <f> # g \\h", "plain 123"} {
		if got := ansi.Strip(Line(Escape(s), st, st.Markdown.Text)); got != s {
			t.Errorf("Line(Escape(%q)) = %q", s, got)
		}
	}
}
