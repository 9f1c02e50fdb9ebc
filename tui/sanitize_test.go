package tui

import (
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/internal/sanitize"
)

// The sanitiser itself, and its tests, live in internal/sanitize. These
// tests cover what tui adds: cells measured as the screen measures them.

func TestSanitizeMeasuresCells(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"tab after wide chars", "日本\tx", "日本    x"},
		{"tab after emoji", "🎉\tx", "🎉  x"},
		{"tab after a family emoji, one grapheme", "👩‍👩‍👧\tx", "👩‍👩‍👧  x"},
		{"tab after a combining accent", "e\u0301\tx", "e\u0301   x"},
		{"tabs per line", "a\tb\nxyzuv\tc", "a   b\nxyzuv   c"},
	}
	for _, tt := range tests {
		if got := Sanitize(tt.in); got != tt.want {
			t.Errorf("%s: Sanitize(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
	if got, want := SanitizeLine("a\tb\nxyzuv\tc"), "a   b xyzuv c"; got != want {
		t.Errorf("SanitizeLine = %q, want %q", got, want)
	}
}

func TestSanitizeCleanDoesNotAllocate(t *testing.T) {
	clean := "Postgres — managed, in the cloud 日本 🎉\nline two"
	if n := testing.AllocsPerRun(100, func() { _ = Sanitize(clean) }); n != 0 {
		t.Errorf("Sanitize of clean text allocates %v times, want 0", n)
	}
	line := "Postgres — managed, in the cloud 日本 🎉"
	if n := testing.AllocsPerRun(100, func() { _ = SanitizeLine(line) }); n != 0 {
		t.Errorf("SanitizeLine of clean text allocates %v times, want 0", n)
	}
}

// FuzzStripEscapesMatchesANSI holds sanitize.StripEscapes, the parser
// that replaced ansi.Strip in the sanitiser, to ansi.Strip's output byte
// for byte on any input, so the sanitiser's output did not change.
func FuzzStripEscapesMatchesANSI(f *testing.F) {
	for _, s := range []string{
		"", "plain label", "\x1b]0;pwned\x07title", "\x1b[2Jhi", "a\x1b[31mred\x1b[0m",
		"\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\", "a\x1bP1$r\x1b\\b", "\u009b31mX", "\x9b31mX",
		"abc\x1b]0;evil", "a\tb\r\nc\rd", "\u202eabc\u2066", "bad\xff\xfeok", "日本語 🎉\t👩‍👩‍👧",
		"\x1b\u009b\u009d\x1b]\u0090\x1bP\x1b_\u009f\x1b^\u009e\x1bX\u0098", "\x1b[\xe6\x97\xa5m", "\x1b]\xdc\x9c rest",
		"\x1bP\n\x1b\\", "\x1bP1;2 q\x18x", "\x1b_x\x85y", "\x1b_x\xe2\x82\xac", "\x1b[ 1x", "\x1b( 0x",
		"\x1b\x7f[x", "\x90\x1b\x1b\\y", "\x98\xc3", "\xc3\x1b[31m", "\xf4\x8f\xbf\xbf\x1b", "\xf5\xa0\xc1z",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := sanitize.StripEscapes(s), ansi.Strip(s); got != want {
			t.Fatalf("StripEscapes(%q) = %q, ansi.Strip = %q", s, got, want)
		}
	})
}

// TestStripEscapesMatchesANSIExhaustively compares the parsers on every
// sequence of up to three bytes after each way into a sequence: every
// state and every move between states.
func TestStripEscapesMatchesANSIExhaustively(t *testing.T) {
	prefixes := []string{"", "\x1b", "\x1b ", "\x1b[", "\x1b[1", "\x1b[ ", "\x1bP", "\x1bP1", "\x1bP ", "\x1bPq",
		"\x1b]", "\x1bX", "\x1b^", "\x1b_", "\x90", "\x9b", "\x9d", "\x98"}
	buf := make([]byte, 0, 8)
	for _, p := range prefixes {
		for a := range 256 {
			for b := range 256 {
				buf = append(append(buf[:0], p...), byte(a), byte(b), 'z')
				s := string(buf)
				if got, want := sanitize.StripEscapes(s), ansi.Strip(s); got != want {
					t.Fatalf("StripEscapes(%q) = %q, ansi.Strip = %q", s, got, want)
				}
			}
		}
	}
}
