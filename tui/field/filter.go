package field

import "strings"

// lowerIndex is every label lowercased into one string, each followed by a
// NUL, so a full scan is a run of strings.Index calls over one buffer (a
// filter text never holds a NUL, so no match spans two labels).
type lowerIndex struct {
	all string
	off []int // off[i] is where label i starts; off[n] is len(all)
}

func buildLowerIndex(n int, label func(int) string) *lowerIndex {
	// Each label is asked for once: the caller may be sanitizing them as
	// they are asked for. The builder grows from a guess.
	var b strings.Builder
	b.Grow(n * 16)
	off := make([]int, n+1)
	var scratch []byte
	for i := range n {
		l := label(i)
		off[i] = b.Len()
		upper, ascii := false, true
		for j := 0; j < len(l); j++ {
			c := l[j]
			if c >= 0x80 {
				ascii = false
				break
			}
			if 'A' <= c && c <= 'Z' {
				upper = true
			}
		}
		switch {
		case !ascii:
			b.WriteString(strings.ToLower(l))
		case upper:
			scratch = append(scratch[:0], l...)
			for j, c := range scratch {
				if 'A' <= c && c <= 'Z' {
					scratch[j] = c + 'a' - 'A'
				}
			}
			b.Write(scratch)
		default:
			b.WriteString(l)
		}
		b.WriteByte(0)
	}
	off[n] = b.Len()
	return &lowerIndex{all: b.String(), off: off}
}

// label returns lowercased label i.
func (x *lowerIndex) label(i int) string { return x.all[x.off[i] : x.off[i+1]-1] }

// scanAll returns the indices of all labels containing q (lowercase, not
// empty), ascending.
func (x *lowerIndex) scanAll(q string) []int32 {
	out := make([]int32, 0, 64)
	pos, i := 0, 0
	for {
		k := strings.Index(x.all[pos:], q)
		if k < 0 {
			return out
		}
		at := pos + k
		for x.off[i+1] <= at {
			i++
		}
		out = append(out, int32(i))
		i++
		if i >= len(x.off)-1 {
			return out
		}
		pos = x.off[i]
	}
}

// refine returns the members of base whose labels contain q.
func (x *lowerIndex) refine(base []int32, q string) []int32 {
	out := make([]int32, 0, min(len(base), 64))
	for _, i := range base {
		if strings.Contains(x.label(int(i)), q) {
			out = append(out, i)
		}
	}
	return out
}

// filterLevel is one filter text and its matches. The Choice keeps a chain
// of them, each text containing the previous one, so typing scans only the
// previous matches and backspacing finds its answer in the chain.
type filterLevel struct {
	q       string
	matches []int32
}

const maxFilterLevels = 64

// matchesFor returns the options whose label contains text, ignoring case.
func (c *Choice) matchesFor(text string) []int32 {
	if c.index == nil {
		c.index = buildLowerIndex(c.n, c.label)
	}
	q := strings.ToLower(text)
	for i := len(c.levels) - 1; i >= 0; i-- {
		if c.levels[i].q == q {
			c.levels = c.levels[:i+1]
			return c.levels[i].matches
		}
	}
	var m []int32
	found := false
	for i := len(c.levels) - 1; i >= 0; i-- {
		if strings.Contains(q, c.levels[i].q) {
			m = c.index.refine(c.levels[i].matches, q)
			c.levels = c.levels[:i+1]
			found = true
			break
		}
	}
	if !found {
		c.levels = c.levels[:0]
		m = c.index.scanAll(q)
	}
	if len(c.levels) >= maxFilterLevels {
		c.levels = append(c.levels[:0], c.levels[len(c.levels)-maxFilterLevels/2:]...)
	}
	c.levels = append(c.levels, filterLevel{q: q, matches: m})
	return m
}
