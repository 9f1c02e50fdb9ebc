package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The package initialisers: what a Go program does before main, which
// every start of it pays. Each program is run with `--version` and
// GODEBUG=inittrace=1, which makes the Go runtime report every package's
// initialisers on standard error: their time on the clock and what they
// allocated.

// ownPrefix names asktui's own packages.
const ownPrefix = "github.com/asktui/asktui/"

// initPackage is one package's initialisers in one run.
type initPackage struct {
	pkg           string
	ms            float64
	bytes, allocs int
}

// initRun is one run of `--version`.
type initRun struct {
	packages []initPackage
	wall     time.Duration // start to exit
	cpu      time.Duration // user and system time
}

var inittrace = regexp.MustCompile(`(?m)^init (\S+) @[0-9.]+ ms, ([0-9.]+) ms clock, (\d+) bytes, (\d+) allocs$`)

// parseInittrace reads GODEBUG=inittrace=1's lines.
func parseInittrace(out []byte) []initPackage {
	var ps []initPackage
	for _, m := range inittrace.FindAllSubmatch(out, -1) {
		ms, _ := strconv.ParseFloat(string(m[2]), 64)
		b, _ := strconv.Atoi(string(m[3]))
		a, _ := strconv.Atoi(string(m[4]))
		ps = append(ps, initPackage{pkg: string(m[1]), ms: ms, bytes: b, allocs: a})
	}
	return ps
}

// runInits runs bin --version once with inittrace on.
func runInits(bin string, env []string) (initRun, error) {
	cmd := exec.CommandContext(context.Background(), bin, "--version")
	cmd.Env = append(env, "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return initRun{}, fmt.Errorf("%s --version: %w: %s", bin, err, stderr.String())
	}
	r := initRun{packages: parseInittrace(stderr.Bytes()), wall: time.Since(start)}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if len(r.packages) == 0 {
		return initRun{}, fmt.Errorf("%s --version reported no initialisers", bin)
	}
	return r, nil
}

// initResult is reps runs of each program, alternating.
type initResult struct {
	a, b []initRun
}

func measureInits(a, b string, env []string, reps int) (initResult, error) {
	var res initResult
	for i := range reps {
		order := []*[]initRun{&res.a, &res.b}
		bins := []string{a, b}
		if i%2 == 1 {
			order[0], order[1] = order[1], order[0]
			bins[0], bins[1] = bins[1], bins[0]
		}
		for j, bin := range bins {
			r, err := runInits(bin, env)
			if err != nil {
				return res, err
			}
			*order[j] = append(*order[j], r)
		}
	}
	return res, nil
}

// totals adds up one run's initialisers, all of them or those whose
// package keep says.
func totals(r initRun, keep func(string) bool) (ms float64, bytes, allocs int) {
	for _, p := range r.packages {
		if keep(p.pkg) {
			ms += p.ms
			bytes += p.bytes
			allocs += p.allocs
		}
	}
	return
}

func all(string) bool           { return true }
func own(pkg string) bool       { return strings.HasPrefix(pkg, ownPrefix) }
func libraries(pkg string) bool { return !own(pkg) }
func column(runs []initRun, f func(initRun) float64) []float64 {
	xs := make([]float64, len(runs))
	for i, r := range runs {
		xs[i] = f(r)
	}
	return xs
}

// heaviest returns the n packages with the longest median time.
func heaviest(runs []initRun, n int) []initPackage {
	times := map[string][]float64{}
	last := map[string]initPackage{}
	for _, r := range runs {
		for _, p := range r.packages {
			times[p.pkg] = append(times[p.pkg], p.ms)
			last[p.pkg] = p
		}
	}
	var ps []initPackage
	for pkg, ts := range times {
		p := last[pkg]
		p.ms = median(ts)
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(x, y initPackage) int {
		switch {
		case x.ms > y.ms:
			return -1
		case x.ms < y.ms:
			return 1
		}
		return strings.Compare(x.pkg, y.pkg)
	})
	return ps[:min(n, len(ps))]
}

func (r report) writeInits(w *bufio.Writer) {
	if r.inits == nil {
		return
	}
	p := func(format string, args ...any) { _, _ = fmt.Fprintf(w, format, args...) } // w keeps its first error for Flush
	res := *r.inits
	p("## Package initialisers\n\n")
	p("What each program does before `main`, which every start pays: `PROGRAM --version` with `GODEBUG=inittrace=1`, which makes the Go runtime report each package's initialisers, their time on the clock and what they allocated; %d runs of each, alternating. Allocations do not vary between runs; times are min / **median** / max. asktui's own packages are those under `%s`.\n\n", len(res.a), strings.TrimSuffix(ownPrefix, "/"))
	p("| | asktui | gum |\n|---|---|---|\n")
	sums := func(runs []initRun, keep func(string) bool) (summary, int, int) {
		ms := summarize(column(runs, func(r initRun) float64 { m, _, _ := totals(r, keep); return m }))
		_, b, a := totals(runs[0], keep)
		return ms, b, a
	}
	aAll, aB, aN := sums(res.a, all)
	bAll, bB, bN := sums(res.b, all)
	p("| initialisers, ms | %s | %s |\n", spread(aAll, 1), spread(bAll, 1))
	p("| allocated by them | %s in %s allocations | %s in %s allocations |\n", mib(aB), thousands(aN), mib(bB), thousands(bN))
	aOwn, aOB, aON := sums(res.a, own)
	p("| of which asktui's own packages | %s ms, %s bytes in %d allocations | – |\n", fmtNum(aOwn.median, 2), thousands(aOB), aON)
	aLib, _, _ := sums(res.a, libraries)
	p("| of which the libraries' | %s ms | %s ms (all) |\n", fmtNum(aLib.median, 1), fmtNum(bAll.median, 1))
	wall := func(runs []initRun) summary {
		return summarize(column(runs, func(r initRun) float64 { return float64(r.wall) / float64(time.Millisecond) }))
	}
	cpu := func(runs []initRun) summary {
		return summarize(column(runs, func(r initRun) float64 { return float64(r.cpu) / float64(time.Millisecond) }))
	}
	p("| `--version`, start to exit, ms | %s | %s |\n", spread(wall(res.a), 1), spread(wall(res.b), 1))
	p("| `--version`, CPU time, ms | %s | %s |\n\n", spread(cpu(res.a), 1), spread(cpu(res.b), 1))
	for _, side := range []struct {
		name string
		runs []initRun
	}{{"asktui", res.a}, {"gum", res.b}} {
		p("The slowest initialisers of %s (median ms; allocations):\n\n", side.name)
		for _, pk := range heaviest(side.runs, 8) {
			p("- `%s`: %s ms, %s bytes in %s allocations\n", pk.pkg, fmtNum(pk.ms, 2), thousands(pk.bytes), thousands(pk.allocs))
		}
		p("\n")
	}
}

func mib(b int) string {
	if b >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%s KiB", thousands((b+512)>>10))
}

func fmtNum(v float64, digits int) string { return strconv.FormatFloat(v, 'f', digits, 64) }
