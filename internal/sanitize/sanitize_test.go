package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// cells stands in for the screen's cell width (the tui package passes
// ansi.StringWidth and tests the real one): two cells for the CJK and
// emoji blocks these tests use, a zero-width joiner and a combining accent
// none, one for anything else.
func cells(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r == 0x200d, r == 0x0301:
		case 0x2e80 <= r && r <= 0xa4cf, 0xac00 <= r && r <= 0xd7a3, 0x1f300 <= r && r <= 0x1faff:
			n += 2
		default:
			n++
		}
	}
	return n
}

func TestStrip(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
		line string // StripLine's result when it differs from want
	}{
		{"plain", "Pick a database", "Pick a database", ""},
		{"empty", "", "", ""},
		{"OSC title with BEL", "\x1b]0;pwned\x07title", "␛title", ""},
		{"OSC title with ST", "\x1b]2;pwned\x1b\\title", "␛title", ""},
		{"CSI clear screen", "\x1b[2Jhi", "␛hi", ""},
		{"SGR colours", "a\x1b[31mred\x1b[0m", "a␛red␛", ""},
		{"CSI with private prefix", "\x1b[?1049hx\x1b[?25l", "␛x␛", ""},
		{"cursor moves", "a\x1b[10;20Hb\x1b[3Ac", "a␛b␛c", ""},
		{"OSC 8 hyperlink keeps its text", "see \x1b]8;;https://evil.example\x1b\\the docs\x1b]8;;\x1b\\ now", "see ␛the docs␛ now", ""},
		{"OSC 52 clipboard write", "x\x1b]52;c;cm0gLXJmIC8=\x07y", "x␛y", ""},
		{"DCS", "a\x1bP1$r\x1b\\b", "a␛b", ""},
		{"DCS with payload", "\x1bPq#0;2;0;0;0#0~~@@vv\x1b\\done", "␛done", ""},
		{"SOS", "a\x1bXhidden\x1b\\b", "a␛b", ""},
		{"PM", "a\x1b^hidden\x1b\\b", "a␛b", ""},
		{"APC", "a\x1b_Gf=24;AAAA\x1b\\b", "a␛b", ""},
		{"two-byte ESC", "a\x1bcb\x1b7c\x1b8d", "a␛b␛c␛d", ""},
		{"charset designation", "a\x1b(0lqk\x1b(Bb", "a␛lqk␛b", ""},
		{"C1 CSI", "\u009b31mX", "␛X", ""},
		{"C1 OSC ended by C1 ST", "a\u009d0;evil\u009cb", "a␛b", ""},
		{"C1 OSC ended by BEL", "a\u009d2;evil\u0007b", "a␛b", ""},
		{"C1 DCS", "a\u0090q#0\u009cb", "a␛b", ""},
		{"C1 APC", "a\u009fhidden\u009cb", "a␛b", ""},
		{"7-bit OSC ended by C1 ST", "a\x1b]0;evil\u009cb", "a␛b", ""},
		{"lone C1 controls", "a\u0085b\u0080c\u009cd", "a␛b␛c␛d", ""},
		{"unterminated OSC", "abc\x1b]0;evil", "abc␛", ""},
		{"unterminated OSC swallows newlines", "abc\x1b]0;evil\nmore", "abc␛", ""},
		{"unterminated CSI", "abc\x1b[31", "abc␛", ""},
		{"unterminated DCS", "abc\x1bPevil", "abc␛", ""},
		{"unterminated C1 CSI", "abc\u009b", "abc␛", ""},
		{"trailing ESC", "abc\x1b", "abc␛", ""},
		{"newline kept", "one\ntwo", "one\ntwo", "one two"},
		{"CRLF", "one\r\ntwo\r\n", "one\ntwo\n", "one two "},
		{"lone CR", "100%\rdone", "100%␍done", ""},
		{"tab at start", "\tx", "    x", ""},
		{"tab to next stop", "ab\tc", "ab  c", ""},
		{"tab at a stop", "abcd\te", "abcd    e", ""},
		{"tabs per line", "a\tb\nxyzuv\tc", "a   b\nxyzuv   c", "a   b xyzuv c"},
		{"tab after wide chars", "日本\tx", "日本    x", ""},
		{"tab after emoji", "🎉\tx", "🎉  x", ""},
		{"tab after a stripped sequence", "\x1b[1mab\x1b[0m\tc", "␛ab␛    c", ""},
		{"C0 controls", "a\x00b\x07c\x08d\x0be\x0cf\x1fg", "a␀b␇c␈d␋e␌f␟g", ""},
		{"DEL", "a\x7fb", "a␡b", ""},
		{"bidi override", "\u202eevil.exe\u202c", "\\u202eevil.exe\\u202c", ""},
		{"bidi isolates and marks", "a\u2066b\u2067c\u2068d\u2069e\u200ef\u200fg\u061ch", "a\\u2066b\\u2067c\\u2068d\\u2069e\\u200ef\\u200fg\\u061ch", ""},
		{"all embeddings", "\u202a\u202b\u202c\u202d\u202ex", "\\u202a\\u202b\\u202c\\u202d\\u202ex", ""},
		{"invalid UTF-8", "bad\xff\xfeok", "bad\ufffd\ufffdok", ""},
		{"truncated rune", "ok\xe6\x97", "ok\ufffd\ufffd", ""},
		{"raw 8-bit CSI byte is invalid UTF-8", "\x9b31mX", "\ufffd31mX", ""},
		{"emoji and CJK", "日本語 🎉👩‍👩‍👧 café e\u0301", "日本語 🎉👩‍👩‍👧 café e\u0301", ""},
		{"zero-width joiner kept", "a\u200db", "a\u200db", ""},
		{"non-bidi neighbours kept", "\u200d\u2028\u2065\u206a\u202f", "\u200d\u2028\u2065\u206a\u202f", ""},
		{"Arabic kept", "مرحبا", "مرحبا", ""},
		{"U+00A0 kept", "a\u00a0b", "a\u00a0b", ""},
		{"replacement char kept", "a\ufffdb", "a\ufffdb", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Strip(tt.in, cells); got != tt.want {
				t.Errorf("Strip(%q) = %q, want %q", tt.in, got, tt.want)
			}
			wantLine := tt.line
			if wantLine == "" {
				wantLine = tt.want
			}
			if got := StripLine(tt.in, cells); got != wantLine {
				t.Errorf("StripLine(%q) = %q, want %q", tt.in, got, wantLine)
			}
		})
	}
}

func TestStripCleanDoesNotAllocate(t *testing.T) {
	clean := "Postgres — managed, in the cloud 日本 🎉\nline two"
	if n := testing.AllocsPerRun(100, func() { _ = Strip(clean, cells) }); n != 0 {
		t.Errorf("Strip of clean text allocates %v times, want 0", n)
	}
	line := "Postgres — managed, in the cloud 日本 🎉"
	if n := testing.AllocsPerRun(100, func() { _ = StripLine(line, cells) }); n != 0 {
		t.Errorf("StripLine of clean text allocates %v times, want 0", n)
	}
}

// checkInert fails t if out holds anything Strip must remove.
func checkInert(t *testing.T, in, out string, oneLine bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("output %q of %q is not valid UTF-8", out, in)
	}
	for _, r := range out {
		switch {
		case r == '\n' && oneLine:
			t.Fatalf("StripLine output %q of %q has a newline", out, in)
		case r < 0x20 && r != '\n', r == 0x7f:
			t.Fatalf("output %q of %q has control %U", out, in, r)
		case IsC1(r):
			t.Fatalf("output %q of %q has C1 control %U", out, in, r)
		case IsBidiControl(r):
			t.Fatalf("output %q of %q has bidi control %U", out, in, r)
		}
	}
}

func FuzzStrip(f *testing.F) {
	for _, s := range []string{
		"", "plain label", "\x1b]0;pwned\x07title", "\x1b[2Jhi", "a\x1b[31mred\x1b[0m",
		"\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\", "a\x1bP1$r\x1b\\b", "\u009b31mX", "\x9b31mX",
		"abc\x1b]0;evil", "a\tb\r\nc\rd", "\u202eabc\u2066", "bad\xff\xfeok", "日本語 🎉\t👩‍👩‍👧",
		"\x1b\u009b\u009d\x1b]\u0090\x1bP\x1b_\u009f\x1b^\u009e\x1bX\u0098", "\x1b[\xe6\x97\xa5m", "\x1b]\xdc\x9c rest",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Strip(s, cells)
		checkInert(t, s, out, false)
		if again := Strip(out, cells); again != out {
			t.Fatalf("Strip is not idempotent: %q -> %q -> %q", s, out, again)
		}
		line := StripLine(s, cells)
		checkInert(t, s, line, true)
		if again := StripLine(line, cells); again != line {
			t.Fatalf("StripLine is not idempotent: %q -> %q -> %q", s, line, again)
		}
		if !strings.Contains(s, "\t") {
			if want := strings.ReplaceAll(out, "\n", " "); line != want {
				t.Fatalf("StripLine(%q) = %q, want Strip with spaces for newlines, %q", s, line, want)
			}
		}
		if r := Replace(s, 0); !utf8.ValidString(r) || strings.ContainsFunc(r, func(r rune) bool { return IsControl(r) || IsBidiControl(r) }) {
			t.Fatalf("Replace(%q) = %q still holds a control", s, r)
		}
	})
}

func BenchmarkStrip(b *testing.B) {
	benchmarks := []struct{ name, in string }{
		{"clean", "Postgres (managed) — in the cloud, fast"},
		{"clean-unicode", "日本語のラベル 🎉 café"},
		{"dirty", "\x1b[1mPostgres\x1b[0m\t\u202e(managed)\r\n\x1b]8;;http://x\x1b\\in the cloud\x1b]8;;\x1b\\"},
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			b.SetBytes(int64(len(bm.in)))
			b.ReportAllocs()
			for b.Loop() {
				_ = Strip(bm.in, cells)
			}
		})
	}
}

// TestStripEscapes pins what the parser keeps, which is why Strip has its
// own passes around it.
func TestStripEscapes(t *testing.T) {
	tests := []struct{ in, want, why string }{
		{"\u009b31mX", "\u009b31mX", "leaves C1 code points (UTF-8 encoded) alone"},
		{"a\xffb", "ab", "drops invalid bytes instead of writing U+FFFD"},
		{"a\tb\r\n\a", "a\tb\r\n\a", "keeps C0 controls"},
		{"\u202ex", "\u202ex", "keeps bidi controls"},
		{"abc\x1b]0;evil", "abc", "drops an unterminated OSC"},
		{"a\x1bP1$r\x1b\\b\x1b_x\x1b\\c", "abc", "drops DCS and APC strings"},
		{"a\x9b31mb", "ab", "reads a raw 8-bit CSI"},
		{"a\x9d0;t\x9cb\x90q\x9cc", "abc", "reads raw 8-bit OSC, DCS and ST"},
		{"a\x1b[\nmb", "a\nb", "executes a control inside a sequence"},
		{"a\x1b[1\xe6\x97\xa5m", "a\xe6\x97\xa5m", "ends a CSI at a UTF-8 character, which it keeps"},
		{"\x1b]0;\xdc\x9c rest", " rest", "ends an OSC at a 0x9C byte, even inside a character"},
		{"a\x1b_x\xe2\x82\xacb", "a\xe2\x82\xacb", "keeps a UTF-8 character that ends an APC string"},
		{"a\x1b[ 1b", "ab", "drops a parameter after an intermediate, and ends the CSI there"},
		{"a\x1b[31\x18b", "a\x18b", "executes CAN, which cancels a CSI"},
		{"a\x1b]0;x\x18b", "ab", "lets CAN end an OSC string silently"},
		{"a\x1bP\nq\x1b\\b", "ab", "starts a DCS string at a format effector"},
		{"a\x1b(0b", "ab", "drops a charset designation"},
	}
	for _, tt := range tests {
		if got := StripEscapes(tt.in); got != tt.want {
			t.Errorf("StripEscapes(%q) = %q, want %q: it %s", tt.in, got, tt.want, tt.why)
		}
	}
}

func TestReplace(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  string
	}{
		{"plain", 10, "plain"},
		{"line\nbreak\r\tand tab", 0, "line break  and tab"},
		{"\x1b]52;c;x\x07title", 0, "\ufffd]52;c;x\ufffdtitle"},
		{"a\u009bb\x7fc\x00d", 0, "a\ufffdb\ufffdc\ufffdd"},
		{"\u202eexe.txt\u2066", 0, "\ufffdexe.txt\ufffd"},
		{"bad\xffutf8", 0, "bad\ufffdutf8"},
		{"日本語 🎉", 0, "日本語 🎉"},
		{"abcdef", 3, "abc…"},
		{"abc", 3, "abc"},
		{"日本語です", 2, "日本…"},
	}
	for _, tt := range tests {
		if got := Replace(tt.in, tt.limit); got != tt.want {
			t.Errorf("Replace(%q, %d) = %q, want %q", tt.in, tt.limit, got, tt.want)
		}
	}
}

// TestCharacterSets pins the sets every policy shares.
func TestCharacterSets(t *testing.T) {
	bidi := map[rune]bool{0x061c: true, 0x200e: true, 0x200f: true}
	for r := rune(0x202a); r <= 0x202e; r++ {
		bidi[r] = true
	}
	for r := rune(0x2066); r <= 0x2069; r++ {
		bidi[r] = true
	}
	for r := rune(0); r <= 0x3000; r++ {
		if IsBidiControl(r) != bidi[r] {
			t.Errorf("IsBidiControl(%U) = %v", r, !bidi[r])
		}
		control := r < 0x20 || r == 0x7f || 0x80 <= r && r <= 0x9f
		if IsControl(r) != control {
			t.Errorf("IsControl(%U) = %v", r, !control)
		}
		if IsC1(r) != (0x80 <= r && r <= 0x9f) {
			t.Errorf("IsC1(%U) = %v", r, IsC1(r))
		}
	}
}

// Visible shows a command exactly: nothing removed, nothing joined up,
// every character that acts or hides made visible.
func TestVisible(t *testing.T) {
	for in, want := range map[string]string{ //nolint:gosec // hostile text for the test, no credential
		"ls -la":                      "ls -la",
		"rm\x1b[31m -rf /":            "rm␛[31m -rf /",
		"Bash\u009b31mREDrm -rf /":    `Bash\u009b31mREDrm -rf /`,
		"echo a\rb":                   "echo a␍b",
		"line one\n\tline two":        "line one\n\tline two",
		"a\x00b\x7fc":                 "a␀b␡c",
		"cat secret\u200b.txt":        `cat secret\u200b.txt`,
		"\u202eexe.sh":                `\u202eexe.sh`,
		"tag\U000e0041":               `tag\U000e0041`,
		"bad\xffbyte":                 `bad\xffbyte`,
		"日本 🎉 café":                   "日本 🎉 café",
		`{"a": "\u009b"} as JSON`:     `{"a": "\u009b"} as JSON`,
		"soft\u00adhyphen, BOM\ufeff": `soft\u00adhyphen, BOM\ufeff`,
	} {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
		if got := Visible(in); Strip(got, nil) != got && !strings.Contains(got, "\t") {
			t.Errorf("Visible(%q) = %q is not inert", in, got)
		}
	}
}
