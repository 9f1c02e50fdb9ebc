package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// tsDir holds the TypeScript SDK client (scripts/ts-client/install.sh).
var tsDir = filepath.Join("..", "..", "scripts", "ts-client")

// tsEvent is one line the driver prints.
type tsEvent struct {
	Event             string          `json:"event"`
	Message           string          `json:"message"`
	ProtocolVersion   string          `json:"protocolVersion"`
	OutputSchema      json.RawMessage `json:"outputSchema"`
	IsError           bool            `json:"isError"`
	StructuredContent json.RawMessage `json:"structuredContent"`
}

// tsDriver runs scripts/ts-client/driver.mjs against hs. It skips the test
// when node or the installed SDK is missing.
func tsDriver(t *testing.T, hs *httptest.Server, args ...string) (events <-chan tsEvent, send func(string)) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	if _, err := os.Stat(filepath.Join(tsDir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Skip("the TypeScript SDK is not installed: run scripts/ts-client/install.sh")
	}
	cmd := exec.CommandContext(context.Background(), node, append([]string{filepath.Join(tsDir, "driver.mjs"), "--url", hs.URL + "/mcp"}, args...)...) //nolint:gosec // the test runs a command of its own choosing
	cmd.Env = append(os.Environ(), "ASKTUI_TOKEN="+testToken)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ch := make(chan tsEvent, 100)
	read := make(chan struct{})
	go func() {
		defer close(read)
		defer close(ch)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var e tsEvent
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				e = tsEvent{Event: "error", Message: "unreadable line: " + sc.Text()}
			}
			ch <- e
		}
	}()
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Process.Kill()
		<-read
		_ = cmd.Wait()
	})
	return ch, func(line string) { _, _ = stdin.Write([]byte(line + "\n")) }
}

// nextEvent returns the driver's next event other than skip, failing on
// an error event.
func nextEvent(t *testing.T, events <-chan tsEvent, skip string) tsEvent {
	t.Helper()
	deadline := time.After(30 * time.Second) // node starts slowly on a loaded machine
	for {
		select {
		case e, ok := <-events:
			if !ok {
				t.Fatal("the TypeScript client exited")
			}
			if e.Event == "error" {
				t.Fatalf("the TypeScript client failed: %s", e.Message)
			}
			if e.Event != skip {
				return e
			}
		case <-deadline:
			t.Fatal("no event from the TypeScript client")
		}
	}
}

// TestTypeScriptClient drives asktui with the official TypeScript SDK
// client: it lists the tool and sees its output schema, calls it without
// a progress token, and survives a wait longer than its idle timeout
// (shortened here from the 300 s of its default fetch) because keepalive
// comments flow; the SDK validates the answer against the output schema.
func TestTypeScriptClient(t *testing.T) {
	asker := interactiontest.NewProvider()
	_, hs := serve(t, asker, Options{KeepaliveInterval: 50 * time.Millisecond})
	events, _ := tsDriver(t, hs, "--idle-timeout", "3000")
	listed := nextEvent(t, events, "")
	if listed.Event != "listed" || len(listed.OutputSchema) == 0 {
		t.Fatalf("first event %+v, want the tool listed with its output schema", listed)
	}
	if e := nextEvent(t, events, ""); e.Event != "calling" {
		t.Fatalf("event %+v, want calling", e)
	}
	p := asker.Next(t)
	if p.Req.Agent == nil || p.Req.Agent.Name != "asktui-ts-client" {
		t.Errorf("agent = %+v", p.Req.Agent)
	}
	// Several idle timeouts' worth of keepalives would be the real test;
	// three comments show they arrive and are ignored by the SDK.
	for range 3 {
		if e := nextEvent(t, events, ""); e.Event != "keepalive" {
			t.Fatalf("event %+v, want a keepalive", e)
		}
	}
	p.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"SQLite"}, Note: "for now"}}})
	e := nextEvent(t, events, "keepalive")
	if e.Event != "answer" || e.IsError {
		t.Fatalf("event %+v, want the answer", e)
	}
	if want := `{"answers":[{"id":"db","selected":["SQLite"],"note":"for now"}]}`; string(e.StructuredContent) != want {
		t.Errorf("structuredContent = %s, want %s", e.StructuredContent, want)
	}
}

// TestTypeScriptClientCloseWithdraws: the TypeScript SDK's close() drops
// the call's stream without a DELETE or notifications/cancelled; the
// question leaves within a second.
func TestTypeScriptClientCloseWithdraws(t *testing.T) {
	asker := interactiontest.NewProvider()
	_, hs := serve(t, asker, Options{})
	events, send := tsDriver(t, hs, "--mode", "drop")
	nextEvent(t, events, "")                                 // listed
	if e := nextEvent(t, events, ""); e.Event != "calling" { // the call is out
		t.Fatalf("event %+v, want calling", e)
	}
	p := asker.Next(t)
	send("drop")
	wantWithdrawn(t, p)
	if e := nextEvent(t, events, ""); e.Event != "dropped" {
		t.Fatalf("event %+v, want dropped", e)
	}
}
