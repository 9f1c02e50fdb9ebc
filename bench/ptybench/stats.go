package main

import (
	"math"
	"slices"
)

// summary is the spread of one command's samples of a metric.
type summary struct {
	min, median, max float64
}

// summarize returns the minimum, median and maximum of xs; the median of
// an even count is the mean of the middle two. It is all NaN for no
// samples.
func summarize(xs []float64) summary {
	if len(xs) == 0 {
		return summary{math.NaN(), math.NaN(), math.NaN()}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return summary{min: s[0], median: median(s), max: s[len(s)-1]}
}

// median returns the median of xs, NaN for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// pairing compares two commands run in pairs: a[i] and b[i] were measured
// back to back.
type pairing struct {
	a, b        summary
	ratioMedian float64 // median of a[i]/b[i]
	ratioWorst  float64 // largest a[i]/b[i]
	aLEbEvery   bool    // a[i] <= b[i] for every i
	pairs       int
	pairsALEB   int // how many pairs have a[i] <= b[i]
}

// pair summarizes the samples of a and b, which must be of the same
// length, pair by pair.
func pair(a, b []float64) pairing {
	p := pairing{a: summarize(a), b: summarize(b), pairs: len(a), aLEbEvery: len(a) > 0}
	ratios := make([]float64, 0, len(a))
	for i := range a {
		if a[i] <= b[i] {
			p.pairsALEB++
		} else {
			p.aLEbEvery = false
		}
		if b[i] == 0 || math.IsNaN(a[i]) || math.IsNaN(b[i]) {
			continue // no ratio to take
		}
		ratios = append(ratios, a[i]/b[i])
	}
	p.ratioMedian = median(ratios)
	p.ratioWorst = math.NaN()
	if len(ratios) > 0 {
		p.ratioWorst = slices.Max(ratios)
	}
	return p
}
