package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// KeyMsg is a key press, from the keyboard or from tui.Program.Press.
type KeyMsg = tea.KeyPressMsg

// Grade says how the arrival hold treats an action's key.
type Grade int

const (
	// GradeMove moves, scrolls or opens a pane: it acts at once, even
	// while keys are held, unless the key types text (a letter or digit
	// pressed while held is always dropped).
	GradeMove Grade = iota
	// GradeAnswer answers, types, or opens a dialog or editor about what
	// is shown: it is dropped while keys are held.
	GradeAnswer
)

// Action is one key a pane answers to now: its binding (the keys, and the
// help text both the bar and the overlay show), what it does, and how the
// hold treats it. A pane lists only the actions that act in its current
// state, so the help is true by construction.
type Action struct {
	// Key is the binding: the keys, and the help text the bar and the
	// overlay show.
	Key key.Binding
	// Do is what the key does.
	Do func(KeyMsg) tea.Cmd
	// Grade is how the arrival hold treats it.
	Grade Grade
	// Bar shows the action in the one-line help bar; BarKey is the entry
	// shown there instead of Key's help when set (one entry for ↑ and ↓,
	// say); the second half of such a pair leaves Bar false.
	Bar    bool
	BarKey *key.Binding
	// Keep keeps the action in the bar when the screen is too narrow for
	// every key (declining, say); the pane's main key and then the help
	// key come before any other.
	Keep bool
	// IsHelp marks the key that opens the ? overlay, which the bar keeps
	// right after the pane's main key.
	IsHelp bool
	// Section groups the overlay's list.
	Section string
	// Long says what the key does at more length than its help text, for
	// docs/keys.md; the help's own text when empty.
	Long string
}

// Move builds an action that moves: see GradeMove.
func Move(b key.Binding, do func(KeyMsg) tea.Cmd) Action {
	return Action{Key: b, Do: do, Grade: GradeMove}
}

// Answer builds an action that answers: see GradeAnswer.
func Answer(b key.Binding, do func(KeyMsg) tea.Cmd) Action {
	return Action{Key: b, Do: do, Grade: GradeAnswer}
}

// InBar shows a in the help bar, as b when one is given.
func (a Action) InBar(b ...key.Binding) Action {
	a.Bar = true
	if len(b) > 0 {
		a.BarKey = &b[0]
	}
	return a
}

// Kept shows a in the help bar and keeps it there on a narrow screen.
func (a Action) Kept() Action {
	a = a.InBar()
	a.Keep = true
	return a
}

// Explain gives a the longer description docs/keys.md shows.
func (a Action) Explain(s string) Action {
	a.Long = s
	return a
}

// In puts a in an overlay section.
func (a Action) In(section string) Action {
	a.Section = section
	return a
}

// Nothing is the Do of an action whose effect is its grade alone.
func Nothing(KeyMsg) tea.Cmd { return nil }

// Acting returns p's actions that can act: an action whose every key an
// earlier one takes (tab and enter completing in the prompt, say, before
// enter sends) never acts, so neither dispatch nor help sees it.
// Help-only entries (keys no press produces, like "a-z type") stay.
func Acting(p Pane) []Action {
	acts := p.Actions()
	out := acts[:0:0]
	taken := map[string]bool{}
	for _, a := range acts {
		ks := a.Key.Keys()
		shadowed := len(ks) > 0
		for _, k := range ks {
			if !taken[k] {
				shadowed = false
			}
		}
		if shadowed && !helpOnly(a.Key) {
			continue
		}
		for _, k := range ks {
			taken[k] = true
		}
		out = append(out, a)
	}
	return out
}

// helpOnly reports whether b is an entry of the help no key matches
// (its keys start with a NUL, as "a-z type" and "@ mention" do).
func helpOnly(b key.Binding) bool {
	ks := b.Keys()
	return len(ks) > 0 && len(ks[0]) > 0 && ks[0][0] == 0
}

// BarKeys are the help bar's bindings for pane p, and the rank of each
// when the bar is too narrow for all: 0 the pane's main key, 1 the help
// key, 2 the others it keeps, 3 the rest.
func BarKeys(p Pane) (bs []key.Binding, rank []int) {
	for _, a := range Acting(p) {
		switch {
		case !a.Bar:
			continue
		case a.BarKey != nil:
			bs = append(bs, *a.BarKey)
		default:
			bs = append(bs, a.Key)
		}
		r := 3
		switch {
		case len(rank) == 0:
			r = 0
		case a.IsHelp:
			r = 1
		case a.Keep:
			r = 2
		}
		rank = append(rank, r)
	}
	return bs, rank
}
