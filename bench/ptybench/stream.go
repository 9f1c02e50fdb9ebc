package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/vt"
)

// `ptybench stream` measures `asktui run` while an agent floods it: the
// flood agent (`ptybench agent`) under `asktui run -- …` in the same
// 120x40 pseudo-terminal as the other benchmarks. For each scenario it
// sends a prompt, and while the reply streams it types a character into
// the prompt editor every 20–70 ms and times it until the editor shows it
// (then deletes it, timed the same way); it takes asktui's CPU time and
// the frames it drew (reads that changed the screen) over the turn, and
// its peak RSS. A second run of the scenario presses Esc a second into
// the flood and times it until the transcript says "turn cancelled".

// streamScenario is one flood.
type streamScenario struct {
	name  string
	agent []string // the flood agent's flags
}

var streamScenarios = []streamScenario{
	{"100 MB reply in 1 MiB chunks", []string{"-mode", "reply", "-bytes", "100000000", "-chunk", "1048576"}},
	{"10,000 chunks of 100 bytes", []string{"-mode", "reply", "-bytes", "1000000", "-chunk", "100"}},
	{"100,000-update flood, one message", []string{"-mode", "flood", "-updates", "100000", "-kinds", "message"}},
	{"100,000-update flood, every kind", []string{"-mode", "flood", "-updates", "100000"}},
	{"188 MB paragraph in 9 MiB chunks", []string{"-mode", "reply", "-bytes", "188743680", "-chunk", "9437184", "-text", "paragraph"}},
}

// streamResult is what one scenario measured.
type streamResult struct {
	sc       streamScenario
	turn     time.Duration // Enter until the turn had ended on screen
	cpu      time.Duration // asktui's CPU time over the turn
	frames   int           // reads that changed the screen over the turn
	keys     []float64     // key latencies, ms
	idleKeys []float64     // the same keys before the prompt, ms
	rssKiB   int64         // peak RSS
	cancel   time.Duration // Esc until "turn cancelled"; 0 when the turn ended first
	cancelOK bool
}

type streamOptions struct {
	asktui  string
	only    string
	out     string
	timeout time.Duration
	seed    uint64
	noEsc   bool
}

func runStream(args []string, stdout, stderr io.Writer) (err error) {
	var o streamOptions
	fs := flag.NewFlagSet("ptybench stream", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.asktui, "asktui", "", "path of the asktui binary (required)")
	fs.StringVar(&o.only, "only", "", "run only the scenarios whose name contains this")
	fs.StringVar(&o.out, "o", "", "write the report to this file instead of standard output")
	fs.DurationVar(&o.timeout, "timeout", 120*time.Second, "limit of every step")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the random delays between keys")
	fs.BoolVar(&o.noEsc, "no-esc", false, "skip the runs that press Esc")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.asktui == "" {
		return errors.New("-asktui is required")
	}
	if o.asktui, err = filepath.Abs(o.asktui); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	home, err := os.MkdirTemp("", "ptybench-stream-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(home) }()
	env := append(childEnv(os.Environ()), "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_STATE_HOME="+home, "XDG_RUNTIME_DIR="+home, "TMPDIR="+home)
	rng := rand.New(rand.NewPCG(o.seed, o.seed)) //nolint:gosec // a seeded source, so that a run can be repeated

	began := time.Now()
	load := loadAvg()
	var results []streamResult
	for _, sc := range streamScenarios {
		if o.only != "" && !strings.Contains(sc.name, o.only) {
			continue
		}
		argv := append([]string{o.asktui, "run", "--theme", "dark", "--history", "off", "--socket", "off", "--", self, "agent"}, sc.agent...)
		r, err := floodRun(sc, argv, env, rng, o.timeout)
		if err != nil {
			return fmt.Errorf("%s: %w", sc.name, err)
		}
		if !o.noEsc {
			if err := cancelRun(&r, argv, env, o.timeout); err != nil {
				return fmt.Errorf("%s, cancelled: %w", sc.name, err)
			}
		}
		_, _ = fmt.Fprintf(stderr, "%-36s turn %6.0f ms, %5d frames, cpu/frame %5.2f ms, keys p50 %5.1f p99 %5.1f max %5.1f ms (%d; idle p50 %4.1f), rss %6.1f MiB, esc %5.0f ms\n",
			sc.name, ms(r.turn), r.frames, ms(r.cpu)/float64(max(r.frames, 1)), percentile(r.keys, 50), percentile(r.keys, 99), percentile(r.keys, 100), len(r.keys), percentile(r.idleKeys, 50), float64(r.rssKiB)/1024, ms(r.cancel))
		results = append(results, r)
	}

	w := stdout
	if o.out != "" {
		f, err := os.Create(o.out)
		if err != nil {
			return err
		}
		defer func() {
			if cerr := f.Close(); cerr != nil && err == nil {
				err = cerr
			}
		}()
		w = f
	}
	bw := bufio.NewWriter(w)
	writeStreamReport(bw, results, began, load)
	return bw.Flush()
}

// Keys the stream runs press.
var (
	keyX         = vt.KeyPressEvent{Code: 'x', Text: "x"}
	keyBackspace = vt.KeyPressEvent{Code: vt.KeyBackspace}
	keyEsc       = vt.KeyPressEvent{Code: vt.KeyEscape}
)

// editorLine is the first line of the prompt editor's box.
func editorLine(screen string) string {
	for line := range strings.SplitSeq(screen, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "│") {
			return t
		}
	}
	return ""
}

// typed reports whether the prompt editor shows "x"; cleared whether it
// shows its placeholder again.
func typed(screen string) bool { return strings.HasPrefix(editorLine(screen), "│ x") }
func cleared(screen string) bool {
	return strings.Contains(editorLine(screen), "Write a prompt")
}

// idle reports whether the status under the editor says the turn is over.
func idle(screen string) bool { return strings.Contains(screen, "enter sends ·") }

// startRun starts asktui run with the flood agent and sends the prompt;
// before, with keys, it types idleKeys pairs of keys and times them.
func startRun(argv, env []string, timeout time.Duration, idleKeys *[]float64, rng *rand.Rand) (*session, time.Time, error) {
	ready := &waiter{cond: idle, hit: make(chan time.Time, 1)}
	s, err := startSession(spec{argv: argv}, env, newQueryLog(), ready)
	if err != nil {
		return nil, time.Time{}, err
	}
	if _, err := s.await(ready, "waiting for the agent to start", timeout); err != nil {
		s.close()
		return nil, time.Time{}, err
	}
	for range cap(*idleKeys) / 2 {
		time.Sleep(20*time.Millisecond + time.Duration(rng.Int64N(int64(50*time.Millisecond))))
		if err := typeKeys(s, idleKeys, timeout); err != nil {
			s.close()
			return nil, time.Time{}, err
		}
	}
	working := s.expect(func(scr string) bool { return strings.Contains(scr, "esc cancels") })
	for _, r := range "go" {
		s.key(vt.KeyPressEvent{Code: r, Text: string(r)})
	}
	sent := s.key(keyEnter)
	if _, err := s.await(working, "waiting for the turn to start", timeout); err != nil {
		s.close()
		return nil, time.Time{}, err
	}
	return s, sent, nil
}

// floodRun plays one flood with keys typed during it.
func floodRun(sc streamScenario, argv, env []string, rng *rand.Rand, timeout time.Duration) (streamResult, error) {
	r := streamResult{sc: sc, idleKeys: make([]float64, 0, 20)}
	s, sent, err := startRun(argv, env, timeout, &r.idleKeys, rng)
	if err != nil {
		return r, err
	}
	defer s.close()
	cpu0, frames0 := procCPU(s.cmd.Process.Pid), s.changes()
	deadline := sent.Add(timeout)
	for !idle(s.Screen()) {
		if time.Now().After(deadline) {
			return r, s.stuck("waiting for the turn to end", fmt.Sprintf("not within %s", timeout))
		}
		time.Sleep(20*time.Millisecond + time.Duration(rng.Int64N(int64(50*time.Millisecond))))
		if err := typeKeys(s, &r.keys, timeout); err != nil {
			return r, err
		}
	}
	r.turn = time.Since(sent)
	r.cpu, r.frames = procCPU(s.cmd.Process.Pid)-cpu0, s.changes()-frames0
	r.rssKiB = s.childHWM()
	s.key(keyCtrlC)
	_, err = s.exit("waiting for ctrl+c to end asktui run", timeout)
	return r, err
}

// cancelRun starts the flood again and presses Esc a second into it.
func cancelRun(r *streamResult, argv, env []string, timeout time.Duration) error {
	var none []float64
	s, _, err := startRun(argv, env, timeout, &none, nil)
	if err != nil {
		return err
	}
	defer s.close()
	time.Sleep(time.Second)
	if idle(s.Screen()) {
		return nil // over before Esc
	}
	w := s.expect(func(scr string) bool { return strings.Contains(scr, "turn cancelled") })
	at := s.key(keyEsc)
	got, err := s.await(w, "waiting for Esc to cancel the turn", timeout)
	if err != nil {
		return err
	}
	r.cancel, r.cancelOK = got.Sub(at), true
	s.key(keyCtrlC)
	_, err = s.exit("waiting for ctrl+c to end asktui run", timeout)
	return err
}

// typeKeys types x and deletes it, timing each until the editor shows it.
func typeKeys(s *session, into *[]float64, timeout time.Duration) error {
	for _, k := range []struct {
		key  vt.KeyPressEvent
		cond func(string) bool
	}{{keyX, typed}, {keyBackspace, cleared}} {
		w := s.expect(k.cond)
		at := s.key(k.key)
		got, err := s.await(w, "waiting for a key to show in the editor", timeout)
		if err != nil {
			return err
		}
		*into = append(*into, ms(got.Sub(at)))
	}
	return nil
}

// procCPU is a process's user and system CPU time so far, from /proc.
func procCPU(pid int) time.Duration {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name, in parentheses, may hold spaces: count from after it.
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	const hz = 100 // USER_HZ on Linux
	return time.Duration(ut+st) * time.Second / hz
}

// percentile is the pth percentile of xs (nearest rank), 0 for none.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func writeStreamReport(w *bufio.Writer, rs []streamResult, began time.Time, load string) {
	p := func(format string, args ...any) { _, _ = fmt.Fprintf(w, format, args...) } // w keeps its first error for Flush
	p("%s\n", "| flood | turn | frames | asktui CPU per frame | key → screen p50 / p99 / max (keys) | idle key p50 | Esc → \"turn cancelled\" | peak RSS |")
	p("%s\n", "|---|---|---|---|---|---|---|---|")
	for _, r := range rs {
		cancel := "turn over first"
		if r.cancelOK {
			cancel = fmt.Sprintf("%.0f ms", ms(r.cancel))
		}
		p("| %s | %.1f s | %d | %.2f ms | %.1f / %.1f / %.1f ms (%d) | %.1f ms | %s | %.0f MiB |\n",
			r.sc.name, r.turn.Seconds(), r.frames, ms(r.cpu)/float64(max(r.frames, 1)),
			percentile(r.keys, 50), percentile(r.keys, 99), percentile(r.keys, 100), len(r.keys), percentile(r.idleKeys, 50), cancel, float64(r.rssKiB)/1024)
	}
	p("\n")
	for _, r := range rs {
		p("- %s: `ptybench agent %s`\n", r.sc.name, strings.Join(r.sc.agent, " "))
	}
	p("\nMachine: %s, %d cores, %s, Go %s; %s, load average %s at the start; took %s.\n",
		cpuModel(), runtime.NumCPU(), kernel(), runtime.Version(), began.UTC().Format("2006-01-02 15:04 UTC"), load, time.Since(began).Round(time.Second))
}
