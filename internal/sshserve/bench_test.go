package sshserve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/syncbuf"
	"github.com/asktui/asktui/tui"
)

// tail is a view's output as the benchmark watches it: only what came
// after the last Reset, so a wait costs what was drawn since.
type tail struct{ syncbuf.Buffer }

func (t *tail) wait(tb testing.TB, want string) {
	deadline := time.After(within)
	for {
		if strings.Contains(t.String(), want) {
			return
		}
		select {
		case <-t.Changed():
		case <-deadline:
			tb.Fatalf("a view never drew %q", want)
		}
	}
}

// openIdle opens a view at 120x40 whose output the benchmark watches.
func (f *fixture) openIdle(tb testing.TB) *tail {
	c, err := f.dial()
	if err != nil {
		tb.Fatal(err)
	}
	sess, err := c.NewSession()
	if err != nil {
		tb.Fatal(err)
	}
	out := &tail{}
	sess.Stdout, sess.Stderr = out, out
	if err := sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
		tb.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = sess.Close(); _ = c.Close() })
	return out
}

func heapInUse() uint64 {
	var m runtime.MemStats
	for range 3 {
		runtime.GC()
	}
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// BenchmarkSSHViews: 8 views over SSH on loopback, 100 requests waiting;
// one op is a new request from Ask until every view has drawn it (the
// window title's count of waiting questions). It reports the heap each
// idle view costs (server and client side together, an upper bound).
func BenchmarkSSHViews(b *testing.B) {
	for _, views := range []int{1, 8} {
		b.Run(fmt.Sprint(views), func(b *testing.B) { benchViews(b, views) })
	}
}

func benchViews(b *testing.B, views int) {
	const waitingN = 100
	f := start(b, func(c *Config) {
		c.Alerts = tui.Alerts{Title: true}
		c.ConnBurst = views
	})
	before := heapInUse()
	outs := make([]*tail, views)
	for i := range outs {
		outs[i] = f.openIdle(b)
	}
	for _, o := range outs {
		o.wait(b, "inbox")
	}
	perView := (float64(heapInUse()) - float64(before)) / float64(views)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	for i := range waitingN {
		wg.Go(func() { _, _ = f.inbox.Ask(ctx, request(fmt.Sprintf("w%d", i))) })
	}
	waiting := fmt.Sprintf("(%d waiting)", waitingN)
	for _, o := range outs {
		o.wait(b, waiting)
	}
	arrived := fmt.Sprintf("(%d waiting)", waitingN+1)

	rng := rand.New(rand.NewPCG(1, 2)) //nolint:gosec // a seeded source, so that a failing case can be replayed
	cpu := processCPU()
	b.ResetTimer()
	for i := range b.N {
		for _, o := range outs {
			o.Reset()
		}
		// Requests arrive at any moment of a view's frame, not just
		// after one was drawn (where the last wait ended).
		b.StopTimer()
		time.Sleep(time.Duration(rng.Int64N(int64(time.Second / 60))))
		b.StartTimer()
		one, withdraw := context.WithCancel(ctx)
		asked := make(chan struct{})
		go func() {
			defer close(asked)
			_, _ = f.inbox.Ask(one, request(fmt.Sprintf("n%d", i)))
		}()
		for _, o := range outs {
			o.wait(b, arrived)
		}
		b.StopTimer()
		for _, o := range outs {
			o.Reset()
		}
		withdraw()
		<-asked
		for _, o := range outs {
			o.wait(b, waiting)
		}
		b.StartTimer()
	}
	b.ReportMetric(perView, "B/idle-view")
	// The whole process's CPU (the views, and the SSH clients reading
	// them, in this process too) per arrival and view, withdrawal
	// included: an upper bound of what one view spends.
	b.ReportMetric(float64(processCPU()-cpu)/float64(time.Millisecond)/float64(b.N)/float64(views), "cpu-ms/arrival/view")
}

// processCPU is the CPU time this process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func request(id string) interaction.Request {
	return interaction.Request{Questions: []interaction.Question{{
		ID: id, Question: "Apply migration " + id + "?",
		Options: []interaction.Option{{Label: "Yes"}, {Label: "No"}},
	}}}
}
