package sshserve

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"charm.land/ssh"
)

func TestViewSize(t *testing.T) {
	for _, c := range []struct{ w, h, wantW, wantH int }{
		{120, 40, 120, 40},
		{0, 0, 80, 24},
		{-5, 30, 80, 24},
		{400, 150, 400, 150},
		{10000, 10000, 400, 150},
		{4096, 244, 400, 150},
		{1000, 30, 400, 30},
		{90, 2000, 90, 150},
	} {
		w, h := ViewSize(c.w, c.h)
		if w != c.wantW || h != c.wantH {
			t.Errorf("ViewSize(%d, %d) = %dx%d, want %dx%d", c.w, c.h, w, h, c.wantW, c.wantH)
		}
	}
}

// applied records the sizes followWindow applies.
type applied struct {
	mu    sync.Mutex
	sizes []size
	more  chan struct{}
}

func newApplied() *applied { return &applied{more: make(chan struct{}, 1)} }

func (a *applied) apply(sz size) {
	a.mu.Lock()
	a.sizes = append(a.sizes, sz)
	a.mu.Unlock()
	select {
	case a.more <- struct{}{}:
	default:
	}
}

// waitLast waits until the last size applied is want.
func (a *applied) waitLast(t *testing.T, want size) []size {
	t.Helper()
	deadline := time.After(within)
	for {
		a.mu.Lock()
		sizes := append([]size(nil), a.sizes...)
		a.mu.Unlock()
		if len(sizes) > 0 && sizes[len(sizes)-1] == want {
			return sizes
		}
		select {
		case <-a.more:
		case <-deadline:
			t.Fatalf("last size applied: %v, want %v", sizes, want)
		}
	}
}

// A flood of window changes is applied at most once an interval, every
// size within the bounds, and the last one wins.
func TestFollowWindowCoalesces(t *testing.T) {
	const interval = 20 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	winch := make(chan ssh.Window)
	a := newApplied()
	done := make(chan struct{})
	go func() {
		defer close(done)
		followWindow(ctx, winch, size{100, 30}, interval, a.apply)
	}()
	defer func() { cancel(); <-done }()

	start := time.Now()
	winch <- ssh.Window{Width: 100, Height: 30} // the size it has: nothing to do
	const n = 2000
	for i := range n {
		winch <- ssh.Window{Width: 10000 - i%2, Height: 10000 + i%7}
		winch <- ssh.Window{Width: 150 + i%2, Height: 40}
	}
	winch <- ssh.Window{Width: 132, Height: 43}
	sent := time.Since(start)
	sizes := a.waitLast(t, size{132, 43})
	for _, sz := range sizes {
		if sz.w > MaxWidth || sz.h > MaxHeight {
			t.Fatalf("applied %v, over the bounds", sz)
		}
	}
	// One at once, then one per interval while the flood lasted, and the
	// last: counted from the time the flood took, so a slow machine only
	// allows more.
	if most := 2 + int(sent/interval) + 1; len(sizes) > most {
		t.Fatalf("%d window changes sent in %v led to %d resizes, want at most %d", 2*n+2, sent, len(sizes), most)
	}
	t.Logf("%d window changes in %v: %d resizes", 2*n+2, sent, len(sizes))
}

// A window change reaches the view, within the bounds.
func TestWindowChangeFollowed(t *testing.T) {
	got := make(chan size, 16)
	f := start(t, nil)
	f.srv.resized = func(w, h int) { got <- size{w, h} }
	s := f.open(t)
	s.waitFor("inbox")
	for _, c := range []struct{ w, h int }{{120, 40}, {10000, 10000}, {90, 25}} {
		if err := s.sess.WindowChange(c.h, c.w); err != nil {
			t.Fatal(err)
		}
		want := size{}
		want.w, want.h = ViewSize(c.w, c.h)
		select {
		case sz := <-got:
			if sz != want {
				t.Fatalf("window change to %dx%d: the view follows at %dx%d, want %dx%d", c.w, c.h, sz.w, sz.h, want.w, want.h)
			}
		case <-time.After(within):
			t.Fatalf("window change to %dx%d never reached the view", c.w, c.h)
		}
	}
}

// Eight views whose clients claim the largest terminals, at the start
// and by a size report typed into the session, cost no more than eight
// views of MaxWidth x MaxHeight: about 15 MiB of heap apiece, serve's and
// the clients' together. (Under the race detector, where drawing is ten
// times slower, two views.)
func TestLargestViewsBounded(t *testing.T) {
	views := 8
	if raceEnabled {
		views = 2
	}
	f := start(t, func(c *Config) { c.ConnBurst = views })
	before := heapInUse()
	var screens []*screen
	for range views {
		s := f.openSized(t, 10000, 10000)
		// A terminal's report of its size in cells (CSI 8 ; rows ;
		// columns t), as large as bubbletea takes, then ? for the help,
		// which shows once the report has been read.
		s.typ("\x1b[8;244;4096t?")
		screens = append(screens, s)
	}
	for _, s := range screens {
		s.waitFor("Keys")
	}
	// Signed: what earlier tests (or -count) left live may be freed
	// meanwhile, and the heap then shrinks.
	grown := (float64(heapInUse()) - float64(before)) / (1 << 20)
	t.Logf("%d views at the largest size: %.1f MiB of heap", views, grown)
	if limit := float64(views * 20); grown > limit {
		t.Fatalf("%d views claiming a 10000x10000 terminal grew the heap by %.0f MiB, want at most %.0f", views, grown, limit)
	}
	runtime.KeepAlive(screens)
}
