package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/asktui/asktui/agent/socket"
	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui"
)

// TestHookClaudeLabelsExact: AskUserQuestion's answers go back with the
// labels exactly as Claude Code sent them, however hostile, through the
// socket, the Service and the screen (which shows them neutralised), so
// that Claude Code finds the option it offered. Several labels are joined
// as Claude Code's own dialog joins them: with ", ", a label holding ", "
// or a quote written as JSON.stringify writes it (which leaves U+2028 and
// C1 controls as they are).
func TestHookClaudeLabelsExact(t *testing.T) {
	sock := shortSocketPath(t)
	l, err := socket.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	in, stopInput := io.Pipe()
	defer stopInput.Close()
	p := tui.New(tui.Options{
		Input: in, Output: io.Discard, Theme: styles.ThemeDark, Session: true,
		Width: 100, Height: 40, Environ: []string{"TERM=xterm-256color"},
	})
	svc := interaction.NewService()
	unregister, err := svc.Register(p.Provider())
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()
	ctx, stop := context.WithCancel(context.Background())
	ran, served := make(chan error, 1), make(chan error, 1)
	go func() { ran <- p.Run(ctx) }()
	go func() { served <- socket.Serve(ctx, l, svc, socket.Options{}) }()
	defer func() { stop(); <-served; <-ran }()

	const (
		csi   = "Bash\u009b31mRED rm -rf /"
		esc   = "\x1b[2J\x1b]0;title\x07Wipe"
		bidi  = "abc\u202edef"
		sep   = "one, two\u2028\"three\""
		plain = "Plain"
	)
	cases := []struct {
		name    string
		multi   bool
		options []string
		keys    []string
		want    string
	}{
		{name: "C1 CSI", options: []string{csi, plain}, keys: []string{"enter"}, want: csi},
		{name: "ESC sequences", options: []string{esc, plain}, keys: []string{"enter"}, want: esc},
		{name: "bidi", options: []string{bidi, plain}, keys: []string{"enter"}, want: bidi},
		{name: "several", multi: true, options: []string{csi, sep, plain}, keys: []string{"space", "down", "space", "enter"},
			want: csi + `, "one, two` + "\u2028" + `\"three\""`},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := make([]map[string]string, len(c.options))
			for j, o := range c.options {
				opts[j] = map[string]string{"label": o, "description": "d"}
			}
			question := "Which one? " + c.name
			input, _ := json.Marshal(map[string]any{
				"session_id": "labels", "hook_event_name": "PreToolUse", "tool_name": "AskUserQuestion",
				"tool_input": map[string]any{"questions": []any{map[string]any{
					"question": question, "header": "Pick", "multiSelect": c.multi, "options": opts,
				}}},
			})
			var stdout, stderr bytes.Buffer
			done := make(chan int, 1)
			go func() {
				done <- run(context.Background(), []string{"hook", "claude", "--socket", sock}, env{
					stdin: bytes.NewReader(input), stdout: &stdout, stderr: &stderr, openTTY: mustNotOpenTTY(t),
				})
			}()
			if err := p.Focus(interaction.Agent{ID: "claude-code:labels"}); err != nil {
				t.Fatal(err)
			}
			if err := p.Press(c.keys...); err != nil {
				t.Fatal(err)
			}
			select {
			case code := <-done:
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr.String())
				}
			case <-time.After(30 * time.Second): // a failure deadline
				t.Fatalf("case %d: no answer", i)
			}
			var out struct {
				HookSpecificOutput struct {
					PermissionDecision string
					UpdatedInput       struct{ Answers map[string]string }
				}
			}
			if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
				t.Fatalf("stdout %q: %v", stdout.String(), err)
			}
			if got := out.HookSpecificOutput.UpdatedInput.Answers[question]; got != c.want || out.HookSpecificOutput.PermissionDecision != "allow" {
				t.Errorf("answer %q (%s), want %q", got, out.HookSpecificOutput.PermissionDecision, c.want)
			}
		})
	}
}
