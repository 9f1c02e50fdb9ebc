package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"strings"
	"time"

	"github.com/charmbracelet/x/vt"
)

// program is one side of the comparison: how to start it on a list of
// options for the choose run and for the filter run.
type program struct {
	name string
	// choose starts the program on the options with the cursor on the
	// first; ↓ moves it, Enter answers with the option under it.
	choose func(l list) spec
	// filter starts the program on the options; after openFilter, typed
	// characters filter the list.
	filter func(l list) spec
	// openFilter are the keys that open the filter line, if any.
	openFilter []vt.KeyPressEvent
	// answered reports whether the standard output of the choose run
	// answers label.
	answered func(stdout, label string) bool
	// queries and filterQueries count the terminal queries the program
	// sent in its choose and filter runs.
	queries, filterQueries *queryLog
	// unhandled collects the sequences the emulator ignored, with -v.
	unhandled *queryLog
	// ready reports, when set, whether the screen takes answering keys:
	// asktui holds them for half a second after a question appears, and
	// its hint replaces the hold's cue when it ends.
	ready func(screen string) bool
}

// awaitReady waits until the program takes answering keys (see
// program.ready); it is not timed.
func (s *session) awaitReady(p *program, timeout time.Duration) error {
	if p.ready == nil {
		return nil
	}
	w := s.expect(p.ready)
	if p.ready(s.Screen()) {
		return nil
	}
	_, err := s.await(w, "waiting for the question to take keys", timeout)
	return err
}

// list is one list of options, in the two forms the programs read.
type list struct {
	n       int
	labels  string // one label a line
	request string // an asktui request file
}

// config is what every run shares.
type config struct {
	env      []string
	settle   time.Duration // silence that ends start-up
	keyQuiet time.Duration // stillness of the screen before each key
	downs    int           // ↓ presses per choose run
	filter   rune          // the character typed in the filter run
	jitter   time.Duration // keys wait a further random delay below this
	rng      *rand.Rand
	timeout  time.Duration // limit of every step
	ttyOut   bool          // the child's standard output on the pty
	screens  io.Writer     // if not nil, gets the screens of each choose run at its first frame and once settled
}

// chooseResult is what one choose run measured.
type chooseResult struct {
	firstOut   time.Duration // start until the first byte of output
	firstFrame time.Duration // start until the marker is on the screen
	settled    time.Duration // start until the last output before silence
	down       time.Duration // median over the ↓ presses
	enter      time.Duration // Enter until the process exited
	rssKiB     int64         // peak resident set size
	cpu        time.Duration // user and system CPU time of the whole run
}

// Keys the benchmark presses.
var (
	keyDown  = vt.KeyPressEvent{Code: vt.KeyDown}
	keyEnter = vt.KeyPressEvent{Code: vt.KeyEnter}
	keyCtrlC = vt.KeyPressEvent{Code: 'c', Mod: vt.ModCtrl}
)

// marker is on the screen once the list is drawn down to its tenth row:
// "Option 10" is in no other text either program draws, and only the
// options' own labels contain it.
const marker = "Option 10"

// option1Row matches a row of the list that shows "Option 1" itself (not
// "Option 10" or "Option 19").
var option1Row = regexp.MustCompile(`(?m)Option 1(?:[^0-9]|$)`)

func label(i int) string { return fmt.Sprintf("Option %d", i) }

// presses is how many times a choose run presses ↓ on a list of n options:
// never past the last option, so that both programs end on the same one.
func presses(downs, n int) int { return max(0, min(downs, n-1)) }

// runChoose runs p's choose run on l: time to the first frame and to
// settling, ↓ latency, Enter until exit, and peak RSS.
func runChoose(p program, l list, c config) (chooseResult, error) {
	var r chooseResult
	first := &waiter{cond: func(s string) bool { return strings.Contains(s, marker) }, hit: make(chan time.Time, 1)}
	sp := p.choose(l)
	sp.stdoutTTY = c.ttyOut
	s, err := startSession(sp, c.env, p.queries, first)
	if err != nil {
		return r, err
	}
	defer s.close()
	if p.unhandled != nil {
		s.emu.SetLogger(p.unhandled)
	}

	at, err := s.await(first, fmt.Sprintf("waiting for the first frame (%q on the screen)", marker), c.timeout)
	if err != nil {
		return r, err
	}
	r.firstFrame = at.Sub(s.start)
	s.mu.Lock()
	r.firstOut = s.firstOut.Sub(s.start)
	frame := s.screen
	s.mu.Unlock()
	last, err := s.quiet(c.settle, false, "waiting for the output to settle after start-up", c.timeout)
	if err != nil {
		return r, err
	}
	r.settled = last.Sub(s.start)
	if c.screens != nil {
		_, _ = fmt.Fprintf(c.screens, "--- %s: first frame at %.1f ms\n%s\n--- settled at %.1f ms\n%s\n",
			sp, ms(r.firstFrame), frame, ms(r.settled), s.Screen())
	}

	n := presses(c.downs, l.n)
	lat := make([]float64, 0, n)
	for i := range n {
		if err := s.rest(c, fmt.Sprintf("waiting for the screen to rest before ↓ %d", i+1)); err != nil {
			return r, err
		}
		w := s.expect(s.screenChanged())
		sent := s.key(keyDown)
		at, err := s.await(w, fmt.Sprintf("waiting for ↓ %d to change the screen", i+1), c.timeout)
		if err != nil {
			return r, err
		}
		lat = append(lat, ms(at.Sub(sent)))
	}
	if n > 0 {
		r.down = fromMS(median(lat))
	}

	if err := s.awaitReady(&p, c.timeout); err != nil {
		return r, err
	}
	if err := s.rest(c, "waiting for the screen to rest before Enter"); err != nil {
		return r, err
	}
	hwm := s.childHWM()
	sent := s.key(keyEnter)
	exited, err := s.exit("waiting for Enter to answer and exit", c.timeout)
	if err != nil {
		return r, err
	}
	r.enter = exited.Sub(sent)
	want := label(n + 1)
	if code := s.exitCode(); code != 0 {
		return r, fmt.Errorf("%s: Enter: exit code %d, want 0; the screen:\n%s", sp, code, indent(s.Screen()))
	}
	if !c.ttyOut && !p.answered(s.out.String(), want) {
		return r, fmt.Errorf("%s: Enter answered %q, want %q", sp, strings.TrimSpace(s.out.String()), want)
	}
	r.rssKiB = s.peakRSS(hwm)
	r.cpu = s.cpuTime()
	return r, nil
}

// runFilter runs p's filter run on l: it opens the filter, waits for the
// screen to rest, types one character and returns the time until the
// list shows the filtered options (the row "Option 1" has gone).
func runFilter(p program, l list, c config) (time.Duration, error) {
	first := &waiter{cond: func(s string) bool { return strings.Contains(s, marker) }, hit: make(chan time.Time, 1)}
	sp := p.filter(l)
	sp.stdoutTTY = c.ttyOut
	s, err := startSession(sp, c.env, p.filterQueries, first)
	if err != nil {
		return 0, err
	}
	defer s.close()
	if p.unhandled != nil {
		s.emu.SetLogger(p.unhandled)
	}

	if _, err := s.await(first, fmt.Sprintf("waiting for the first frame (%q on the screen)", marker), c.timeout); err != nil {
		return 0, err
	}
	// A blinking cursor in a filter line writes forever, so what must
	// rest here is the screen's text, not the output.
	if _, err := s.quiet(c.settle, true, "waiting for the screen to rest after start-up", c.timeout); err != nil {
		return 0, err
	}
	if err := s.awaitReady(&p, c.timeout); err != nil {
		return 0, err
	}
	for _, k := range p.openFilter {
		w := s.expect(s.screenChanged())
		s.key(k)
		if _, err := s.await(w, fmt.Sprintf("waiting for %q to open the filter", k.Text), c.timeout); err != nil {
			return 0, err
		}
		if _, err := s.quiet(c.keyQuiet, true, "waiting for the screen to rest after opening the filter", c.timeout); err != nil {
			return 0, err
		}
	}
	if err := s.rest(c, fmt.Sprintf("waiting for the screen to rest before %q", c.filter)); err != nil {
		return 0, err
	}
	if !option1Row.MatchString(s.Screen()) {
		return 0, s.stuck("before filtering", `the row "Option 1" is not on the screen`)
	}

	w := s.expect(func(scr string) bool { return !option1Row.MatchString(scr) })
	sent := s.key(vt.KeyPressEvent{Code: c.filter, Text: string(c.filter)})
	at, err := s.await(w, fmt.Sprintf("waiting for %q to filter the list", c.filter), c.timeout)
	if err != nil {
		return 0, err
	}

	// Done: leave as a person would, and kill the program if it does not.
	s.key(keyCtrlC)
	_, _ = s.exit("waiting for Ctrl+C to end the filter run", c.timeout)
	return at.Sub(sent), nil
}

// rest waits until the screen's text has rested for c.keyQuiet, then a
// random delay below c.jitter. Programs draw on a free-running ticker (60
// frames a second for bubbletea), and a key sent a fixed time after the
// last frame would always land at the same phase of it: always just after
// a tick (the latency is then a whole frame) or always just before one.
// The random delay spreads the keys over the whole frame, as a person's
// keys are.
func (s *session) rest(c config, step string) error {
	if _, err := s.quiet(c.keyQuiet, true, step, c.timeout); err != nil {
		return err
	}
	if c.jitter > 0 {
		time.Sleep(time.Duration(c.rng.Int64N(int64(c.jitter))))
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func fromMS(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
