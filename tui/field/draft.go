package field

import (
	"slices"
	"strings"
)

// Draft is the human's in-progress answer to one question. It is owned by the
// root model and outlives the field that edits it, so every piece of state
// that must survive (cursor, checks, typed text, filter, scroll) lives here.
//
// While a Choice is alive it owns its Draft: change the draft through the
// field, or build a new Choice after changing it.
type Draft struct {
	// Cursor is the focused row: an option index, or the number of options
	// for the "Other" row.
	Cursor int
	// Chosen has one entry per option; in single-select at most one is true.
	Chosen []bool
	// OtherText is the text typed in the "Other" row.
	OtherText string
	// OtherChosen reports that the answer is OtherText (a custom answer).
	// It replaces the options, never supplements them: while it is set,
	// the options in Chosen are set aside (kept, shown dimmed, left out of
	// the answer) and count again once the text is erased; choosing an
	// option clears it.
	OtherChosen bool
	// Filter is the filter text applied to the options ("" = none).
	Filter string
	// Offset is the first visible row, counted in the rows as displayed
	// (after filtering), so the scroll position survives rebuilds.
	Offset int
}

// NewDraft returns an empty draft for a question with nOptions options, its
// cursor on the first row.
func NewDraft(nOptions int) *Draft {
	return &Draft{Chosen: make([]bool, max(nOptions, 0))}
}

// Custom returns the custom answer, trimmed, and whether there is one:
// Other was chosen and its text is not blank.
func (d *Draft) Custom() (string, bool) {
	if d == nil || !d.OtherChosen {
		return "", false
	}
	t := strings.TrimSpace(d.OtherText)
	return t, t != ""
}

// ChosenIndices returns the chosen options' indices, in order.
func (d *Draft) ChosenIndices() []int {
	var out []int
	for i, c := range d.Chosen {
		if c {
			out = append(out, i)
		}
	}
	return out
}

// Answered reports whether the draft holds an answer: a custom answer (see
// Custom) or at least one chosen option. This is the only rule for
// "answered"; a question without one is sent as skipped.
func (d *Draft) Answered() bool {
	if d == nil {
		return false
	}
	if _, ok := d.Custom(); ok {
		return true
	}
	return slices.Contains(d.Chosen, true)
}
