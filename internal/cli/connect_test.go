package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktui/asktui/agent/mcp"
	"github.com/asktui/asktui/agent/socket"
	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
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
	t.Cleanup(func() { os.RemoveAll(dir) })
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

func TestAskConnectWithoutInbox(t *testing.T) {
	var out, errOut strings.Builder
	code := run(context.Background(), []string{"ask", "--connect=" + shortSocket(t), "Go on?"}, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut})
	if code != exitFailure || !strings.Contains(errOut.String(), "NO_PROVIDER") || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}
