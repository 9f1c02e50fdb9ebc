package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/asktui/asktui/agent/mcp"
	"github.com/asktui/asktui/agent/socket"
	"github.com/asktui/asktui/interaction"
)

// askConnected sends req to the running inbox at path (asktui serve)
// instead of drawing a UI of its own. The outcomes and exit codes are the
// same as a local ask.
func askConnected(ctx context.Context, path string, req interaction.Request, o askOptions, e env) (interaction.Answer, error) {
	if path = strings.TrimSpace(path); path == "" {
		path = e.socketPath()
	}
	c, err := socket.Dial(ctx, path)
	if err != nil {
		return interaction.Answer{}, err
	}
	defer func() { _ = c.Close() }()
	if isTerminal(e.stderr) {
		// Nothing else is drawn here: say where the question is.
		_, _ = fmt.Fprintf(e.stderr, "asktui: waiting for your answer in the asktui inbox (asktui serve, socket %s); ctrl+c withdraws the question\n", path)
	}
	// The deadline goes with the request: the inbox shows the countdown
	// and records a timeout.
	ctx, cancel := withTimeout(ctx, o.timeout)
	defer cancel()
	ans, err := c.Ask(ctx, req)
	if err != nil && context.Cause(ctx) != nil && interaction.CodeOf(context.Cause(ctx)) == "" {
		// A signal ended the wait: say so, as a local ask does.
		return ans, interaction.WrapError(interaction.CodeAborted, context.Cause(ctx),
			"interrupted (%v) before the questions were answered", context.Cause(ctx))
	}
	return ans, err
}

// newMCPCmd is `asktui mcp`: a stdio MCP server for clients that only
// launch stdio servers, forwarding ask_user_question to the running inbox.
func newMCPCmd(e env) *cobra.Command {
	var path, printCfg string
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "A stdio MCP server that forwards questions to the running asktui serve",
		Long: `Serve the ask_user_question tool over standard input and output, for MCP
clients that only launch stdio servers, and forward every call to the
inbox of the running asktui serve over its Unix socket. No token is needed:
the socket's permissions (0600) guard it. When no inbox is running, each
call fails at once with NO_PROVIDER.

--print-config prints the setup that starts this bridge for a client. It
finds the socket as serve does whatever environment the client passes on:
without XDG_RUNTIME_DIR it looks in /run/user/UID when that is yours, and
the Codex entry passes XDG_RUNTIME_DIR and TMPDIR through (env_vars).`,
		Example: `  # Claude Code, stdio
  claude mcp add asktui -- asktui mcp

  # The table for Codex's ~/.codex/config.toml
  asktui mcp --print-config codex`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if printCfg != "" {
				return printStdioConfig(e.stdout, e.stderr, printCfg, e.exe(), bridgeArgs(path))
			}
			if path == "" {
				path = e.socketPath()
			}
			ver := e.build.version()
			// Started by asktui run for one of its agents: the token
			// names the conversation the calls belong to.
			asker := socketAsker{path: path, conversation: e.getenv(conversationEnv)}
			srv, err := mcp.NewServer(asker, mcp.Options{Version: ver})
			if err != nil {
				return err
			}
			defer func() { _ = srv.Close() }()
			if err := srv.RunStdio(cmd.Context()); err != nil && !errors.Is(err, context.Canceled) {
				return interaction.WrapError(interaction.CodeInternal, err, "the stdio MCP session failed: %v", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&path, "socket", "", "the inbox's socket (default: "+defaultSocketHelp+")")
	cmd.Flags().StringVar(&printCfg, "print-config", "", "print the setup that starts this bridge for a client, and exit: "+strings.Join(configClients, ", "))
	_ = cmd.RegisterFlagCompletionFunc("print-config", cobra.FixedCompletions(configClients, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// bridgeArgs are the arguments that start `asktui mcp` on the socket at
// path ("": the default).
func bridgeArgs(path string) []string {
	args := []string{"mcp"}
	if path != "" {
		args = append(args, "--socket", path)
	}
	return args
}

// socketAsker asks through the inbox's socket, dialling per call so that
// an inbox started after the client still gets its questions.
type socketAsker struct{ path, conversation string }

func (s socketAsker) Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
	c, err := socket.Dial(ctx, s.path)
	if err != nil {
		return interaction.Answer{}, err
	}
	defer func() { _ = c.Close() }()
	c.Conversation = s.conversation
	ans, err := c.Ask(ctx, req)
	if err != nil && interaction.CodeOf(err) == "" {
		return ans, fmt.Errorf("asking the inbox at %s: %w", s.path, err)
	}
	return ans, err
}
