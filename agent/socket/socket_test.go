package socket

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// within is a failure deadline for anything a test waits on, never a way
// to synchronise.
const within = 5 * time.Second

// withdrawWithin is how quickly a withdrawn request must reach the asker.
const withdrawWithin = time.Second

// socketPath returns a short socket path in a fresh directory whose parent
// does not exist yet (Unix socket paths are limited to about 108 bytes).
func socketPath(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "ask")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) }) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	return filepath.Join(dir, "d", "a.sock")
}

// testServer is a running Serve.
type testServer struct {
	path string
	stop func() // ends Serve and waits for it; idempotent
}

func startServer(t *testing.T, asker Asker, opts Options) *testServer {
	t.Helper()
	path := socketPath(t)
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, l, asker, opts) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Serve: %v", err)
				}
			case <-time.After(within):
				t.Fatal("Serve did not return after its context ended")
			}
		})
	}
	t.Cleanup(stop)
	return &testServer{path: path, stop: stop}
}

// rawConn speaks the protocol by hand.
type rawConn struct {
	t  *testing.T
	nc net.Conn
	br *bufio.Reader
}

func dialRaw(t *testing.T, path string) *rawConn {
	t.Helper()
	nc, err := (&net.Dialer{}).DialContext(context.Background(), "unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() }) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	return &rawConn{t: t, nc: nc, br: bufio.NewReader(nc)}
}

func (c *rawConn) send(line string) {
	c.t.Helper()
	c.nc.SetWriteDeadline(time.Now().Add(within)) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	if _, err := io.WriteString(c.nc, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// recvLine returns the next line without its newline.
func (c *rawConn) recvLine() string {
	c.t.Helper()
	c.nc.SetReadDeadline(time.Now().Add(within)) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	line, err := c.br.ReadString('\n')
	if err != nil {
		c.t.Fatalf("reading a reply: %v (got %q)", err, line)
	}
	return strings.TrimSuffix(line, "\n")
}

func (c *rawConn) recv() clientReply {
	c.t.Helper()
	line := c.recvLine()
	var r clientReply
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		c.t.Fatalf("reply %q: %v", line, err)
	}
	return r
}

// wantError checks that r is an error reply with the given id and code and
// a message containing each of parts.
func wantError(t *testing.T, r clientReply, id string, code interaction.Code, parts ...string) {
	t.Helper()
	if got := string(r.ID); got != id {
		t.Errorf("id = %s, want %s", got, id)
	}
	if r.Answer != nil || r.Error == nil {
		t.Fatalf("reply has answer %v and error %v, want an error", r.Answer, r.Error)
	}
	if r.Error.Code != code {
		t.Errorf("code = %s, want %s (message %q)", r.Error.Code, code, r.Error.Message)
	}
	for _, p := range parts {
		if !strings.Contains(r.Error.Message, p) {
			t.Errorf("message %q does not contain %q", r.Error.Message, p)
		}
	}
}

func waitDone(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	select {
	case <-ctx.Done():
	case <-time.After(withdrawWithin):
		t.Fatalf("%s did not withdraw the request within %v", what, withdrawWithin)
	}
}

const simpleRequest = `{"questions":[{"id":"q","question":"?"}]}`

func TestRoundTrip(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{DefaultAgent: interaction.Agent{ID: "socket", Name: "script"}})
	c := dialRaw(t, srv.path)

	c.send(`{"id": "a", "request": {"questions": [{"id": "db", "question": "Which database?", "multi_select": true,` +
		` "options": [{"label": "Postgres"}, {"label": "SQLite <3"}]}]}}`)
	got := f.Next(t)
	if q := got.Req.Questions[0]; !q.MultiSelect || len(q.Options) != 2 {
		t.Errorf("question decoded as %+v, want multi-select with 2 options", q)
	}
	if a := got.Req.Agent; a == nil || *a != (interaction.Agent{ID: "socket", Name: "script"}) {
		t.Errorf("agent = %v, want the default agent", a)
	}
	got.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"SQLite <3"}}}})

	want := `{"id":"a","answer":{"answers":[{"id":"db","selected":["SQLite <3"]}]}}`
	if line := c.recvLine(); line != want {
		t.Errorf("reply\n got %s\nwant %s", line, want)
	}

	// A request's own agent is kept; an object id is echoed.
	c.send(`{"id": {"n": [1, 2]}, "request": {"agent": {"id": "a1", "name": "bot"}, "questions": [{"id": "q", "question": "?"}]}}`)
	got = f.Next(t)
	if a := got.Req.Agent; a == nil || a.ID != "a1" {
		t.Errorf("agent = %v, want the request's own", a)
	}
	got.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "q", Custom: "fine"}}})
	want = `{"id":{"n":[1,2]},"answer":{"answers":[{"id":"q","selected":[],"custom":"fine"}]}}`
	if line := c.recvLine(); line != want {
		t.Errorf("reply\n got %s\nwant %s", line, want)
	}
}

func TestListenModes(t *testing.T) {
	path := socketPath(t)
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Type() != os.ModeSocket || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode = %v, want a socket with 0600", fi.Mode())
	}
	di, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if di.Mode().Perm() != 0o700 {
		t.Errorf("directory mode = %v, want 0700", di.Mode().Perm())
	}
	l.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket file after Close: %v, want it removed", err)
	}
}

func TestBadLinesKeepTheConnection(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{maxLine: 200})
	c := dialRaw(t, srv.path)

	tests := []struct {
		name  string
		line  string
		id    string
		code  interaction.Code
		parts []string
	}{
		{"not json", `hello`, "null", interaction.CodeInvalidRequest, []string{"not valid JSON", `"request"`}},
		{"truncated", `{"id": 1, "request": {`, "null", interaction.CodeInvalidRequest, []string{"not valid JSON"}},
		{"array", `[1, 2]`, "null", interaction.CodeInvalidRequest, []string{"must be a JSON object"}},
		{"null", `null`, "null", interaction.CodeInvalidRequest, []string{"must be a JSON object"}},
		{"no request", `{"id": 7}`, "7", interaction.CodeInvalidRequest, []string{`no "request"`}},
		{"request not object", `{"id": 8, "request": [1]}`, "8", interaction.CodeInvalidRequest, []string{"array"}},
		{"empty questions", `{"id": 9, "request": {"questions": []}}`, "9", interaction.CodeEmptyQuestions, nil},
		{"invalid question", `{"id": "v", "request": {"questions": [{"id": "db", "question": "  "}]}}`,
			`"v"`, interaction.CodeInvalidRequest, []string{`question 1 (id "db")`}},
		{"wrong type", `{"id": 10, "request": {"questions": [{"id": 3, "question": "?"}]}}`,
			"10", interaction.CodeInvalidRequest, []string{"question 1", `"id"`, "string"}},
		{"bad cancel", `{"id": 11, "cancel": "yes"}`, "11", interaction.CodeInvalidRequest, []string{`"cancel"`}},
		{"cancel without id", `{"cancel": true}`, "null", interaction.CodeInvalidRequest, []string{`"id"`}},
		{"cancel and request", `{"id": 12, "cancel": true, "request": ` + simpleRequest + `}`,
			"12", interaction.CodeInvalidRequest, []string{"not both"}},
		{"too long", `{"id": 13, "request": {"questions": [{"id": "q", "question": "` + strings.Repeat("x", 300) + `"}]}}`,
			"null", interaction.CodeInvalidRequest, []string{"longer than the limit of 200 bytes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			c.send(tt.line)
			wantError(t, c.recv(), tt.id, tt.code, tt.parts...)
		})
	}
	c.t = t

	// Blank lines are skipped, and a good request still works.
	c.send("")
	c.send(`  {"id": 1, "request": ` + simpleRequest + `}  `)
	f.Next(t).Answer(interaction.Answer{Answers: []interaction.AnswerItem{interaction.Skip("q")}})
	if line, want := c.recvLine(), `{"id":1,"answer":{"answers":[{"id":"q","selected":[]}]}}`; line != want {
		t.Errorf("reply %s, want %s", line, want)
	}
}

func TestDeclined(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dialRaw(t, srv.path)
	c.send(`{"id": 1, "request": ` + simpleRequest + `}`)
	f.Next(t).Fail(interaction.Errorf(interaction.CodeDeclined, "the human declined to answer"))
	wantError(t, c.recv(), "1", interaction.CodeDeclined, "the human declined to answer")
}

func TestPlainAskerErrors(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dialRaw(t, srv.path)
	c.send(`{"id": 1, "request": ` + simpleRequest + `}`)
	f.Next(t).Fail(errors.New("boom"))
	wantError(t, c.recv(), "1", interaction.CodeInternal, "boom")
}

func TestConcurrentRequestsOutOfOrder(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dialRaw(t, srv.path)

	const n = 5
	calls := make(map[string]*interactiontest.Call)
	for i := range n {
		c.send(fmt.Sprintf(`{"id": %d, "request": {"questions": [{"id": "q", "question": "number %d"}]}}`, i, i))
	}
	for range n {
		got := f.Next(t)
		calls[got.Req.Questions[0].Question] = got
	}
	for _, i := range []int{3, 0, 4, 2, 1} {
		calls[fmt.Sprintf("number %d", i)].Answer(interaction.Answer{Answers: []interaction.AnswerItem{
			{ID: "q", Custom: fmt.Sprintf("answer %d", i)}}})
		r := c.recv()
		if string(r.ID) != fmt.Sprint(i) || r.Answer == nil || r.Answer.Answers[0].Custom != fmt.Sprintf("answer %d", i) {
			t.Errorf("after answering %d got id %s answer %+v", i, r.ID, r.Answer)
		}
	}
}

func TestDuplicateIDWhileWaiting(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dialRaw(t, srv.path)

	c.send(`{"id": 1, "request": ` + simpleRequest + `}`)
	first := f.Next(t)
	c.send(`{"id": 1, "request": ` + simpleRequest + `}`)
	wantError(t, c.recv(), "1", interaction.CodeInvalidRequest, "still waiting")

	first.Answer(interaction.Answer{})
	if r := c.recv(); string(r.ID) != "1" || r.Answer == nil {
		t.Fatalf("got %+v, want the answer to request 1", r)
	}
	// Answered, the id is free again.
	c.send(`{"id": 1, "request": ` + simpleRequest + `}`)
	f.Next(t).Answer(interaction.Answer{})
	if r := c.recv(); string(r.ID) != "1" || r.Answer == nil {
		t.Fatalf("got %+v, want the answer to the reused id", r)
	}
}

func TestCloseWithdraws(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dialRaw(t, srv.path)

	c.send(`{"id": 1, "request": ` + simpleRequest + `}`)
	c.send(`{"id": 2, "request": ` + simpleRequest + `}`)
	a, b := f.Next(t), f.Next(t)
	c.nc.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	waitDone(t, a.Ctx, "closing the connection")
	waitDone(t, b.Ctx, "closing the connection")
	if err := interaction.ContextError(a.Ctx); interaction.CodeOf(err) != interaction.CodeAborted ||
		!strings.Contains(err.Error(), "closed its connection") {
		t.Errorf("withdrawn with %v, want ASK_ABORTED naming the closed connection", err)
	}
}

func TestCancelLine(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dialRaw(t, srv.path)

	c.send(`{"id": "x", "request": {"questions": [{"id": "q", "question": "x"}]}}`)
	c.send(`{"id": "y", "request": {"questions": [{"id": "q", "question": "y"}]}}`)
	x, y := f.Next(t), f.Next(t)
	if x.Req.Questions[0].Question != "x" { // they may arrive in either order
		x, y = y, x
	}
	c.send(`{"id": "nobody", "cancel": true}`) // ignored
	c.send(`{"id": "x", "cancel": true}`)
	waitDone(t, x.Ctx, "a cancel line")
	if err := interaction.ContextError(x.Ctx); interaction.CodeOf(err) != interaction.CodeAborted {
		t.Errorf("withdrawn with %v, want ASK_ABORTED", err)
	}
	// The first reply is the withdrawn request's: the cancel of an unknown id
	// sent nothing.
	wantError(t, c.recv(), `"x"`, interaction.CodeAborted, `"x"`)
	if y.Ctx.Err() != nil {
		t.Error("cancelling x also withdrew y")
	}
	y.Answer(interaction.Answer{})
	if r := c.recv(); string(r.ID) != `"y"` || r.Answer == nil {
		t.Errorf("got %+v, want y's answer", r)
	}
}

func TestServeShutdown(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dialRaw(t, srv.path)
	c.send(`{"id": 1, "request": ` + simpleRequest + `}`)
	pending := f.Next(t)
	// A connection with nothing waiting, known to be accepted (one still in
	// the listener's backlog would be reset instead).
	idle := dialRaw(t, srv.path)
	idle.send(`{}`)
	idle.recv()

	srv.stop()
	if err := interaction.ContextError(pending.Ctx); interaction.CodeOf(err) != interaction.CodeProviderClosed {
		t.Errorf("pending request withdrawn with %v, want PROVIDER_CLOSED", err)
	}
	wantError(t, c.recv(), "1", interaction.CodeProviderClosed, "shutting down")
	for _, rc := range []*rawConn{c, idle} {
		rc.nc.SetReadDeadline(time.Now().Add(within)) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
		if b, err := rc.br.ReadByte(); err != io.EOF {
			t.Errorf("after shutdown read %q, %v; want EOF", b, err)
		}
	}
	if _, err := os.Lstat(srv.path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket file after shutdown: %v, want it removed", err)
	}
	if _, err := Dial(context.Background(), srv.path); interaction.CodeOf(err) != interaction.CodeNoProvider {
		t.Errorf("Dial after shutdown: %v, want NO_PROVIDER", err)
	}
	c.nc.Close()    //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	idle.nc.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	goleak.VerifyNone(t)
}

func TestServeWithService(t *testing.T) {
	svc := interaction.NewService()
	srv := startServer(t, svc, Options{})
	c := dialRaw(t, srv.path)
	c.send(`{"id": 1, "request": ` + simpleRequest + `}`)
	wantError(t, c.recv(), "1", interaction.CodeNoProvider)
}

// staleSocket leaves a socket file at path that nothing listens on, as a
// crashed server would.
func staleSocket(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	l.SetUnlinkOnClose(false)
	l.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
}

func TestDialNoServer(t *testing.T) {
	missing := socketPath(t)
	stale := socketPath(t)
	staleSocket(t, stale)
	for name, path := range map[string]string{"missing": missing, "stale": stale} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			c, err := Dial(context.Background(), path)
			if err == nil {
				c.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
				t.Fatal("Dial succeeded with no server")
			}
			var e *interaction.Error
			if !errors.As(err, &e) || e.Code != interaction.CodeNoProvider {
				t.Fatalf("err = %v, want a NO_PROVIDER *interaction.Error", err)
			}
			want := "no asktui inbox is running at " + path + "; start one with `asktui serve`"
			if e.Message != want {
				t.Errorf("message %q, want %q", e.Message, want)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("Dial took %v", d)
			}
		})
	}
}

func TestListenReplacesStaleSocket(t *testing.T) {
	path := socketPath(t)
	staleSocket(t, path)
	l, err := Listen(path)
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	f := interactiontest.NewProvider()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, l, f, Options{}) }()
	defer func() { cancel(); <-done }()

	c, err := Dial(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go func() { f.Next(t).Answer(interaction.Answer{}) }()
	if _, err := c.Ask(context.Background(), interaction.Request{Questions: []interaction.Question{{ID: "q", Question: "?"}}}); err != nil {
		t.Fatal(err)
	}
}

func TestListenRefusesLiveServer(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	l, err := Listen(srv.path)
	if err == nil {
		l.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
		t.Fatal("Listen succeeded over a live server")
	}
	if !errors.Is(err, ErrAlreadyServing) || !strings.Contains(err.Error(), srv.path) {
		t.Errorf("err = %v, want ErrAlreadyServing naming the path", err)
	}
	// The live server is unharmed.
	c := dialRaw(t, srv.path)
	c.send(`{"id": 1, "request": ` + simpleRequest + `}`)
	f.Next(t).Answer(interaction.Answer{})
	if r := c.recv(); r.Answer == nil {
		t.Errorf("got %+v, want an answer", r)
	}
}

func TestListenRefusesOtherFiles(t *testing.T) {
	path := socketPath(t)
	os.MkdirAll(filepath.Dir(path), 0o700) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	if err := os.WriteFile(path, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if l, err := Listen(path); err == nil {
		l.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
		t.Fatal("Listen replaced a regular file")
	}
	if b, _ := os.ReadFile(path); string(b) != "keep me" { //nolint:gosec // a path the test made, or its testdata
		t.Errorf("file now holds %q", b)
	}
}

func TestDefaultPath(t *testing.T) {
	env := map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000", "TMPDIR": "/scratch"}
	getenv := func(key string) string { return env[key] }
	none := t.TempDir() // holds no runtime directory
	if got, want := defaultPath(getenv, none), "/run/user/1000/asktui/asktui.sock"; got != want {
		t.Errorf("DefaultPath() = %q, want %q", got, want)
	}
	env["XDG_RUNTIME_DIR"] = ""
	want := filepath.Join("/scratch", fmt.Sprintf("asktui-%d", os.Getuid()), "asktui.sock")
	if got := defaultPath(getenv, none); got != want {
		t.Errorf("DefaultPath() = %q, want %q", got, want)
	}
	env["TMPDIR"] = ""
	want = filepath.Join(systemTempDir(), fmt.Sprintf("asktui-%d", os.Getuid()), "asktui.sock")
	if got := defaultPath(getenv, none); got != want {
		t.Errorf("without TMPDIR: DefaultPath() = %q, want %q", got, want)
	}
}

// A client started without XDG_RUNTIME_DIR (Codex's stdio servers) finds
// the socket serve made in the runtime directory XDG_RUNTIME_DIR names,
// /run/user/<uid>, but only when that directory is the user's alone.
func TestDefaultPathWithoutXDGRuntimeDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /run/user")
	}
	root := t.TempDir()
	own := filepath.Join(root, strconv.Itoa(os.Getuid()))
	if err := os.Mkdir(own, 0o700); err != nil {
		t.Fatal(err)
	}
	serve := defaultPath(func(k string) string { return map[string]string{"XDG_RUNTIME_DIR": own}[k] }, root)
	client := defaultPath(func(k string) string { return map[string]string{"TMPDIR": "/scratch"}[k] }, root)
	if serve != client || client != filepath.Join(own, "asktui", "asktui.sock") {
		t.Fatalf("serve uses %s, a client without XDG_RUNTIME_DIR %s", serve, client)
	}
	tmp := filepath.Join("/scratch", fmt.Sprintf("asktui-%d", os.Getuid()), "asktui.sock")
	// Open to others: not a runtime directory to trust.
	if err := os.Chmod(own, 0o755); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
		t.Fatal(err)
	}
	if got := defaultPath(func(k string) string { return map[string]string{"TMPDIR": "/scratch"}[k] }, root); got != tmp {
		t.Errorf("with %s open to others: %s, want %s", own, got, tmp)
	}
	// A symbolic link in its place is not followed.
	if err := os.Chmod(own, 0o700); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
		t.Fatal(err)
	}
	link := t.TempDir()
	if err := os.Rename(own, filepath.Join(link, "real")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(link, "real"), own); err != nil {
		t.Fatal(err)
	}
	if got := defaultPath(func(k string) string { return map[string]string{"TMPDIR": "/scratch"}[k] }, root); got != tmp {
		t.Errorf("with %s a symbolic link: %s, want %s", own, got, tmp)
	}
}

func TestReadLine(t *testing.T) {
	// A 16-byte buffer makes lines span several reads.
	input := strings.Repeat("a", 20) + "\n" + strings.Repeat("b", 21) + "\n\n" + strings.Repeat("c", 40) + "\nd\npartial"
	r := bufio.NewReaderSize(strings.NewReader(input), 16)
	want := []struct {
		line    string
		tooLong bool
	}{{strings.Repeat("a", 20), false}, {"", true}, {"", false}, {"", true}, {"d", false}}
	for i, w := range want {
		line, tooLong, err := readLine(r, 20)
		if err != nil || string(line) != w.line || tooLong != w.tooLong {
			t.Errorf("line %d: %q, %v, %v; want %q, %v", i, line, tooLong, err, w.line, w.tooLong)
		}
	}
	if line, _, err := readLine(r, 20); !errors.Is(err, io.EOF) || line != nil {
		t.Errorf("final partial line: %q, %v; want nil, EOF", line, err)
	}
}

// TestListenPrivateTightensTheDirectory: ListenPrivate makes an existing
// directory the user's alone, Listen leaves it as it was.
func TestListenPrivateTightensTheDirectory(t *testing.T) {
	for _, tt := range []struct {
		name   string
		listen func(string) (net.Listener, error)
		want   os.FileMode
	}{
		{"Listen", Listen, 0o755},
		{"ListenPrivate", ListenPrivate, 0o700},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := socketPath(t)
			dir := filepath.Dir(path)
			if err := os.Mkdir(dir, 0o755); err != nil { //nolint:gosec // a test's own directory; its mode is part of the set-up
				t.Fatal(err)
			}
			if err := os.Chmod(dir, 0o755); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up (past the umask)
				t.Fatal(err)
			}
			l, err := tt.listen(path)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != tt.want {
				t.Errorf("directory mode %v (%v), want %v", fi.Mode().Perm(), err, tt.want)
			}
		})
	}
}

func TestCheckDirTightens(t *testing.T) {
	dir := filepath.Dir(socketPath(t))
	if err := os.Mkdir(dir, 0o755); err != nil { //nolint:gosec // a test's own directory; its mode is part of the set-up
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it (past the umask)
	if err := checkDir(dir); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("mode = %v, want 0700", fi.Mode().Perm())
	}
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o600) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	if err := checkDir(file); err == nil {
		t.Error("checkDir accepted a regular file")
	}
}
