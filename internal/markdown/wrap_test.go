package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/styles"
)

// A command shown for approval wraps only at its spaces: no line ends
// inside "--listen-address" (as a wrap at hyphens had it, "--listen-" and
// "address" reading as two arguments), and a word wider than the line is
// cut with the mark at the end of the line. Joined again, the lines give
// the command back, word for word.
func TestWrapBreaksOnlyAtSpaces(t *testing.T) {
	st := styles.For(styles.ThemeMono, true)
	const cmd = "./bin/server --config config/production.yaml --listen-address 0.0.0.0:8080 --tls-cert=/etc/ssl/private/a-very-long-certificate-name.pem"
	words := strings.Fields(cmd)
	for width := 6; width <= 80; width++ {
		lines := Render("```sh\n"+cmd+"\n```", width+2, st)
		var joined strings.Builder
		for i, l := range lines {
			text := strings.TrimPrefix(ansi.Strip(l), "  ")
			if ansi.StringWidth(text) > width {
				t.Fatalf("width %d: line %d is wider: %q", width, i, text)
			}
			if cut, ok := strings.CutSuffix(text, "↩"); ok {
				joined.WriteString(cut) // the word goes on on the next line
				continue
			}
			joined.WriteString(text + " ")
		}
		if got := strings.Fields(joined.String()); strings.Join(got, " ") != strings.Join(words, " ") {
			t.Fatalf("width %d: the lines give back %q, want %q:\n%s", width, got, words, strings.Join(lines, "\n"))
		}
	}
	// At the width the issue saw, the flag and its value stay whole.
	got := plain(Render("```sh\n./bin/server --config config/production.yaml --listen-address 0.0.0.0:8080\n```", 56, st))
	if want := "  ./bin/server --config config/production.yaml\n  --listen-address 0.0.0.0:8080\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Prose and inline code wrap the same way, and a word cut is marked.
func TestWrapMarksACutWord(t *testing.T) {
	st := styles.For(styles.ThemeMono, true)
	tests := []struct {
		name, in string
		width    int
		want     string
	}{
		{"inline code stays whole", "Run `--listen-address` now", 17, "Run\n--listen-address\nnow\n"},
		{"a hyphenated word stays whole", "a well-known thing", 8, "a\nwell-kn↩\nown\nthing\n"},
		{"a word wider than the line", "abcdefghijk", 4, "abc↩\ndef↩\nghi↩\njk\n"},
		{"indentation is kept", "```\n    deep --flag\n```", 14, "      deep\n  --flag\n"},
		{"wide characters", "中文中文中文", 7, "中文中↩\n文中文\n"},
		{"no room for the mark", "abc", 1, "a\nb\nc\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := plain(Render(tt.in, tt.width, st)); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// Each line is styled on its own: a cut inside styled text closes the
// style before the mark and opens it again on the next line, and the mark
// is drawn in its own style.
func TestWrapStylesEachLine(t *testing.T) {
	st := styles.For(styles.ThemeDark, true)
	lines := Wrap(st.Code.String.Render("abcdefgh"), 5, st)
	if len(lines) != 2 {
		t.Fatalf("lines = %q", lines)
	}
	if !strings.HasSuffix(lines[0], st.Markdown.Break.String()) || !strings.HasPrefix(lines[0], "\x1b[") || !strings.HasPrefix(lines[1], "\x1b[") {
		t.Errorf("lines = %q", lines)
	}
	if got := ansi.Strip(lines[0]) + "|" + ansi.Strip(lines[1]); got != "abcd↩|efgh" {
		t.Errorf("shows %q", got)
	}
}
