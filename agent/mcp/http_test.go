package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// serveHTTP starts the handler on the *http.Server of [Server.HTTPServer],
// as asktui serve does, after tweak has adjusted it.
func serveHTTP(t testing.TB, asker Asker, opts Options, tweak func(*http.Server)) (*Server, *httptest.Server) {
	t.Helper()
	if opts.Token == "" {
		opts.Token = testToken
	}
	srv, err := NewServer(asker, opts)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler())
	mux.Handle("/.well-known/", srv.WellKnownHandler())
	hs := httptest.NewUnstartedServer(mux)
	hs.Config = srv.HTTPServer(mux)
	if tweak != nil {
		tweak(hs.Config)
	}
	hs.Start()
	t.Cleanup(hs.Close)
	t.Cleanup(func() { srv.Close() }) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	return srv, hs
}

func TestUnauthorizedChallenge(t *testing.T) {
	_, hs := serveHTTP(t, interactiontest.NewProvider(), Options{}, nil)
	tests := []struct {
		name, auth string
		invalid    bool // error="invalid_token" expected
	}{
		{"no token", "", false},
		{"wrong token", "Bearer nope", true},
		{"token without scheme", testToken, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := post(t, hs, func(r *http.Request) { //nolint:bodyclose // post closes the body before it returns
				r.Header.Del("Authorization")
				if tt.auth != "" {
					r.Header.Set("Authorization", tt.auth)
				}
			})
			if resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("status = %d, want 401", resp.StatusCode)
			}
			ch := resp.Header.Get("WWW-Authenticate")
			if !strings.HasPrefix(ch, `Bearer realm="asktui"`) {
				t.Errorf("WWW-Authenticate = %q", ch)
			}
			if got := strings.Contains(ch, `error="invalid_token"`); got != tt.invalid {
				t.Errorf("WWW-Authenticate = %q, invalid_token %v, want %v", ch, got, tt.invalid)
			}
			if !resp.Close {
				t.Error("a 401 leaves the connection open")
			}
		})
	}
}

func TestRefusedConnectionCloses(t *testing.T) {
	_, hs := serveHTTP(t, interactiontest.NewProvider(), Options{Hosts: []string{"localhost"}}, nil)
	// A keep-alive client that keeps sending wrong tokens on one
	// connection finds it closed after the first answer.
	conn, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second)) // a failure deadline
	req := "POST /mcp HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer nope\r\nContent-Length: 2\r\n\r\n{}"
	if _, err := io.WriteString(conn, req+req); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("status = %d", resp.StatusCode)
	}
	if _, err := http.ReadResponse(br, nil); !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) { //nolint:bodyclose // the test wants no response: the connection closed
		t.Fatalf("second request on the connection: %v, want the connection closed", err)
	}
}

func TestHostChecked(t *testing.T) {
	_, hs := serveHTTP(t, interactiontest.NewProvider(), Options{Hosts: []string{"localhost"}}, nil)
	port := hs.Listener.Addr().(*net.TCPAddr).Port
	tests := []struct {
		host string
		want int
	}{
		{fmt.Sprintf("localhost:%d", port), http.StatusOK},
		{fmt.Sprintf("127.0.0.1:%d", port), http.StatusForbidden}, // loopback, but not the name configured
		{"evil.example", http.StatusForbidden},
	}
	for _, tt := range tests {
		resp := post(t, hs, func(r *http.Request) { r.Host = tt.host }) //nolint:bodyclose // post closes the body before it returns
		if resp.StatusCode != tt.want {
			t.Errorf("Host %q: status = %d, want %d", tt.host, resp.StatusCode, tt.want)
		}
	}
}

func TestOAuthDiscoveryAnswersJSON(t *testing.T) {
	_, hs := serveHTTP(t, interactiontest.NewProvider(), Options{}, nil)
	for _, p := range []string{
		"/.well-known/oauth-protected-resource",
		"/.well-known/oauth-protected-resource/mcp",
		"/.well-known/oauth-authorization-server",
		"/.well-known/oauth-authorization-server/mcp",
	} {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, hs.URL+p, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(resp.Body)
		resp.Body.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
		if err != nil {
			t.Fatal(err)
		}
		// The placeholder reads as written (issue 18: \u003ctoken\u003e).
		if !bytes.Contains(raw, []byte(`Authorization: Bearer <token>`)) {
			t.Errorf("%s: the body does not say Bearer <token> as written: %s", p, raw)
		}
		var body struct {
			Error       string `json:"error"`
			Description string `json:"error_description"`
		}
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Errorf("%s: the body is not JSON: %v", p, err)
			continue
		}
		if resp.StatusCode != http.StatusNotFound || resp.Header.Get("Content-Type") != "application/json" ||
			body.Error == "" || !strings.Contains(body.Description, "bearer token") {
			t.Errorf("%s: %d %q %+v", p, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
}

// TestUnauthenticatedConnectionsCapped opens more idle connections than
// the cap allows: the oldest are closed, and a client with the token is
// still served.
func TestUnauthenticatedConnectionsCapped(t *testing.T) {
	const limit = 4
	srv, hs := serveHTTP(t, interactiontest.NewProvider(), Options{MaxUnauthConns: limit}, nil)
	setGrace(srv, 0)
	var conns []net.Conn
	for range 3 * limit {
		c, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", hs.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	for i, c := range conns[:2*limit] {
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second)) // a failure deadline
		if _, err := c.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
			t.Fatalf("connection %d: read %v, want it closed by the server", i, err)
		}
	}
	if resp := post(t, hs, func(*http.Request) {}); resp.StatusCode != http.StatusOK { //nolint:bodyclose // post closes the body before it returns
		t.Fatalf("a client with the token got %d", resp.StatusCode)
	}
	if _, unauth := srv.conns.counts(); unauth > limit {
		t.Errorf("%d unauthenticated connections open, want at most %d", unauth, limit)
	}
}

func setGrace(srv *Server, d time.Duration) {
	srv.conns.mu.Lock()
	defer srv.conns.mu.Unlock()
	srv.conns.grace = d
}

// TestBurstOfClientsServed: many clients connecting at once are not cut
// off before their first requests have been read.
func TestBurstOfClientsServed(t *testing.T) {
	const limit = 4
	srv, hs := serveHTTP(t, interactiontest.NewProvider(), Options{MaxUnauthConns: limit}, nil)
	setGrace(srv, time.Hour)
	var conns []net.Conn
	for range 3 * limit {
		c, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", hs.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	for i, c := range conns {
		_ = c.SetDeadline(time.Now().Add(5 * time.Second)) // a failure deadline
		fmt.Fprintf(c, "GET /.well-known/none HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n\r\n", testToken)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("client %d of the burst: %v", i, err)
		}
		resp.Body.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	}
}

func TestConnectionsCapped(t *testing.T) {
	const limit = 3
	_, hs := serveHTTP(t, interactiontest.NewProvider(), Options{MaxConns: limit, MaxUnauthConns: limit}, nil)
	var conns []net.Conn
	for range limit {
		c, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", hs.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	// Make each connection authorised by one request on it.
	for _, c := range conns {
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		fmt.Fprintf(c, "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nAccept: text/event-stream\r\n\r\n", testToken)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	}
	extra, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	_ = extra.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := extra.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("a connection over the cap: read %v, want it closed", err)
	}
}

// TestFullServerAdmitsClients: when connections without the token fill
// the server, the oldest of them makes room for a new client.
func TestFullServerAdmitsClients(t *testing.T) {
	const limit = 3
	srv, hs := serveHTTP(t, interactiontest.NewProvider(), Options{MaxConns: limit, MaxUnauthConns: limit}, nil)
	setGrace(srv, time.Hour)
	for range 2 * limit {
		c, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", hs.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	if resp := post(t, hs, func(*http.Request) {}); resp.StatusCode != http.StatusOK { //nolint:bodyclose // post closes the body before it returns
		t.Fatalf("a client with the token got %d", resp.StatusCode)
	}
}

// TestPartialBodyTimesOut: a client that sends half a body no longer
// holds its connection for ever.
func TestPartialBodyTimesOut(t *testing.T) {
	_, hs := serveHTTP(t, interactiontest.NewProvider(), Options{}, func(hs *http.Server) {
		hs.ReadTimeout = 100 * time.Millisecond
	})
	c, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":", testToken)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second)) // a failure deadline
	if _, err := io.ReadAll(c); err != nil {
		t.Fatalf("the connection stayed open: %v", err)
	}
}

// TestRefusedPartialBodyCloses: a client without the token that sends
// half a body is answered and cut off at once, not when the read
// deadline passes.
func TestRefusedPartialBodyCloses(t *testing.T) {
	_, hs := serveHTTP(t, interactiontest.NewProvider(), Options{}, nil)
	c, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":")
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second)) // a failure deadline, far under ReadTimeout
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatalf("the connection stayed open: %v", err)
	}
	if !strings.Contains(string(got), "401 Unauthorized") {
		t.Errorf("response %q", got)
	}
}

// TestWaitingCallOutlivesReadTimeout: the read deadline that guards
// requests never cuts a call that waits for the human.
func TestWaitingCallOutlivesReadTimeout(t *testing.T) {
	const readTimeout = 50 * time.Millisecond
	asker := interactiontest.NewProvider()
	_, hs := serveHTTP(t, asker, Options{}, func(hs *http.Server) {
		hs.ReadTimeout = readTimeout
		hs.IdleTimeout = readTimeout
	})
	cs := connect(t, hs, nil)
	ch := callAsync(context.Background(), cs, askParams(dbQuestion))
	p := asker.Next(t)
	select {
	case <-p.Ctx.Done():
		t.Fatalf("the call was withdrawn while waiting: %v", context.Cause(p.Ctx))
	case <-time.After(20 * readTimeout): // long past the deadline
	}
	p.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"SQLite"}}}})
	if r := waitCall(t, ch); r.err != nil || r.res.IsError {
		t.Fatalf("call: %v %+v", r.err, r.res)
	}
}

func TestOversizedCallIsACodedToolError(t *testing.T) {
	const limit = 8 << 10
	asker := interactiontest.NewProvider()
	_, hs := serveHTTP(t, asker, Options{MaxBodyBytes: limit}, nil)
	cs := connect(t, hs, nil)
	big := map[string]any{"questions": []any{map[string]any{
		"id": "q", "question": strings.Repeat("x", limit+limit/2),
	}}}
	res, err := cs.CallTool(context.Background(), askParams(big))
	if err != nil {
		t.Fatalf("the oversized call failed outside the protocol: %v", err)
	}
	wantToolError(t, callResult{res, nil}, interaction.CodeInvalidRequest)
	if text := textOf(t, res); !strings.Contains(text, "64 MiB") {
		t.Errorf("the error does not state the limit: %q", text)
	}
	// The session lives on.
	ch := callAsync(context.Background(), cs, askParams(dbQuestion))
	asker.Next(t).Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"SQLite"}}}})
	if r := waitCall(t, ch); r.err != nil || r.res.IsError {
		t.Fatalf("the next call: %v %+v", r.err, r.res)
	}
}

func TestReadMessageFindsEnvelope(t *testing.T) {
	tests := []struct {
		in, id, method string
		ok             bool
	}{
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":[1,{"b":"c"}]}}`, "7", "tools/call", true},
		{`{"method":"tools/call","params":{"x":"y"},"jsonrpc":"2.0","id":"abc"}`, `"abc"`, "tools/call", true},
		{`{"method":"notifications/x"}`, "", "notifications/x", true},
		{` { "id" : 1.50 , "method" : "ping" } `, "1.50", "ping", true},
		{`[{"id":1,"method":"ping"},{"id":2,"method":"tools/list"}]`, "1", "ping", true},
		{`{"id":1,"params":{"q":"unterminated`, "1", "", false},
		{`{"id":1} {"id":2}`, "1", "", false},
		{`"just a string"`, "", "", false},
	}
	for _, tt := range tests {
		kept, _, env, _, err := readMessage(strings.NewReader(tt.in), 1<<20)
		if string(env.id) != tt.id || env.method != tt.method || (err == nil) != tt.ok || (kept != nil) != tt.ok {
			t.Errorf("%s: id %s method %q kept %v err %v", tt.in, env.id, env.method, kept != nil, err)
		}
	}
}

// TestIdleSessionsExpire: a client that leaves without a DELETE (as the
// TypeScript SDK's close() and Claude Code do) is disconnected once its
// session has been idle for SessionTimeout.
func TestIdleSessionsExpire(t *testing.T) {
	asker := interactiontest.NewProvider()
	// Long enough that the client's initialized notification comes in
	// time even on a loaded machine.
	_, hs := serveHTTP(t, asker, Options{SessionTimeout: 300 * time.Millisecond}, nil)
	cs := connectPOSTOnly(t, hs)
	if a := asker.NextActivity(t); a.Kind != interaction.ActivityConnected {
		t.Fatalf("activity %+v", a)
	}
	// No DELETE: the client just stops talking.
	if a := asker.NextActivity(t); a.Kind != interaction.ActivityDisconnected || a.Agent.ID != "mcp:"+cs.ID() {
		t.Fatalf("activity %+v, want the session disconnected", a)
	}
}

// TestWaitingSessionsDoNotExpire: a waiting call keeps its session alive
// however long the human takes.
func TestWaitingSessionsDoNotExpire(t *testing.T) {
	const timeout = 300 * time.Millisecond
	asker := &recorder{Provider: interactiontest.NewProvider(), acts: make(chan interaction.Activity, 100)}
	_, hs := serveHTTP(t, asker, Options{SessionTimeout: timeout}, nil)
	cs := connectPOSTOnly(t, hs)
	ch := callAsync(context.Background(), cs, askParams(dbQuestion))
	p := asker.Next(t)
	select {
	case <-p.Ctx.Done():
		t.Fatalf("the waiting call was withdrawn: %v", context.Cause(p.Ctx))
	case <-time.After(3 * timeout): // long past the timeout
	}
	p.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"SQLite"}}}})
	if r := waitCall(t, ch); r.err != nil || r.res.IsError {
		t.Fatalf("call: %v %+v", r.err, r.res)
	}
	for {
		select {
		case a := <-asker.acts:
			if a.Kind == interaction.ActivityDisconnected {
				t.Fatalf("the session expired while its call waited: %+v", a)
			}
			continue
		default:
		}
		break
	}
}

// recorder is a provider whose activities the test reads without waiting.
type recorder struct {
	*interactiontest.Provider
	acts chan interaction.Activity
}

func (r *recorder) Report(a interaction.Activity) {
	select {
	case r.acts <- a:
	default:
	}
}

// TestTLSConnectionsAuthorised: over TLS (asktui serve --tls-cert), a
// client with the token is served and its connection counted as
// authorised.
func TestTLSConnectionsAuthorised(t *testing.T) {
	srv, err := NewServer(interactiontest.NewProvider(), Options{Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler())
	hs := httptest.NewUnstartedServer(mux)
	hs.Config = srv.HTTPServer(mux)
	hs.StartTLS()
	t.Cleanup(hs.Close)
	t.Cleanup(func() { srv.Close() }) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, hs.URL+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"tls","version":"1"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+testToken)
	client := hs.Client()
	defer client.CloseIdleConnections()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if all, unauth := srv.conns.counts(); all != 1 || unauth != 0 {
		t.Errorf("%d connections, %d without the token; want 1 and 0", all, unauth)
	}
}
