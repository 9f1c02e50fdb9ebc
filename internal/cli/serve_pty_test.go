package cli

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktui/asktui/internal/ptytest"
)

type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// toolResult is what a tool call returned.
type toolResult struct {
	res *sdk.CallToolResult
	err error
}

// askAsync calls ask_user_question with one single-select question and
// delivers the result when the call returns.
func askAsync(cs *sdk.ClientSession, id, question string, labels ...string) <-chan toolResult {
	options := make([]map[string]any, len(labels))
	for i, l := range labels {
		options[i] = map[string]any{"label": l}
	}
	called := make(chan toolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{
			Name: "ask_user_question",
			Arguments: map[string]any{"questions": []map[string]any{{
				"id": id, "question": question, "options": options,
			}}},
		})
		called <- toolResult{res, err}
	}()
	return called
}

// freeAddr finds a loopback port nobody listens on.
func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

// TestPTYServeAnswersAnMCPClient runs `asktui serve` on a pseudo-terminal,
// calls ask_user_question with the SDK's own client, answers on the
// terminal, and checks the tool result.
func TestPTYServeAnswersAnMCPClient(t *testing.T) {
	skipUnderRace(t)
	term := ptytest.New(t, ptytest.Options{})
	addr := freeAddr(t)
	cfg := t.TempDir()
	sockDir, err := os.MkdirTemp("", "ask") // short: socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(sockDir)
	sock := filepath.Join(sockDir, "s.sock")
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--listen", addr, "--socket", sock, "--theme", "dark", "--bell=false", "--notify=false"}, env{
			stdin: strings.NewReader(""), stdout: os.Stdout, stderr: os.Stderr,
			environ: []string{"TERM=xterm-256color", "XDG_CONFIG_HOME=" + cfg, "XDG_STATE_HOME=" + cfg},
			openTTY: term.OpenTTY,
		})
	}()
	term.WaitFor(0, "MCP:")
	token, err := os.ReadFile(filepath.Join(cfg, "asktui", "token")) //nolint:gosec // a path the test made, or its testdata
	if err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(filepath.Join(cfg, "asktui", "token")); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v, %v", info.Mode(), err)
	}

	cs := connectMCP(t, context.Background(), addr, "e2e-client", string(token))
	mark := term.Mark()
	called := askAsync(cs, "db", "Which database should billing use?", "PostgreSQL (Recommended)", "SQLite")
	term.WaitFor(mark, "billing")
	term.WaitSeen(mark)
	term.Type("2")
	var r toolResult
	select {
	case r = <-called:
	case <-time.After(time.Minute):
		t.Fatalf("the tool call did not return:\n%s", term.Text(0))
	}
	if r.err != nil || r.res.IsError {
		t.Fatalf("call failed: %v %+v", r.err, r.res)
	}
	text := r.res.Content[0].(*sdk.TextContent).Text
	if text != `{"answers":[{"id":"db","selected":["SQLite"]}]}` {
		t.Fatalf("tool result %s", text)
	}

	// A script asks through the same inbox with ask --connect.
	var scriptOut, scriptErr bytes.Buffer
	asked := make(chan int, 1)
	mark = term.Mark()
	go func() {
		asked <- run(context.Background(), []string{"ask", "--connect=" + sock, "Ship the release notes?", "--id", "notes", "--option", "Yes", "--option", "Later", "--format", "text"}, env{
			stdin: strings.NewReader(""), stdout: &scriptOut, stderr: &scriptErr,
			openTTY: func() (*os.File, *os.File, error) {
				t.Error("ask --connect opened a terminal")
				return nil, nil, os.ErrNotExist
			},
		})
	}()
	term.WaitFor(mark, "release")
	// It takes keys once it has been on screen a moment and the keyboard
	// quiet (the arrival hold), when its hint replaces the hold's cue.
	term.WaitSeen(mark)
	term.Type("2")
	var code int
	select {
	case code = <-asked:
	case <-time.After(time.Minute):
		t.Fatalf("ask --connect did not return:\n%s", term.Text(0))
	}
	if code != 0 || scriptOut.String() != "notes: Later\n" {
		t.Fatalf("ask --connect: exit %d, stdout %q, stderr %q", code, scriptOut.String(), scriptErr.String())
	}
	stop()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exited %d with nothing waiting", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}

	// The answer is in the history, and `asktui history` shows it.
	var out bytes.Buffer
	code = run(context.Background(), []string{"history"}, env{
		stdin: strings.NewReader(""), stdout: &out, stderr: os.Stderr,
		environ: []string{"XDG_STATE_HOME=" + cfg},
	})
	if code != 0 || !strings.Contains(out.String(), "answered") || !strings.Contains(out.String(), "SQLite") || !strings.Contains(out.String(), "e2e-client") {
		t.Fatalf("history (exit %d):\n%s", code, out.String())
	}
}
