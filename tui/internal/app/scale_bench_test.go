package app

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/styles"
)

// The scale benchmarks run the real program and provider headless, in the
// full session view at 120x40, with many requests already waiting:
//
//	go test -run '^$' -bench 'Waiting' -benchtime 200x ./tui/internal/app
//
// "On screen" is the moment the program has rendered a view that holds
// the new request: Ask → provider queue → dispatcher → event loop →
// Update → View. bubbletea then writes the frame to the terminal at its
// next tick (at most 1/60 s later), as for any bubbletea program; that
// pacing is not asktui's and is left out. Each request arrives at an idle
// screen, the last one drawn a frame ago: in a burst asktui draws at most
// once a frame (see model.pace), and BenchmarkServeScale in the root
// package measures bursts.

// viewProbe wraps the root model to see each rendered view: after a View
// that drew the screen afresh (not the last frame's, reused), it reports
// when the condition a benchmark waits for holds. It exists only in this
// benchmark, to time the path without polling.
type viewProbe struct {
	*Model
	mu     sync.Mutex
	cond   func(*Model) bool
	onView chan struct{}
}

func (p *viewProbe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := p.Model.Update(msg)
	return p, cmd
}

func (p *viewProbe) View() tea.View {
	before := p.drawnAt
	v := p.Model.View()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cond != nil && p.drawnAt != before && p.cond(p.Model) {
		p.cond = nil
		p.onView <- struct{}{}
	}
	return v
}

// expect arms the probe.
func (p *viewProbe) expect(cond func(*Model) bool) {
	p.mu.Lock()
	p.cond = cond
	p.mu.Unlock()
}

// newest is the condition that the request asking text has arrived last.
func newest(text string) func(*Model) bool {
	return func(m *Model) bool {
		n := len(m.requests)
		return n > 0 && m.requests[n-1].Questions[0].Raw.Question == text
	}
}

// scaleRig is a running headless program, a view of its inbox.
type scaleRig struct {
	probe *viewProbe
	in    *inbox.Inbox
	done  chan struct{}
	prog  *tea.Program
}

func startScaleRig(b *testing.B) *scaleRig {
	b.Helper()
	m := newModel(styles.ThemeDark, true, time.Now)
	m.kind = kindSession
	probe := &viewProbe{Model: m, onView: make(chan struct{}, 1)}
	prog := tea.NewProgram(probe,
		tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(120, 40),
		tea.WithoutSignals(), tea.WithoutSignalHandler(),
		tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	rig := &scaleRig{probe: probe, prog: prog, done: make(chan struct{}), in: inbox.New(time.Now)}
	m.answers = rig.in.Attach("bench", NewLink(prog, rig.done))
	go func() {
		defer close(rig.done)
		_, _ = prog.Run()
	}()
	b.Cleanup(func() {
		prog.Send(quitMsg{})
		<-rig.done
		rig.in.Close()
	})
	return rig
}

// scaleRequest is a typical request: one question, four options, from
// one of eight agents.
func scaleRequest(i int) interaction.Request {
	return interaction.Request{
		Agent: &interaction.Agent{ID: fmt.Sprint("agent-", i%8), Name: fmt.Sprint("Agent ", i%8)},
		Questions: []interaction.Question{{
			ID:       "q",
			Header:   "Deploy",
			Question: fmt.Sprintf("Request %d: deploy the billing service to production now?", i),
			Options: []interaction.Option{
				{Label: "Yes (Recommended)", Description: "Roll out to every region"},
				{Label: "Canary", Description: "5% of traffic first"},
				{Label: "Staging only"},
				{Label: "No"},
			},
		}},
	}
}

// askAndShow asks req and waits until it is on screen. It returns how long
// that took and a function that withdraws the request and waits for Ask
// to return.
func (rig *scaleRig) askAndShow(b *testing.B, req interaction.Request) (time.Duration, func()) {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	rig.probe.expect(newest(req.Questions[0].Question))
	returned := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := rig.in.Ask(ctx, req)
		returned <- err
	}()
	select {
	case <-rig.probe.onView:
	case err := <-returned:
		b.Fatalf("Ask returned before its request was shown: %v", err)
	case <-time.After(time.Minute):
		b.Fatal("the request never reached the screen")
	}
	took := time.Since(start)
	return took, func() {
		cancel()
		if err := <-returned; interaction.CodeOf(err) != interaction.CodeAborted {
			b.Fatalf("withdrawn Ask returned %v, want ASK_ABORTED", err)
		}
	}
}

// fill leaves n requests waiting, each Ask in its own goroutine as a
// server's handlers would be, and returns what ends them.
func (rig *scaleRig) fill(b *testing.B, n int) func() {
	b.Helper()
	if n == 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	returned := make(chan error, n)
	rig.probe.expect(func(m *Model) bool { return len(m.requests) == n })
	for i := range n {
		go func() {
			_, err := rig.in.Ask(ctx, scaleRequest(i))
			returned <- err
		}()
	}
	select {
	case <-rig.probe.onView:
	case err := <-returned:
		b.Fatalf("Ask returned while filling: %v", err)
	case <-time.After(time.Minute):
		b.Fatalf("the %d requests never all reached the screen", n)
	}
	time.Sleep(4 * frameInterval) // the screen idles before the benchmark
	return func() {
		cancel()
		for range n {
			if err := <-returned; interaction.CodeOf(err) != interaction.CodeAborted {
				b.Fatalf("withdrawn Ask returned %v, want ASK_ABORTED", err)
			}
		}
	}
}

// BenchmarkAskToScreenWaiting times Ask → the request on screen with 0,
// 100 and 1,000 requests already waiting. The target is under 1 ms and
// flat: the cost must not grow with the queue.
func BenchmarkAskToScreenWaiting(b *testing.B) {
	for _, waiting := range []int{0, 100, 1000} {
		b.Run(fmt.Sprint(waiting), func(b *testing.B) {
			rig := startScaleRig(b)
			release := rig.fill(b, waiting)
			defer release()
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				took, withdraw := rig.askAndShow(b, scaleRequest(waiting+i))
				lat = append(lat, took)
				b.StopTimer()
				withdraw()
				// The screen idles: the withdrawal's frame is drawn at
				// the end of its frame, and the next request finds the
				// last draw well over a frame old.
				time.Sleep(4 * frameInterval)
				b.StartTimer()
			}
			b.StopTimer()
			reportLatency(b, lat)
		})
	}
}

// BenchmarkMemoryPerWaitingRequest measures what one more waiting request
// costs: the program's share (heap) and the waiting Ask's goroutine
// (stack), with 1,000 waiting.
func BenchmarkMemoryPerWaitingRequest(b *testing.B) {
	const n = 1000
	for b.Loop() {
		rig := startScaleRig(b)
		before := memNow()
		release := rig.fill(b, n)
		after := memNow()
		b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/n, "heap-B/request")
		b.ReportMetric(float64(after.StackInuse-before.StackInuse)/n, "stack-B/request")
		release()
	}
}

func memNow() runtime.MemStats {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms
}

// reportLatency adds the median, 99th percentile and maximum of lat to the
// benchmark's results, in milliseconds.
func reportLatency(b *testing.B, lat []time.Duration) {
	b.Helper()
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	q := func(p float64) float64 {
		return float64(lat[min(int(p*float64(len(lat))), len(lat)-1)]) / float64(time.Millisecond)
	}
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(q(1), "max-ms")
}

// BenchmarkSessionRender draws the session view at 120x40 with 100
// requests waiting: the cost every message pays, since bubbletea renders
// after each one.
func BenchmarkSessionRender(b *testing.B) {
	m := newModel(styles.ThemeDark, true, func() time.Time { return fixedNow })
	m.kind = kindSession
	m.answers = newFakeInbox()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	for i := range 100 {
		m.Update(askMsg{req: &inbox.Request{ID: uint64(i + 1), Request: scaleRequest(i), Arrived: fixedNow}})
	}
	for b.Loop() {
		_ = m.View()
	}
}
