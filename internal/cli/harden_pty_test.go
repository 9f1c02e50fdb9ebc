//go:build !windows

package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	httppprof "net/http/pprof"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"runtime/trace"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/ptytest"
)

// runAsMainEnv makes the test binary run as asktui itself: the tests here
// start it as a child process, which is cheaper than building asktui.
const runAsMainEnv = "ASKTUI_TEST_MAIN"

// init runs before the testing framework (and TestMain's leak check), so a
// child is exactly asktui: its own flags, signals and exit code.
func init() {
	if os.Getenv(runAsMainEnv) == "1" {
		os.Exit(profiled(func() int { return Main(Build{}) }))
	}
}

// profiled runs main, writing a CPU profile of it to the file
// ASKTUI_TEST_CPUPROFILE names, if any: a benchmark's child is profiled
// with ASKTUI_BENCH_SERVE_ENV="ASKTUI_TEST_CPUPROFILE=/tmp/serve.prof".
// With ASKTUI_TEST_PPROF=host:port the child also serves net/http/pprof
// there, for heap and goroutine profiles while it runs, and with
// ASKTUI_TEST_TRACE=file it writes an execution trace (go tool trace
// -pprof=sched file: where goroutines waited to run). In either file name
// %p stands for the process's ID, so that the servers of successive
// sub-benchmarks each keep their own.
func profiled(main func() int) int {
	if addr := os.Getenv("ASKTUI_TEST_PPROF"); addr != "" {
		mux := http.NewServeMux()
		mux.HandleFunc("/debug/pprof/", httppprof.Index)
		go func() { _ = http.ListenAndServe(addr, mux) }() //nolint:gosec // a developer's own profiling port
	}
	if path := perProcess(os.Getenv("ASKTUI_TEST_TRACE"), os.Getpid()); path != "" {
		if f, err := os.Create(path); err == nil && trace.Start(f) == nil { //nolint:gosec // a path the developer chose
			defer f.Close()
			defer trace.Stop()
		}
	}
	path := perProcess(os.Getenv("ASKTUI_TEST_CPUPROFILE"), os.Getpid())
	if path == "" {
		return main()
	}
	f, err := os.Create(path) //nolint:gosec // a path the developer chose
	if err != nil || pprof.StartCPUProfile(f) != nil {
		return main()
	}
	code := main()
	pprof.StopCPUProfile()
	_ = f.Close()
	return code
}

// perProcess replaces %p in a profile's file name with pid.
func perProcess(path string, pid int) string {
	return strings.ReplaceAll(path, "%p", strconv.Itoa(pid))
}

// asktuiCommand is the test binary run as asktui with args, in a known
// environment (the parent's ACCESSIBLE, NO_COLOR or TMUX would change what
// asktui draws) with its own home, configuration and state directories.
func asktuiCommand(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmd := exec.CommandContext(context.Background(), exe, args...) //nolint:gosec // the test runs a command of its own choosing
	cmd.Env = []string{
		runAsMainEnv + "=1",
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + dir,
		"TERM=xterm-256color",
		"XDG_CONFIG_HOME=" + dir,
		"XDG_STATE_HOME=" + dir,
	}
	if cover := os.Getenv("GOCOVERDIR"); cover != "" {
		cmd.Env = append(cmd.Env, "GOCOVERDIR="+cover)
	}
	return cmd
}

// startChild starts asktui with args as a process of its own, on term
// (nil: with no terminal at all; see ptytest.Start).
func startChild(t *testing.T, term *ptytest.Terminal, args ...string) *ptytest.Process {
	t.Helper()
	return ptytest.Start(t, term, asktuiCommand(t, args...))
}

// TestPTYProcessRestoresTerminal runs asktui ask as its own process on a
// pseudo-terminal and ends it every way a process ends: an answer, Ctrl+C
// (bubbletea's shutdown as killed) and the three signals that stop it.
// Each time the terminal must be as it was.
func TestPTYProcessRestoresTerminal(t *testing.T) {
	skipUnderRace(t)
	for _, tt := range []struct {
		name string
		end  func(*ptytest.Process, *ptytest.Terminal)
		code int
		err  interaction.Code // the coded error on stderr
		says string           // in its message
	}{
		{"answered", func(_ *ptytest.Process, term *ptytest.Terminal) { term.Type("\r") }, exitAnswered, "", ""},
		{"ctrl+c", func(_ *ptytest.Process, term *ptytest.Terminal) { term.Type("\x03") }, exitInterrupted, interaction.CodeProviderClosed, "ctrl+c"}, // the key as the screen names it
		{"SIGINT", func(c *ptytest.Process, _ *ptytest.Terminal) { c.Signal(os.Interrupt) }, exitInterrupted, interaction.CodeAborted, "interrupt"},
		{"SIGTERM", func(c *ptytest.Process, _ *ptytest.Terminal) { c.Signal(syscall.SIGTERM) }, exitTerminated, interaction.CodeAborted, "terminated"},
		{"SIGHUP", func(c *ptytest.Process, _ *ptytest.Terminal) { c.Signal(syscall.SIGHUP) }, exitHangup, interaction.CodeAborted, "hangup"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			term := ptytest.New(t, ptytest.Options{})
			before := term.Stty()
			c := startChild(t, term, "ask", "--theme", "dark", "../../examples/deploy.json")
			term.WaitFor(0, "Canary")
			term.WaitSeen(0)
			tt.end(c, term)
			code := c.Wait(func() string { return term.Text(0) })
			term.CheckRestored(before)

			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.code, c.Stderr.String())
			}
			if tt.code == exitAnswered {
				want := `{"answers":[{"id":"deploy","selected":["Yes (Recommended)"]}]}` + "\n"
				if c.Stdout.String() != want || c.Stderr.Len() != 0 {
					t.Errorf("stdout %q, stderr %q; want %s and nothing", c.Stdout.String(), c.Stderr.String(), want)
				}
				return
			}
			if c.Stdout.Len() != 0 {
				t.Errorf("stdout %q, want nothing", c.Stdout.String())
			}
			if e := envelope(t, c.Stderr.String()); e.Code != tt.err || !strings.Contains(e.Message, tt.says) {
				t.Errorf("error = %v, want %s saying %q", e, tt.err, tt.says)
			}
		})
	}
}

// TestPTYProcessHangup closes the terminal under asktui, as closing its
// window does: the kernel sends SIGHUP, and asktui must exit 129 at once
// with ASK_ABORTED (writes to a hung-up terminal fail, so there is nothing
// left to restore).
func TestPTYProcessHangup(t *testing.T) {
	skipUnderRace(t)
	term := ptytest.New(t, ptytest.Options{})
	c := startChild(t, term, "ask", "--theme", "dark", "../../examples/deploy.json")
	term.WaitFor(0, "Canary")
	term.Hangup()
	if code := c.Wait(func() string { return term.Text(0) }); code != exitHangup {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitHangup, c.Stderr.String())
	}
	if e := envelope(t, c.Stderr.String()); e.Code != interaction.CodeAborted {
		t.Errorf("error = %v, want ASK_ABORTED", e)
	}
}

// TestNoTTYProcess runs asktui ask as a process with no controlling
// terminal and pipes for standard input and output: it must fail at once
// with NO_TTY, not wait for an answer nobody can give.
func TestNoTTYProcess(t *testing.T) {
	c := startChild(t, nil, "ask", "../../examples/deploy.json")
	if code := c.Wait(func() string { return "(no terminal)" }); code != exitNoTTY {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitNoTTY, c.Stderr.String())
	}
	if c.Stdout.Len() != 0 {
		t.Errorf("stdout %q, want nothing", c.Stdout.String())
	}
	if e := envelope(t, c.Stderr.String()); e.Code != interaction.CodeNoTTY {
		t.Errorf("error = %v, want NO_TTY", e)
	}
}

// toolErrorText is the text of a coded tool error: "CODE: message".
var toolErrorText = regexp.MustCompile(`^[A-Z_]+: \S`)

// TestPTYServeSignalFailsWaitingCalls runs asktui serve as its own process
// with MCP clients and a script waiting on the human, then signals it:
// every waiting call must come back as a coded error before the process
// exits, and the terminal must be as it was.
func TestPTYServeSignalFailsWaitingCalls(t *testing.T) {
	skipUnderRace(t)
	for name, sig := range map[string]os.Signal{"SIGTERM": syscall.SIGTERM, "SIGHUP": syscall.SIGHUP} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			term := ptytest.New(t, ptytest.Options{})
			before := term.Stty()
			addr := freeAddr(t)
			sock := shortSocketPath(t)
			c := startChild(t, term, "serve", "--no-auth", "--listen", addr, "--socket", sock,
				"--history", "off", "--theme", "dark", "--bell=false", "--notify=false")
			term.WaitFor(0, "MCP:")
			mark := term.Mark()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()

			// Two MCP clients, one with two calls waiting, and a script
			// asking through the socket.
			type result struct {
				res *sdk.CallToolResult
				err error
			}
			results := make(chan result, 3)
			one, two := connectMCP(t, ctx, addr, "agent-one", ""), connectMCP(t, ctx, addr, "agent-two", "")
			for i, cs := range []*sdk.ClientSession{one, one, two} {
				go func() {
					res, err := cs.CallTool(ctx, &sdk.CallToolParams{
						Name: "ask_user_question",
						Arguments: map[string]any{"questions": []map[string]any{{
							"id": "q", "question": fmt.Sprintf("Question %d?", i),
							"options": []map[string]any{{"label": "Yes"}, {"label": "No"}},
						}}},
					})
					results <- result{res, err}
				}()
			}
			var scriptErr bytes.Buffer
			script := make(chan int, 1)
			go func() {
				script <- run(ctx, []string{"ask", "--connect=" + sock, "Ship it?", "--option", "Yes", "--option", "No"}, env{
					stdin: strings.NewReader(""), stdout: io.Discard, stderr: &scriptErr, openTTY: mustNotOpenTTY(t),
				})
			}()
			// The window title counts the requests in the inbox: at four,
			// every one of them waits on the human.
			const title = "asktui (4 waiting)"
			term.WaitUntil(mark, strconv.Quote(title)+" in the window title", func() bool {
				return bytes.Contains(term.Output()[mark:], []byte(title))
			})

			c.Signal(sig)
			for range 3 {
				var r result
				select {
				case r = <-results:
				case <-ctx.Done():
					t.Fatalf("a call did not return; the screen:\n%s", term.Text(0))
				}
				if r.err != nil {
					t.Errorf("a call failed without a tool result: %v", r.err)
					continue
				}
				if text := r.res.Content[0].(*sdk.TextContent).Text; !r.res.IsError || !toolErrorText.MatchString(text) {
					t.Errorf("tool result %q (IsError %v), want a coded tool error", text, r.res.IsError)
				}
			}
			select {
			case code := <-script:
				if e := envelope(t, scriptErr.String()); code != exitFailure || e.Code != interaction.CodeProviderClosed {
					t.Errorf("ask --connect: exit %d, error %v; want %d and PROVIDER_CLOSED", code, e, exitFailure)
				}
			case <-ctx.Done():
				t.Fatal("ask --connect did not return")
			}

			code := c.Wait(func() string { return term.Text(0) })
			term.CheckRestored(before)
			// A signal is how a server is stopped: serve exits 0.
			if code != 0 {
				t.Errorf("exit %d, want 0; stderr:\n%s", code, c.Stderr.String())
			}
			if out := strings.TrimSpace(c.Stderr.String()); strings.Count(out, "\n") > 0 || !strings.HasPrefix(out, "asktui: WARNING: --no-auth") {
				t.Errorf("stderr holds more than the --no-auth warning:\n%s", out)
			}
		})
	}
}

// connectMCP connects the MCP SDK's own client, named name, to asktui
// serve at addr (with token as the bearer token, unless it is empty), and
// closes it when the test ends.
func connectMCP(t *testing.T, ctx context.Context, addr, name, token string) *sdk.ClientSession {
	t.Helper()
	transport := &sdk.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}
	if token = strings.TrimSpace(token); token != "" {
		transport.HTTPClient = &http.Client{Transport: bearerTransport{token: token}}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: name, Version: "1"}, nil)
	cs, err := client.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// shortSocketPath returns a path for a Unix socket in a directory removed
// when the test ends; t.TempDir is too deep for the 104-byte limit.
func shortSocketPath(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "ask")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return filepath.Join(dir, "s.sock")
}
