package cell

import (
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// Width's fast path agrees with the grapheme-aware width on every
// printable code point, alone and among asktui's glyphs, and on strings
// whose runes join clusters.
func TestCellWidthMatchesGraphemes(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
	for r := rune(0x20); r < 0x30000; r++ {
		if unicode.IsPrint(r) {
			check(string(r))
			check("❯ " + string(r) + " · │")
		}
	}
	for _, s := range []string{"👩‍💻 codex", "e\u0301", "🇫🇷 flag", "👍🏽", "☺\ufe0f", "ka\u0cf3", "\x1b[1mbold ○\x1b[0m"} {
		check(s)
	}
}
