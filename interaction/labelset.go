package interaction

import (
	"hash/maphash"
	"sync"
)

// labelSet finds the labels repeated among a question's options: an
// open-addressing hash table of option indexes. A map[string]int of the
// same labels takes four times the memory, which at 100,000 options was
// 3.4 MB of fresh memory for each check, slow in a process just started,
// and `asktui ask` checks a request twice before its first frame (as it
// decodes it, and as the inbox takes it).
type labelSet struct {
	seed   maphash.Seed
	seeded bool
	opts   []Option
	slots  []int32 // an option's index + 1; 0 is an empty slot
}

// labelSets keeps the sets of recent checks for the next: the second check
// of a long list (the inbox's, just after the decoder's) then reuses a
// table already in memory. The pool drops them after a collection or two.
var labelSets = sync.Pool{New: func() any { return new(labelSet) }}

// reset empties the set for the labels of opts, reusing its table when
// that is large enough.
func (s *labelSet) reset(opts []Option) {
	if !s.seeded {
		s.seed, s.seeded = maphash.MakeSeed(), true
	}
	n := 8
	for n < 2*len(opts) { // at most half full
		n <<= 1
	}
	if cap(s.slots) >= n {
		s.slots = s.slots[:n]
		clear(s.slots)
	} else {
		s.slots = make([]int32, n)
	}
	s.opts = opts
}

// add adds the label of option j and returns the index of the earlier
// option with the same label, or -1 when it is the first.
func (s *labelSet) add(j int) int {
	label := s.opts[j].Label
	mask := uint64(len(s.slots) - 1) //nolint:gosec // a power of two, at least 8
	for i := maphash.String(s.seed, label) & mask; ; i = (i + 1) & mask {
		k := s.slots[i]
		if k == 0 {
			s.slots[i] = int32(j + 1) //nolint:gosec // j < MaxOptions
			return -1
		}
		if s.opts[k-1].Label == label {
			return int(k - 1)
		}
	}
}
