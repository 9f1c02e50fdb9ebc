//go:build linux

package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktui/asktui/internal/ptytest"
)

// BenchmarkSDKScale is BenchmarkServeScale's load on the go-sdk alone: the
// same 1,000 tool calls from the SDK's own clients, held open at once
// against a server process that is nothing but the SDK's streamable HTTP
// handlers (a stateless one for 2026-07-28 calls, a stateful one for
// sessions, routed as asktui routes them) and a tool that notes when it is
// called and waits for its call to be cancelled. No asktui code runs in
// the server:
//
//	go test -run '^$' -bench SDKScale -benchtime 1x ./internal/cli
//
// It reports tool call → tool handler, paired as BenchmarkServeScale pairs
// calls with its counts (asktui's screen counts a call within about 10 ms
// of its tool handler), the server's peak RSS and its CPU. It is the floor
// asktui serve stands on: what the SDK costs before asktui does anything.
// ASKTUI_BENCH_SERVE_ENV adds variables to the server's environment here
// too (GOGC, GOMEMLIMIT, ASKTUI_TEST_CPUPROFILE).
func BenchmarkSDKScale(b *testing.B) {
	if ptytest.RaceEnabled {
		b.Skip("the server process would be a race-detector build")
	}
	for _, calls := range []int{1000, 4000} {
		for _, version := range []string{"2026-07-28", "2025-11-25"} {
			b.Run(fmt.Sprintf("calls=%d/agents=1000/protocol=%s", calls, version), func(b *testing.B) {
				for range b.N {
					sdkScale(b, calls, 1000, version)
				}
			})
		}
	}
}

// sdkServeEnv makes the test binary the SDK-only server of
// BenchmarkSDKScale, listening at the address it holds.
const sdkServeEnv = "ASKTUI_TEST_SDKSERVE"

func init() {
	if addr := os.Getenv(sdkServeEnv); addr != "" {
		os.Exit(profiled(func() int { return sdkServe(addr) }))
	}
}

// sdkServe serves the SDK's streamable handlers at addr until SIGTERM. It
// prints "listening" once it accepts connections and "entered N" each
// time the number of tool handlers entered reaches a multiple of 100; GET
// /entered returns when each was entered, in Unix nanoseconds.
func sdkServe(addr string) int {
	var (
		mu      sync.Mutex
		entered []int64
	)
	srv := sdk.NewServer(&sdk.Implementation{Name: "sdk-alone", Version: "1"}, nil)
	type input struct {
		Questions []any `json:"questions"`
	}
	sdk.AddTool(srv, &sdk.Tool{Name: "ask_user_question", Description: "waits until cancelled"},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ input) (*sdk.CallToolResult, any, error) {
			mu.Lock()
			entered = append(entered, time.Now().UnixNano())
			if n := len(entered); n%100 == 0 {
				fmt.Printf("entered %d\n", n)
			}
			mu.Unlock()
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})
	stateful := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	stateless := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{Stateless: true})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /entered", func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		_ = json.NewEncoder(w).Encode(entered)
	})
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Protocol-Version") >= "2026-07-28" && r.Header.Get("Mcp-Session-Id") == "" {
			stateless.ServeHTTP(w, r)
			return
		}
		stateful.ServeHTTP(w, r)
	})
	l, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: time.Minute}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = hs.Shutdown(shut)
	}()
	fmt.Println("listening")
	if err := hs.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func sdkScale(b *testing.B, calls, agents int, version string) {
	b.StopTimer()
	addr := freeAddr(b)
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.CommandContext(b.Context(), exe) //nolint:gosec // the test binary itself
	cmd.Env = []string{sdkServeEnv + "=" + addr, "PATH=" + os.Getenv("PATH")}
	if v := os.Getenv("ASKTUI_BENCH_SERVE_ENV"); v != "" {
		cmd.Env = append(cmd.Env, strings.Fields(v)...)
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	waitLine := func(want string) {
		b.Helper()
		timeout := time.After(2 * time.Minute) // a failure deadline
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					b.Fatalf("the server exited before %q", want)
				}
				if l == want {
					return
				}
			case <-timeout:
				b.Fatalf("no %q from the server", want)
			}
		}
	}
	waitLine("listening")

	ctx, cancelAll := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancelAll()
	bu := newBurst(b, ctx, addr, calls, agents, version)
	stopPerf := perfBurst(b, cmd.Process.Pid)
	idle := rssOf(cmd.Process.Pid)
	cpu0 := cpuOf(cmd.Process.Pid)
	b.StartTimer()
	bu.release()
	waitLine(fmt.Sprintf("entered %d", calls))
	b.StopTimer()
	stopPerf()
	burstCPU := cpuOf(cmd.Process.Pid) - cpu0
	hwm := peakRSSOf(cmd.Process.Pid)

	resp, err := http.Get("http://" + addr + "/entered") //nolint:noctx // a benchmark's own server
	if err != nil {
		b.Fatal(err)
	}
	var at []int64
	err = json.NewDecoder(resp.Body).Decode(&at)
	_ = resp.Body.Close()
	if err != nil || len(at) != calls {
		b.Fatalf("%d entries: %v", len(at), err)
	}
	bu.cancel()
	for range calls {
		if r := <-bu.results; r.err == nil {
			b.Error("a call returned a result before it was cancelled")
		}
	}

	first := slices.MinFunc(bu.sent, func(a, b time.Time) int { return a.Compare(b) })
	order := slices.Clone(bu.sent)
	slices.SortFunc(order, func(a, b time.Time) int { return a.Compare(b) })
	slices.Sort(at)
	lat := make([]time.Duration, calls)
	for k := range lat {
		lat[k] = time.Unix(0, at[k]).Sub(order[k])
	}
	reportQuantiles(b, lat, "handler")
	b.ReportMetric(float64(time.Unix(0, at[calls-1]).Sub(first))/float64(time.Millisecond), "all-entered-ms")
	b.ReportMetric(float64(hwm)/1024, "peak-RSS-MiB")
	b.ReportMetric(float64(idle)/1024, "before-RSS-MiB")
	b.ReportMetric(burstCPU.Seconds(), "burst-cpu-s")

	_ = cmd.Process.Signal(syscall.SIGTERM)
	for range lines { // to the end of its output
	}
	if err := cmd.Wait(); err != nil {
		b.Errorf("the server: %v", err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		b.ReportMetric(time.Duration(ru.Utime.Nano()+ru.Stime.Nano()).Seconds(), "server-cpu-s")
	}
}

// perfBurst records the burst of process pid with perf when
// ASKTUI_BENCH_PERF names an output file (perf record -g, from the calls'
// release until all have arrived; %p in the name stands for pid); the
// returned func stops it.
func perfBurst(b *testing.B, pid int) (stop func()) {
	out := perProcess(os.Getenv("ASKTUI_BENCH_PERF"), pid)
	if out == "" {
		return func() {}
	}
	cmd := exec.CommandContext(b.Context(), "perf", "record", "-q", "-F", "1999", "-g", "-o", out, "-p", strconv.Itoa(pid)) //nolint:gosec // a developer's own profile
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatalf("perf: %v", err)
	}
	time.Sleep(200 * time.Millisecond) // perf attaches to every thread first; a profiling aid, not synchronisation of the measurement
	return func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}
}

// cpuOf is the CPU time process pid has used so far (user and system,
// in clock ticks of 10 ms).
func cpuOf(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command's name, which is in parentheses and
	// may hold spaces: utime and stime are the 12th and 13th.
	_, rest, _ := strings.Cut(string(data), ") ")
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.Atoi(f[11])
	s, _ := strconv.Atoi(f[12])
	return time.Duration(u+s) * 10 * time.Millisecond
}

// peakRSSOf is process pid's peak resident set so far, in KiB (VmHWM).
func peakRSSOf(pid int) int { return statusKiB(pid, "VmHWM:") }

// rssOf is process pid's resident set now, in KiB (VmRSS).
func rssOf(pid int) int { return statusKiB(pid, "VmRSS:") }

// statusKiB is a size in KiB from /proc/pid/status.
func statusKiB(pid int, field string) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb
		}
	}
	return 0
}
