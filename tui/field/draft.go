package field

// Draft is the human's in-progress answer to one question. It is owned by the
// root model and outlives the field and its form (forms are rebuilt whenever
// the human moves between questions), so every piece of state that must
// survive a rebuild lives here.
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
	// OtherChosen reports that the answer is OtherText (a custom answer). It
	// excludes the options: choosing Other clears Chosen and choosing an
	// option clears OtherChosen.
	OtherChosen bool
	// Filter is the filter text applied to the options ("" = none).
	Filter string
	// Done reports that the human confirmed this question (Enter, or a digit
	// pick in single-select). Later edits keep it set.
	Done bool
	// Confirms counts the human's confirmations of this question; a change
	// tells the owner that the question was just confirmed.
	Confirms int
	// Offset is the first visible row, counted in the rows as displayed
	// (after filtering), so the scroll position survives rebuilds.
	Offset int
}

// NewDraft returns an empty draft for a question with nOptions options, its
// cursor on the first row.
func NewDraft(nOptions int) *Draft {
	return &Draft{Chosen: make([]bool, max(nOptions, 0))}
}

// Answered reports whether the draft holds an answer: it is Done and either
// some option is chosen or OtherChosen is set with non-empty text. A Done
// draft with nothing chosen is a skipped question.
func (d *Draft) Answered() bool {
	if d == nil || !d.Done {
		return false
	}
	if d.OtherChosen {
		return d.OtherText != ""
	}
	for _, c := range d.Chosen {
		if c {
			return true
		}
	}
	return false
}
