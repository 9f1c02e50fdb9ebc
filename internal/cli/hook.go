package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/asktui/asktui/agent/hook"
	"github.com/asktui/asktui/interaction"
)

// defaultHookTimeout is how long `asktui hook …` waits for the human:
// under the CLIs' own timeout for the hook (the printed configs give them
// 10 s more), so the hook withdraws its question and lets the CLI ask
// before being killed.
const defaultHookTimeout = 590 * time.Second

// transcriptPoll is how often `asktui hook claude` reads Claude Code's
// transcript for an answer given in Claude Code's own dialog.
const transcriptPoll = 250 * time.Millisecond

// newHookCmd is `asktui hook`: agents' own hooks answered from the inbox.
func newHookCmd(e env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hook",
		Short: "Answer coding agents' own questions and approval prompts from the asktui inbox",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newHookCLICmd(e, hookCLIs[0]), newHookCLICmd(e, hookCLIs[1]), newHookCLICmd(e, hookCLIs[2]))
	return cmd
}

// hookCLI is one CLI `asktui hook` serves.
type hookCLI struct {
	use, name   string
	short, long string
	example     string
	handle      func(context.Context, hook.Input, hook.Asker) ([]byte, error)
	// config prints the hooks block for exe (the executable) or command
	// (a shell command line that runs the hook).
	config func(exe string, extra []string, command string, timeout time.Duration) []byte
	// configFlag says where the printed block goes.
	configFlag string
}

var hookCLIs = []hookCLI{
	{
		use: "claude", name: "Claude Code",
		short: "Claude Code's hook: its AskUserQuestion and permission prompts, answered in the inbox",
		long: `Run by Claude Code as a hook (PreToolUse on AskUserQuestion, and
PermissionRequest): reads the hook's JSON on standard input, puts the
question or permission prompt in the inbox of the running asktui serve, and
prints Claude Code's decision on standard output.

Claude Code shows its own permission dialog at the same time; when you
answer there first, the hook sees the result in Claude Code's transcript
and takes the question out of the inbox (recorded as "elsewhere"). Hooks
run only in interactive Claude Code, not under claude -p.

Whenever asktui cannot decide (no inbox running, the inbox closed, the
time ran out, an event it does not handle) it prints nothing, says why on
standard error and exits 0: Claude Code then asks in its own terminal as
usual. It never blocks Claude Code and never refuses anything on its own.

--print-config prints the "hooks" block for ~/.claude/settings.json.`,
		example: `  # The hooks block for ~/.claude/settings.json
  asktui hook claude --print-config`,
		handle: hook.HandleClaude,
		config: func(exe string, extra []string, _ string, t time.Duration) []byte {
			return hook.ClaudeConfig(exe, extra, t)
		},
		configFlag: `print the settings.json "hooks" block that registers this hook, and exit`,
	},
	{
		use: "codex", name: "Codex",
		short: "Codex's hook: its approval prompts, answered in the inbox",
		long: `Run by Codex (0.124 or later) as a PermissionRequest hook: reads the
hook's JSON on standard input, puts the approval prompt (the command, or
the patch) in the inbox of the running asktui serve, and prints Codex's
decision on standard output. Codex waits for the hook before it shows
its own prompt.

Whenever asktui cannot decide (no inbox running, the inbox closed, the
time ran out, an event it does not handle) it prints nothing, says why on
standard error and exits 0: Codex then shows its own prompt as usual.

--print-config prints the hooks.json block for ~/.codex/hooks.json; Codex
runs a new hook only once you trust it in its /hooks view.`,
		example: `  # The block for ~/.codex/hooks.json
  asktui hook codex --print-config`,
		handle: hook.HandleCodex,
		config: func(_ string, _ []string, command string, t time.Duration) []byte {
			return hook.CodexConfig(command, t)
		},
		configFlag: "print the hooks.json block that registers this hook, and exit",
	},
	{
		use: "gemini", name: "Gemini CLI",
		short: "Gemini CLI's hook: its tool calls, approved or denied in the inbox",
		long: `Run by Gemini CLI as a BeforeTool hook: reads the hook's JSON on standard
input, puts the tool call (the command, the diff, the file) in the inbox
of the running asktui serve, and prints Gemini's decision on standard
output.

Gemini CLI's hooks can deny a call but not approve one past Gemini's own
prompt: a denial in the inbox reaches Gemini with your reason; an approval
lets Gemini's approval mode decide. Run Gemini with --approval-mode yolo
(or auto_edit) to make the inbox the only prompt. Whenever asktui cannot
decide (no inbox running, the inbox closed, the time ran out) the hook
tells Gemini to ask in its own terminal, even in yolo mode.

--print-config prints the "hooks" block for ~/.gemini/settings.json.
Gemini loads a project's .gemini/settings.json only in a trusted folder.`,
		example: `  # The hooks block for ~/.gemini/settings.json
  asktui hook gemini --print-config`,
		handle: hook.HandleGemini,
		config: func(_ string, _ []string, command string, t time.Duration) []byte {
			return hook.GeminiConfig(command, t)
		},
		configFlag: `print the settings.json "hooks" block that registers this hook, and exit`,
	},
}

func newHookCLICmd(e env, c hookCLI) *cobra.Command {
	var (
		timeout     time.Duration
		socketPath  string
		printConfig bool
	)
	cmd := &cobra.Command{
		Use:     c.use,
		Short:   c.short,
		Long:    c.long,
		Example: c.example,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkTimeout(timeout); err != nil {
				return err
			}
			if printConfig {
				_, err := e.stdout.Write(c.hooksBlock(e.exe(), socketPath, timeout))
				return err
			}
			if socketPath == "" {
				socketPath = e.socketPath()
			}
			runHook(cmd.Context(), e, c, socketPath, timeout)
			return nil
		},
	}
	f := cmd.Flags()
	f.DurationVar(&timeout, "timeout", defaultHookTimeout, "how long to wait for an answer before letting "+c.name+" ask (keep it under the hook's own timeout in its config)")
	f.StringVar(&socketPath, "socket", "", "the inbox's socket (default: "+defaultSocketHelp+")")
	f.BoolVar(&printConfig, "print-config", false, c.configFlag)
	return cmd
}

// hooksBlock is the hooks block that registers exe (asktui) as c's hook,
// with --socket socketPath unless it is "", waiting timeout for an answer
// under the CLI's own timeout 10 s longer: what --print-config prints and
// asktui setup merges into the CLI's settings.
func (c hookCLI) hooksBlock(exe, socketPath string, timeout time.Duration) []byte {
	command := shellQuote(exe) + " hook " + c.use
	var extra []string
	if socketPath != "" {
		command += " --socket " + shellQuote(socketPath)
		extra = []string{"--socket", socketPath}
	}
	return c.config(exe, extra, command, timeout+10*time.Second)
}

// runHook answers one hook input. What it cannot answer it leaves to the
// CLI: the handler's fallback output, if any, on standard output, the
// reason on standard error.
func runHook(ctx context.Context, e env, c hookCLI, socketPath string, timeout time.Duration) {
	leave := func(err error) {
		_, _ = fmt.Fprintf(e.stderr, "asktui hook: %v; %s asks as usual\n", err, c.name)
	}
	in, err := hook.Decode(e.stdin)
	if err != nil {
		leave(err)
		return
	}
	// The CLI ends its hook with a signal when the human acted in the
	// CLI's own terminal (Claude Code's Esc sends SIGTERM): the question
	// was settled there, and leaves the inbox saying so.
	hctx, settle := context.WithCancelCause(context.WithoutCancel(ctx))
	defer settle(nil)
	stop := context.AfterFunc(ctx, func() {
		settle(interaction.Errorf(interaction.CodeSettledElsewhere,
			"%s ended its hook (%v): the prompt was settled there", c.name, context.Cause(ctx)))
	})
	defer stop()
	if c.use == "claude" && in.HookEventName == "PermissionRequest" {
		// Read the transcript as it is before asking: a result written
		// from now on is this call's.
		if w, err := hook.WatchClaudeTranscript(in); err == nil {
			defer func() { _ = w.Close() }()
			watched := make(chan struct{})
			defer func() { <-watched }()
			defer settle(nil) // ends the watch before it is waited for
			go func() {
				defer close(watched)
				if w.Wait(hctx, transcriptPoll) == nil {
					settle(interaction.Errorf(interaction.CodeSettledElsewhere,
						"answered in Claude Code's own permission dialog"))
				}
			}()
		}
	}
	actx, cancel := withTimeout(hctx, timeout)
	defer cancel()
	out, err := c.handle(actx, in, socketAsker{path: socketPath}.Ask)
	if err != nil && !errors.Is(err, hook.ErrNotMine) {
		leave(err)
	}
	if out != nil {
		if _, werr := e.stdout.Write(out); werr != nil {
			leave(werr)
		}
	}
}
