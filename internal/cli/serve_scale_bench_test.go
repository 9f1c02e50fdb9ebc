//go:build linux

package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/ptytest"
)

// BenchmarkServeScale holds 1,000 MCP tool calls open at once against
// `asktui serve` running as its own process on a 120x40 pseudo-terminal,
// then answers 50 of them by key, each once asktui takes keys for it, and
// has the clients cancel the rest:
//
//	go test -run '^$' -bench ServeScale -benchtime 1x ./internal/cli
//
// It reports the serve process's peak RSS, and the distribution of tool
// call → on screen: the time from a call being sent to the window title
// (which asktui redraws with the count of waiting questions) first counting
// it. Calls are matched to counts in order, the k-th call sent with the
// count first reaching k, which is exact when calls arrive in the order
// sent and otherwise pairs each count with a call sent no later. Every call
// must come back exactly once: an answer, or a coded tool error.
func BenchmarkServeScale(b *testing.B) {
	if ptytest.RaceEnabled {
		b.Skip("the serve process would be a race-detector build")
	}
	// The SDK's client speaks 2026-07-28 (sessionless) unless told
	// otherwise; protocol=2025-11-25 is what most clients negotiate today.
	// calls=4000 is past what serve is tuned for (its heap and GC
	// settings): run it by name to see how it degrades.
	for _, n := range []struct {
		calls, agents int
		version       string
	}{{1000, 1000, ""}, {1000, 10, ""}, {1000, 1000, "2025-11-25"}, {4000, 1000, ""}} {
		name := fmt.Sprintf("calls=%d/agents=%d", n.calls, n.agents)
		if n.version != "" {
			name += "/protocol=" + n.version
		}
		b.Run(name, func(b *testing.B) {
			for range b.N {
				serveScale(b, n.calls, n.agents, n.version)
			}
		})
	}
}

func serveScale(b *testing.B, calls, agents int, version string) {
	b.StopTimer() // only from the first call to the last return
	srv := startScaleServer(b)
	ctx, cancelAll := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancelAll()

	bu := newBurst(b, ctx, srv.addr, calls, agents, version)
	stopPerf := perfBurst(b, srv.proc.Cmd.Process.Pid)
	idle := rssOf(srv.proc.Cmd.Process.Pid)
	cpu0 := cpuOf(srv.proc.Cmd.Process.Pid)
	b.StartTimer()
	bu.release()

	srv.waitCount(b, calls)
	onScreen := time.Now()
	stopPerf()
	burstCPU := cpuOf(srv.proc.Cmd.Process.Pid) - cpu0
	hwm := srv.peakRSS()

	// The human answers byKey of them, one key each, as fast as asktui
	// lets a human: each question that takes the place of the one
	// answered holds its keys until it has been seen (its "keys held"
	// cue gives way to its hint), so the harness waits for that before
	// the next key, and times only key → answer. The other callers give
	// up.
	const byKey = 50
	typed := min(byKey, calls)
	answered := 0
	var codes []string
	var answering time.Duration
	srv.term.WaitSeen(0)
	for answered < typed {
		mark := srv.term.Mark()
		keys := time.Now()
		srv.term.Type("1")
		select {
		case r := <-bu.results:
			if o := outcomeOf(r); !o.answered {
				b.Fatalf("a call failed before any was cancelled: %s", o.code)
			}
			answered++
		case <-ctx.Done():
			b.Fatalf("%d of %d answers arrived", answered, typed)
		}
		answering += time.Since(keys)
		if answered < typed {
			srv.term.WaitNextSeen(mark)
		}
	}
	cancel := time.Now()
	bu.cancel()
	for range calls - typed {
		select {
		case r := <-bu.results:
			if o := outcomeOf(r); o.answered {
				answered++
			} else {
				codes = append(codes, o.code)
			}
		case <-ctx.Done():
			b.Fatalf("only %d calls returned", answered+len(codes))
		}
	}
	srv.waitCount(b, 0)
	cancelling := time.Since(cancel)
	b.StopTimer()

	for _, c := range codes {
		// A cancelled call returns from the client at once with its
		// context's error; asktui withdraws the question on its side.
		if !strings.Contains(c, "context canceled") && c != string(interaction.CodeAborted) {
			b.Errorf("a cancelled call returned %q", c)
		}
	}
	if answered != typed {
		b.Errorf("%d calls answered, want %d", answered, typed)
	}

	reportQuantiles(b, srv.latencies(bu.sent), "onscreen")
	b.ReportMetric(float64(onScreen.Sub(slices.MinFunc(bu.sent, func(a, b time.Time) int { return a.Compare(b) })))/float64(time.Millisecond), "all-onscreen-ms")
	b.ReportMetric(float64(answering)/float64(time.Millisecond)/float64(typed), "ms/answer")
	b.ReportMetric(float64(cancelling)/float64(time.Millisecond), "cancel-all-ms")
	b.ReportMetric(float64(hwm)/1024, "peak-RSS-MiB")
	b.ReportMetric(float64(idle)/1024, "before-RSS-MiB")
	b.ReportMetric(burstCPU.Seconds(), "burst-cpu-s")
	if ru := srv.stop(b); ru != nil {
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		b.ReportMetric(cpu.Seconds(), "serve-cpu-s")
	}
}

// callOutcome is how one call of the burst came back.
type callOutcome struct {
	answered bool
	code     string // the tool error's code, or the client's error
}

func outcomeOf(r callResult) callOutcome {
	switch {
	case r.err != nil:
		return callOutcome{code: "client: " + r.err.Error()}
	case r.res.IsError:
		code, _, _ := strings.Cut(r.res.Content[0].(*sdk.TextContent).Text, ":")
		return callOutcome{code: code}
	}
	return callOutcome{answered: true}
}

// burst is calls ask_user_question calls from agents SDK clients of
// the server at addr (each speaking version, or the SDK's latest), ready
// to go at once.
type burst struct {
	sent    []time.Time     // when each call was sent
	results chan callResult // each call's return, as it comes
	release func()          // sends them all
	cancel  func()          // withdraws those still waiting
}

type callResult struct {
	res *sdk.CallToolResult
	err error
}

// newBurst connects the clients and readies the calls; the sessions close
// when the benchmark ends.
func newBurst(b *testing.B, ctx context.Context, addr string, calls, agents int, version string) *burst {
	b.Helper()
	sessions := make([]*sdk.ClientSession, agents)
	for i := range sessions {
		client := sdk.NewClient(&sdk.Implementation{Name: fmt.Sprintf("agent-%03d", i), Version: "1"}, nil)
		cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"},
			&sdk.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			b.Fatalf("client %d: %v", i, err)
		}
		b.Cleanup(func() { _ = cs.Close() })
		sessions[i] = cs
	}
	callCtx, cancel := context.WithCancel(ctx)
	b.Cleanup(cancel)
	bu := &burst{sent: make([]time.Time, calls), results: make(chan callResult, calls), cancel: cancel}
	start := make(chan struct{})
	bu.release = func() { close(start) }
	for i := range calls {
		go func() {
			select {
			case <-start:
			case <-callCtx.Done():
				bu.results <- callResult{err: callCtx.Err()}
				return
			}
			bu.sent[i] = time.Now()
			res, err := sessions[i%agents].CallTool(callCtx, &sdk.CallToolParams{
				Name: "ask_user_question",
				Arguments: map[string]any{"questions": []map[string]any{{
					"id": "q", "header": "Deploy", "question": fmt.Sprintf("Call %d: deploy the billing service?", i),
					"options": []map[string]any{{"label": "Yes", "description": "Roll out everywhere"}, {"label": "Canary"}, {"label": "No"}},
				}}},
			})
			bu.results <- callResult{res, err}
		}()
	}
	return bu
}

// reportQuantiles reports the median, 90th and 99th percentiles and the
// maximum of lat as name-p50-ms and so on.
func reportQuantiles(b *testing.B, lat []time.Duration, name string) {
	b.Helper()
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	for _, q := range []struct {
		p    float64
		unit string
	}{{0.5, "p50"}, {0.9, "p90"}, {0.99, "p99"}, {1, "max"}} {
		d := lat[min(int(q.p*float64(len(lat))), len(lat)-1)]
		b.ReportMetric(float64(d)/float64(time.Millisecond), name+"-"+q.unit+"-ms")
	}
}

// scaleServer is asktui serve running as a child process on a pty.
type scaleServer struct {
	term *ptytest.Terminal
	proc *ptytest.Process
	addr string

	mu     sync.Mutex
	tail   []byte      // output not yet scanned for a title
	counts []countSeen // each change of the waiting count, in order
	count  int
}

type countSeen struct {
	n  int
	at time.Time
}

// titleCount finds the window title asktui sets: "asktui (N waiting)",
// or "asktui" when nothing waits.
var titleCount = regexp.MustCompile(`\x1b\]2;asktui(?: \((\d+) waiting\))?(?:\x07|\x1b\\)`)

func startScaleServer(b *testing.B) *scaleServer {
	b.Helper()
	s := &scaleServer{addr: freeAddr(b)}
	s.term = ptytest.New(b, ptytest.Options{Cols: 120, Rows: 40, OnRead: s.scan})
	cmd := asktuiCommand(b, "serve", "--no-auth", "--listen", s.addr, "--socket", "off", "--history", "off",
		"--theme", "dark", "--bell=false", "--notify=false")
	// ASKTUI_BENCH_SERVE_ENV adds variables to serve's environment, to
	// compare settings: ASKTUI_BENCH_SERVE_ENV="GOGC=100".
	if v := os.Getenv("ASKTUI_BENCH_SERVE_ENV"); v != "" {
		cmd.Env = append(cmd.Env, strings.Fields(v)...)
	}
	s.proc = ptytest.Start(b, s.term, cmd)
	s.term.WaitFor(0, "MCP:")
	return s
}

// scan notes each change of the waiting count in a chunk of output with
// the time it was read.
func (s *scaleServer) scan(chunk []byte) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tail = append(s.tail, chunk...)
	for {
		loc := titleCount.FindSubmatchIndex(s.tail)
		if loc == nil {
			break
		}
		c := 0
		if loc[2] >= 0 {
			c, _ = strconv.Atoi(string(s.tail[loc[2]:loc[3]]))
		}
		if c != s.count {
			s.count = c
			s.counts = append(s.counts, countSeen{c, now})
		}
		s.tail = s.tail[loc[1]:]
	}
	// A title cut off by the end of this read is matched whole after the
	// next one.
	if i := bytes.LastIndex(s.tail, []byte("\x1b]")); i >= 0 {
		s.tail = append(s.tail[:0], s.tail[i:]...)
	} else {
		s.tail = s.tail[:0]
	}
}

// waitCount waits until the title counts n waiting questions.
func (s *scaleServer) waitCount(b *testing.B, n int) {
	b.Helper()
	s.term.WaitUntil(s.term.Mark(), fmt.Sprintf("%d waiting", n), func() bool {
		select {
		case <-s.proc.Exited():
			b.Fatalf("serve exited before showing %d waiting", n)
		default:
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.count == n
	})
}

// latencies pairs the k-th call sent with the count first reaching k.
func (s *scaleServer) latencies(sent []time.Time) []time.Duration {
	order := slices.Clone(sent)
	slices.SortFunc(order, func(a, b time.Time) int { return a.Compare(b) })
	s.mu.Lock()
	defer s.mu.Unlock()
	lat := make([]time.Duration, 0, len(order))
	k := 0
	for _, c := range s.counts {
		for k < len(order) && k < c.n {
			lat = append(lat, c.at.Sub(order[k]))
			k++
		}
		if k == len(order) {
			break
		}
	}
	return lat
}

// peakRSS is the child's peak resident set so far, in KiB (VmHWM).
func (s *scaleServer) peakRSS() int { return peakRSSOf(s.proc.Cmd.Process.Pid) }

// stop ends serve as a terminal would, with SIGTERM, checks it exits
// cleanly, and returns its resource usage.
func (s *scaleServer) stop(b *testing.B) *syscall.Rusage {
	b.Helper()
	s.proc.Signal(syscall.SIGTERM)
	if code := s.proc.Wait(func() string { return "(not shown)" }); code != 0 {
		b.Errorf("serve exited %d", code)
	}
	ru, _ := s.proc.Cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return ru
}
