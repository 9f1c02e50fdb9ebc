package field

// Benchmarks of one key (Update + View of the whole huh form, as the root
// drives it) and of the first frame, for Choice and for huh's own Select
// and MultiSelect with a cached theme. Run:
//
//	go test -run '^$' -bench . -benchmem ./tui/field/
//
// huh's fields redraw every option on every key, so they are measured only
// where one operation stays under a few seconds.

import (
	"fmt"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

const (
	benchW, benchH = 100, 30
)

var (
	oursSizes    = []int{10, 1000, 100000}
	huhSizes     = []int{10, 1000}
	huhDownSizes = []int{10, 1000, 10000}
)

// benchCase builds its state and returns one operation: one key press
// (form.Update + form.View) or one first frame. op(i) gets the iteration
// number so cases can alternate keys.
type benchCase struct {
	name    string
	sizes   []int
	prepare func(tb testing.TB, n int) func(i int)
}

var (
	labelsMu    sync.Mutex
	labelsCache = map[int][]string{}
)

func benchLabels(n int) []string {
	labelsMu.Lock()
	defer labelsMu.Unlock()
	if l, ok := labelsCache[n]; ok {
		return l
	}
	l := numbered(n)
	labelsCache[n] = l
	return l
}

// sendKey sends one key and draws, as the root does per key.
func sendKey(f *huh.Form, k tea.Msg) {
	f.Update(k)
	_ = f.View()
}

func oursForm(tb testing.TB, n int, multi bool, d *Draft) (*Choice, *huh.Form) {
	c := NewChoice(ChoiceConfig{Labels: benchLabels(n), Multi: multi, Draft: d, Styles: testStyles})
	f := newForm(c, benchW, benchH)
	f.Init()
	if f.View() == "" {
		tb.Fatal("empty first frame")
	}
	return c, f
}

// downOrHome moves down, or back to the top from the last option, so every
// iteration is one comparable key.
func downOrHome(c *Choice, f *huh.Form) {
	if c.Draft().Cursor >= c.nf()-1 {
		sendKey(f, kHome)
		return
	}
	sendKey(f, kDown)
}

func upOrDown(i int) tea.Msg {
	if i%2 == 0 {
		return kDown
	}
	return kUp
}

var oursCases = []benchCase{
	{"first_frame", oursSizes, func(tb testing.TB, n int) func(int) {
		labels := benchLabels(n)
		return func(int) {
			c := NewChoice(ChoiceConfig{Labels: labels, Draft: NewDraft(n), Styles: testStyles})
			f := newForm(c, benchW, benchH)
			f.Init()
			if f.View() == "" {
				tb.Fatal("empty first frame")
			}
		}
	}},
	{"down", oursSizes, func(tb testing.TB, n int) func(int) {
		c, f := oursForm(tb, n, false, nil)
		return func(int) { downOrHome(c, f) }
	}},
	{"down_mid", oursSizes, func(tb testing.TB, n int) func(int) {
		d := NewDraft(n)
		d.Cursor = n / 2
		_, f := oursForm(tb, n, false, d)
		return func(i int) { sendKey(f, upOrDown(i)) }
	}},
	{"down_multi", oursSizes, func(tb testing.TB, n int) func(int) {
		c, f := oursForm(tb, n, true, nil)
		return func(int) { downOrHome(c, f) }
	}},
	// filter_char types one character into an applied filter ("1"), then
	// deletes it: one key per iteration.
	{"filter_char", oursSizes, func(tb testing.TB, n int) func(int) {
		c, f := oursForm(tb, n, false, nil)
		sendKey(f, ch('/'))
		sendKey(f, ch('1'))
		if !c.Filtering() {
			tb.Fatal("not filtering")
		}
		return func(i int) {
			if i%2 == 0 {
				sendKey(f, ch(rune('0'+i/2%10)))
			} else {
				sendKey(f, kBksp)
			}
		}
	}},
	// filter_scan types a first character into an empty filter (a scan of
	// every label, a different digit each time), then deletes it.
	{"filter_scan", oursSizes, func(tb testing.TB, n int) func(int) {
		c, f := oursForm(tb, n, false, nil)
		sendKey(f, ch('/'))
		if !c.Typing() {
			tb.Fatal("not editing the filter")
		}
		return func(i int) {
			if i%2 == 0 {
				sendKey(f, ch(rune('0'+i/2%10)))
			} else {
				sendKey(f, kBksp)
			}
		}
	}},
	{"toggle", oursSizes, func(tb testing.TB, n int) func(int) {
		_, f := oursForm(tb, n, true, nil)
		return func(int) { sendKey(f, kSpace) }
	}},
}

func huhOptions(n int) []huh.Option[int] {
	labels := benchLabels(n)
	opts := make([]huh.Option[int], n)
	for i, l := range labels {
		opts[i] = huh.NewOption(l, i)
	}
	return opts
}

func huhForm(tb testing.TB, field huh.Field) *huh.Form {
	f := newForm2(field)
	f.Init()
	if f.View() == "" {
		tb.Fatal("empty first frame")
	}
	return f
}

// newForm2 is newForm for any field, with the same cached theme.
func newForm2(field huh.Field) *huh.Form {
	return huh.NewForm(huh.NewGroup(field)).
		WithShowHelp(false).
		WithTheme(testStyles.HuhTheme()).
		WithWidth(benchW).
		WithHeight(benchH)
}

func huhCases(multi bool) []benchCase {
	build := func(n int) huh.Field {
		if multi {
			return huh.NewMultiSelect[int]().Options(huhOptions(n)...)
		}
		return huh.NewSelect[int]().Options(huhOptions(n)...)
	}
	return []benchCase{
		{"first_frame", huhSizes, func(tb testing.TB, n int) func(int) {
			return func(int) { huhForm(tb, build(n)) }
		}},
		{"down", huhDownSizes, func(tb testing.TB, n int) func(int) {
			f := huhForm(tb, build(n))
			pos := 0
			return func(int) {
				if pos == n-1 {
					sendKey(f, kHome)
					pos = 0
					return
				}
				sendKey(f, kDown)
				pos++
			}
		}},
	}
}

func runBenchCases(b *testing.B, cases []benchCase) {
	for _, bc := range cases {
		for _, n := range bc.sizes {
			b.Run(fmt.Sprintf("%s/n=%d", bc.name, n), func(b *testing.B) {
				op := bc.prepare(b, n)
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					op(i)
					i++
				}
			})
		}
	}
}

func BenchmarkChoice(b *testing.B)         { runBenchCases(b, oursCases) }
func BenchmarkHuhSelect(b *testing.B)      { runBenchCases(b, huhCases(false)) }
func BenchmarkHuhMultiSelect(b *testing.B) { runBenchCases(b, huhCases(true)) }

// TestBenchmarkPaths runs every benchmark's code (a few operations each) so
// CI exercises it cheaply: Choice at 1,000 options, huh's fields at 10 (the
// same code; at 1,000 they take most of a minute under -race). It measures
// nothing.
func TestBenchmarkPaths(t *testing.T) {
	all := map[string][]benchCase{"Choice": oursCases, "HuhSelect": huhCases(false), "HuhMultiSelect": huhCases(true)}
	for name, cases := range all {
		for _, bc := range cases {
			n := 1000
			if name != "Choice" {
				n = 10
			}
			t.Run(name+"/"+bc.name, func(t *testing.T) {
				op := bc.prepare(t, n)
				for i := range 4 {
					op(i)
				}
			})
		}
	}
}
