// Package main is ptybench, a whole-process benchmark of `asktui ask`
// against `gum choose` and `gum filter`, each run in a real 120x40
// pseudo-terminal whose output feeds a terminal emulator
// (github.com/charmbracelet/x/vt) that answers the terminal's queries as a
// modern terminal would.
//
// For each list size it runs the two programs in pairs, back to back,
// alternating which goes first, and measures the time to the first frame
// and until the output settles, the latency of ↓, of a filter character and
// of Enter (until the process exits with its answer), and the peak RSS of
// the child from its rusage. It then runs each program's --version with
// GODEBUG=inittrace=1 to report its package initialisers, what every start
// pays before main. It prints a Markdown report; scripts/bench.sh builds
// everything and writes it to docs/benchmarks.md.
//
// `ptybench stream -asktui PATH` measures `asktui run` against an agent
// that floods it (see stream.go), and `ptybench agent` is that agent.
//
// It is not part of the asktui binary, and is a Go module of its own
// (bench/ptybench/go.mod): asktui's own dependencies and tests leave it out.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/charmbracelet/x/vt"
)

func main() {
	// An interrupted benchmark kills the program it is measuring, which
	// runs in a session of its own and would not get the signal.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		s := <-sig
		killLive()
		fmt.Fprintln(os.Stderr, "ptybench: interrupted by", s)
		os.Exit(130)
	}()
	var err error
	switch args := os.Args[1:]; {
	case len(args) > 0 && args[0] == "agent":
		err = floodAgent(args[1:], os.Stdin, os.Stdout)
	case len(args) > 0 && args[0] == "stream":
		err = runStream(args[1:], os.Stdout, os.Stderr)
	default:
		err = run(args, os.Stdout, os.Stderr)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ptybench:", err)
		os.Exit(1)
	}
}

// options are the command line flags.
type options struct {
	asktui, gum string
	sizes       []int
	reps        int
	repsLarge   int
	large       int
	initReps    int
	cfg         config
	verbose     bool
	out         string
	regen       string
	note        string
	asktuiRev   string
	seed        uint64
	gumHeight   int
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("ptybench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.asktui, "asktui", "", "path of the asktui binary (required)")
	fs.StringVar(&o.gum, "gum", "", "path of the gum binary (required)")
	sizes := fs.String("options", "10,1000,10000,100000", "comma-separated list sizes")
	fs.IntVar(&o.reps, "reps", 10, "pairs per list size")
	fs.IntVar(&o.repsLarge, "reps-large", 5, "pairs per list size from -large options on")
	fs.IntVar(&o.large, "large", 100000, "list size from which -reps-large applies")
	fs.IntVar(&o.initReps, "init-reps", 20, "runs of each program's --version for the package initialisers (0: none)")
	fs.DurationVar(&o.cfg.settle, "settle", 250*time.Millisecond, "silence that ends start-up (the settled time is the last output before it)")
	fs.DurationVar(&o.cfg.keyQuiet, "key-quiet", 100*time.Millisecond, "how long the screen must rest before each key")
	fs.DurationVar(&o.cfg.jitter, "jitter", 50*time.Millisecond, "keys wait a further random delay below this, so that they land at random phases of the programs' frame tickers")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the random delays")
	fs.IntVar(&o.cfg.downs, "downs", 10, "↓ presses per choose run")
	filter := fs.String("filter-char", "9", "the character typed in the filter run")
	fs.DurationVar(&o.cfg.timeout, "timeout", 30*time.Second, "limit of every step; a child that misses it is killed and the run fails")
	fs.BoolVar(&o.cfg.ttyOut, "stdout-tty", false, "put the children's standard output on the pty rather than a pipe (then answers are not checked)")
	fs.BoolVar(&o.verbose, "v", false, "also report the escape sequences the emulator ignored")
	screens := fs.Bool("screens", false, "print each choose run's screen at its first frame and once settled on standard error")
	fs.StringVar(&o.out, "o", "", "write the report to this file instead of standard output")
	fs.StringVar(&o.regen, "regen", "", "the command that regenerates the report, quoted in it")
	fs.StringVar(&o.note, "note", "", "a note printed under the title")
	fs.StringVar(&o.asktuiRev, "asktui-rev", "", "the asktui revision measured, quoted in the report")
	fs.IntVar(&o.gumHeight, "gum-height", 34, "gum's --height: 34 shows as many rows as asktui at 120x40; 0 leaves gum's default, which draws many more rows of a long list")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.asktui == "" || o.gum == "" {
		return o, errors.New("-asktui and -gum are required")
	}
	for f := range strings.SplitSeq(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 10 {
			return o, fmt.Errorf("-options: %q is not a list size of 10 or more", f)
		}
		o.sizes = append(o.sizes, n)
	}
	r := []rune(*filter)
	if len(r) != 1 || r[0] == '/' || r[0] == '1' {
		return o, fmt.Errorf("-filter-char: %q is not one character other than / and 1", *filter)
	}
	o.cfg.filter = r[0]
	if *screens {
		o.cfg.screens = stderr
	}
	o.cfg.rng = rand.New(rand.NewPCG(o.seed, o.seed)) //nolint:gosec // a seeded source, so that a run can be repeated
	if o.gumHeight < 0 {
		return o, errors.New("-gum-height must be 0 (gum's default) or more")
	}
	if o.reps < 1 || o.repsLarge < 1 {
		return o, errors.New("-reps and -reps-large must be at least 1")
	}
	return o, nil
}

func run(args []string, stdout, stderr io.Writer) (err error) {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	for _, p := range []*string{&o.asktui, &o.gum} {
		abs, err := exec.LookPath(*p)
		if err != nil {
			return err
		}
		if *p, err = filepath.Abs(abs); err != nil {
			return err
		}
	}
	o.cfg.env = childEnv(os.Environ())

	dir, err := os.MkdirTemp("", "ptybench-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()

	a, b := programs(o)
	loadBefore := loadAvg()
	began := time.Now()
	var results []sizeResult
	for _, n := range o.sizes {
		l, err := writeList(dir, n)
		if err != nil {
			return err
		}
		reps := o.reps
		if n >= o.large {
			reps = o.repsLarge
		}
		r, err := measure(a, b, l, reps, o.cfg, stderr)
		if err != nil {
			return err
		}
		results = append(results, r)
	}

	var inits *initResult
	if o.initReps > 0 {
		res, err := measureInits(o.asktui, o.gum, o.cfg.env, o.initReps)
		if err != nil {
			return err
		}
		inits = &res
	}

	w := stdout
	if o.out != "" {
		f, err := os.Create(o.out)
		if err != nil {
			return err
		}
		defer func() {
			if cerr := f.Close(); cerr != nil && err == nil {
				err = fmt.Errorf("writing the report: %w", cerr)
			}
		}()
		w = f
	}
	rep := report{
		opts:    o,
		a:       a,
		b:       b,
		results: results,
		inits:   inits,
		began:   began,
		took:    time.Since(began),
		gumVer:  versionOf(o.gum, "--version"),
		goVer:   runtime.Version(),

		loadBefore: loadBefore,
	}
	bw := bufio.NewWriter(w)
	rep.write(bw)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	return nil
}

// programs returns asktui and gum as the benchmark starts them.
func programs(o options) (a, b program) {
	a = program{
		name: "asktui",
		choose: func(l list) spec {
			return spec{argv: []string{o.asktui, "ask", "--theme", "dark", l.request}}
		},
		filter: func(l list) spec {
			return spec{argv: []string{o.asktui, "ask", "--theme", "dark", l.request}}
		},
		openFilter: []vt.KeyPressEvent{{Code: '/', Text: "/"}},
		answered: func(stdout, label string) bool {
			var ans struct {
				Answers []struct {
					ID       string   `json:"id"`
					Selected []string `json:"selected"`
				} `json:"answers"`
			}
			if json.Unmarshal([]byte(stdout), &ans) != nil || len(ans.Answers) != 1 {
				return false
			}
			got := ans.Answers[0]
			return got.ID == "pick" && len(got.Selected) == 1 && got.Selected[0] == label
		},
		queries:       newQueryLog(),
		filterQueries: newQueryLog(),
		ready:         func(screen string) bool { return strings.Contains(screen, "answers at once") },
	}
	b = program{
		name: "gum",
		choose: func(l list) spec {
			return spec{argv: append([]string{o.gum, "choose"}, gumArgs(o)...), stdin: l.labels}
		},
		filter: func(l list) spec {
			return spec{argv: append([]string{o.gum, "filter"}, gumArgs(o)...), stdin: l.labels}
		},
		answered:      func(stdout, label string) bool { return strings.TrimSpace(stdout) == label },
		queries:       newQueryLog(),
		filterQueries: newQueryLog(),
	}
	if o.verbose {
		a.unhandled, b.unhandled = newQueryLog(), newQueryLog()
	}
	return a, b
}

// gumArgs are the flags gum choose and gum filter get: the header, and
// the height unless -gum-height is 0.
func gumArgs(o options) []string {
	args := []string{"--header", "Pick one"}
	if o.gumHeight > 0 {
		args = append(args, "--height", strconv.Itoa(o.gumHeight))
	}
	return args
}

// childEnv is env with the terminal described as a 256-colour xterm with
// true colour, and without the variables that would change what the
// programs draw.
func childEnv(env []string) []string {
	drop := []string{"TERM", "COLORTERM", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "ACCESSIBLE",
		"TMUX", "STY", "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "COLUMNS", "LINES", "LANG", "LC_ALL"}
	out := make([]string, 0, len(env)+3)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GUM_") || strings.HasPrefix(k, "ASKTUI_") || containsStr(drop, k) {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "TERM=xterm-256color", "COLORTERM=truecolor", "LANG=C.UTF-8")
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// writeList writes the n options as a file of labels, one a line, and as
// an asktui request with one single-select question.
func writeList(dir string, n int) (list, error) {
	l := list{
		n:       n,
		labels:  filepath.Join(dir, fmt.Sprintf("options-%d.txt", n)),
		request: filepath.Join(dir, fmt.Sprintf("request-%d.json", n)),
	}
	type option struct {
		Label string `json:"label"`
	}
	type question struct {
		ID       string   `json:"id"`
		Question string   `json:"question"`
		Options  []option `json:"options"`
	}
	req := struct {
		Questions []question `json:"questions"`
	}{Questions: []question{{ID: "pick", Question: "Pick one", Options: make([]option, n)}}}
	var labels strings.Builder
	for i := range n {
		req.Questions[0].Options[i].Label = label(i + 1)
		labels.WriteString(label(i + 1))
		labels.WriteByte('\n')
	}
	data, err := json.Marshal(req)
	if err != nil {
		return l, err
	}
	if err := os.WriteFile(l.request, data, 0o600); err != nil {
		return l, err
	}
	return l, os.WriteFile(l.labels, []byte(labels.String()), 0o600)
}

// sizeResult is every sample of one list size; index i of a slice is pair
// i.
type sizeResult struct {
	n    int
	a, b samples
}

// samples are one program's measurements, one per pair.
type samples struct {
	firstOut, firstFrame, settled, down, filter, enter, rssMiB, cpu []float64
}

func (s *samples) add(c chooseResult, filter time.Duration) {
	s.firstOut = append(s.firstOut, ms(c.firstOut))
	s.firstFrame = append(s.firstFrame, ms(c.firstFrame))
	s.settled = append(s.settled, ms(c.settled))
	s.down = append(s.down, ms(c.down))
	s.enter = append(s.enter, ms(c.enter))
	s.rssMiB = append(s.rssMiB, float64(c.rssKiB)/1024)
	s.filter = append(s.filter, ms(filter))
	s.cpu = append(s.cpu, ms(c.cpu))
}

// measure runs reps pairs on l. Pair i runs the choose runs of both
// programs back to back and then their filter runs, a first in even pairs
// and b first in odd ones.
func measure(a, b program, l list, reps int, c config, log io.Writer) (sizeResult, error) {
	res := sizeResult{n: l.n}
	for i := range reps {
		order := []*program{&a, &b}
		if i%2 == 1 {
			order = []*program{&b, &a}
		}
		chosen := map[string]chooseResult{}
		filtered := map[string]time.Duration{}
		for _, p := range order {
			r, err := runChoose(*p, l, c)
			if err != nil {
				return res, fmt.Errorf("%s options, pair %d, %s choose run: %w", thousands(l.n), i+1, p.name, err)
			}
			chosen[p.name] = r
		}
		for _, p := range order {
			d, err := runFilter(*p, l, c)
			if err != nil {
				return res, fmt.Errorf("%s options, pair %d, %s filter run: %w", thousands(l.n), i+1, p.name, err)
			}
			filtered[p.name] = d
		}
		res.a.add(chosen[a.name], filtered[a.name])
		res.b.add(chosen[b.name], filtered[b.name])
		for _, p := range []program{a, b} {
			r := chosen[p.name]
			_, _ = fmt.Fprintf(log, "%7s options, pair %2d/%d, %-6s output %6.1f ms, first %6.1f ms, settled %6.1f ms, ↓ %5.1f ms, filter %6.1f ms, enter %5.1f ms, rss %5.1f MiB, cpu %6.1f ms\n",
				thousands(l.n), i+1, reps, p.name, ms(r.firstOut), ms(r.firstFrame), ms(r.settled), ms(r.down), ms(filtered[p.name]), ms(r.enter), float64(r.rssKiB)/1024, ms(r.cpu))
		}
	}
	return res, nil
}

// versionOf returns the first line of what bin prints for args, or "?".
func versionOf(bin string, args ...string) string {
	out, err := exec.CommandContext(context.Background(), bin, args...).Output() //nolint:gosec // the program under test, which the bench built
	if err != nil {
		return "?"
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line
}
