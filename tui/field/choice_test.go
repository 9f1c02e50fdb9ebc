package field

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/styles"
)

func chosenIdx(d *Draft) []int {
	var out []int
	for i, v := range d.Chosen {
		if v {
			out = append(out, i)
		}
	}
	return out
}

func TestSinglePickByEnter(t *testing.T) {
	c := newChoice(t, ChoiceConfig{Labels: numbered(5)}, 60, 10)
	press(c, kDown, kDown)
	if confirmed(c) || len(chosenIdx(c.Draft())) != 0 {
		t.Fatal("moving the cursor must not choose")
	}
	cmd := press(c, kEnter)
	d := c.Draft()
	if got := chosenIdx(d); !slices.Equal(got, []int{2}) || !confirmed(c) || d.OtherChosen {
		t.Fatalf("chosen %v confirmed %v other %v, want [2] true false", got, confirmed(c), d.OtherChosen)
	}
	if returnsNextField(cmd) {
		t.Fatal("Handle moved huh on")
	}
	// In a huh form of its own, without NextFieldOnConfirm, Enter leaves
	// the form where it is.
	alone := newChoice(t, ChoiceConfig{Labels: numbered(5)}, 60, 10)
	if _, cmd := alone.Update(kEnter); returnsNextField(cmd) {
		t.Fatal("Enter moved huh on without NextFieldOnConfirm")
	}
	if !d.Answered() {
		t.Fatal("Answered() = false")
	}
	if v := screen(c); !strings.Contains(v, "● Option 2") || !strings.Contains(v, "○ Option 1") {
		t.Fatalf("chosen marker missing:\n%s", v)
	}
}

func TestSinglePickByDigit(t *testing.T) {
	c := newChoice(t, ChoiceConfig{Labels: numbered(5)}, 60, 10)
	if v := screen(c); !strings.Contains(v, "3. ○ Option 2") {
		t.Fatalf("row numbers missing:\n%s", v)
	}
	cmd := press(c, ch('3'))
	d := c.Draft()
	if got := chosenIdx(d); !slices.Equal(got, []int{2}) || !confirmed(c) || d.Cursor != 2 {
		t.Fatalf("chosen %v confirmed %v cursor %d, want [2] true 2", got, confirmed(c), d.Cursor)
	}
	_ = cmd
	// A digit past the rows does nothing.
	c2 := newChoice(t, ChoiceConfig{Labels: numbered(2)}, 60, 10)
	if cmd := press(c2, ch('9')); cmd != nil || confirmed(c2) {
		t.Fatal("digit 9 with 3 rows must do nothing")
	}
	// Digit 3 with 2 options is the Other row: it starts typing.
	press(c2, ch('3'))
	if !c2.Typing() || c2.Draft().Cursor != 2 {
		t.Fatalf("digit on the Other row: typing %v cursor %d", c2.Typing(), c2.Draft().Cursor)
	}
}

func TestMultiToggle(t *testing.T) {
	c := newChoice(t, ChoiceConfig{Labels: numbered(6), Multi: true}, 60, 12)
	press(c, kSpace)         // toggles 0
	press(c, kDown, ch('x')) // toggles 1
	press(c, ch('4'))        // toggles 3
	press(c, ch('4'), ch('4'))
	d := c.Draft()
	if got := chosenIdx(d); !slices.Equal(got, []int{0, 1, 3}) {
		t.Fatalf("chosen %v, want [0 1 3]", got)
	}
	if confirmed(c) {
		t.Fatal("toggling must not confirm")
	}
	if v := screen(c); !strings.Contains(v, "[✓] Option 3") || !strings.Contains(v, "[ ] Option 2") {
		t.Fatalf("checkboxes wrong:\n%s", v)
	}
	press(c, kDown, kDown) // cursor on option 3, checked
	press(c, kEnter)
	if got := chosenIdx(d); !slices.Equal(got, []int{0, 1, 3}) {
		t.Fatalf("Enter toggled: chosen %v, want [0 1 3]", got)
	}
	if !confirmed(c) || !d.Answered() {
		t.Fatalf("Enter must confirm: confirmed %v", confirmed(c))
	}
	press(c, kSpace)
	if got := chosenIdx(d); !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("space after confirm: chosen %v, want [0 1]", got)
	}
	if strings.Contains(strings.Join(helpKeys(c.ShortHelp()), " "), "enter choose") {
		t.Fatal("multi-select help must not say choose")
	}
}

func TestSelectAll(t *testing.T) {
	c := newChoice(t, ChoiceConfig{Labels: numbered(20), Multi: true}, 60, 12)
	press(c, ch('/'), ch('1'), kEnter) // 1, 10..19
	press(c, kCtrlA)
	if got := chosenIdx(c.Draft()); len(got) != 11 || got[0] != 1 || got[10] != 19 {
		t.Fatalf("select all: %v", got)
	}
	press(c, kCtrlA)
	if got := chosenIdx(c.Draft()); len(got) != 0 {
		t.Fatalf("select none: %v", got)
	}
}

func helpKeys(bs []key.Binding) []string {
	var out []string
	for _, b := range bs {
		if b.Enabled() {
			out = append(out, b.Help().Key+" "+b.Help().Desc)
		}
	}
	return out
}

func TestOtherTypingNeverPicks(t *testing.T) {
	for _, multi := range []bool{false, true} {
		c := newChoice(t, ChoiceConfig{Labels: numbered(5), Multi: multi}, 60, 12)
		press(c, kEnd)
		if c.Typing() || c.Draft().Cursor != 4 {
			t.Fatalf("End goes to the last option: cursor %d", c.Draft().Cursor)
		}
		press(c, kDown)
		if !c.Typing() || c.Draft().Cursor != 5 {
			t.Fatalf("Down from the last option reaches Other: cursor %d typing %v", c.Draft().Cursor, c.Typing())
		}
		if v := screen(c); strings.Contains(v, "1. ") {
			t.Fatalf("row numbers shown while typing:\n%s", v)
		}
		press(c, typed("42 k j")...)
		d := c.Draft()
		if d.OtherText != "42 k j" {
			t.Fatalf("OtherText %q, want %q", d.OtherText, "42 k j")
		}
		if got := chosenIdx(d); len(got) != 0 || confirmed(c) || d.Cursor != 5 {
			t.Fatalf("typing picked or moved: chosen %v confirmed %v cursor %d", got, confirmed(c), d.Cursor)
		}
		if v := screen(c); !strings.Contains(v, "42 k j") {
			t.Fatalf("typed text not shown:\n%s", v)
		}
		if !d.OtherChosen {
			t.Fatalf("multi=%v: typed Other text is not the answer", multi)
		}
		press(c, kEnter)
		if !d.OtherChosen || !confirmed(c) || !d.Answered() {
			t.Fatalf("Enter on Other: chosen %v confirmed %v", d.OtherChosen, confirmed(c))
		}
		// Up leaves the Other row; the text stays.
		press(c, kUp)
		if c.Typing() || d.Cursor != 4 {
			t.Fatalf("Up from Other: typing %v cursor %d", c.Typing(), d.Cursor)
		}
		if v := screen(c); !strings.Contains(v, "Other: 42 k j") {
			t.Fatalf("Other text not shown when unfocused:\n%s", v)
		}
	}
}

// Enter on an empty Other row starts typing there, as Claude Code's own
// "type something" row does: it confirms nothing, so no dialog about an
// empty answer opens and the letters that follow are the answer.
func TestOtherEmptyEnterStartsTyping(t *testing.T) {
	c := newChoice(t, ChoiceConfig{Labels: numbered(3)}, 60, 12)
	press(c, kEnd, kDown)
	if v := screen(c); !strings.Contains(v, "type your own answer") {
		t.Fatalf("placeholder missing:\n%s", v)
	}
	press(c, kEnter)
	if confirmed(c) || c.Draft().Answered() || !c.Typing() {
		t.Fatalf("Enter on an empty Other: confirmed %v answered %v typing %v", confirmed(c), c.Draft().Answered(), c.Typing())
	}
	press(c, ch('n'), ch('o'))
	if text, ok := c.Draft().Custom(); !ok || text != "no" {
		t.Fatalf("custom = %q %v, want the letters typed after Enter", text, ok)
	}
	press(c, kEnter)
	if !confirmed(c) {
		t.Fatal("Enter on typed Other text must confirm it")
	}
}

// Typed Other text replaces a single-select choice: the choice is set
// aside, visibly, and comes back when the text is erased.
func TestSingleOtherSetsTheChoiceAside(t *testing.T) {
	c := newChoice(t, ChoiceConfig{Labels: numbered(3)}, 60, 12)
	d := c.Draft()
	press(c, kDown, kEnter) // choose option 1
	press(c, kEnd, kDown)
	if v := screen(c); !strings.Contains(v, replacesOne) {
		t.Fatalf("replace hint missing:\n%s", v)
	}
	press(c, typed("mine")...)
	if got := chosenIdx(d); !slices.Equal(got, []int{1}) || !d.OtherChosen {
		t.Fatalf("typing into Other: chosen %v other %v, want the choice kept aside", got, d.OtherChosen)
	}
	if text, ok := d.Custom(); !ok || text != "mine" {
		t.Fatalf("custom = %q %v", text, ok)
	}
	if v := screen(c); !strings.Contains(v, "replaces the option chosen above;") {
		t.Fatalf("the screen must say the text replaces the choice:\n%s", v)
	}
	press(c, kBksp, kBksp, kBksp, kBksp)
	if got := chosenIdx(d); !slices.Equal(got, []int{1}) || d.OtherChosen || !d.Answered() {
		t.Fatalf("erasing the text: chosen %v other %v, want the choice back", got, d.OtherChosen)
	}
	press(c, typed("mine")...)
	press(c, kUp, kEnter) // choose option 2: the text stays, unchosen
	if got := chosenIdx(d); !slices.Equal(got, []int{2}) || d.OtherChosen || d.OtherText != "mine" {
		t.Fatalf("choosing an option: chosen %v other %v text %q", got, d.OtherChosen, d.OtherText)
	}
}

// A lone Enter in multi-select with nothing checked takes the option under
// the cursor, so one key never confirms an empty answer.
func TestMultiEnterWithNothingCheckedTakesTheCursorOption(t *testing.T) {
	c := newChoice(t, ChoiceConfig{Labels: numbered(3), Multi: true}, 60, 12)
	press(c, kDown, kEnter)
	if got := chosenIdx(c.Draft()); !slices.Equal(got, []int{1}) || !confirmed(c) {
		t.Fatalf("chosen %v confirmed %v, want [1] true", got, confirmed(c))
	}
}

// Typing on Other sets the checked options aside: they stay checked but
// dimmed, a line says the text replaces them, the answer leaves them out,
// and they count again once the text is erased.
func TestMultiOtherSetsChecksAside(t *testing.T) {
	c := newChoice(t, ChoiceConfig{Labels: numbered(3), Multi: true}, 60, 12)
	d := c.Draft()
	press(c, kSpace, kDown, kSpace) // check 0 and 1
	press(c, kEnd, kDown)           // Other
	if v := screen(c); !strings.Contains(v, replacesHint) {
		t.Fatalf("replace hint missing:\n%s", v)
	}
	press(c, typed("mine")...)
	if got := chosenIdx(d); !slices.Equal(got, []int{0, 1}) || !d.OtherChosen {
		t.Fatalf("typing into Other: chosen %v other %v, want the checks kept aside", got, d.OtherChosen)
	}
	if v := screen(c); !strings.Contains(v, "replaces the options checked above;") || !strings.Contains(v, "[✓] Other: mine") {
		t.Fatalf("checks after typing:\n%s", v)
	}
	if !strings.Contains(c.View(), c.g.aside) {
		t.Fatal("the checks set aside must be drawn dimmed")
	}
	press(c, kBksp, kBksp, kBksp, kBksp)
	if got := chosenIdx(d); !slices.Equal(got, []int{0, 1}) || d.OtherChosen {
		t.Fatalf("emptied Other: chosen %v other %v, want the checks back", got, d.OtherChosen)
	}
	press(c, typed("mine")...)
	press(c, kUp, kSpace) // check option 2: the options count again
	if got := chosenIdx(d); !slices.Equal(got, []int{0, 1, 2}) || d.OtherChosen || d.OtherText != "mine" {
		t.Fatalf("checking an option: chosen %v other %v text %q", got, d.OtherChosen, d.OtherText)
	}
}

// A question that takes only its options has no Other row: the cursor
// stops at the last option and 1–9 never reaches past it.
func TestNoOther(t *testing.T) {
	c := newChoice(t, ChoiceConfig{Labels: []string{"Allow once", "Reject"}, NoOther: true}, 60, 12)
	press(c, kDown, kDown, kDown)
	if v := screen(c); strings.Contains(v, "Other") {
		t.Fatalf("an Other row is drawn:\n%s", v)
	}
	if c.Typing() || c.Draft().Cursor != 1 {
		t.Fatalf("cursor %d typing %v, want the last option", c.Draft().Cursor, c.Typing())
	}
	press(c, ch('3'))
	if confirmed(c) || c.Draft().Answered() {
		t.Fatal("3 picked a row past the options")
	}
	press(c, ch('x'))
	if c.Draft().OtherText != "" {
		t.Fatal("letters were typed into an Other row that is not there")
	}
	if h := c.Height(50); h != 2 {
		t.Fatalf("Height = %d, want the two options", h)
	}
}

func TestFilter(t *testing.T) {
	c := newChoice(t, ChoiceConfig{Labels: numbered(1000)}, 60, 15)
	press(c, kDown, kDown, kDown, kDown, kDown) // cursor on option 5
	press(c, ch('/'))
	if !c.Filtering() || !c.Typing() {
		t.Fatal("/ must start filtering")
	}
	press(c, ch('9'))
	if v := screen(c); !strings.Contains(v, "/1000") {
		t.Fatalf("counter missing:\n%s", v)
	}
	press(c, ch('9'))
	v := screen(c)
	if !strings.Contains(v, "19/1000") || !strings.Contains(v, "Option 99\n") || strings.Contains(v, "Option 5\n") {
		t.Fatalf("filter 99:\n%s", v)
	}
	if confirmed(c) || len(chosenIdx(c.Draft())) != 0 {
		t.Fatal("digits typed into the filter picked an option")
	}
	// Esc right away: the cursor returns to where it was.
	press(c, kEsc)
	if c.Filtering() || c.Draft().Filter != "" || c.Draft().Cursor != 5 {
		t.Fatalf("Esc: filtering %v filter %q cursor %d, want cursor 5", c.Filtering(), c.Draft().Filter, c.Draft().Cursor)
	}
	if v := screen(c); strings.Contains(v, "/1000") || !strings.Contains(v, "❯ 6. ○ Option 5") {
		t.Fatalf("after Esc:\n%s", v)
	}

	// Enter keeps the filter; moving in it and Esc keeps the option.
	press(c, ch('/'), ch('9'), ch('9'), kEnter)
	if !c.Filtering() || c.Typing() || c.Draft().Filter != "99" {
		t.Fatalf("Enter: filtering %v typing %v filter %q", c.Filtering(), c.Typing(), c.Draft().Filter)
	}
	if confirmed(c) {
		t.Fatal("Enter in the filter must not choose")
	}
	press(c, ch('j'))
	if c.Draft().Cursor != 199 {
		t.Fatalf("j in the filtered list: cursor %d, want 199", c.Draft().Cursor)
	}
	press(c, kEsc)
	if c.Filtering() || c.Draft().Cursor != 199 {
		t.Fatalf("Esc after moving: cursor %d, want 199", c.Draft().Cursor)
	}
	if v := screen(c); !strings.Contains(v, "❯    ○ Option 199") {
		t.Fatalf("cursor not shown on 199:\n%s", v)
	}

	// Enter on a filtered row picks that option.
	press(c, ch('/'), ch('9'), ch('9'), ch('8'), kEnter, kEnter)
	if got := chosenIdx(c.Draft()); !slices.Equal(got, []int{998}) || !confirmed(c) {
		t.Fatalf("pick in the filter: %v", got)
	}
}

func TestFilterNoMatches(t *testing.T) {
	c := newChoice(t, ChoiceConfig{Labels: numbered(50)}, 60, 10)
	press(c, ch('/'))
	press(c, typed("zzz")...)
	v := screen(c)
	if !strings.Contains(v, "0/50") || !strings.Contains(v, noMatches) || !strings.Contains(v, "Other") {
		t.Fatalf("no matches:\n%s", v)
	}
	press(c, kBksp, kBksp, kBksp)
	if v := screen(c); strings.Contains(v, noMatches) || !strings.Contains(v, "50/50") {
		t.Fatalf("emptied filter:\n%s", v)
	}
	press(c, kEsc)
	if c.Filtering() {
		t.Fatal("Esc must clear")
	}
}

func TestFilterMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2)) //nolint:gosec // a seeded source, so that a failing case can be replayed
	words := []string{"Alpha", "beta", "GAMMA", "delta", "Ünïcode", "straße", "mañana", "x", "ab", "ba"}
	labels := make([]string, 500)
	for i := range labels {
		labels[i] = words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))]
	}
	c := NewChoice(ChoiceConfig{Labels: labels, Styles: testStyles})
	queries := []string{"a", "al", "alp", "al", "a", "", "ab", "b", "ba", "a", "ünï", "STRASSE", "straß", "ña", "x", "a ", "a b", "MA"}
	for range 200 {
		queries = append(queries, string("abx "[rng.IntN(4)])+string("abgl"[rng.IntN(4)]))
	}
	for _, q := range queries {
		if q == "" {
			continue
		}
		got := c.matchesFor(q)
		var want []int32
		for i, l := range labels {
			if strings.Contains(strings.ToLower(l), strings.ToLower(q)) {
				want = append(want, int32(i))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("filter %q: got %d matches, want %d", q, len(got), len(want))
		}
	}
}

func TestRecommendedBadge(t *testing.T) {
	labels := []string{"Plain", "Use Postgres (Recommended)", "Use SQLite (recommended)  "}
	c := newChoice(t, ChoiceConfig{Labels: labels}, 60, 10)
	v := screen(c)
	if !strings.Contains(v, "Use Postgres ★ Recommended") || !strings.Contains(v, "Use SQLite ★ Recommended") {
		t.Fatalf("badge missing:\n%s", v)
	}
	if strings.Contains(strings.ToLower(v), "(recommended)") || strings.Contains(v, "Plain ★") {
		t.Fatalf("suffix shown or badge on a plain label:\n%s", v)
	}
	// Narrow: the badge moves to its own line, within the width.
	c = newChoice(t, ChoiceConfig{Labels: []string{"A rather long label here (Recommended)"}}, 30, 10)
	v = screen(c)
	checkSize(t, c.View(), 30, 10)
	if !strings.Contains(v, "★ Recommended") {
		t.Fatalf("badge missing when narrow:\n%s", v)
	}
}

func TestDescriptions(t *testing.T) {
	long := strings.Repeat("word ", 60)
	c := newChoice(t, ChoiceConfig{
		Labels:       []string{"First", "Second", "Third"},
		Descriptions: []string{"what the first does", "", long},
		Multi:        true,
	}, 50, 20)
	lines := strings.Split(screen(c), "\n")
	if !strings.Contains(lines[0], "First") || !strings.Contains(lines[1], "what the first does") {
		t.Fatalf("description not under its label:\n%s", strings.Join(lines, "\n"))
	}
	if col := func(l, sub string) int { return ansi.StringWidth(l[:strings.Index(l, sub)]) }; col(lines[1], "what") <= col(lines[0], "First") {
		t.Fatal("description not indented")
	}
	var descLines []string
	for _, l := range lines {
		if strings.Contains(l, "word") {
			descLines = append(descLines, l)
		}
	}
	if len(descLines) != c.lineCap()/2 || !strings.HasSuffix(descLines[len(descLines)-1], "…") {
		t.Fatalf("long description not capped at %d lines with …:\n%s", c.lineCap()/2, strings.Join(lines, "\n"))
	}
	// Long labels are capped too, at half the field's height.
	c = newChoice(t, ChoiceConfig{Labels: []string{strings.Repeat("label ", 80)}}, 40, 20)
	if n := strings.Count(screen(c), "label"); n == 0 || strings.Count(screen(c), "\n") != c.lineCap() || !strings.Contains(screen(c), "…") {
		t.Fatalf("long label not capped:\n%s", screen(c))
	}
	// A label of six lines with room to show them shows whole.
	c = newChoice(t, ChoiceConfig{Labels: []string{strings.Repeat("label ", 30) + "END", "Other one"}}, 40, 20)
	if v := screen(c); !strings.Contains(v, "END") || strings.Contains(v, "…") {
		t.Fatalf("a long label was cut with room left:\n%s", v)
	}
}

func TestScrollLongList(t *testing.T) {
	const h = 10
	c := newChoice(t, ChoiceConfig{Labels: numbered(1000)}, 60, h)
	v := screen(c)
	checkSize(t, c.View(), 60, h)
	if !strings.Contains(v, "↓") || !strings.Contains(v, "more") || strings.Contains(v, "↑") {
		t.Fatalf("top of a long list:\n%s", v)
	}
	press(c, kEnd)
	v = screen(c)
	checkSize(t, c.View(), 60, h)
	if !strings.Contains(v, "Option 999") || !strings.Contains(v, "↑ ") || !strings.Contains(v, " more") {
		t.Fatalf("End:\n%s", v)
	}
	if !strings.Contains(v, "❯    ○ Option 999") {
		t.Fatalf("cursor not on the last option:\n%s", v)
	}
	press(c, kHome)
	if c.Draft().Cursor != 0 || !strings.Contains(screen(c), "❯ 1. ○ Option 0") {
		t.Fatalf("Home:\n%s", screen(c))
	}
	press(c, kPgDn)
	if cur := c.Draft().Cursor; cur < 3 || cur > h {
		t.Fatalf("PgDn moved to %d", cur)
	}
	press(c, kPgUp)
	if c.Draft().Cursor != 0 {
		t.Fatalf("PgUp moved to %d", c.Draft().Cursor)
	}
	// Walking down keeps the cursor visible and the view in bounds.
	for range 30 {
		press(c, kDown)
		checkSize(t, c.View(), 60, h)
	}
	if !strings.Contains(screen(c), "❯    ○ Option 30") {
		t.Fatalf("cursor row not visible:\n%s", screen(c))
	}
	press(c, ch('k'), ch('k'))
	if c.Draft().Cursor != 28 {
		t.Fatalf("k: cursor %d", c.Draft().Cursor)
	}
}

func TestDraftRestore(t *testing.T) {
	labels := numbered(1000)
	d := NewDraft(len(labels))
	c := newChoice(t, ChoiceConfig{Labels: labels, Multi: true, Draft: d}, 60, 12)
	press(c, kSpace, ch('3'))
	for range 40 {
		press(c, kDown)
	}
	press(c, kSpace)
	before := screen(c)
	c2 := newChoice(t, ChoiceConfig{Labels: labels, Multi: true, Draft: d}, 60, 12)
	if got := screen(c2); got != before {
		t.Fatalf("restored view differs:\n%s\n---\n%s", before, got)
	}
	if got := chosenIdx(d); !slices.Equal(got, []int{0, 2, 40}) || d.Cursor != 40 {
		t.Fatalf("draft: chosen %v cursor %d", got, d.Cursor)
	}

	// Filter and Other text survive too.
	press(c2, ch('/'), ch('9'), ch('9'), kEnter, kDown)
	c3 := newChoice(t, ChoiceConfig{Labels: labels, Multi: true, Draft: d}, 60, 12)
	v := screen(c3)
	if !c3.Filtering() || !strings.Contains(v, "19/1000") || !strings.Contains(v, "❯ 2. [ ] Option 199") {
		t.Fatalf("restored filter:\n%s", v)
	}
	press(c3, kEsc)
	if d.Cursor != 199 {
		t.Fatalf("Esc on a restored filter: cursor %d", d.Cursor)
	}
	press(c3, kEnd, kDown)
	press(c3, typed("free text")...)
	c4 := newChoice(t, ChoiceConfig{Labels: labels, Multi: true, Draft: d}, 60, 12)
	if !c4.Typing() || !strings.Contains(screen(c4), "free text") || !d.OtherChosen {
		t.Fatalf("restored Other:\n%s", screen(c4))
	}
	press(c4, typed("!")...)
	if d.OtherText != "free text!" {
		t.Fatalf("typing after restore appends: %q", d.OtherText)
	}
}

func TestDraftRepair(t *testing.T) {
	d := &Draft{Cursor: 99, Chosen: []bool{true, true}, OtherText: "x"}
	c := NewChoice(ChoiceConfig{Labels: numbered(4), Draft: d, Styles: testStyles})
	if len(d.Chosen) != 4 || !slices.Equal(chosenIdx(d), []int{0}) || d.Cursor != 4 {
		t.Fatalf("repaired draft: %+v", d)
	}
	if c.GetValue().(*Draft) != d {
		t.Fatal("GetValue must return the draft")
	}
	if c.GetKey() != "" || c.Key("q1").GetKey() != "q1" {
		t.Fatal("Key/GetKey")
	}
	if (&Draft{Chosen: []bool{false}}).Answered() || !(&Draft{OtherChosen: true, OtherText: "a"}).Answered() ||
		(&Draft{OtherChosen: true, OtherText: "  "}).Answered() || (&Draft{OtherText: "typed, not chosen"}).Answered() ||
		!(&Draft{Chosen: []bool{false, true}}).Answered() {
		t.Fatal("Answered")
	}
}

func TestNeverOverflows(t *testing.T) {
	labels := []string{
		"Short",
		"A label long enough to wrap a few times in forty columns of width, surely (Recommended)",
		strings.Repeat("界", 60),
		"x (Recommended)",
	}
	for i := range 40 {
		labels = append(labels, numbered(40)[i])
	}
	descs := make([]string, len(labels))
	descs[0] = strings.Repeat("desc ", 40)
	descs[2] = "wide 界界界界界界界界界界界界界界界界界界界界界界界界"
	keys := [][]tea.Msg{
		nil, {kDown}, {kDown, kDown}, {kEnd}, {kEnd, kDown}, append([]tea.Msg{kEnd, kDown}, typed(strings.Repeat("long text ", 10))...),
		{kPgDn}, {kPgDn, kPgDn}, {ch('/')}, {ch('/'), ch('o')}, {ch('/'), ch('z'), ch('z')}, {ch('/'), ch('o'), kEnter}, {kSpace, kEnd, kDown},
	}
	for _, multi := range []bool{false, true} {
		for _, size := range [][2]int{{40, 6}, {40, 5}, {20, 4}, {60, 3}, {30, 2}, {40, 1}, {12, 8}} {
			for _, ks := range keys {
				c := newChoice(t, ChoiceConfig{Labels: labels, Descriptions: descs, Multi: multi}, size[0], size[1])
				checkSize(t, c.View(), size[0], size[1])
				for _, k := range ks {
					press(c, k)
					checkSize(t, c.View(), size[0], size[1])
				}
				c.Blur()
				checkSize(t, c.View(), size[0], size[1])
			}
		}
	}
}

func TestCursorRowAlwaysShown(t *testing.T) {
	labels := numbered(60)
	descs := make([]string, 60)
	for i := range descs {
		if i%3 == 0 {
			descs[i] = strings.Repeat("more words ", 12)
		}
	}
	c := newChoice(t, ChoiceConfig{Labels: labels, Descriptions: descs}, 40, 8)
	for i := range 60 {
		if !strings.Contains(screen(c), "❯") {
			t.Fatalf("row %d: cursor not shown:\n%s", i, screen(c))
		}
		checkSize(t, c.View(), 40, 8)
		press(c, kDown)
	}
	for range 60 {
		press(c, kUp)
		if !strings.Contains(screen(c), "❯") {
			t.Fatalf("cursor not shown:\n%s", screen(c))
		}
	}
}

func TestBlurredView(t *testing.T) {
	c := newChoice(t, ChoiceConfig{Labels: numbered(3)}, 40, 6)
	press(c, kDown)
	c.Blur()
	v := screen(c)
	if strings.Contains(v, "❯") || !strings.Contains(v, "Option 1") {
		t.Fatalf("blurred:\n%s", v)
	}
	if cmd := press(c, kEnter); cmd != nil || confirmed(c) {
		t.Fatal("a blurred field must ignore keys")
	}
}

func TestMonochrome(t *testing.T) {
	c := newChoice(t, ChoiceConfig{Labels: numbered(3), Styles: styles.New(styles.MonoPalette())}, 40, 6)
	press(c, kDown, kEnter)
	v := c.View()
	if colour := regexp.MustCompile(`[\[;]([349][0-7]|[34]8|10[0-7])[;m]`); colour.MatchString(v) {
		t.Fatalf("colour in monochrome: %q", v)
	}
	if p := ansi.Strip(v); !strings.Contains(p, "● Option 1") || !strings.Contains(p, "○ Option 0") || !strings.Contains(p, "❯") {
		t.Fatalf("glyphs missing in monochrome:\n%s", p)
	}
}

func TestHelpIsContextual(t *testing.T) {
	joined := func(c *Choice) string { return strings.Join(helpKeys(c.ShortHelp()), " · ") }
	multi := newChoice(t, ChoiceConfig{Labels: numbered(3), Multi: true}, 40, 6)
	if h := joined(multi); !strings.Contains(h, "space toggle") || !strings.Contains(h, "enter confirm") {
		t.Fatalf("multi help: %s", h)
	}
	single := newChoice(t, ChoiceConfig{Labels: numbered(3), ConfirmHelp: "submit"}, 40, 6)
	if h := joined(single); !strings.Contains(h, "1-4 choose") || !strings.Contains(h, "enter submit") || strings.Contains(h, "toggle") {
		t.Fatalf("single help: %s", h)
	}
	press(single, ch('/'))
	if h := joined(single); !strings.Contains(h, "enter apply filter") || !strings.Contains(h, "esc clear filter") {
		t.Fatalf("filter help: %s", h)
	}
	press(single, kEsc, kEnd, kDown)
	// On the Other row letters type: no "a-z"-shadowed keys (k, j) are
	// offered, only the arrows; Enter confirms only typed text.
	if h := joined(single); !strings.Contains(h, "a-z type") || strings.Contains(h, "enter") ||
		strings.Contains(h, "k") && strings.Contains(h, "↑/k") || strings.Contains(h, "1-") || strings.Contains(h, "/ filter") {
		t.Fatalf("Other help: %s", h)
	}
	press(single, ch('x'))
	if h := joined(single); !strings.Contains(h, "enter submit") {
		t.Fatalf("Other help with text: %s", h)
	}
	press(single, kBksp)
	press(single, kUp)
	if h := joined(single); strings.Contains(h, "a-z") {
		t.Fatalf("the typing help shows off the Other row: %s", h)
	}
	if len(single.FullHelp()) != 3 || len(single.KeyBinds()) == 0 {
		t.Fatal("FullHelp/KeyBinds")
	}
}

func TestInForm(t *testing.T) {
	for _, multi := range []bool{false, true} {
		c := NewChoice(ChoiceConfig{Labels: numbered(1000), Multi: multi, Styles: testStyles, NextFieldOnConfirm: true})
		f := newForm(c, 80, 12)
		runCmd(f.Init(), 0, func(m tea.Msg) { drive(f, m) })
		v := ansi.Strip(f.View())
		checkSize(t, f.View(), 80, 12)
		if !strings.Contains(v, "❯ 1.") || !strings.Contains(v, "Option 0") {
			t.Fatalf("form view:\n%s", v)
		}
		drive(f, kDown)
		drive(f, ch('j'))
		if c.Draft().Cursor != 2 || !strings.Contains(ansi.Strip(f.View()), "❯ 3.") {
			t.Fatalf("form ↓: cursor %d\n%s", c.Draft().Cursor, ansi.Strip(f.View()))
		}
		if multi {
			drive(f, kSpace)
			if f.State != huh.StateNormal {
				t.Fatal("space completed the form")
			}
		}
		drive(f, kEnter)
		if f.State != huh.StateCompleted {
			t.Fatalf("multi=%v: Enter did not complete the form (state %v)", multi, f.State)
		}
		if got := chosenIdx(c.Draft()); !slices.Equal(got, []int{2}) {
			t.Fatalf("multi=%v: chosen %v", multi, got)
		}
	}
}

func TestInFormOther(t *testing.T) {
	c := NewChoice(ChoiceConfig{Labels: numbered(3), Styles: testStyles, NextFieldOnConfirm: true})
	f := newForm(c, 60, 10)
	runCmd(f.Init(), 0, func(m tea.Msg) { drive(f, m) })
	for _, m := range append([]tea.Msg{kEnd, kDown}, typed("q 1 x")...) {
		drive(f, m)
	}
	if f.State != huh.StateNormal || c.Draft().OtherText != "q 1 x" {
		t.Fatalf("typing in the form: state %v text %q", f.State, c.Draft().OtherText)
	}
	drive(f, kEnter)
	if f.State != huh.StateCompleted || !c.Draft().OtherChosen {
		t.Fatalf("Enter on Other: state %v", f.State)
	}
}

func TestRunAccessible(t *testing.T) {
	run := func(multi bool, input string, d *Draft) (*Draft, string, error) {
		c := NewChoice(ChoiceConfig{Labels: []string{"Red", "Green", "Blue"}, Descriptions: []string{"warm", "", ""}, Multi: multi, Draft: d, Styles: styles.New(styles.MonoPalette())})
		var out strings.Builder
		err := c.RunAccessible(&out, strings.NewReader(input))
		return c.Draft(), out.String(), err
	}
	d, out, err := run(false, "2\n", nil)
	if err != nil || !slices.Equal(chosenIdx(d), []int{1}) || !strings.Contains(out, "1. Red — warm") {
		t.Fatalf("single: %v %+v\n%s", err, d, out)
	}
	d, _, err = run(false, "4\nmy own\n", nil)
	if err != nil || !d.OtherChosen || d.OtherText != "my own" || len(chosenIdx(d)) != 0 || !d.Answered() {
		t.Fatalf("single Other: %v %+v", err, d)
	}
	d, _, err = run(true, "1\n3\n0\n", nil)
	if err != nil || !slices.Equal(chosenIdx(d), []int{0, 2}) || d.OtherChosen {
		t.Fatalf("multi: %v %+v", err, d)
	}
	d, _, err = run(true, "1\n4\n0\ncustom\n", nil)
	if err != nil || !d.OtherChosen || d.OtherText != "custom" || len(chosenIdx(d)) != 0 {
		t.Fatalf("multi Other: %v %+v", err, d)
	}
	if _, _, err = run(false, "", nil); err == nil {
		t.Fatal("single with no input must fail")
	}
}

func TestPainterMatchesRender(t *testing.T) {
	probes := []string{"Option 1", "a b", "界界 x", " x ", "…", "★ Recommended"}
	for _, p := range []styles.Palette{styles.DarkPalette(), styles.LightPalette(), styles.ANSIPalette(), styles.MonoPalette()} {
		st := styles.New(p)
		ps := newPaints(st)
		for name, pair := range map[string]struct {
			p *painter
			s lipgloss.Style
		}{
			"label": {&ps.label, st.Option.Label}, "focused": {&ps.focused, st.Option.Focused},
			"chosen": {&ps.chosen, st.Option.Chosen}, "desc": {&ps.desc, st.Option.Description},
		} {
			for _, probe := range probes {
				if got, want := pair.p.Render(probe), pair.s.Render(probe); got != want {
					t.Fatalf("%s painter: %q, Render: %q", name, got, want)
				}
			}
		}
	}
	if p := newPaints(styles.New(styles.DarkPalette())); !p.label.fast || !p.focused.fast {
		t.Fatal("plain styles should take the fast path")
	}
}

// The root sizes only the form; huh passes the height on to a field only
// when the field's view is taller, so even a short list must be told.
func TestFormTellsHeight(t *testing.T) {
	c := NewChoice(ChoiceConfig{Labels: numbered(7), Styles: testStyles})
	f := newForm(c, 60, 9)
	runCmd(f.Init(), 0, func(m tea.Msg) { drive(f, m) })
	if c.height != 9 || c.width != 60 {
		t.Fatalf("field size %dx%d, want 60x9", c.width, c.height)
	}
	for _, m := range []tea.Msg{ch('/'), ch('o'), kEnter} {
		drive(f, m)
	}
	v := ansi.Strip(f.View())
	checkSize(t, f.View(), 60, 9)
	if !strings.Contains(v, "Other") || !strings.Contains(v, "7/7") {
		t.Fatalf("filtered short list in the form:\n%s", v)
	}
}

// In a huh form the field takes the form's height: huh's group tells a
// field its height only when the field's view is taller than the form,
// so an unsized Choice claims naturalHeight lines (render pads to it).
// Without that it would keep its first few rows in a form with room for
// more.
func TestInFormTakesTheFormsHeight(t *testing.T) {
	c := NewChoice(ChoiceConfig{Labels: numbered(1000), Styles: testStyles, NextFieldOnConfirm: true})
	f := newForm(c, 80, 16)
	runCmd(f.Init(), 0, func(m tea.Msg) { drive(f, m) })
	v := ansi.Strip(f.View())
	checkSize(t, f.View(), 80, 16)
	if !strings.Contains(v, "Option 12") {
		t.Fatalf("the field does not fill the form's 16 rows:\n%s", v)
	}
}
