package main

import (
	"io"
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"
)

func TestSummarize(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want summary
	}{
		{[]float64{3}, summary{3, 3, 3}},
		{[]float64{5, 1, 3}, summary{1, 3, 5}},
		{[]float64{4, 1, 3, 2}, summary{1, 2.5, 4}},
	} {
		if got := summarize(tc.xs); got != tc.want {
			t.Errorf("summarize(%v) = %+v, want %+v", tc.xs, got, tc.want)
		}
	}
	if s := summarize(nil); !math.IsNaN(s.median) {
		t.Errorf("summarize(nil).median = %v, want NaN", s.median)
	}
	xs := []float64{3, 1, 2}
	summarize(xs)
	if xs[0] != 3 {
		t.Errorf("summarize sorted its argument: %v", xs)
	}
}

func TestPair(t *testing.T) {
	a := []float64{10, 30, 20, 40}
	b := []float64{20, 30, 10, 80}
	p := pair(a, b)
	// Ratios 0.5, 1, 2, 0.5.
	if p.ratioMedian != 0.75 || p.ratioWorst != 2 {
		t.Errorf("ratio median %v worst %v, want 0.75 and 2", p.ratioMedian, p.ratioWorst)
	}
	if p.aLEbEvery || p.pairsALEB != 3 || p.pairs != 4 {
		t.Errorf("a ≤ b: every %v, %d of %d; want false, 3 of 4", p.aLEbEvery, p.pairsALEB, p.pairs)
	}
	if p := pair([]float64{1, 2}, []float64{1, 3}); !p.aLEbEvery {
		t.Error("a ≤ b in every pair, but aLEbEvery is false")
	}
	if p := pair(nil, nil); p.aLEbEvery || !math.IsNaN(p.ratioMedian) || !math.IsNaN(p.ratioWorst) {
		t.Errorf("no pairs: %+v", p)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 10: "10", 999: "999", 1000: "1,000", 100000: "100,000", 1234567: "1,234,567", -1000: "-1,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestPresses(t *testing.T) {
	for _, tc := range []struct{ downs, n, want int }{{10, 10, 9}, {10, 11, 10}, {10, 100000, 10}, {0, 10, 0}} {
		if got := presses(tc.downs, tc.n); got != tc.want {
			t.Errorf("presses(%d, %d) = %d, want %d", tc.downs, tc.n, got, tc.want)
		}
	}
}

func TestOption1Row(t *testing.T) {
	for screen, want := range map[string]bool{
		"> Option 1\n  Option 2":         true,
		" ❯ 1. ○ Option 1":               true,
		"  Option 1 ":                    true,
		"  Option 10\n  Option 19":       false,
		"> 9\n  Option 9\n  Option 19\n": false,
	} {
		if got := option1Row.MatchString(screen); got != want {
			t.Errorf("option1Row on %q = %v, want %v", screen, got, want)
		}
	}
}

// replies feeds input to an emulator set up by answerQueries and returns
// everything it answered.
func replies(t *testing.T, input string) (string, *queryLog) {
	t.Helper()
	emu := vt.NewEmulator(cols, rows)
	log := newQueryLog()
	answerQueries(emu, log)
	got := make(chan string)
	go func() {
		b, _ := io.ReadAll(emu)
		got <- string(b)
	}()
	if _, err := emu.Write([]byte(input)); err != nil {
		t.Fatal(err)
	}
	if err := emu.InputPipe().(io.Closer).Close(); err != nil {
		t.Fatal(err)
	}
	return <-got, log
}

func TestAnswerQueries(t *testing.T) {
	for _, tc := range []struct{ name, query, want string }{
		{"cursor position", "\x1b[3;7H\x1b[6n", "\x1b[3;7R"},
		{"primary device attributes", "\x1b[c", "\x1b[?62;1;6;22c"},
		{"background colour", "\x1b]11;?\x07", "\x1b]11;rgb:1c1c/1c1c/1c1c\x07"},
		{"foreground colour", "\x1b]10;?\x1b\\", "\x1b]10;rgb:d0d0/d0d0/d0d0\x07"},
		{"DECRQM of a known mode", "\x1b[?25$p", "\x1b[?25;1$y"},
		{"DECRQM of an unknown mode", "\x1b[?2026$p", "\x1b[?2026;0$y"},
		{"XTVERSION", "\x1b[>q", "\x1bP>|ptybench(1.0)\x1b\\"},
		{"XTVERSION with 0", "\x1b[>0q", "\x1bP>|ptybench(1.0)\x1b\\"},
		{"kitty flags, none pushed", "\x1b[?u", "\x1b[?0u"},
		{"kitty flags after a push", "\x1b[>1u\x1b[?u", "\x1b[?1u"},
		{"kitty flags after push, set and pop", "\x1b[>1u\x1b[=4;2u\x1b[?u\x1b[<u\x1b[?u", "\x1b[?5u\x1b[?0u"},
		{"window size", "\x1b[18t", "\x1b[8;40;120t"},
		{"window size in pixels", "\x1b[14t", "\x1b[4;800;1200t"},
		{"XTGETTCAP", "\x1bP+q524742\x1b\\", "\x1bP0+r524742\x1b\\"},
		{"no query", "hello \x1b[1mworld\x1b[m", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := replies(t, tc.query)
			if got != tc.want {
				t.Errorf("reply to %q = %q, want %q", tc.query, got, tc.want)
			}
		})
	}
}

func TestQueryLog(t *testing.T) {
	_, log := replies(t, "\x1b[c\x1b[6n\x1b[?2026$p\x1b]11;?\x07\x1b[?u")
	log.started()
	got := log.String()
	for _, want := range []string{"DA1 (CSI c) ×1", "cursor position (CSI 6 n) ×1", "DECRQM ?2026 ×1", "colour (OSC 11 ?) ×1", "kitty keyboard flags (CSI ? u) ×1"} {
		if !strings.Contains(got, want) {
			t.Errorf("query log %q lacks %q", got, want)
		}
	}
	if got := newQueryLog().String(); got != "none" {
		t.Errorf("empty query log = %q, want none", got)
	}
}

func TestChildEnv(t *testing.T) {
	env := childEnv([]string{"PATH=/bin", "TERM=dumb", "NO_COLOR=1", "GUM_CHOOSE_HEIGHT=3", "HOME=/root", "COLORTERM=no"})
	want := []string{"PATH=/bin", "HOME=/root", "TERM=xterm-256color", "COLORTERM=truecolor", "LANG=C.UTF-8"}
	if strings.Join(env, " ") != strings.Join(want, " ") {
		t.Errorf("childEnv = %v, want %v", env, want)
	}
}

func TestVmHWM(t *testing.T) {
	if kib := vmHWM("self"); kib <= 0 {
		t.Errorf("vmHWM(self) = %d KiB, want more than 0", kib)
	}
	if kib := vmHWM("no-such-process"); kib != 0 {
		t.Errorf("vmHWM of no process = %d, want 0", kib)
	}
}

func TestParseInittrace(t *testing.T) {
	out := []byte("init internal/bytealg @0.005 ms, 0 ms clock, 0 bytes, 0 allocs\n" +
		"init github.com/asktui/asktui/tui @24 ms, 0.017 ms clock, 2352 bytes, 10 allocs\n" +
		"asktui version devel\n" +
		"init github.com/yuin/goldmark/util @14 ms, 1.2 ms clock, 146136 bytes, 1967 allocs\n")
	ps := parseInittrace(out)
	if len(ps) != 3 || ps[1] != (initPackage{pkg: "github.com/asktui/asktui/tui", ms: 0.017, bytes: 2352, allocs: 10}) {
		t.Fatalf("parsed %+v", ps)
	}
	r := initRun{packages: ps}
	if ms, b, a := totals(r, own); ms != 0.017 || b != 2352 || a != 10 {
		t.Errorf("own: %v ms, %d bytes, %d allocs", ms, b, a)
	}
	if _, b, _ := totals(r, libraries); b != 146136 {
		t.Errorf("libraries: %d bytes", b)
	}
	if h := heaviest([]initRun{r}, 1); len(h) != 1 || h[0].pkg != "github.com/yuin/goldmark/util" {
		t.Errorf("heaviest %+v", h)
	}
}

// TestGumArgs: gum gets asktui's height unless -gum-height is 0.
func TestGumArgs(t *testing.T) {
	if got := strings.Join(gumArgs(options{gumHeight: 34}), " "); got != "--header Pick one --height 34" {
		t.Errorf("gumArgs(34) = %q", got)
	}
	if got := strings.Join(gumArgs(options{}), " "); got != "--header Pick one" {
		t.Errorf("gumArgs(0) = %q", got)
	}
}
