package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

const testToken = "s3cret-token"

// withdrawWithin bounds how long a withdrawn call may take to reach the
// asker. It is a failure deadline, not synchronisation.
const withdrawWithin = time.Second

// bearer adds the token to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// serve starts the real handler on a loopback httptest server.
func serve(t testing.TB, asker Asker, opts Options) (*Server, *httptest.Server) {
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
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	t.Cleanup(func() { srv.Close() }) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it (runs first: ends the sessions' streams)
	return srv, hs
}

// connect opens a session through the SDK's streamable client.
func connect(t testing.TB, hs *httptest.Server, copts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	return dial(t, hs, copts, false)
}

// connectPOSTOnly opens a session whose client opens no standalone SSE
// stream: a result reaches it only on the POST carrying the call, so the
// test sees exactly what the server delivered there.
func connectPOSTOnly(t testing.TB, hs *httptest.Server) *sdk.ClientSession {
	t.Helper()
	return dial(t, hs, nil, true)
}

func dial(t testing.TB, hs *httptest.Server, copts *sdk.ClientOptions, postOnly bool) *sdk.ClientSession {
	t.Helper()
	return dialVersion(t, hs, copts, postOnly, protocolWithSessions)
}

// protocolWithSessions is the newest MCP version with sessions, which
// today's clients negotiate; the SDK client would otherwise speak the
// sessionless 2026-07-28.
const protocolWithSessions = "2025-11-25"

// dialVersion connects with the given protocol version.
func dialVersion(t testing.TB, hs *httptest.Server, copts *sdk.ClientOptions, postOnly bool, version string) *sdk.ClientSession {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	client := sdk.NewClient(&sdk.Implementation{Name: "test-client", Version: "1"}, copts)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint:             hs.URL + "/mcp",
		HTTPClient:           &http.Client{Transport: bearer{token: testToken, base: tr}},
		MaxRetries:           -1,
		DisableStandaloneSSE: postOnly,
	}, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() }) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	return cs
}

func textOf(t *testing.T, res *sdk.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("want one content block, got %d", len(res.Content))
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("content is %T, want text", res.Content[0])
	}
	return tc.Text
}

// callAsync calls the tool in the background; the result arrives on the
// returned channel.
func callAsync(ctx context.Context, cs *sdk.ClientSession, params *sdk.CallToolParams) <-chan callResult {
	ch := make(chan callResult, 1)
	go func() {
		res, err := cs.CallTool(ctx, params)
		ch <- callResult{res, err}
	}()
	return ch
}

type callResult struct {
	res *sdk.CallToolResult
	err error
}

func waitCall(t *testing.T, ch <-chan callResult) callResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(5 * time.Second):
		t.Fatal("the tool call never returned")
		return callResult{}
	}
}

func askParams(args map[string]any) *sdk.CallToolParams {
	return &sdk.CallToolParams{Name: ToolName, Arguments: args}
}

var dbQuestion = map[string]any{
	"questions": []any{map[string]any{
		"id": "db", "question": "Which database?", "header": "Database",
		"options": []any{
			map[string]any{"label": "Postgres (Recommended)", "description": "Battle-tested"},
			map[string]any{"label": "SQLite"},
		},
	}},
}

func TestNewServerBadOrigin(t *testing.T) {
	if _, err := NewServer(interactiontest.NewProvider(), Options{TrustedOrigins: []string{"not a url"}}); err == nil {
		t.Fatal("want an error for a malformed trusted origin")
	}
}

func TestListTools(t *testing.T) {
	_, hs := serve(t, interactiontest.NewProvider(), Options{})
	cs := connect(t, hs, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != ToolName {
		t.Fatalf("tools = %+v, want only %s", res.Tools, ToolName)
	}
	tool := res.Tools[0]
	for _, want := range []string{"(Recommended)", "Other", `"selected"`, "ASK_DECLINED", "multiSelect"} {
		if !strings.Contains(tool.Description, want) {
			t.Errorf("description lacks %q", want)
		}
	}
	data, err := json.Marshal(tool.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Type       string   `json:"type"`
		Required   []string `json:"required"`
		Properties struct {
			Agent     struct{ Type string } `json:"agent"`
			Questions struct {
				Type  string `json:"type"`
				Items struct {
					Required   []string                   `json:"required"`
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"items"`
			} `json:"questions"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	if schema.Type != "object" || fmt.Sprint(schema.Required) != "[questions]" ||
		schema.Properties.Questions.Type != "array" || schema.Properties.Agent.Type != "string" {
		t.Errorf("schema = %s", data)
	}
	for _, p := range []string{"id", "question", "header", "detail", "options", "multiSelect"} {
		if _, ok := schema.Properties.Questions.Items.Properties[p]; !ok {
			t.Errorf("question schema lacks %q: %s", p, data)
		}
	}
	if fmt.Sprint(schema.Properties.Questions.Items.Required) != "[question]" {
		t.Errorf("question required = %v", schema.Properties.Questions.Items.Required)
	}
}

func TestAskAnswered(t *testing.T) {
	asker := interactiontest.NewProvider()
	_, hs := serve(t, asker, Options{})
	cs := connect(t, hs, nil)

	args := map[string]any{"questions": dbQuestion["questions"], "agent": "reviewer"}
	ch := callAsync(context.Background(), cs, askParams(args))
	p := asker.Next(t)
	if p.Req.Agent == nil || p.Req.Agent.Name != "test-client › reviewer" {
		t.Errorf("agent = %+v, want name %q", p.Req.Agent, "test-client › reviewer")
	}
	if want := "mcp:" + cs.ID() + "/reviewer"; p.Req.Agent != nil && p.Req.Agent.ID != want {
		t.Errorf("agent id = %q, want %q", p.Req.Agent.ID, want)
	}
	if len(p.Req.Questions) != 1 || p.Req.Questions[0].ID != "db" || len(p.Req.Questions[0].Options) != 2 ||
		p.Req.Questions[0].Header != "Database" || p.Req.Questions[0].Options[0].Description != "Battle-tested" {
		t.Errorf("request = %+v", p.Req)
	}
	p.Answer(interaction.Answer{Answers: []interaction.AnswerItem{
		{ID: "db", Selected: []string{"Postgres (Recommended)"}},
	}})

	r := waitCall(t, ch)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.res.IsError {
		t.Fatalf("tool error: %s", textOf(t, r.res))
	}
	const want = `{"answers":[{"id":"db","selected":["Postgres (Recommended)"]}]}`
	if got := textOf(t, r.res); got != want {
		t.Errorf("text = %s, want %s", got, want)
	}
	structured, err := json.Marshal(r.res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if string(structured) != want {
		t.Errorf("structured = %s, want %s", structured, want)
	}
}

func TestMultiSelectSpellings(t *testing.T) {
	var mu sync.Mutex
	var got []bool
	asker := interaction.ProviderFunc(func(_ context.Context, req interaction.Request) (interaction.Answer, error) {
		mu.Lock()
		got = append(got, req.Questions[0].MultiSelect)
		mu.Unlock()
		return interaction.Answer{Answers: []interaction.AnswerItem{{ID: "langs", Selected: []string{"Go", "Rust"}}}}, nil
	})
	_, hs := serve(t, asker, Options{})
	cs := connect(t, hs, nil)
	for _, key := range []string{"multi_select", "multiSelect"} {
		args := map[string]any{"questions": []any{map[string]any{
			"id": "langs", "question": "Which languages?", key: true,
			"options": []any{map[string]any{"label": "Go"}, map[string]any{"label": "Rust"}},
		}}}
		res, err := cs.CallTool(context.Background(), askParams(args))
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			t.Fatalf("%s: tool error: %s", key, textOf(t, res))
		}
		if want := `{"answers":[{"id":"langs","selected":["Go","Rust"]}]}`; textOf(t, res) != want {
			t.Errorf("%s: text = %s, want %s", key, textOf(t, res), want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(got) != "[true true]" {
		t.Errorf("multi-select seen = %v, want [true true]", got)
	}
}

func TestToolErrors(t *testing.T) {
	asker := interaction.ProviderFunc(func(context.Context, interaction.Request) (interaction.Answer, error) {
		return interaction.Answer{}, interaction.Declined()
	})
	_, hs := serve(t, asker, Options{})
	cs := connect(t, hs, nil)
	tests := []struct {
		name  string
		args  map[string]any
		start string
		has   []string
	}{
		{
			name: "empty label",
			args: map[string]any{"questions": []any{
				map[string]any{"id": "lang", "question": "Language?"},
				map[string]any{"id": "db", "question": "Database?", "options": []any{map[string]any{"label": ""}}},
			}},
			start: "INVALID_REQUEST:",
			has:   []string{"question 2", `"db"`},
		},
		{
			name:  "options not an array",
			args:  map[string]any{"questions": []any{map[string]any{"id": "db", "question": "Database?", "options": "Postgres"}}},
			start: "INVALID_REQUEST:",
			has:   []string{"question 1", `"db"`, "options"},
		},
		{
			name:  "no questions",
			args:  map[string]any{},
			start: "EMPTY_QUESTIONS:",
		},
		{
			name:  "agent not a string",
			args:  map[string]any{"questions": dbQuestion["questions"], "agent": 5},
			start: "INVALID_REQUEST:",
			has:   []string{`"agent"`},
		},
		{
			// The decline's message is written for a person; the model
			// is told not to ask again (issue 35).
			name:  "declined",
			args:  dbQuestion,
			start: "ASK_DECLINED: declined by the human; ",
			has:   []string{"do not ask the same questions again unless the user asks you to"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), askParams(tt.args))
			if err != nil {
				t.Fatalf("protocol error, want a tool error: %v", err)
			}
			text := textOf(t, res)
			if !res.IsError || !strings.HasPrefix(text, tt.start) {
				t.Fatalf("isError=%v text=%q, want a tool error starting %q", res.IsError, text, tt.start)
			}
			for _, h := range tt.has {
				if !strings.Contains(text, h) {
					t.Errorf("text %q lacks %q", text, h)
				}
			}
		})
	}
}

// post sends a plain initialize POST with the given header changes.
func post(t *testing.T, hs *httptest.Server, edit func(*http.Request)) *http.Response {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, hs.URL+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+testToken)
	edit(req)
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	return resp
}

func TestHTTPSecurity(t *testing.T) {
	_, hs := serve(t, interactiontest.NewProvider(), Options{TrustedOrigins: []string{"http://localhost:6274"}})
	tests := []struct {
		name string
		edit func(*http.Request)
		want int
	}{
		{"valid", func(*http.Request) {}, http.StatusOK},
		{"no token", func(r *http.Request) { r.Header.Del("Authorization") }, http.StatusUnauthorized},
		{"wrong token", func(r *http.Request) { r.Header.Set("Authorization", "Bearer nope") }, http.StatusUnauthorized},
		{"token without scheme", func(r *http.Request) { r.Header.Set("Authorization", testToken) }, http.StatusUnauthorized},
		{"foreign host", func(r *http.Request) { r.Host = "evil.example:80" }, http.StatusForbidden},
		{"cross-site origin", func(r *http.Request) {
			r.Header.Set("Origin", "https://evil.example")
			r.Header.Set("Sec-Fetch-Site", "cross-site")
		}, http.StatusForbidden},
		{"cross origin without fetch metadata", func(r *http.Request) {
			r.Header.Set("Origin", "https://evil.example")
		}, http.StatusForbidden},
		{"trusted origin", func(r *http.Request) {
			r.Header.Set("Origin", "http://localhost:6274")
			r.Header.Set("Sec-Fetch-Site", "cross-site")
		}, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := post(t, hs, tt.edit) //nolint:bodyclose // post closes the body before it returns
			if resp.StatusCode != tt.want {
				t.Fatalf("status = %d, want %d", resp.StatusCode, tt.want)
			}
			if tt.want == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("WWW-Authenticate = %q", resp.Header.Get("WWW-Authenticate"))
			}
		})
	}
}

// wantWithdrawn fails unless p's context ends with ASK_ABORTED within a
// second.
func wantWithdrawn(t *testing.T, p *interactiontest.Call) {
	t.Helper()
	if code := interaction.CodeOf(p.Withdrawn(t, withdrawWithin)); code != interaction.CodeAborted {
		t.Errorf("withdrawn with %q, want %s", code, interaction.CodeAborted)
	}
}

func TestClientCancelWithdraws(t *testing.T) {
	asker := interactiontest.NewProvider()
	_, hs := serve(t, asker, Options{})
	cs := connect(t, hs, nil)
	ctx, cancel := context.WithCancel(context.Background())
	ch := callAsync(ctx, cs, askParams(dbQuestion))
	p := asker.Next(t)
	cancel()
	wantWithdrawn(t, p)
	if r := waitCall(t, ch); !errors.Is(r.err, context.Canceled) {
		t.Errorf("call error = %v, want context.Canceled", r.err)
	}
}

func TestSessionDeleteWithdraws(t *testing.T) {
	asker := interactiontest.NewProvider()
	// A deleted session does not come back: no grace.
	_, hs := serve(t, asker, Options{ReattachGrace: time.Hour})
	cs := connect(t, hs, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := callAsync(ctx, cs, askParams(dbQuestion))
	p := asker.Next(t)

	// The SDK client's Close waits for its calls before it sends DELETE, so
	// send the DELETE as other clients do.
	req, err := http.NewRequestWithContext(context.Background(), http.MethodDelete, hs.URL+"/mcp", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set(sessionHeader, cs.ID())
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	deleted := make(chan int, 1)
	go func() {
		resp, err := (&http.Client{Transport: tr}).Do(req)
		if err != nil {
			deleted <- 0
			return
		}
		resp.Body.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
		deleted <- resp.StatusCode
	}()
	wantWithdrawn(t, p)
	select {
	case code := <-deleted:
		if code != http.StatusNoContent {
			t.Errorf("DELETE status = %d, want 204", code)
		}
	case <-time.After(withdrawWithin):
		t.Fatal("DELETE did not return within a second")
	}
	cancel()
	waitCall(t, ch)
}

func TestClientCloseWithdraws(t *testing.T) {
	asker := interactiontest.NewProvider()
	_, hs := serve(t, asker, Options{})
	cs := connect(t, hs, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := callAsync(ctx, cs, askParams(dbQuestion))
	p := asker.Next(t)
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		cs.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	}()
	// The SDK client's Close sends nothing while the call is in flight (it
	// waits for the call); the call ends when its caller gives up.
	cancel()
	wantWithdrawn(t, p)
	waitCall(t, ch)
	<-closed
}

// TestSDKClientDisconnectWithdraws drops the network under the SDK client.
// That client notices and deletes its session.
func TestSDKClientDisconnectWithdraws(t *testing.T) {
	asker := interactiontest.NewProvider()
	_, hs := serve(t, asker, Options{})
	cs := connect(t, hs, nil)
	ch := callAsync(context.Background(), cs, askParams(dbQuestion))
	p := asker.Next(t)
	hs.CloseClientConnections()
	wantWithdrawn(t, p)
	waitCall(t, ch)
}

// TestDisconnectWithdraws drops the POST carrying the call, as a killed
// client would: no notifications/cancelled, no DELETE.
func TestDisconnectWithdraws(t *testing.T) {
	asker := interactiontest.NewProvider()
	_, hs := serve(t, asker, Options{})
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	send := func(ctx context.Context, session, body string) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, hs.URL+"/mcp", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+testToken)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		if session != "" {
			req.Header.Set(sessionHeader, session)
		}
		return client.Do(req)
	}
	resp, err := send(context.Background(), "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	resp.Body.Close()              //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	session := resp.Header.Get(sessionHeader)
	if session == "" {
		t.Fatal("no session id")
	}
	resp, err = send(context.Background(), session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: status %d", resp.StatusCode)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := send(ctx, session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask_user_question","arguments":{"questions":[{"id":"db","question":"Which?"}]}}}`)
		if err == nil {
			io.Copy(io.Discard, resp.Body) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it (ends when the connection drops)
			resp.Body.Close()              //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
		}
	}()
	p := asker.Next(t)
	cancel() // drop the connection
	wantWithdrawn(t, p)
	if got := context.Cause(p.Ctx).Error(); !strings.Contains(got, "disconnected") {
		t.Errorf("cause = %q, want the disconnect", got)
	}
	<-done
}

func TestProgressWhileWaiting(t *testing.T) {
	asker := interactiontest.NewProvider()
	_, hs := serve(t, asker, Options{ProgressInterval: 50 * time.Millisecond})
	progress := make(chan *sdk.ProgressNotificationParams, 10)
	cs := connect(t, hs, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			select {
			case progress <- req.Params:
			default:
			}
		},
	})
	params := askParams(dbQuestion)
	params.SetProgressToken("tok-1")
	ch := callAsync(context.Background(), cs, params)
	p := asker.Next(t)
	var last float64
	for i := range 2 {
		select {
		case n := <-progress:
			if n.ProgressToken != "tok-1" || n.Progress <= last {
				t.Errorf("notification %d = %+v", i, n)
			}
			last = n.Progress
		case <-time.After(5 * time.Second):
			t.Fatal("no progress notification")
		}
	}
	p.Answer(interaction.Answer{Answers: []interaction.AnswerItem{interaction.Skip("db")}})
	r := waitCall(t, ch)
	if r.err != nil || r.res.IsError {
		t.Fatalf("call = %+v, %v", r.res, r.err)
	}
	if want := `{"answers":[{"id":"db","selected":[]}]}`; textOf(t, r.res) != want {
		t.Errorf("text = %s, want %s", textOf(t, r.res), want)
	}
}

func TestActivityReported(t *testing.T) {
	asker := interactiontest.NewProvider()
	_, hs := serve(t, asker, Options{})
	cs := connect(t, hs, nil)
	id := cs.ID()
	want := func(kind interaction.ActivityKind) {
		t.Helper()
		if a := asker.NextActivity(t); a.Kind != kind || a.Agent.Name != "test-client" || a.Agent.ID != "mcp:"+id {
			t.Errorf("activity = %+v, want %s from test-client", a, kind)
		}
	}
	want(interaction.ActivityConnected)
	cs.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	want(interaction.ActivityDisconnected)
}

func TestServerCloseWithdraws(t *testing.T) {
	asker := interactiontest.NewProvider()
	srv, hs := serve(t, asker, Options{})
	cs := connectPOSTOnly(t, hs)
	ch := callAsync(context.Background(), cs, askParams(dbQuestion))
	p := asker.Next(t)
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	}()
	wantWithdrawn(t, p)
	<-done
	wantToolError(t, waitCall(t, ch), interaction.CodeAborted)
}

// TestServerCloseDeliversFailures fails every waiting call at the moment
// the server closes, as asktui serve does when its UI ends: each client
// must still get its coded result, which a closing SDK session would drop
// were it written too late.
func TestServerCloseDeliversFailures(t *testing.T) {
	gone := make(chan struct{})
	asked := make(chan struct{}, 3)
	asker := interaction.ProviderFunc(func(context.Context, interaction.Request) (interaction.Answer, error) {
		asked <- struct{}{}
		<-gone
		return interaction.Answer{}, interaction.Errorf(interaction.CodeProviderClosed, "the UI is gone")
	})
	srv, hs := serve(t, asker, Options{})
	var calls []<-chan callResult
	for range cap(asked) {
		calls = append(calls, callAsync(context.Background(), connectPOSTOnly(t, hs), askParams(dbQuestion)))
		<-asked
	}
	close(gone)
	srv.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	for _, ch := range calls {
		wantToolError(t, waitCall(t, ch), interaction.CodeProviderClosed)
	}
}

// wantToolError fails unless r is a tool error "CODE: message" with code.
func wantToolError(t *testing.T, r callResult, code interaction.Code) {
	t.Helper()
	if r.err != nil {
		t.Fatalf("the call failed without a result: %v", r.err)
	}
	if text := textOf(t, r.res); !r.res.IsError || !strings.HasPrefix(text, string(code)+": ") {
		t.Errorf("result %q (IsError %v), want a %s tool error", text, r.res.IsError, code)
	}
}

func TestConcurrentClients(t *testing.T) {
	asker := interaction.ProviderFunc(func(_ context.Context, req interaction.Request) (interaction.Answer, error) {
		q := req.Questions[0]
		return interaction.Answer{Answers: []interaction.AnswerItem{{ID: q.ID, Selected: []string{"pick-" + q.ID}}}}, nil
	})
	_, hs := serve(t, asker, Options{})
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	sessions := make([]*sdk.ClientSession, n)
	for i := range n {
		sessions[i] = connect(t, hs, nil)
	}
	for i, cs := range sessions {
		wg.Go(func() {
			id := fmt.Sprintf("q%d", i)
			args := map[string]any{"questions": []any{map[string]any{
				"id": id, "question": "Pick one",
				"options": []any{map[string]any{"label": "pick-" + id}, map[string]any{"label": "other-" + id}},
			}}}
			res, err := cs.CallTool(context.Background(), askParams(args))
			if err != nil {
				errs <- err
				return
			}
			want := fmt.Sprintf(`{"answers":[{"id":%q,"selected":["pick-%s"]}]}`, id, id)
			if text := res.Content[0].(*sdk.TextContent).Text; res.IsError || text != want {
				errs <- fmt.Errorf("client %d: got %s, want %s", i, text, want)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// The inbox's service is what serve wires in.
var (
	_ Asker                    = (*interaction.Service)(nil)
	_ interaction.ActivitySink = (*interaction.Service)(nil)
)
