package acp

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
)

// buildExampleAgent builds the acp-go-sdk's example agent, at the version
// go.mod pins: an agent nobody here wrote.
func buildExampleAgent(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the SDK's example agent")
	}
	bin := filepath.Join(t.TempDir(), "example-agent")
	out, err := exec.CommandContext(context.Background(), "go", "build", "-o", bin, "github.com/coder/acp-go-sdk/example/agent").CombinedOutput() //nolint:gosec // the test runs a command of its own choosing
	if err != nil {
		t.Fatalf("building the example agent: %v\n%s", err, out)
	}
	return bin
}

// TestExampleAgent drives the SDK's example agent: a prompt, its streamed
// reply and tool calls, its permission request answered, the turn's end.
func TestExampleAgent(t *testing.T) {
	bin := buildExampleAgent(t)
	l, human, _ := launcher(t, "none", Options{})
	s := newSink()
	conv, err := l.StartCommand(context.Background(), []string{bin}, "", s)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conv.Close() }()
	done := make(chan promptResult, 1)
	go func() {
		stop, err := conv.Prompt(context.Background(), []conversation.PromptPart{{Text: "Improve the config"}})
		done <- promptResult{stop, err}
	}()
	call := human.Next(t)
	q := call.Req.Questions[0]
	if q.Question != "Allow Modifying critical configuration file?" || len(q.Options) != 2 || q.Options[0].Label != "Allow this change" ||
		!strings.Contains(q.Detail, "config.json") {
		t.Fatalf("permission question %+v", q)
	}
	call.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: permissionID, Selected: []string{"Allow this change"}}}})
	res := wait(t, done)
	if res.err != nil || res.stop != conversation.StopEndTurn {
		t.Fatalf("Prompt = %q, %v", res.stop, res.err)
	}
	var text strings.Builder
	status := map[string]conversation.ToolStatus{}
	for _, e := range s.all() {
		switch e.Kind {
		case conversation.EventMessageChunk:
			text.WriteString(e.Text)
		case conversation.EventToolCall:
			status[e.Tool.ID] = e.Tool.Status
		}
	}
	if !strings.Contains(text.String(), "successfully updated the configuration") ||
		status["call_1"] != conversation.ToolCompleted || status["call_2"] != conversation.ToolCompleted {
		t.Fatalf("reply %q, tool calls %v", text.String(), status)
	}
}
