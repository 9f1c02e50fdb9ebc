package mcp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// The two kinds of client the server meets: with sessions (every client
// today) and sessionless (MCP 2026-07-28, served statelessly).
var protocols = []struct{ name, version string }{
	{"stateful", protocolWithSessions},
	{"stateless", protocolSessionless},
}

// tap is an HTTP transport under the SDK client that lets a test drop the
// POST carrying a tool call, as a broken network or a client that drops
// the call's task would, and see the bytes that arrive on it.
type tap struct {
	base  http.RoundTripper
	cuts  chan context.CancelFunc // one per tools/call POST, in order
	bytes chan string             // what the SDK client read from them
}

func newTap(t testing.TB) *tap {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &tap{base: tr, cuts: make(chan context.CancelFunc, 10), bytes: make(chan string, 1000)}
}

func (c *tap) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+testToken)
	if r.Method != http.MethodPost || r.Body == nil {
		return c.base.RoundTrip(r)
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if !bytes.Contains(body, []byte(`"tools/call"`)) {
		return c.base.RoundTrip(r)
	}
	ctx, cut := context.WithCancel(r.Context()) //nolint:gosec // the transport hands cut to the test, which calls it
	c.cuts <- cut                               // before the round trip: a waiting call's headers come late
	resp, err := c.base.RoundTrip(r.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	resp.Body = &tapBody{ReadCloser: resp.Body, out: c.bytes}
	return resp, nil
}

type tapBody struct {
	io.ReadCloser
	out chan<- string
}

func (b *tapBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		select {
		case b.out <- string(p[:n]):
		default:
		}
	}
	return n, err
}

// dialTap connects the SDK client through tp with the given protocol
// version.
func dialTap(t testing.TB, hs *httptest.Server, tp *tap, version string) *sdk.ClientSession {
	t.Helper()
	client := sdk.NewClient(&sdk.Implementation{Name: "tap-client", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint:             hs.URL + "/mcp",
		HTTPClient:           &http.Client{Transport: tp},
		MaxRetries:           -1,
		DisableStandaloneSSE: true,
	}, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() }) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated %s, want %s", got, version)
	}
	return cs
}

// callCtx is the context of a test's calls: cancelled when the test ends,
// before the client closes (which waits for its calls), so that a failing
// test ends instead of hanging.
func callCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return ctx
}

func nextCut(t *testing.T, tp *tap) context.CancelFunc {
	t.Helper()
	select {
	case cut := <-tp.cuts:
		return cut
	case <-time.After(5 * time.Second):
		t.Fatal("no tools/call POST")
		return nil
	}
}

// waitBytes waits until the client has read something containing want.
func waitBytes(t *testing.T, tp *tap, want string) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case got := <-tp.bytes:
			if strings.Contains(got, want) {
				return
			}
		case <-deadline:
			t.Fatalf("the client never read %q", want)
		}
	}
}

// TestKeepaliveWithoutProgressToken proves that bytes flow on a waiting
// call's stream at least every 20 s when the client sent no progress
// token: the server ticks every 15 s by default, and each tick puts a
// comment on the stream (ticked by hand here).
func TestKeepaliveWithoutProgressToken(t *testing.T) {
	for _, pr := range protocols {
		t.Run(pr.name, func(t *testing.T) {
			periods := make(chan time.Duration, 1)
			ticks := make(chan time.Time)
			asker := interactiontest.NewProvider()
			_, hs := serve(t, asker, Options{hooks: testHooks{
				newTicker: func(d time.Duration) (<-chan time.Time, func()) {
					periods <- d
					return ticks, func() {}
				},
			}})
			tp := newTap(t)
			cs := dialTap(t, hs, tp, pr.version)
			ch := callAsync(callCtx(t), cs, askParams(dbQuestion)) // no progress token
			p := asker.Next(t)
			select {
			case d := <-periods:
				if d > 20*time.Second || d <= 0 {
					t.Fatalf("keepalive every %v, want at most 20s", d)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the waiting call keeps nothing alive")
			}
			for range 3 {
				ticks <- time.Now()
				waitBytes(t, tp, keepaliveComment)
			}
			p.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"SQLite"}}}})
			r := waitCall(t, ch)
			if r.err != nil || r.res.IsError {
				t.Fatalf("call = %+v, %v", r.res, r.err)
			}
			if want := `{"answers":[{"id":"db","selected":["SQLite"]}]}`; textOf(t, r.res) != want {
				t.Errorf("text = %s, want %s", textOf(t, r.res), want)
			}
		})
	}
}

// deadWriter is a POST's response whose writes fail once dead is set, as
// on a connection whose client vanished without closing it.
type deadWriter struct {
	http.ResponseWriter
	dead *atomic.Bool
}

func (w deadWriter) Write(p []byte) (int, error) {
	if w.dead.Load() {
		return 0, errors.New("connection reset by peer")
	}
	return w.ResponseWriter.Write(p)
}

func (w deadWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// TestKeepaliveOnADeadStreamWithdraws: a waiting call whose keepalive
// cannot be written (the client is gone, though its connection was never
// closed) is withdrawn, with the re-attach grace, rather than waiting for
// an answer nobody could receive.
func TestKeepaliveOnADeadStreamWithdraws(t *testing.T) {
	for _, pr := range protocols {
		t.Run(pr.name, func(t *testing.T) {
			ticks := make(chan time.Time)
			asker := interactiontest.NewProvider()
			srv, err := NewServer(asker, Options{Token: testToken, ReattachGrace: time.Millisecond, hooks: testHooks{
				newTicker: func(time.Duration) (<-chan time.Time, func()) { return ticks, func() {} },
			}})
			if err != nil {
				t.Fatal(err)
			}
			var dead atomic.Bool
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				srv.Handler().ServeHTTP(deadWriter{ResponseWriter: w, dead: &dead}, r)
			}))
			t.Cleanup(hs.Close)
			t.Cleanup(func() { srv.Close() }) //nolint:gosec // a test's clean-up
			cs := dialTap(t, hs, newTap(t), pr.version)
			ctx := callCtx(t)
			ch := callAsync(ctx, cs, askParams(dbQuestion))
			p := asker.Next(t)
			dead.Store(true)
			ticks <- time.Now()
			if err := p.Withdrawn(t, 5*time.Second); interaction.CodeOf(err) != interaction.CodeAborted {
				t.Fatalf("withdrawn with %v, want ASK_ABORTED", err)
			}
			select {
			case ticks <- time.Now():
				t.Error("the call kept writing keepalives on a dead stream")
			default:
			}
			srv.Close() //nolint:gosec // ends the call's POST, which can no longer be written
			waitCall(t, ch)
		})
	}
}

// TestKeepaliveOff: a negative interval writes nothing.
func TestKeepaliveOff(t *testing.T) {
	asker := interactiontest.NewProvider()
	_, hs := serve(t, asker, Options{KeepaliveInterval: -1, hooks: testHooks{
		newTicker: func(time.Duration) (<-chan time.Time, func()) {
			t.Error("a keepalive ticker was started")
			return nil, func() {}
		},
	}})
	cs := connect(t, hs, nil)
	ch := callAsync(callCtx(t), cs, askParams(dbQuestion))
	asker.Next(t).Answer(interaction.Answer{Answers: []interaction.AnswerItem{interaction.Skip("db")}})
	if r := waitCall(t, ch); r.err != nil {
		t.Fatal(r.err)
	}
}

// detachedHook reports each call that stopped waiting, and whether its
// client was gone.
func detachedHook() (testHooks, <-chan bool) {
	ch := make(chan bool, 10)
	return testHooks{detached: func(dropped bool) { ch <- dropped }}, ch
}

func wantDetached(t *testing.T, ch <-chan bool, dropped bool) {
	t.Helper()
	select {
	case got := <-ch:
		if got != dropped {
			t.Fatalf("detached with dropped=%v, want %v", got, dropped)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the call never stopped waiting")
	}
}

// wantNoNewAsk fails if the asker was asked again.
func wantNoNewAsk(t *testing.T, asker *interactiontest.Provider) {
	t.Helper()
	select {
	case c := <-asker.Calls():
		t.Fatalf("asked again: %+v", c.Req)
	default:
	}
}

// TestReissuedCallReattaches drops the stream of a waiting call and
// issues the same call again, as MCP 2026-07-28 clients must: the second
// call finds the question still on screen (never withdrawn, so its draft
// is kept) and gets its answer.
func TestReissuedCallReattaches(t *testing.T) {
	for _, pr := range protocols {
		t.Run(pr.name, func(t *testing.T) {
			hooks, detached := detachedHook()
			asker := interactiontest.NewProvider()
			_, hs := serve(t, asker, Options{ReattachGrace: time.Hour, hooks: hooks})
			tp := newTap(t)
			cs := dialTap(t, hs, tp, pr.version)

			first := callAsync(callCtx(t), cs, askParams(dbQuestion))
			cut := nextCut(t, tp)
			p := asker.Next(t)
			cut()
			if r := waitCall(t, first); r.err == nil {
				t.Fatalf("the dropped call returned %+v", r.res)
			}
			wantDetached(t, detached, true)

			second := callAsync(callCtx(t), cs, askParams(dbQuestion))
			nextCut(t, tp)
			// A different question from the same client is asked anew.
			other := callAsync(callCtx(t), cs, askParams(map[string]any{
				"questions": []any{map[string]any{"id": "db", "question": "Which cache?"}},
			}))
			nextCut(t, tp)
			po := asker.Next(t)
			if po.Req.Questions[0].Question != "Which cache?" {
				t.Fatalf("asked %+v, want the other question", po.Req)
			}
			wantNoNewAsk(t, asker)
			if p.Ctx.Err() != nil {
				t.Fatalf("the question was withdrawn: %v", context.Cause(p.Ctx))
			}
			p.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"SQLite"}}}})
			r := waitCall(t, second)
			if r.err != nil || r.res.IsError {
				t.Fatalf("re-issued call = %+v, %v", r.res, r.err)
			}
			if want := `{"answers":[{"id":"db","selected":["SQLite"]}]}`; textOf(t, r.res) != want {
				t.Errorf("text = %s, want %s", textOf(t, r.res), want)
			}
			po.Answer(interaction.Answer{Answers: []interaction.AnswerItem{interaction.Skip("db")}})
			if r := waitCall(t, other); r.err != nil || r.res.IsError {
				t.Fatalf("other call = %+v, %v", r.res, r.err)
			}
		})
	}
}

// TestAnswerDuringGraceReachesTheReissuedCall: the human answers while
// the caller is away; the call that comes back gets the answer at once.
func TestAnswerDuringGraceReachesTheReissuedCall(t *testing.T) {
	for _, pr := range protocols {
		t.Run(pr.name, func(t *testing.T) {
			hooks, detached := detachedHook()
			asker := interactiontest.NewProvider()
			_, hs := serve(t, asker, Options{ReattachGrace: time.Hour, hooks: hooks})
			tp := newTap(t)
			cs := dialTap(t, hs, tp, pr.version)
			first := callAsync(callCtx(t), cs, askParams(dbQuestion))
			cut := nextCut(t, tp)
			p := asker.Next(t)
			cut()
			waitCall(t, first)
			wantDetached(t, detached, true)
			p.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Custom: "MySQL"}}})

			r, err := cs.CallTool(context.Background(), askParams(dbQuestion))
			if err != nil || r.IsError {
				t.Fatalf("re-issued call = %+v, %v", r, err)
			}
			if want := `{"answers":[{"id":"db","selected":[],"custom":"MySQL"}]}`; textOf(t, r) != want {
				t.Errorf("text = %s, want %s", textOf(t, r), want)
			}
			wantNoNewAsk(t, asker)
		})
	}
}

// TestDroppedCallWithdrawsAfterGrace: a client that drops its call without
// a word (the Python SDK cancelling its task, the TypeScript SDK's
// close()) has its question withdrawn once the default grace is over,
// within a second.
func TestDroppedCallWithdrawsAfterGrace(t *testing.T) {
	for _, pr := range protocols {
		t.Run(pr.name, func(t *testing.T) {
			asker := interactiontest.NewProvider()
			_, hs := serve(t, asker, Options{})
			tp := newTap(t)
			cs := dialTap(t, hs, tp, pr.version)
			ch := callAsync(callCtx(t), cs, askParams(dbQuestion))
			cut := nextCut(t, tp)
			p := asker.Next(t)
			cut()
			wantWithdrawn(t, p)
			if got := context.Cause(p.Ctx).Error(); !strings.Contains(got, "disconnected") {
				t.Errorf("cause = %q, want the disconnect", got)
			}
			waitCall(t, ch)
		})
	}
}

// TestSessionlessClientsAreServed: a 2026-07-28 client needs no session
// and is named after its client info.
func TestSessionlessClientsAreServed(t *testing.T) {
	asker := interactiontest.NewProvider()
	_, hs := serve(t, asker, Options{})
	cs := dialTap(t, hs, newTap(t), protocolSessionless)
	if cs.ID() != "" {
		t.Errorf("session id %q, want none", cs.ID())
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(res.Tools) != 1 || res.Tools[0].OutputSchema == nil {
		t.Fatalf("tools = %+v, %v", res, err)
	}
	ch := callAsync(callCtx(t), cs, askParams(map[string]any{"questions": dbQuestion["questions"], "agent": "reviewer"}))
	p := asker.Next(t)
	if a := p.Req.Agent; a == nil || a.Name != "tap-client › reviewer" || a.ID != "mcp-client:tap-client/reviewer" {
		t.Errorf("agent = %+v", a)
	}
	p.Answer(interaction.Answer{Answers: []interaction.AnswerItem{interaction.Skip("db")}})
	if r := waitCall(t, ch); r.err != nil || r.res.IsError {
		t.Fatalf("call = %+v, %v", r.res, r.err)
	}
}
