package rules

import (
	"slices"
	"strings"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/history"
)

// waitingCall is a permission request that waits for the human, and the
// rules saved from it while it waits.
type waitingCall struct {
	asks  int // the Asks of it waiting (one, but for a request asked twice at once)
	saved []Numbered
}

// Remembered notes that the human saved rule n from the request about
// the call p while it waited (asktui serve's remember dialog, which then
// answers it), so that [Wrap] reports it with the human's answer and the
// history records it ([history.Ruling] with Saved). p is the request's own
// permission, as the screen was handed it with the request; a note about
// a call not waiting in Wrap is dropped.
func (s *Store) Remembered(p *interaction.Permission, n Numbered) {
	if p == nil {
		return
	}
	s.savedMu.Lock()
	defer s.savedMu.Unlock()
	if w := s.waiting[p]; w != nil {
		w.saved = append(w.saved, n)
	}
}

// asking notes that the request about p waits for the human, and returns
// the function that ends that and returns the rules saved from it
// meanwhile, as the history records them (nil for none). A nil p is not
// noted.
func (s *Store) asking(p *interaction.Permission) (done func() *history.Ruling) {
	if p == nil {
		return func() *history.Ruling { return nil }
	}
	s.savedMu.Lock()
	if s.waiting == nil {
		s.waiting = map[*interaction.Permission]*waitingCall{}
	}
	w := s.waiting[p]
	if w == nil {
		w = &waitingCall{}
		s.waiting[p] = w
	}
	w.asks++
	s.savedMu.Unlock()
	return func() *history.Ruling {
		s.savedMu.Lock()
		defer s.savedMu.Unlock()
		if w.asks--; w.asks == 0 {
			delete(s.waiting, p)
		}
		return savedRuling(w.saved)
	}
}

// savedRuling is the rules saved from a request as the history records
// them: the last one's number, every one's line (once) joined by "; ",
// and Saved; nil for none.
func savedRuling(saved []Numbered) *history.Ruling {
	if len(saved) == 0 {
		return nil
	}
	var lines []string
	for _, n := range saved {
		if l := n.Rule.String(); !slices.Contains(lines, l) {
			lines = append(lines, l)
		}
	}
	return &history.Ruling{Number: saved[len(saved)-1].Number, Rule: strings.Join(lines, "; "), Saved: true}
}
