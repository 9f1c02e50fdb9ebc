package interaction

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Check reports whether the answer is consistent with req. It returns nil
// or an *[Error] with [CodeInvalidAnswer] naming the first few problems.
//
// The rules: every item answers a question of req, and no question twice;
// an item with non-empty Custom text selects nothing (custom text overrides
// the choices) and the text is valid UTF-8 of at most [MaxCustomLen] bytes;
// every selected label is one of that question's option labels, selected
// at most once; a single-select question has at most one selection; a
// question without options may only be answered with custom text or be
// skipped; a question with NoOther is never answered with custom text.
//
// Check does not require an item for every question: [Service.Ask] fills in
// missing ones as skipped.
func (a Answer) Check(req Request) error {
	index := make(map[string]int, len(req.Questions))
	for i, q := range req.Questions {
		if _, dup := index[q.ID]; !dup {
			index[q.ID] = i
		}
	}

	var p problems
	answered := make(map[string]int, len(a.Answers))
	for k, item := range a.Answers {
		qi, known := index[item.ID]
		if !known {
			p.addf("answer %d has the id %s, which matches no question; answer ids must be question ids of the request (%s)",
				k+1, quote(item.ID), knownIDs(req))
			continue
		}
		if first, dup := answered[item.ID]; dup {
			p.addf("answers %d and %d both answer question %d (id %s); send one answer per question",
				first+1, k+1, qi+1, quote(item.ID))
			continue
		}
		answered[item.ID] = k
		checkItem(&p, qi, req.Questions[qi], item)
	}
	return p.err(CodeInvalidAnswer)
}

// checkItem checks one answer item against its question, number qi
// (0-based).
func checkItem(p *problems, qi int, q Question, item AnswerItem) {
	ref := "the answer to " + questionRef(qi, q.ID)
	switch {
	case len(item.Note) > MaxNoteLen:
		p.addf(`%s: the "note" is %d bytes, over the limit of %d bytes`, ref, len(item.Note), MaxNoteLen)
	case !utf8.ValidString(item.Note):
		p.addf(`%s: the "note" is not valid UTF-8`, ref)
	}
	if item.Custom != "" {
		switch {
		case len(item.Custom) > MaxCustomLen:
			p.addf(`%s: the "custom" text is %d bytes, over the limit of %d bytes`, ref, len(item.Custom), MaxCustomLen)
		case !utf8.ValidString(item.Custom):
			p.addf(`%s: the "custom" text is not valid UTF-8`, ref)
		}
		if q.NoOther {
			p.addf(`%s has "custom" text, but the question takes only its options ("noOther"); select an option or skip it`, ref)
		}
		if len(item.Selected) > 0 {
			p.addf(`%s has both "custom" text and %d selected %s; custom text overrides the choices, so "selected" must be empty when "custom" is set`,
				ref, len(item.Selected), plural(len(item.Selected), "option", "options"))
		}
		return
	}
	if len(item.Selected) == 0 {
		return // skipped
	}
	if len(q.Options) == 0 {
		p.addf(`%s selects %s, but the question has no options; answer it with "custom" text only, or skip it`,
			ref, quote(item.Selected[0]))
		return
	}
	if !q.MultiSelect && len(item.Selected) > 1 {
		p.addf("%s selects %d options, but the question is single-select; select at most one",
			ref, len(item.Selected))
	}

	isLabel := labelLookup(q.Options, len(item.Selected))
	seen := make(map[string]struct{}, len(item.Selected))
	for _, label := range item.Selected {
		if _, dup := seen[label]; dup {
			p.addf("%s selects %s more than once; select each option at most once", ref, quote(label))
			continue
		}
		seen[label] = struct{}{}
		if !isLabel(label) {
			p.addf("%s selects %s, which is not one of the question's option labels", ref, quote(label))
		}
	}
}

// labelLookup returns a membership test for the labels of opts, choosing a
// linear scan for few lookups and a map otherwise, so the cost stays
// linear in the size of the question and the answer. Building the map
// costs dozens of comparisons per label, so a scan wins for an answer of
// up to scanLookups labels, however long the list.
func labelLookup(opts []Option, lookups int) func(string) bool {
	const scanLookups = 16
	if lookups <= scanLookups || lookups*len(opts) <= 1024 {
		return func(label string) bool {
			for _, o := range opts {
				if o.Label == label {
					return true
				}
			}
			return false
		}
	}
	set := make(map[string]struct{}, len(opts))
	for _, o := range opts {
		set[o.Label] = struct{}{}
	}
	return func(label string) bool {
		_, ok := set[label]
		return ok
	}
}

// knownIDs lists the first few question ids of req for a message.
func knownIDs(req Request) string {
	const show = 10
	var b strings.Builder
	b.WriteString("known ids: ")
	for i, q := range req.Questions {
		if i == show {
			fmt.Fprintf(&b, ", and %d more", len(req.Questions)-show)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quote(q.ID))
	}
	if len(req.Questions) == 0 {
		b.WriteString("none")
	}
	return b.String()
}
