package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/asktui/asktui/agent/acp"
	"github.com/asktui/asktui/agent/mcp"
	"github.com/asktui/asktui/agent/socket"
	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/internal/rules"
	"github.com/asktui/asktui/tui"
)

// resumeLatest is --resume without a session: the newest one.
const resumeLatest = "latest"

// runOptions are the flags of `asktui run`.
type runOptions struct {
	resume  string
	history string
	rules   string
	socket  string
	log     string
	list    bool
	theme   themeFlag
	alerts  tui.Alerts
}

func newRunCmd(e env) *cobra.Command {
	o := &runOptions{}
	cmd := &cobra.Command{
		Use:   "run AGENT... [-- COMMAND ARGS...]",
		Short: "Drive coding agents over ACP, with their questions in the inbox",
		Long: `Start agents that speak the Agent Client Protocol and talk to them in the
conversation view: write a prompt, watch the reply stream in, and answer their
permission requests and questions in the same inbox as every other
agent's. AGENT is a built-in name (` + strings.Join(acp.BuiltinNames(), ", ") + `)
or one from ` + acp.ConfigFile + ` in asktui's configuration directory
(Zed's agent_servers shape); after -- comes any other ACP agent's command.

Each agent also gets asktui's own ask_user_question tool (MCP), so agents
without a question tool of their own can still ask.

--resume reopens the agent's newest session in this directory, when it
can list them (session/list), and --resume=ID a given one, when it can
reopen it (session/load or session/resume); the transcript shows the
session's id when it starts, for an agent that can reopen it.`,
		Example: `  # Gemini CLI and Claude Code side by side
  asktui run gemini claude

  # Any ACP agent
  asktui run -- my-agent --acp

  # The scripted demo agent
  asktui run -- asktui demo --acp deploy`,
		RunE: func(cmd *cobra.Command, args []string) error {
			names, argv := args, []string(nil)
			if at := cmd.ArgsLenAtDash(); at >= 0 {
				names, argv = args[:at], args[at:]
			}
			if len(names) == 0 && len(argv) == 0 && !o.list {
				return errors.New("name an agent to run (" + strings.Join(acp.BuiltinNames(), ", ") + "), or give a command after --")
			}
			return runAgents(cmd.Context(), names, argv, *o, e)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.resume, "resume", "", "resume the agent's newest session here, or --resume=ID that one")
	f.Lookup("resume").NoOptDefVal = resumeLatest
	f.StringVar(&o.history, "history", "", `the history file (default: $XDG_STATE_HOME/asktui/history.jsonl); "off" keeps none`)
	f.StringVar(&o.rules, "rules", "", `your standing answers to permissions (default: $XDG_CONFIG_HOME/asktui/rules.conf; docs/rules.md); "off" answers none`)
	f.BoolVar(&o.list, "list", false, "list the agents asktui knows, and which are installed, and exit")
	f.StringVar(&o.log, "log", "", "append the agents' standard error and protocol diagnostics to this file")
	f.StringVar(&o.socket, "socket", "", `the Unix socket for asktui mcp and scripts (default: `+defaultSocketHelp+`, or one of this run's own when that is taken); "off" opens none`)
	addThemeFlag(cmd, &o.theme)
	addAlertFlags(cmd, &o.alerts)
	cmd.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return acp.BuiltinNames(), cobra.ShellCompDirectiveNoFileComp
	}
	return cmd
}

// agentErrors remembers the first failure of any agent the view starts,
// for the exit status. One rule, whenever it happens: an agent that could
// not start, a turn that failed for the agent's reason (it wants a
// sign-in, it exited, it broke the protocol), or a conversation that
// ended with an error. A turn refused for the human's own reason (BUSY, a
// file that cannot be attached) is shown and not counted.
type agentErrors struct {
	conversation.Launcher
	mu    sync.Mutex
	first error
}

func (a *agentErrors) note(err error) {
	if err == nil || errors.Is(err, &interaction.Error{Code: interaction.CodeAborted}) {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.first == nil {
		a.first = err
	}
}

func (a *agentErrors) err() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.first
}

// Start notes a failure to start, and the failures the conversation ends
// with.
func (a *agentErrors) Start(ctx context.Context, name, resume string, sink conversation.Sink) (conversation.Conversation, error) {
	conv, err := a.Launcher.Start(ctx, name, resume, endSink{sink, a})
	a.note(err)
	return conv, err
}

// openRunLog opens --log, the protocol log, for appending: a logger and
// what closes it, or none without --log.
func openRunLog(path string) (*slog.Logger, func(), error) {
	if path == "" {
		return nil, func() {}, nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600) //nolint:gosec // the log the user named (--log)
	if err != nil {
		return nil, nil, interaction.WrapError(interaction.CodeInvalidRequest, err, "--log: %v", err)
	}
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug})), func() { _ = f.Close() }, nil
}

// startSpecs says how to start each agent named: afresh, resuming the
// session resume, or (--resume alone) resuming its newest session in
// cwd, which it must have.
func startSpecs(ctx context.Context, l *acp.Launcher, names []string, resume, cwd string) ([]tui.StartSpec, error) {
	specs := make([]tui.StartSpec, 0, len(names))
	for _, name := range names {
		spec := tui.StartSpec{Agent: name, Resume: resume}
		if resume == resumeLatest {
			past, err := l.Sessions(ctx, name)
			if err != nil {
				return nil, err
			}
			if len(past) == 0 {
				return nil, interaction.Errorf(interaction.CodeInvalidRequest, "%s has no past session in %s to resume", name, cwd)
			}
			spec.Resume = past[0].Session
		}
		specs = append(specs, spec)
	}
	return specs, nil
}

// endSink passes events on, noting how conversations end.
type endSink struct {
	conversation.Sink
	errs *agentErrors
}

func (s endSink) ConversationEvent(e conversation.Event) {
	switch e.Kind {
	case conversation.EventEnded:
		s.errs.note(e.Err)
	case conversation.EventTurnEnded:
		if agentFailure(e.Err) {
			s.errs.note(e.Err)
		}
	default:
		// Only an end carries a failure.
	}
	s.Sink.ConversationEvent(e)
}

// agentFailure reports whether err is the agent's failure, not the
// human's.
func agentFailure(err error) bool {
	switch interaction.CodeOf(err) {
	case interaction.CodeAgentAuth, interaction.CodeAgentExited, interaction.CodeAgentProtocol:
		return true
	default:
		return false
	}
}

// Pace passes the screen's pace on (conversation.Pacer).
func (s endSink) Pace(ctx context.Context) {
	if p, ok := s.Sink.(conversation.Pacer); ok {
		p.Pace(ctx)
	}
}

func runAgents(ctx context.Context, names, argv []string, o runOptions, e env) error {
	theme, err := o.theme.theme(e)
	if err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return interaction.WrapError(interaction.CodeInternal, err, "no working directory: %v", err)
	}
	configPath := ""
	if dir, err := e.configDir(); err == nil {
		configPath = filepath.Join(dir, acp.ConfigFile)
	}
	svc := interaction.NewService()
	if o.list {
		l, err := acp.NewLauncher(acp.Options{Asker: svc, Cwd: cwd, ConfigPath: configPath, Getenv: e.getenv})
		if err != nil {
			return err
		}
		return listAgents(e.stdout, l.Agents())
	}
	ends, err := listenForAgents(o, e)
	if err != nil {
		return err
	}
	defer ends.close()
	logger, closeLog, err := openRunLog(o.log)
	if err != nil {
		return err
	}
	defer closeLog()
	l, err := acp.NewLauncher(acp.Options{
		Asker: svc, Cwd: cwd, MCP: ends.mcpServer, ConfigPath: configPath,
		Getenv: e.getenv, Environ: e.environ, Version: e.build.version(), Logger: logger, RunEnv: runEnv,
	})
	if err != nil {
		return err
	}
	if len(argv) > 0 {
		names = append(names, l.AddCommand(argv))
	}
	// Unknown and missing agents fail before the screen opens.
	if err := checkAgents(l, names); err != nil {
		return err
	}
	specs, err := startSpecs(ctx, l, names, o.resume, cwd)
	if err != nil {
		return err
	}
	in, out, err := e.openTTY()
	if err != nil {
		return interaction.WrapError(interaction.CodeNoTTY, err,
			"no terminal to talk to agents on (%v): run asktui run in a terminal", err)
	}
	errs := &agentErrors{Launcher: l}
	store := e.rulesStore(o.rules)
	p := tui.New(tui.Options{
		Input: in, Output: out, Theme: theme, Alerts: o.alerts, Status: ends.status(),
		Environ: e.environ, Launcher: errs, Start: specs, Rules: screenRules(store),
	})
	provider, closeHistory, err := withHistory(rules.Wrap(p.Provider(), store), e.historyPath(o.history), nil)
	if err != nil {
		return err
	}
	defer closeHistory()
	unregister, err := svc.Register(provider)
	if err != nil {
		return err
	}
	defer unregister()
	stop, err := ends.serve(ctx, svc, e.build.version())
	if err != nil {
		return err
	}
	uiErr := p.Run(ctx)
	stop()
	switch {
	case errors.Is(uiErr, tui.ErrInterrupted):
		return interruptedErr(uiErr)
	case uiErr != nil:
		return interaction.WrapError(interaction.CodeInternal, uiErr, "the terminal UI failed: %v", uiErr)
	case errs.err() != nil:
		return errs.err() // the exit status says an agent failed
	}
	return nil
}

// agentMCP is the MCP server asktui run gives its agents, hardened as
// serve's is (mcpHTTPServer): an agent, or any local program that finds
// the port, is held to the same timeouts and connection caps.
func agentMCP(asker mcp.Asker, o mcp.Options) (*mcp.Server, *http.Server, error) {
	srv, err := mcp.NewServer(asker, o)
	if err != nil {
		return nil, nil, err
	}
	return srv, mcpHTTPServer(srv), nil
}

// agentEnds are where a run's agents reach asktui's own MCP server for
// their ask_user_question: over HTTP on a loopback port of this run's,
// with a token of this run's, and through the socket (the asktui mcp
// bridge), each conversation known by a token of its own.
type agentEnds struct {
	http      net.Listener
	sock      net.Listener // nil with --socket off
	sockPath  string
	token     string
	convs     *conversationTokens
	mcpServer acp.MCPServer
}

// listenForAgents opens the run's MCP listener and socket.
func listenForAgents(o runOptions, e env) (*agentEnds, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	a := &agentEnds{token: hex.EncodeToString(raw), convs: &conversationTokens{agents: map[string]interaction.Agent{}}}
	hl, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, interaction.WrapError(interaction.CodeInternal, err, "cannot listen for the agents' MCP client: %v", err)
	}
	a.http = hl
	if a.sock, a.sockPath, err = listenRunSocket(o.socket, e); err != nil {
		_ = hl.Close()
		return nil, err
	}
	a.mcpServer = acp.MCPServer{URL: "http://" + hl.Addr().String() + "/mcp", Token: a.token,
		Register: a.convs.register, TokenHeader: mcp.ConversationHeader, TokenEnv: conversationEnv}
	if self, err := os.Executable(); err == nil && a.sock != nil {
		a.mcpServer.Command, a.mcpServer.Args = self, []string{"mcp", "--socket", a.sockPath}
	}
	return a, nil
}

// status is the line the screen shows about where the agents ask.
func (a *agentEnds) status() string {
	s := "MCP for agents: " + a.mcpServer.URL
	if a.sock != nil {
		s += "  ·  socket: " + a.sockPath
	}
	return s
}

// serve answers the agents' MCP calls and socket lines through svc until
// stop, which waits for both to end.
func (a *agentEnds) serve(ctx context.Context, svc *interaction.Service, version string) (stop func(), err error) {
	srv, httpSrv, err := agentMCP(svc, mcp.Options{Token: a.token, Version: version, Identify: a.convs.identify})
	if err != nil {
		return nil, err
	}
	var wg sync.WaitGroup
	wg.Go(func() { _ = httpSrv.Serve(a.http) })
	sockCtx, stopSock := context.WithCancel(ctx)
	if a.sock != nil {
		wg.Go(func() {
			_ = socket.Serve(sockCtx, a.sock, svc, socket.Options{DefaultAgent: interaction.Agent{ID: "socket", Name: "script"}, Identify: a.convs.identify})
		})
	}
	return func() {
		stopSock()
		_ = srv.Close()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = httpSrv.Shutdown(shutdown)
		wg.Wait()
	}, nil
}

// close closes the listeners.
func (a *agentEnds) close() {
	_ = a.http.Close()
	if a.sock != nil {
		_ = a.sock.Close()
	}
}

// runEnv is set, in the environment of every agent asktui run starts, to
// its conversation's id: asktui hook, run by the agent's CLI from the
// user's hooks (Claude Code under claude-agent-acp loads them), steps
// aside under it, since the conversation asks about the same calls
// through ACP (hook.go).
const runEnv = "ASKTUI_RUN"

// conversationEnv carries a conversation's token to the stdio MCP bridge
// (asktui mcp) that asktui run hands an agent.
const conversationEnv = "ASKTUI_CONVERSATION"

// conversationTokens ties each conversation's agent to a token that only
// the conversation (and the agent it hands asktui's MCP server to) knows,
// so that the agent's ask_user_question calls are named after the
// conversation and shown in it, whatever its MCP client calls itself.
type conversationTokens struct {
	mu     sync.Mutex
	agents map[string]interaction.Agent
}

// register gives agent a fresh token; forget drops it.
func (c *conversationTokens) register(agent interaction.Agent) (string, func()) {
	token := rand.Text()
	c.mu.Lock()
	c.agents[token] = agent
	c.mu.Unlock()
	return token, func() {
		c.mu.Lock()
		delete(c.agents, token)
		c.mu.Unlock()
	}
}

// identify is the agent a token names.
func (c *conversationTokens) identify(token string) (interaction.Agent, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.agents[token]
	return a, ok
}

// listAgents prints the agents: name, what it runs, and what is missing.
func listAgents(w io.Writer, agents []conversation.AgentChoice) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, a := range agents {
		state := "ready"
		if a.Missing != "" {
			state = a.Missing
		}
		if _, err := fmt.Fprintf(tw, "%s\t%s\t%s\n", a.Name, a.Description, state); err != nil {
			return err
		}
	}
	return tw.Flush()
}

// checkAgents fails with AGENT_NOT_FOUND for a name the launcher does not
// know or cannot start here.
func checkAgents(l *acp.Launcher, names []string) error {
	choices := map[string]conversation.AgentChoice{}
	var known []string
	for _, a := range l.Agents() {
		choices[a.Name] = a
		known = append(known, a.Name)
	}
	for _, name := range names {
		a, ok := choices[name]
		switch {
		case !ok:
			return interaction.Errorf(interaction.CodeAgentNotFound,
				"no agent is called %q: use one of %s, add it to %s, or give a command after --", name, strings.Join(known, ", "), acp.ConfigFile)
		case a.Missing != "":
			return interaction.Errorf(interaction.CodeAgentNotFound, "cannot run %s: %s", name, a.Missing)
		}
	}
	return nil
}

// listenRunSocket opens the socket: --socket, else the default path,
// else (when asktui serve holds it) one of this run's own beside it.
func listenRunSocket(flag string, e env) (net.Listener, string, error) {
	if flag == "off" {
		return nil, "", nil
	}
	if flag != "" {
		sl, err := socket.Listen(flag)
		if err != nil {
			return nil, "", interaction.WrapError(interaction.CodeInternal, err, "cannot listen on the socket: %v (use --socket to put it elsewhere, or --socket off)", err)
		}
		return sl, flag, nil
	}
	path := e.socketPath()
	if sl, err := socket.ListenPrivate(path); err == nil {
		return sl, path, nil
	}
	path = filepath.Join(filepath.Dir(path), "run-"+strconv.Itoa(os.Getpid())+".sock")
	sl, err := socket.ListenPrivate(path)
	if err != nil {
		return nil, "", interaction.WrapError(interaction.CodeInternal, err, "cannot listen on a socket: %v (use --socket to put it elsewhere, or --socket off)", err)
	}
	return sl, path, nil
}
