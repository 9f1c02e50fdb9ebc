package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/asktui/asktui/agent/hook"
	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/sanitize"
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
	for _, c := range hookCLIs {
		cmd.AddCommand(newHookCLICmd(e, c))
	}
	return cmd
}

// hookCLI is one CLI `asktui hook` serves.
type hookCLI struct {
	use, name   string
	short, long string
	example     string
	handle      func(context.Context, hook.Input, hook.Asker) ([]byte, error)
	// read reads the CLI's input under a deadline; nil is hook.ReadInput
	// (Claude Code's shape, which Codex, Gemini CLI and Qwen Code share).
	read func(context.Context, io.Reader) (hook.Input, error)
	// fallback is the output that makes the CLI ask as usual when asktui
	// cannot decide before the handler could (its flags, its input, a
	// failure of asktui's own); nil prints nothing.
	fallback func(error) []byte
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
time ran out, an event it does not handle, an input it cannot read, a
flag it does not know) it prints nothing, says why on standard error and
exits 0: Claude Code then asks in its own terminal as usual. It never
blocks Claude Code and never allows or refuses anything on its own.
--timeout covers reading the input too.

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
time ran out, an event it does not handle, an input it cannot read, a
flag it does not know) it prints nothing, says why on standard error and
exits 0: Codex then shows its own prompt as usual. --timeout covers
reading the input too.

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
decide (no inbox running, the inbox closed, the time ran out, an event it
does not handle, an input it cannot read, a flag it does not know) the
hook prints {"decision":"ask"} and exits 0: Gemini asks in its own
terminal, even in yolo mode. --timeout covers reading the input too.

--print-config prints the "hooks" block for ~/.gemini/settings.json.
Gemini loads a project's .gemini/settings.json only in a trusted folder.`,
		example: `  # The hooks block for ~/.gemini/settings.json
  asktui hook gemini --print-config`,
		handle:   hook.HandleGemini,
		fallback: hook.GeminiAsk,
		config: func(_ string, _ []string, command string, t time.Duration) []byte {
			return hook.GeminiConfig(command, t)
		},
		configFlag: `print the settings.json "hooks" block that registers this hook, and exit`,
	},
	{
		use: "copilot", name: "Copilot CLI",
		short: "GitHub Copilot CLI's hook: its permission requests, answered in the inbox",
		long: `Run by GitHub Copilot CLI as a permissionRequest hook: reads the hook's
JSON on standard input, puts the permission request (the command, the
diff, the MCP tool's arguments) in the inbox of the running asktui serve,
and prints Copilot's decision on standard output. Copilot runs the hook
before its own rules and prompt, and asks only when no hook decided.

Whenever asktui cannot decide (no inbox running, the inbox closed, the
time ran out, an event it does not handle, an input it cannot read, a
flag it does not know) it prints nothing, says why on standard error and
exits 0: Copilot then goes on as usual, with its own rules and prompt
(in copilot -p, which cannot prompt, that denies). It never exits 2,
which Copilot reads as a denial.

--print-config prints the hook file for ~/.copilot/hooks/asktui.json
($COPILOT_HOME/hooks), or a repository's .github/hooks/asktui.json, which
Copilot loads once you trust the folder.`,
		example: `  # The hook file for ~/.copilot/hooks/asktui.json
  asktui hook copilot --print-config`,
		handle: hook.HandleCopilot,
		read:   hook.ReadCopilotInput,
		config: func(_ string, _ []string, command string, t time.Duration) []byte {
			return hook.CopilotConfig(command, t)
		},
		configFlag: "print the hook file that registers this hook, and exit",
	},
	{
		use: "qwen", name: "Qwen Code",
		short: "Qwen Code's hook: its permission prompts, answered in the inbox",
		long: `Run by Qwen Code as a PermissionRequest hook: reads the hook's JSON on
standard input, puts the permission prompt (the command, the diff, the
file) in the inbox of the running asktui serve, and prints Qwen's
decision on standard output. Qwen waits for the hook before it shows its
own dialog. Its own ask_user_question is left to Qwen, which asks it in
its dialog whatever a hook says.

Whenever asktui cannot decide (no inbox running, the inbox closed, the
time ran out, an event it does not handle, an input it cannot read, a
flag it does not know) it prints nothing, says why on standard error and
exits 0: Qwen then shows its own dialog as usual. --timeout covers reading
the input too.

--print-config prints the "hooks" block for ~/.qwen/settings.json, with
its timeout in milliseconds (Qwen Code reads a hook timeout of 1000 or
more so).`,
		example: `  # The hooks block for ~/.qwen/settings.json
  asktui hook qwen --print-config`,
		handle: hook.HandleQwen,
		config: func(_ string, _ []string, command string, t time.Duration) []byte {
			return hook.QwenConfig(command, t)
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
				if !printConfig {
					c.leave(e, err)
					return nil
				}
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
	// A flag it does not know (a config written for another version of
	// asktui) must not make the CLI block the call: exit 2 is Claude
	// Code's and Gemini's "block".
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		c.leave(e, err)
		return nil
	})
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

// leave lets the CLI ask as usual: the fallback output, if any, on
// standard output, the reason on standard error.
func (c hookCLI) leave(e env, err error) {
	_, _ = fmt.Fprintf(e.stderr, "asktui hook: %v; %s asks as usual\n", err, c.name)
	if c.fallback != nil {
		_, _ = e.stdout.Write(c.fallback(err))
	}
}

// stepAside is why the hook leaves a call to its CLI when the CLI runs
// under asktui run, in conversation conv (runEnv).
func stepAside(c hookCLI, conv string) error {
	return fmt.Errorf("%s runs under asktui run (%s=%s), whose conversation asks about its calls itself", c.name, runEnv, sanitize.Visible(conv))
}

// runHook answers one hook input. What it cannot answer it leaves to the
// CLI: the handler's fallback output, if any, on standard output, the
// reason on standard error. timeout bounds the whole hook, from reading
// the input to the human's answer; whatever happens it returns, and the
// command exits 0, which no CLI reads as a decision.
func runHook(ctx context.Context, e env, c hookCLI, socketPath string, timeout time.Duration) {
	var out []byte
	var herr error
	defer func() {
		// A bug must not decide either: Go's exit status for a panic
		// is 2, which Claude Code and Gemini CLI read as "block".
		if r := recover(); r != nil {
			c.leave(e, fmt.Errorf("asktui failed: %v", r))
			return
		}
		switch {
		case errors.Is(herr, hook.ErrNotMine):
			// Not asktui's to answer: its error says why, and what the
			// CLI does instead, in one line.
			_, _ = fmt.Fprintf(e.stderr, "asktui hook: %v\n", herr)
		case out != nil && herr != nil:
			_, _ = fmt.Fprintf(e.stderr, "asktui hook: %v; %s asks as usual\n", herr, c.name)
		case herr != nil:
			c.leave(e, herr)
		}
		if out != nil {
			if _, werr := e.stdout.Write(out); werr != nil {
				_, _ = fmt.Fprintf(e.stderr, "asktui hook: %v\n", werr)
			}
		}
	}()
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
	actx, cancel := withTimeout(hctx, timeout)
	defer cancel()
	read := hook.ReadInput
	if c.read != nil {
		read = c.read
	}
	if conv := e.getenv(runEnv); conv != "" {
		// Under asktui run, the conversation asks about this call itself
		// (ACP's request_permission, an elicitation): asking here as well
		// would ask twice, in two places, and record it twice. Stepping
		// aside is the CLI asking as usual, never an answer. The input is
		// read first (bounded as always), so the CLI is not left writing
		// to a hook that has gone.
		_, _ = read(actx, e.stdin)
		herr = stepAside(c, conv)
		if c.fallback != nil {
			out = c.fallback(herr)
		}
		return
	}
	in, err := read(actx, e.stdin)
	if err != nil {
		// Not ErrNotMine: what could not be read is left to the CLI
		// with its fallback.
		out, herr = nil, err
		if c.fallback != nil {
			out = c.fallback(err)
		}
		return
	}
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
	out, herr = c.handle(actx, in, socketAsker{path: socketPath}.Ask)
}
