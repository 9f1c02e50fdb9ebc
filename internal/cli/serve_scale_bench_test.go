//go:build linux

package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktui/asktui/interaction"
)

// BenchmarkServeScale holds 1,000 MCP tool calls open at once against
// `asktui serve` running as its own process on a 120x40 pseudo-terminal,
// then answers half of them by key and has the clients cancel the rest:
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
	if raceEnabled {
		b.Skip("the serve process would be a race-detector build")
	}
	for _, agents := range []int{1000, 10} {
		b.Run(fmt.Sprintf("calls=1000/agents=%d", agents), func(b *testing.B) {
			for range b.N {
				serveScale(b, 1000, agents)
			}
		})
	}
}

func serveScale(b *testing.B, calls, agents int) {
	b.StopTimer() // only from the first call to the last return
	srv := startScaleServer(b)
	ctx, cancelAll := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancelAll()

	sessions := make([]*sdk.ClientSession, agents)
	for i := range sessions {
		client := sdk.NewClient(&sdk.Implementation{Name: fmt.Sprintf("agent-%03d", i), Version: "1"}, nil)
		cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + srv.addr + "/mcp"}, nil)
		if err != nil {
			b.Fatalf("client %d: %v", i, err)
		}
		defer cs.Close()
		sessions[i] = cs
	}

	type outcome struct {
		answered bool
		code     string
	}
	sent := make([]time.Time, calls)
	results := make(chan outcome, calls)
	callCtx, cancelCalls := context.WithCancel(ctx)
	defer cancelCalls()
	var start sync.WaitGroup
	start.Add(1)
	for i := range calls {
		go func() {
			start.Wait()
			sent[i] = time.Now()
			res, err := sessions[i%agents].CallTool(callCtx, &sdk.CallToolParams{
				Name: "ask_user_question",
				Arguments: map[string]any{"questions": []map[string]any{{
					"id": "q", "header": "Deploy", "question": fmt.Sprintf("Call %d: deploy the billing service?", i),
					"options": []map[string]any{{"label": "Yes", "description": "Roll out everywhere"}, {"label": "Canary"}, {"label": "No"}},
				}}},
			})
			switch {
			case err != nil:
				results <- outcome{code: "client: " + err.Error()}
			case res.IsError:
				text := res.Content[0].(*sdk.TextContent).Text
				code, _, _ := strings.Cut(text, ":")
				results <- outcome{code: code}
			default:
				results <- outcome{answered: true}
			}
		}()
	}
	b.StartTimer()
	start.Done()

	srv.waitCount(b, calls)
	onScreen := time.Now()
	hwm := srv.peakRSS()

	// The human answers half, one key each; the other callers give up.
	half := calls / 2
	answered := 0
	var codes []string
	keys := time.Now()
	if _, err := srv.master.WriteString(strings.Repeat("1", half)); err != nil {
		b.Fatal(err)
	}
	for answered < half {
		select {
		case o := <-results:
			if !o.answered {
				b.Fatalf("a call failed before any was cancelled: %s", o.code)
			}
			answered++
		case <-ctx.Done():
			b.Fatalf("%d of %d answers arrived", answered, half)
		}
	}
	answering := time.Since(keys)
	cancel := time.Now()
	cancelCalls()
	for range calls - half {
		select {
		case o := <-results:
			if o.answered {
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
	if answered != half {
		b.Errorf("%d calls answered, want %d", answered, half)
	}

	lat := srv.latencies(sent)
	slices.Sort(lat)
	q := func(p float64) float64 {
		return float64(lat[min(int(p*float64(len(lat))), len(lat)-1)]) / float64(time.Millisecond)
	}
	b.ReportMetric(q(0.5), "onscreen-p50-ms")
	b.ReportMetric(q(0.9), "onscreen-p90-ms")
	b.ReportMetric(q(0.99), "onscreen-p99-ms")
	b.ReportMetric(q(1), "onscreen-max-ms")
	b.ReportMetric(float64(onScreen.Sub(slices.MinFunc(sent, func(a, b time.Time) int { return a.Compare(b) })))/float64(time.Millisecond), "all-onscreen-ms")
	b.ReportMetric(float64(answering)/float64(time.Millisecond)/float64(half), "ms/answer")
	b.ReportMetric(float64(cancelling)/float64(time.Millisecond), "cancel-all-ms")
	b.ReportMetric(float64(hwm)/1024, "peak-RSS-MiB")
	if ru := srv.stop(b); ru != nil {
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		b.ReportMetric(cpu.Seconds(), "serve-cpu-s")
	}
}

// scaleServer is asktui serve running as a child process on a pty.
type scaleServer struct {
	cmd    *exec.Cmd
	master *os.File
	addr   string

	mu     sync.Mutex
	out    []byte      // everything the child drew
	counts []countSeen // each change of the waiting count, in order
	count  int
	wake   chan struct{}
	exited chan struct{}
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
	addr := freeAddr(b)
	cmd := asktuiCommand(b, "serve", "--no-auth", "--listen", addr, "--socket", "off", "--history", "off",
		"--theme", "dark", "--bell=false", "--notify=false")
	// ASKTUI_BENCH_SERVE_ENV adds variables to serve's environment, to
	// compare settings: ASKTUI_BENCH_SERVE_ENV="GOGC=100".
	if v := os.Getenv("ASKTUI_BENCH_SERVE_ENV"); v != "" {
		cmd.Env = append(cmd.Env, strings.Fields(v)...)
	}
	master, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		b.Skipf("no pseudo-terminal: %v", err)
	}
	s := &scaleServer{cmd: cmd, master: master, addr: addr, wake: make(chan struct{}, 1), exited: make(chan struct{})}
	go s.read()
	go func() {
		_ = cmd.Wait()
		close(s.exited)
	}()
	b.Cleanup(func() {
		select {
		case <-s.exited:
		default:
			_ = cmd.Process.Kill()
			<-s.exited
		}
		_ = master.Close()
	})
	s.waitOutput(b, "MCP:")
	return s
}

// read drains the terminal, noting each change of the waiting count with
// the time its bytes were read.
func (s *scaleServer) read() {
	buf := make([]byte, 64<<10)
	scan := 0 // where the next title sequence may start
	for {
		n, err := s.master.Read(buf)
		if n > 0 {
			now := time.Now()
			s.mu.Lock()
			s.out = append(s.out, buf[:n]...)
			for {
				loc := titleCount.FindSubmatchIndex(s.out[scan:])
				if loc == nil {
					break
				}
				c := 0
				if loc[2] >= 0 {
					c, _ = strconv.Atoi(string(s.out[scan+loc[2] : scan+loc[3]]))
				}
				if c != s.count {
					s.count = c
					s.counts = append(s.counts, countSeen{c, now})
				}
				scan += loc[1]
			}
			// A title cut off by the end of this read is matched whole
			// after the next one.
			if i := bytes.LastIndex(s.out[scan:], []byte("\x1b]")); i >= 0 {
				scan += i
			} else {
				scan = len(s.out)
			}
			s.mu.Unlock()
			select {
			case s.wake <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

func (s *scaleServer) waitOutput(b *testing.B, want string) {
	b.Helper()
	s.waitUntil(b, func() bool { return strings.Contains(string(s.out), want) }, want)
}

// waitCount waits until the title counts n waiting questions.
func (s *scaleServer) waitCount(b *testing.B, n int) {
	b.Helper()
	s.waitUntil(b, func() bool { return s.count == n }, fmt.Sprintf("%d waiting", n))
}

func (s *scaleServer) waitUntil(b *testing.B, cond func() bool, what string) {
	b.Helper()
	deadline := time.After(5 * time.Minute) // a failure, not a speed bound
	for {
		s.mu.Lock()
		ok := cond()
		s.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-s.wake:
		case <-s.exited:
			b.Fatalf("serve exited before showing %s", what)
		case <-deadline:
			s.mu.Lock()
			defer s.mu.Unlock()
			b.Fatalf("serve never showed %s (count %d)", what, s.count)
		}
	}
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
func (s *scaleServer) peakRSS() int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb
		}
	}
	return 0
}

// stop ends serve as a terminal would, with SIGTERM, checks it exits
// cleanly, and returns its resource usage.
func (s *scaleServer) stop(b *testing.B) *syscall.Rusage {
	b.Helper()
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(time.Minute):
		b.Fatal("serve did not exit on SIGTERM")
		return nil
	}
	if code := s.cmd.ProcessState.ExitCode(); code != 0 {
		b.Errorf("serve exited %d", code)
	}
	ru, _ := s.cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return ru
}
