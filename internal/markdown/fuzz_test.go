package markdown

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/styles"
)

// allowed are the escape sequences a rendering may hold: colours and
// attributes (SGR), and OSC 8 hyperlinks to an http or https target in
// printable ASCII, or the reset of one.
var allowed = regexp.MustCompile("\x1b\\[[0-9;:]*m|\x1b\\]8;;(?:https?://[!-~]+)?\a")

// FuzzRender draws Markdown an agent could write at every width from 1
// to 200: it never panics, never draws a line wider than the width,
// leaves no escape sequence but colours and http(s) hyperlinks, no
// control character, and no hyperlink open at the end of a line. Line and
// Plain hold to the same, on one line.
func FuzzRender(f *testing.F) {
	corpus, err := os.ReadFile("testdata/corpus.md")
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		string(corpus),
		"[docs](https://x.example/d) <https://y.example> www.z.example me@m.example",
		"[x](<https://e.example/\x1b]8;;evil\x07>) [y](javascript:alert(1)) [z](https://e.example/&#27;[31m)",
		"| a | b |\n|---|--:|\n| https://a.example/very/long/url | 22 |",
		"- [x] `code` **bold *both*** ~~gone~~\n  1. nested\n\n> quote https://q.example\n\n```go\nfunc f() {}\n```",
		"line one\nline two  \nthree\\\nfour",
	} {
		f.Add(seed, uint8(10))
		f.Add(seed, uint8(1))
	}
	st := styles.For(styles.ThemeDark, true)
	f.Fuzz(func(t *testing.T, src string, w uint8) {
		width := int(w)%200 + 1
		for i, l := range Render(src, width, st) {
			if n := ansi.StringWidth(l); n > width {
				t.Errorf("line %d is %d wide at %d: %q", i, n, width, l)
			}
			inert(t, l)
			if strings.Count(l, "\x1b]8;;h") != strings.Count(l, "\x1b]8;;\a") {
				t.Errorf("line %d leaves a hyperlink open: %q", i, l)
			}
		}
		line := Line(src, st, st.Markdown.Text)
		if strings.Contains(line, "\n") {
			t.Errorf("Line drew two lines: %q", line)
		}
		inert(t, line)
		if p := Plain(src); strings.ContainsAny(p, "\x1b\n") {
			t.Errorf("Plain has an escape or a break: %q", p)
		}
	})
}

// inert fails when l holds an escape sequence it may not, or a control.
func inert(t *testing.T, l string) {
	t.Helper()
	rest := allowed.ReplaceAllString(l, "")
	for _, r := range rest {
		if r == 0x1b || unicode.IsControl(r) {
			t.Errorf("%U left in %q", r, l)
			return
		}
	}
}
