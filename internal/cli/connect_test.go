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

func callAsk(t *testing.T, cs *sdk.ClientSession) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{
		Name:      "ask_user_question",
		Arguments: map[string]any{"questions": []map[string]any{{"id": "q", "question": "Go on?", "options": []map[string]any{{"label": "Yes"}, {"label": "No"}}}}},
	})
	if err != nil {
		t.Fatal(err)
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
	var got interaction.Request
	inbox := interaction.ProviderFunc(func(_ context.Context, req interaction.Request) (interaction.Answer, error) {
		got = req
		return interaction.Answer{Answers: []interaction.AnswerItem{{ID: "q", Selected: []string{"No"}}}}, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { _ = socket.Serve(ctx, l, inbox, socket.Options{}); close(served) }()
	defer func() { cancel(); <-served }()

	res := callAsk(t, bridge(t, path))
	if res.IsError || res.Content[0].(*sdk.TextContent).Text != `{"answers":[{"id":"q","selected":["No"]}]}` {
		t.Fatalf("result %+v", res.Content[0])
	}
	if got.Agent == nil || !strings.Contains(got.Agent.Name, "stdio-client") {
		t.Fatalf("the inbox saw agent %+v, want the stdio client's name", got.Agent)
	}
}

func TestAskConnectWithoutInbox(t *testing.T) {
	var out, errOut strings.Builder
	code := run(context.Background(), []string{"ask", "--connect=" + shortSocket(t), "Go on?"}, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut})
	if code != exitFailure || !strings.Contains(errOut.String(), "NO_PROVIDER") || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}
