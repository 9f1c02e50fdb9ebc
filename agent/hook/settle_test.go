package hook

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Lines as Claude Code 2.1.332 writes them (trimmed): the assistant's
// tool_use, then the user's tool_result.
const (
	toolUseLine    = `{"parentUuid":"a","type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"%s","name":"Bash","input":{"command":"echo hi > /tmp/hooks/proj/ran.txt","description":"Write a file"}}]}}` + "\n"
	toolResultLine = `{"parentUuid":"b","type":"user","message":{"role":"user","content":[{"tool_use_id":"%s","type":"tool_result","content":"(Bash completed with no output)","is_error":false}]}}` + "\n"
	otherLines     = `{"type":"permission-mode","permissionMode":"default","sessionId":"s"}` + "\n" +
		`{"type":"user","message":{"role":"user","content":"write hi to a file"}}` + "\n"
)

func appendTo(t *testing.T, path, format string, args ...any) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600) //nolint:gosec // a path the test made, or its testdata
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := format
	if len(args) > 0 {
		s = fmt.Sprintf(format, args...)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// The permission prompt answered in Claude Code's own dialog shows up as
// the call's result in the transcript; Wait returns then and
// not before, ignoring an earlier identical call that was settled already.
func TestWatchClaudeTranscript(t *testing.T) {
	in := fixture(t, "claude", "bash-2.1.332")
	in.TranscriptPath = filepath.Join(t.TempDir(), "s.jsonl")
	appendTo(t, in.TranscriptPath, otherLines)
	appendTo(t, in.TranscriptPath, toolUseLine, "toolu_old")
	appendTo(t, in.TranscriptPath, toolResultLine, "toolu_old")
	appendTo(t, in.TranscriptPath, toolUseLine, "toolu_now")

	w, err := WatchClaudeTranscript(in)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	done := make(chan error, 1)
	go func() { done <- w.Wait(context.Background(), time.Millisecond) }()
	// Half a line, another call's result: still waiting.
	appendTo(t, in.TranscriptPath, otherLines+`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_other","type":"tool_result"}]}}`+"\n"+`{"type":"user","mess`)
	select {
	case err := <-done:
		t.Fatalf("returned %v before the call's result was written", err)
	case <-time.After(50 * time.Millisecond):
	}
	appendTo(t, in.TranscriptPath, `age":{"role":"user","content":"x"}}`+"\n")
	appendTo(t, in.TranscriptPath, toolResultLine, "toolu_now")
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the call's result was not noticed")
	}
}

// With a tool_use_id in the input it waits for that call's result; it
// stops when its context ends, and needs a transcript.
func TestWatchClaudeTranscriptByIDAndCancel(t *testing.T) {
	in := fixture(t, "claude", "bash-2.1.332")
	in.TranscriptPath = filepath.Join(t.TempDir(), "later.jsonl") // written after the watch starts
	in.ToolUseID = "toolu_x"
	w, err := WatchClaudeTranscript(in)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	done := make(chan error, 1)
	go func() { done <- w.Wait(context.Background(), time.Millisecond) }()
	appendTo(t, in.TranscriptPath, toolResultLine, "toolu_x")
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	in.ToolUseID = "toolu_never"
	w2, err := WatchClaudeTranscript(in)
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	go func() { done <- w2.Wait(ctx, time.Millisecond) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	in.TranscriptPath = ""
	if _, err := WatchClaudeTranscript(in); !errors.Is(err, ErrNoTranscript) {
		t.Fatalf("err %v", err)
	}
}
