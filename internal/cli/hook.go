package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/asktui/asktui/agent/claudehook"
)

// defaultHookTimeout is how long `asktui hook claude` waits for the human:
// under Claude Code's own default of 600 s for a command hook, so the hook
// withdraws its question and lets Claude Code ask before being killed.
const defaultHookTimeout = 590 * time.Second

// newHookCmd is `asktui hook`: agents' own hooks answered from the inbox.
func newHookCmd(e env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hook",
		Short: "Answer an agent's own questions and permission prompts from the asktui inbox",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newHookClaudeCmd(e))
	return cmd
}

func newHookClaudeCmd(e env) *cobra.Command {
	var (
		timeout     time.Duration
		socketPath  string
		printConfig bool
	)
	cmd := &cobra.Command{
		Use:   "claude",
		Short: "Claude Code's hook: its AskUserQuestion and permission prompts, answered in the inbox",
		Long: `Run by Claude Code as a hook (PreToolUse on AskUserQuestion, and
PermissionRequest): reads the hook's JSON on standard input, puts the
question or permission prompt in the inbox of the running asktui serve, and
prints Claude Code's decision on standard output.

Whenever asktui cannot decide (no inbox running, the inbox closed, the
time ran out, an event it does not handle) it prints nothing, says why on
standard error and exits 0: Claude Code then asks in its own terminal as
usual. It never blocks Claude Code and never refuses anything on its own.

--print-config prints the "hooks" block for ~/.claude/settings.json.`,
		Example: `  # The hooks block for ~/.claude/settings.json
  asktui hook claude --print-config`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkTimeout(timeout); err != nil {
				return err
			}
			if printConfig {
				exe, err := os.Executable()
				if err != nil {
					exe = "asktui"
				}
				_, err = e.stdout.Write(claudehook.PrintConfig(exe, timeout+10*time.Second))
				return err
			}
			if socketPath == "" {
				socketPath = e.socketPath()
			}
			runHookClaude(cmd.Context(), e, socketPath, timeout)
			return nil
		},
	}
	f := cmd.Flags()
	f.DurationVar(&timeout, "timeout", defaultHookTimeout, "how long to wait for an answer before letting Claude Code ask (keep it under the hook's timeout in settings.json)")
	f.StringVar(&socketPath, "socket", "", "the inbox's socket (default: "+defaultSocketHelp+")")
	f.BoolVar(&printConfig, "print-config", false, `print the settings.json "hooks" block that registers this hook, and exit`)
	return cmd
}

// runHookClaude answers one hook input. What it cannot answer it leaves to
// Claude Code: nothing on standard output, the reason on standard error.
func runHookClaude(ctx context.Context, e env, socketPath string, timeout time.Duration) {
	leave := func(err error) {
		_, _ = fmt.Fprintf(e.stderr, "asktui hook: %v; Claude Code asks as usual\n", err)
	}
	in, err := claudehook.Decode(e.stdin)
	if err != nil {
		leave(err)
		return
	}
	ctx, cancel := withTimeout(ctx, timeout)
	defer cancel()
	out, err := claudehook.Handle(ctx, in, socketAsker{path: socketPath}.Ask)
	if err != nil {
		if errors.Is(err, claudehook.ErrNotMine) {
			return // not ours: nothing to say
		}
		leave(err)
		return
	}
	if _, err := e.stdout.Write(out); err != nil {
		leave(err)
	}
}
