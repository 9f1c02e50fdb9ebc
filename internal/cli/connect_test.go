//go:build !windows

package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktui/asktui/agent/mcp"
	"github.com/asktui/asktui/agent/socket"
	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
	"github.com/asktui/asktui/internal/ptytest"
)

// bridge connects an SDK client to the stdio bridge's server (over an
// in-memory transport) asking through the socket at path.
func bridge(t *testing.T, path string) *sdk.ClientSession {
	t.Helper()
	srv, err := mcp.NewServer(socketAsker{path: path}, mcp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ct, st := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = srv.Run(ctx, st); close(done) }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "stdio-client", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); cancel(); <-done; _ = srv.Close() })
	return cs
}

func shortSocket(t *testing.T) string {
	dir, err := os.MkdirTemp("", "ask")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) }) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	return filepath.Join(dir, "s.sock")
}

// callAsk calls ask_user_question with one question; it may run on a
// goroutine of its own (a failed call fails the test with t.Error and
// returns an error result).
func callAsk(t *testing.T, cs *sdk.ClientSession) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{
		Name:      "ask_user_question",
		Arguments: map[string]any{"questions": []map[string]any{{"id": "q", "question": "Go on?", "options": []map[string]any{{"label": "Yes"}, {"label": "No"}}}}},
	})
	if err != nil {
		t.Errorf("the call failed: %v", err)
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}
	}
	return res
}

func TestStdioBridgeWithoutInboxFailsAtOnce(t *testing.T) {
	res := callAsk(t, bridge(t, shortSocket(t)))
	if !res.IsError || !strings.HasPrefix(res.Content[0].(*sdk.TextContent).Text, "NO_PROVIDER:") {
		t.Fatalf("result %+v", res.Content[0])
	}
}

func TestStdioBridgeForwardsToTheInbox(t *testing.T) {
	path := shortSocket(t)
	l, err := socket.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	inbox := interactiontest.NewProvider()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { _ = socket.Serve(ctx, l, inbox, socket.Options{}); close(served) }()
	defer func() { cancel(); <-served }()

	cs := bridge(t, path)
	called := make(chan *sdk.CallToolResult, 1)
	go func() { called <- callAsk(t, cs) }()
	call := inbox.Next(t)
	if call.Req.Agent == nil || !strings.Contains(call.Req.Agent.Name, "stdio-client") {
		t.Errorf("the inbox saw agent %+v, want the stdio client's name", call.Req.Agent)
	}
	call.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "q", Selected: []string{"No"}}}})
	res := <-called
	if res.IsError || res.Content[0].(*sdk.TextContent).Text != `{"answers":[{"id":"q","selected":["No"]}]}` {
		t.Fatalf("result %+v", res.Content[0])
	}
}

// TestStdioBridgeTellsTheAgentNotToAskAgain: a decline reaches asktui
// mcp through the socket with its message for a person, and the agent is
// told, as over HTTP, not to ask the same again (issue 35).
func TestStdioBridgeTellsTheAgentNotToAskAgain(t *testing.T) {
	inbox := interactiontest.NewProvider()
	cs := bridge(t, serveSocket(t, inbox))
	called := make(chan *sdk.CallToolResult, 1)
	go func() { called <- callAsk(t, cs) }()
	inbox.Next(t).Fail(interaction.Declined())
	res := <-called
	want := "ASK_DECLINED: declined by the human; do not ask the same questions again unless the user asks you to"
	if text := res.Content[0].(*sdk.TextContent).Text; !res.IsError || text != want {
		t.Fatalf("result %q (error %v), want %q", text, res.IsError, want)
	}
}

// TestAskNoOther: --no-other leaves out the Other row of the question
// built from --option flags, and of every question with options of a
// request file (issue 35: no flag could), the request reaching the inbox
// so and the answer coming back; with no options it is a usage error.
func TestAskNoOther(t *testing.T) {
	inbox := interactiontest.NewProvider()
	path := serveSocket(t, inbox)
	file := filepath.Join(t.TempDir(), "req.json")
	if err := os.WriteFile(file, []byte(`{"questions":[{"id":"db","question":"Which database?","options":[{"label":"Postgres"},{"label":"SQLite"}]},{"id":"notes","question":"Anything else?"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args   []string
		want   []bool // each question's NoOther, as the inbox got it
		answer interaction.Answer
		stdout string
	}{
		{[]string{"Deploy?", "--id", "deploy", "-o", "Yes", "-o", "No", "--no-other"}, []bool{true},
			interaction.Answer{Answers: []interaction.AnswerItem{{ID: "deploy", Selected: []string{"No"}}}},
			`{"answers":[{"id":"deploy","selected":["No"]}]}` + "\n"},
		{[]string{file, "--no-other"}, []bool{true, false},
			interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"SQLite"}}, {ID: "notes", Custom: "none"}}},
			`{"answers":[{"id":"db","selected":["SQLite"]},{"id":"notes","selected":[],"custom":"none"}]}` + "\n"},
		{[]string{"Deploy?", "-o", "Yes", "-o", "No"}, []bool{false},
			interaction.Answer{Answers: []interaction.AnswerItem{{ID: "q1", Custom: "tomorrow"}}},
			`{"answers":[{"id":"q1","selected":[],"custom":"tomorrow"}]}` + "\n"},
	} {
		done := make(chan outcome, 1)
		go func() {
			done <- runCLI(t, context.Background(), strings.NewReader(""), mustNotOpenTTY(t), append([]string{"ask", "--connect=" + path}, c.args...)...)
		}()
		call := inbox.Next(t)
		var got []bool
		for _, q := range call.Req.Questions {
			got = append(got, q.NoOther)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: the inbox got NoOther %v, want %v", c.args, got, c.want)
		}
		call.Answer(c.answer)
		if o := <-done; o.code != 0 || o.stdout != c.stdout {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 0 and %q", c.args, o.code, o.stdout, o.stderr, c.stdout)
		}
	}
	o := runCLI(t, context.Background(), strings.NewReader(""), mustNotOpenTTY(t), "ask", "--connect="+path, "Notes?", "--no-other")
	if e := envelope(t, o.stderr); o.code != exitUsage || !strings.Contains(e.Message, "--no-other") {
		t.Errorf("--no-other without options: exit %d, %+v; want %d, a usage error naming it", o.code, e, exitUsage)
	}
}

func TestAskConnectWithoutInbox(t *testing.T) {
	var out, errOut strings.Builder
	code := run(context.Background(), []string{"ask", "--connect=" + shortSocket(t), "Go on?"}, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut})
	if code != exitFailure || !strings.Contains(errOut.String(), "NO_PROVIDER") || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

// waitAsker is an inbox that hands the test each request's context and
// waits for it to end.
type waitAsker chan context.Context

func (a waitAsker) Ask(ctx context.Context, _ interaction.Request) (interaction.Answer, error) {
	a <- ctx
	<-ctx.Done()
	return interaction.Answer{}, interaction.ContextError(ctx)
}

// serveSocket serves asker on a fresh socket until the test ends.
func serveSocket(t *testing.T, asker socket.Asker) string {
	t.Helper()
	path := shortSocket(t)
	l, err := socket.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { _ = socket.Serve(ctx, l, asker, socket.Options{}); close(served) }()
	t.Cleanup(func() { cancel(); <-served })
	return path
}

// TestAskConnectTimeout is issue 10's `ask --connect --timeout 6s`, which
// the inbox showed with no countdown and recorded as withdrawn: the inbox
// gets the deadline, and the request ends there as a timeout (ASK_TIMEOUT,
// outcome timeout), as it does for the client (exit 124).
func TestAskConnectTimeout(t *testing.T) {
	inbox := make(waitAsker, 1)
	path := serveSocket(t, inbox)
	done := make(chan outcome, 1)
	go func() {
		done <- runCLI(t, context.Background(), strings.NewReader(""), mustNotOpenTTY(t), "ask", "--connect="+path, "--timeout", "100ms", "Go on?")
	}()
	ctx := <-inbox
	if _, ok := ctx.Deadline(); !ok {
		t.Error("the inbox got no deadline, so it shows no countdown")
	}
	<-ctx.Done()
	// The same timeout is worded one way, whichever side ended it first
	// (issue 35: the history had "(--timeout)" and ", the client's
	// timeout").
	want := interaction.TimeoutAfter(100 * time.Millisecond)
	if err := interaction.ContextError(ctx); interaction.CodeOf(err) != interaction.CodeTimeout ||
		interaction.Classify(interaction.Answer{}, err) != interaction.OutcomeTimeout || err.Error() != want.Error() {
		t.Errorf("the request ended in the inbox with %v, want %v", err, want)
	}
	o := <-done
	if e := envelope(t, o.stderr); o.code != exitTimeout || e.Code != interaction.CodeTimeout || e.Message != want.Message || o.stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want %d and %v", o.code, o.stdout, o.stderr, exitTimeout, want)
	}
}

// TestAskConnectSaysWhereItWaits: ask --connect draws nothing, so it says
// on the terminal that the question waits in the inbox, and where.
func TestAskConnectSaysWhereItWaits(t *testing.T) {
	inbox := make(waitAsker, 1)
	path := serveSocket(t, inbox)
	term := ptytest.New(t, ptytest.Options{})
	ctx, stop := context.WithCancelCause(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"ask", "--connect=" + path, "Go on?"}, env{
			stdin: strings.NewReader(""), stdout: io.Discard, stderr: term.Slave,
			openTTY: mustNotOpenTTY(t),
		})
	}()
	<-inbox
	term.WaitFor(0, "waiting for your answer in the asktui inbox")
	term.WaitFor(0, path)
	stop(signalError{sig: syscall.SIGINT})
	if code := <-done; code != exitInterrupted {
		t.Errorf("exit %d after ctrl+c, want %d", code, exitInterrupted)
	}
}
