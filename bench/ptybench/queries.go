package main

import (
	"fmt"
	"image/color"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// The colours the emulated terminal reports: a dark background, as most
// terminals have.
var (
	termFg = color.RGBA{R: 0xd0, G: 0xd0, B: 0xd0, A: 0xff}
	termBg = color.RGBA{R: 0x1c, G: 0x1c, B: 0x1c, A: 0xff}
)

// termVersion is what the emulated terminal answers to XTVERSION.
const termVersion = "ptybench(1.0)"

// answerQueries makes emu answer the queries that programs send at start-up
// as a modern terminal would. The emulator itself already answers the
// cursor position report (CSI 6 n), DSR (CSI 5 n), DECXCPR (CSI ? 6 n),
// primary and secondary device attributes (CSI c, CSI > c), DECRQM for ANSI
// and DEC modes (CSI Ps $ p, CSI ? Ps $ p; unknown modes are reported as
// not recognised) and the colour queries OSC 10/11/12; this adds XTVERSION,
// the kitty keyboard flags query, the window size reports and XTGETTCAP,
// and counts every query in log.
//
// The emulator writes replies into a pipe that the session forwards to the
// child; they are written while the emulator parses the query, so emu must
// be driven under the session's lock, as any other access.
func answerQueries(emu *vt.Emulator, log *queryLog) {
	emu.SetDefaultForegroundColor(termFg)
	emu.SetDefaultBackgroundColor(termBg)
	reply := func(s string) { _, _ = io.WriteString(emu.InputPipe(), s) }

	// Counters registered after the emulator's own handlers run first and
	// return false so that the emulator's handler still answers.
	count := func(name string) func(ansi.Params) bool {
		return func(ansi.Params) bool { log.add(name); return false }
	}
	emu.RegisterCsiHandler('c', count("DA1 (CSI c)"))
	emu.RegisterCsiHandler(ansi.Command('>', 0, 'c'), count("DA2 (CSI > c)"))
	emu.RegisterCsiHandler('n', func(p ansi.Params) bool {
		if n, _, _ := p.Param(0, 0); n == 6 {
			log.add("cursor position (CSI 6 n)")
		} else {
			log.add(fmt.Sprintf("DSR (CSI %d n)", n))
		}
		return false
	})
	emu.RegisterCsiHandler(ansi.Command('?', 0, 'n'), func(p ansi.Params) bool {
		n, _, _ := p.Param(0, 0)
		log.add(fmt.Sprintf("DSR (CSI ? %d n)", n))
		return false
	})
	emu.RegisterCsiHandler(ansi.Command('?', '$', 'p'), func(p ansi.Params) bool {
		n, _, _ := p.Param(0, 0)
		log.add(fmt.Sprintf("DECRQM ?%d", n))
		return false
	})
	emu.RegisterCsiHandler(ansi.Command(0, '$', 'p'), func(p ansi.Params) bool {
		n, _, _ := p.Param(0, 0)
		log.add(fmt.Sprintf("DECRQM %d", n))
		return false
	})
	for _, cmd := range []int{10, 11, 12} {
		emu.RegisterOscHandler(cmd, func(data []byte) bool {
			if strings.HasSuffix(string(data), ";?") {
				log.add(fmt.Sprintf("colour (OSC %d ?)", cmd))
			}
			return false
		})
	}

	// XTVERSION: CSI > q or CSI > 0 q.
	emu.RegisterCsiHandler(ansi.Command('>', 0, 'q'), func(p ansi.Params) bool {
		if n, _, _ := p.Param(0, 0); n != 0 {
			return false
		}
		log.add("XTVERSION (CSI > q)")
		reply("\x1bP>|" + termVersion + "\x1b\\")
		return true
	})

	// The kitty keyboard protocol's flags: kept as a terminal that knows
	// the protocol keeps them, and reported on CSI ? u. The keys the
	// benchmark sends (↓, Enter, printable characters, Ctrl+C) are sent in
	// the legacy encoding, which programs accept whatever flags they set.
	var kitty kittyFlags
	emu.RegisterCsiHandler(ansi.Command('?', 0, 'u'), func(ansi.Params) bool {
		log.add("kitty keyboard flags (CSI ? u)")
		reply(fmt.Sprintf("\x1b[?%du", kitty.current()))
		return true
	})
	emu.RegisterCsiHandler(ansi.Command('>', 0, 'u'), func(p ansi.Params) bool {
		f, _, _ := p.Param(0, 0)
		kitty.push(f)
		return true
	})
	emu.RegisterCsiHandler(ansi.Command('<', 0, 'u'), func(p ansi.Params) bool {
		n, _, _ := p.Param(0, 1)
		kitty.pop(n)
		return true
	})
	emu.RegisterCsiHandler(ansi.Command('=', 0, 'u'), func(p ansi.Params) bool {
		f, _, _ := p.Param(0, 0)
		m, _, _ := p.Param(1, 1)
		kitty.set(f, m)
		return true
	})

	// Window reports (XTWINOPS): text area in pixels and characters, and
	// the cell size, for a 10x20 pixel cell.
	emu.RegisterCsiHandler('t', func(p ansi.Params) bool {
		switch n, _, _ := p.Param(0, 0); n {
		case 14:
			log.add("window size in pixels (CSI 14 t)")
			reply(fmt.Sprintf("\x1b[4;%d;%dt", rows*20, cols*10))
		case 16:
			log.add("cell size (CSI 16 t)")
			reply("\x1b[6;20;10t")
		case 18:
			log.add("window size (CSI 18 t)")
			reply(fmt.Sprintf("\x1b[8;%d;%dt", rows, cols))
		default:
			return false
		}
		return true
	})

	// XTGETTCAP: DCS + q Pt ST. Answered "not known", as xterm answers a
	// capability it does not have.
	emu.RegisterDcsHandler(ansi.Command(0, '+', 'q'), func(_ ansi.Params, data []byte) bool {
		log.add("XTGETTCAP (DCS + q)")
		reply("\x1bP0+r" + string(data) + "\x1b\\")
		return true
	})
}

// kittyFlags is the kitty keyboard protocol's stack of flags.
type kittyFlags struct{ stack []int }

func (k *kittyFlags) current() int {
	if len(k.stack) == 0 {
		return 0
	}
	return k.stack[len(k.stack)-1]
}

func (k *kittyFlags) push(f int) { k.stack = append(k.stack, f) }

func (k *kittyFlags) pop(n int) { k.stack = k.stack[:len(k.stack)-min(n, len(k.stack))] }

// set applies CSI = flags ; mode u: 1 sets the flags, 2 adds them, 3
// removes them.
func (k *kittyFlags) set(f, mode int) {
	if len(k.stack) == 0 {
		k.stack = append(k.stack, 0)
	}
	top := &k.stack[len(k.stack)-1]
	switch mode {
	case 1:
		*top = f
	case 2:
		*top |= f
	case 3:
		*top &^= f
	}
}

// queryLog counts the terminal queries a command sent, by kind, over all
// its runs.
type queryLog struct {
	mu     sync.Mutex
	n      map[string]int
	starts int
}

func newQueryLog() *queryLog { return &queryLog{n: map[string]int{}} }

func (l *queryLog) add(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n[name]++
}

// started counts a start of the program.
func (l *queryLog) started() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.starts++
}

// Printf records a line of the emulator's log: with -v, the sequences it
// ignored.
func (l *queryLog) Printf(format string, v ...any) { l.add(fmt.Sprintf(format, v...)) }

// String lists the kinds of query sent, each with how many times one
// start of the program sent it.
func (l *queryLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.n) == 0 {
		return "none"
	}
	names := make([]string, 0, len(l.n))
	for name := range l.n {
		names = append(names, name)
	}
	slices.Sort(names)
	for i, name := range names {
		per := float64(l.n[name]) / float64(max(l.starts, 1))
		names[i] = fmt.Sprintf("%s ×%s", name, strconv.FormatFloat(per, 'g', 3, 64))
	}
	return strings.Join(names, ", ")
}
