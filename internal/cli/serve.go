package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/asktui/asktui/agent/acp"
	"github.com/asktui/asktui/agent/mcp"
	"github.com/asktui/asktui/agent/socket"
	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/history"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/internal/jsonl"
	"github.com/asktui/asktui/internal/rules"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui"
)

// DefaultListen is where `asktui serve` listens for MCP clients unless
// --listen says otherwise: loopback only.
const DefaultListen = "127.0.0.1:7341"

// DefaultSessionTimeout is how long serve keeps an MCP session that has
// no request in flight: no waiting call, no open stream.
const DefaultSessionTimeout = 10 * time.Minute

// serveOptions are the flags of `asktui serve`.
type serveOptions struct {
	listen         string
	tlsCert        string
	tlsKey         string
	insecureListen bool
	serverNames    []string
	sessionTimeout time.Duration
	tokenFile      string
	noAuth         bool
	printConfig    string
	theme          themeFlag
	alerts         tui.Alerts
	progressEach   time.Duration
	history        string
	rules          string
	socket         string
	ssh            sshFlags
}

// Clients whose configuration --print-config knows.
var configClients = []string{"claude", "codex", "gemini", "copilot", "qwen", "opencode", "json"}

func newServeCmd(e env) *cobra.Command { return serveCommand(e, new(serveOptions), runServe) }

// serveCommand builds the serve command around o, which its flags fill
// in, and run, which it calls with them.
func serveCommand(e env, o *serveOptions, run func(context.Context, serveOptions, env) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Answer every agent's questions in one inbox: an MCP server and the session view",
		Long: `Run the session view and an MCP server (streamable HTTP) with one tool,
ask_user_question. Claude Code, Codex, Gemini CLI or any MCP client
connects to http://` + DefaultListen + `/mcp and asks; each question waits in
the inbox under the client's name until you answer, decline, or the client
withdraws it.

The server listens on loopback only unless --listen names another address;
an address off this machine needs TLS (--tls-cert and --tls-key) or an
explicit --insecure-listen. Every request's Host must name the server
(--server-name). It requires a bearer token of at least 32 characters:
ASKTUI_TOKEN, else the file --token-file, else a token generated on first
run and kept (mode 0600) under the XDG config directory. --print-config
prints the exact setup for a client with the URL and token filled in;
asktui setup writes a client's configuration for it.`,
		Example: `  # Start the inbox
  asktui serve

  # Register it with Claude Code (run once)
  asktui serve --print-config claude | sh

  # The snippet for Codex's ~/.codex/config.toml
  asktui serve --print-config codex`,
		Args: sshAddrArg(&o.ssh),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ssh.explicit = cmd.Flags().Changed("ssh")
			if len(args) == 1 {
				o.ssh.addr = args[0]
			}
			return run(cmd.Context(), *o, e)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.listen, "listen", DefaultListen, "address for the MCP server (host:port); a non-loopback host needs --tls-cert and --tls-key, or --insecure-listen")
	f.StringVar(&o.tlsCert, "tls-cert", "", "serve HTTPS with this certificate (PEM; with --tls-key)")
	f.StringVar(&o.tlsKey, "tls-key", "", "the private key of --tls-cert (PEM)")
	f.BoolVar(&o.insecureListen, "insecure-listen", false, "allow plain HTTP on a non-loopback --listen (the token and every question cross the network unencrypted)")
	f.StringSliceVar(&o.serverNames, "server-name", nil, "host name clients use to reach the server; requests naming another Host get 403 (default: the --listen host; repeatable)")
	f.DurationVar(&o.sessionTimeout, "session-timeout", DefaultSessionTimeout, "close an MCP session after this long with no request in flight (no waiting call, no open stream); 0 keeps sessions until the client ends them")
	f.StringVar(&o.tokenFile, "token-file", "", "file holding the bearer token (default: $XDG_CONFIG_HOME/asktui/token, created on first run)")
	f.BoolVar(&o.noAuth, "no-auth", false, "accept MCP clients without a token (dangerous: any local program can ask)")
	f.StringVar(&o.printConfig, "print-config", "", "print the setup for a client and exit: "+strings.Join(configClients, ", "))
	f.DurationVar(&o.progressEach, "progress-interval", mcp.DefaultProgressInterval, "how often a waiting call sends MCP progress notifications to clients that ask for them; 0 sends none (keepalive comments flow every 15s regardless)")
	f.StringVar(&o.socket, "socket", "", `the Unix socket for scripts, asktui ask --connect and asktui mcp (default: `+defaultSocketHelp+`); "off" opens none`)
	f.StringVar(&o.history, "history", "", `the history file (default: $XDG_STATE_HOME/asktui/history.jsonl); "off" keeps none`)
	f.StringVar(&o.rules, "rules", "", `your standing answers to permissions (default: $XDG_CONFIG_HOME/asktui/rules.conf; docs/rules.md); "off" answers none`)
	_ = cmd.RegisterFlagCompletionFunc("print-config", cobra.FixedCompletions(configClients, cobra.ShellCompDirectiveNoFileComp))
	addThemeFlag(cmd, &o.theme)
	addAlertFlags(cmd, &o.alerts)
	addSSHFlags(cmd, &o.ssh)
	return cmd
}

func runServe(ctx context.Context, o serveOptions, e env) error {
	c, err := checkServe(o, e)
	if err != nil {
		return err
	}
	url := c.plan.url(o.listen)
	if o.printConfig != "" {
		return printConfig(e.stdout, e.stderr, o.printConfig, url, c.token)
	}

	var in, out *os.File
	if !o.ssh.headless {
		if in, out, err = e.openTTY(); err != nil {
			return interaction.WrapError(interaction.CodeNoTTY, err,
				"no terminal for the inbox (%v): run asktui serve in a terminal (a tmux pane works well), or serve --headless", err)
		}
	}
	l, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", o.listen)
	if err != nil {
		return listenError(o.listen, err)
	}
	defer func() { _ = l.Close() }()
	// The address actually bound: --listen 127.0.0.1:0 picks a free port.
	url = c.plan.url(l.Addr().String())
	limitGC(e)
	sl, sockPath, err := listenSocket(o.socket, e)
	if err != nil {
		return err
	}
	status := serveStatus(e.stderr, url, sockPath, sl != nil, o.noAuth, c.plan.insecure)

	// The inbox: this terminal is one view of it, each SSH session
	// another; every request and its outcome goes to the history, so an
	// answer is never lost even when the agent's client gave up waiting.
	box := inbox.New(nil)
	defer box.Close()
	svc := interaction.NewService()
	// Failures serve survives show in the activity log, on the status
	// line once there is a view, and on stderr.
	warn := newWarner(e.stderr, !isTerminal(e.stderr) || o.ssh.headless, func(msg string) {
		svc.Report(interaction.Activity{Agent: interaction.Agent{ID: "asktui", Name: "asktui"},
			Kind: interaction.ActivityMessage, Text: "⚠ " + msg})
	})
	defer warn.flush()
	// Permissions your rules decide are answered by them; the rest, and
	// every question, reach a view.
	store := e.rulesStore(o.rules)
	provider, closeHistory, err := withHistory(rules.Wrap(box, store), e.historyPath(o.history), func(err error) {
		warn.warn(fmt.Sprintf("a history record was not written: %v", err))
	})
	if err != nil {
		return err
	}
	defer closeHistory()
	unregister, err := svc.Register(provider)
	if err != nil {
		return err
	}
	defer unregister()

	srv, err := mcp.NewServer(svc, mcp.Options{
		Token: c.token, ProgressInterval: c.progressEach, Version: e.build.version(),
		Hosts: c.plan.hosts, SessionTimeout: o.sessionTimeout,
	})
	if err != nil {
		return err
	}
	sshSvc, err := startSSH(o.ssh, e, box, c.theme, o.alerts, screenRules(store))
	if err != nil {
		return err
	}
	if sshSvc != nil {
		status += "  ·  " + sshSvc.command()
	}
	httpSrv := mcpHTTPServer(srv)

	var wg sync.WaitGroup
	wg.Go(func() { serveMCP(httpSrv, l, c.plan.cert, url, warn) })
	sockCtx, stopSock := context.WithCancel(ctx)
	defer stopSock()
	if sl != nil {
		wg.Go(func() {
			err := socket.Serve(sockCtx, sl, svc, socket.Options{DefaultAgent: interaction.Agent{ID: "socket", Name: "script"}})
			if err != nil {
				warn.warn(fmt.Sprintf("the socket %s stopped serving: %v", sockPath, err))
			}
		})
	}
	var uiErr error
	if o.ssh.headless {
		_, _ = fmt.Fprintf(e.stdout, "asktui serve: the inbox is open with no view here (ctrl+c or SIGTERM stops it)\n  %s\n", strings.ReplaceAll(status, "  ·  ", "\n  "))
		<-ctx.Done() // a signal is how a headless inbox is stopped
	} else {
		p := tui.New(tui.Options{
			Input: in, Output: out, Theme: c.theme, Session: true,
			Alerts: o.alerts, Status: status, Environ: e.environ,
			Inbox: box, Name: "this terminal", Rules: screenRules(store),
		})
		warn.attach(status, p.SetStatus)
		uiErr = p.Run(ctx)
	}
	stopSock()

	// The view is gone: every waiting call fails with PROVIDER_CLOSED (and
	// is recorded as closed), then the servers stop.
	box.Close()
	_ = srv.Close()
	stopServers(e.stderr, sshSvc, httpSrv)
	wg.Wait()
	switch {
	case errors.Is(uiErr, tui.ErrInterrupted):
		return interruptedErr(uiErr)
	case uiErr != nil:
		return interaction.WrapError(interaction.CodeInternal, uiErr, "the terminal UI failed: %v", uiErr)
	}
	return nil
}

// serveConfig is what serve decides from its flags before it starts
// anything.
type serveConfig struct {
	theme        styles.Theme
	plan         listenPlan
	progressEach time.Duration
	token        string // "" with --no-auth
}

// checkServe checks serve's flags and loads the token.
func checkServe(o serveOptions, e env) (serveConfig, error) {
	var c serveConfig
	var err error
	if c.theme, err = o.theme.theme(e); err != nil {
		return c, err
	}
	if c.plan, err = checkListen(o); err != nil {
		return c, err
	}
	if o.sessionTimeout < 0 {
		return c, fmt.Errorf("invalid --session-timeout %v: use a positive duration, or 0 to keep sessions", o.sessionTimeout)
	}
	if c.progressEach, err = progressInterval(o.progressEach); err != nil {
		return c, err
	}
	if !o.noAuth {
		c.token, err = loadToken(o.tokenFile, e)
	}
	return c, err
}

// listenSocket listens on the socket for scripts (--socket, or the
// default), and returns it with its path; none for --socket off.
func listenSocket(flag string, e env) (net.Listener, string, error) {
	path := flag
	if path == "" {
		path = e.socketPath()
	}
	if path == "off" {
		return nil, path, nil
	}
	listen := socket.Listen
	if filepath.Dir(path) == filepath.Dir(e.socketPath()) {
		// The default directory may be in a shared place.
		listen = socket.ListenPrivate
	}
	sl, err := listen(path)
	if err != nil {
		code := interaction.CodeInternal
		if errors.Is(err, socket.ErrAlreadyServing) {
			code = interaction.CodeAddressInUse
		}
		return nil, path, interaction.WrapError(code, err, "cannot listen on the socket: %v (use --socket to put it elsewhere, or --socket off)", err)
	}
	return sl, path, nil
}

// serveStatus is the view's status line: where serve listens, and the
// warnings of --no-auth and --insecure-listen, which also go to stderr.
func serveStatus(stderr io.Writer, url, sockPath string, socketOpen, noAuth, insecure bool) string {
	status := "MCP: " + url
	if socketOpen {
		status += "  ·  socket: " + sockPath
	}
	if noAuth {
		status += "  ⚠ no token required (--no-auth)"
		_, _ = fmt.Fprintln(stderr, "asktui: WARNING: --no-auth: any program that can reach "+url+" can ask you questions")
	}
	if insecure {
		status += "  ⚠ plain HTTP off loopback"
		_, _ = fmt.Fprintln(stderr, "asktui: WARNING: --insecure-listen: "+url+" serves plain HTTP beyond this machine; the token and every question and answer cross the network unencrypted")
	}
	return status
}

// withHistory wraps provider in the history at path, if there is one,
// and returns the provider to register and what closes the history.
// onError, if set, hears of a record that could not be written.
func withHistory(provider interaction.Provider, path string, onError func(error)) (interaction.Provider, func(), error) {
	if path == "" {
		return provider, func() {}, nil
	}
	hlog, err := history.Open(path)
	if errors.Is(err, history.ErrRefused) {
		return nil, nil, interaction.WrapError(interaction.CodeInvalidRequest, err, "%v", err)
	}
	if err != nil {
		return nil, nil, interaction.WrapError(interaction.CodeInternal, err, "cannot open the history: %v (use --history to put it elsewhere)", err)
	}
	return history.Wrap(provider, hlog, nil, onError), func() { _ = hlog.Close() }, nil
}

// mcpHTTPServer is the one way asktui serves MCP over HTTP, for serve and
// run alike: srv's handler on /mcp and its OAuth answers on
// /.well-known/, in srv's *http.Server, with the HTTP layer's timeouts and
// connection caps (mcp.Server.HTTPServer).
func mcpHTTPServer(srv *mcp.Server) *http.Server {
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler())
	mux.Handle("/.well-known/", srv.WellKnownHandler())
	return srv.HTTPServer(mux)
}

// serveMCP serves MCP on l until the server is shut down, over TLS when
// there is a certificate; any other end is a warning.
func serveMCP(httpSrv *http.Server, l net.Listener, cert *tls.Certificate, url string, warn *warner) {
	var err error
	if cert != nil {
		httpSrv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{*cert}, MinVersion: tls.VersionTLS12}
		err = httpSrv.ServeTLS(l, "", "")
	} else {
		err = httpSrv.Serve(l)
	}
	if !errors.Is(err, http.ErrServerClosed) {
		warn.warn(fmt.Sprintf("the MCP server at %s stopped serving: %v", url, err))
	}
}

// stopServers shuts the SSH server, if any, and the MCP server down,
// giving their connections 5 s to end.
func stopServers(stderr io.Writer, sshSvc *sshService, httpSrv *http.Server) {
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if sshSvc != nil {
		_ = sshSvc.srv.Shutdown(shutdown)
		if err := <-sshSvc.served; err != nil {
			_, _ = fmt.Fprintf(stderr, "asktui: the SSH server failed: %v\n", err)
		}
		sshSvc.log.release()
	}
	if err := httpSrv.Shutdown(shutdown); err != nil {
		// Out of time: close what is still open rather than leave it.
		_ = httpSrv.Close()
	}
}

// progressInterval turns --progress-interval into
// mcp.Options.ProgressInterval, where zero would mean the default: 0
// sends no progress notifications.
func progressInterval(d time.Duration) (time.Duration, error) {
	switch {
	case d < 0:
		return 0, fmt.Errorf("invalid --progress-interval %s: use a positive duration such as 15s, or 0 to send none", d)
	case d == 0:
		return -1, nil
	}
	return d, nil
}

// listenPlan is how serve listens, decided from --listen and its
// companion flags before anything starts.
type listenPlan struct {
	scheme   string           // http or https
	name     string           // the host name in URLs
	hosts    []string         // the names a request's Host may carry
	cert     *tls.Certificate // nil: plain HTTP
	insecure bool             // plain HTTP off loopback, by --insecure-listen
}

// url is the MCP endpoint for the address addr (host:port) listened on.
func (p listenPlan) url(addr string) string {
	_, port, _ := net.SplitHostPort(addr)
	return p.scheme + "://" + net.JoinHostPort(p.name, port) + "/mcp"
}

// checkListen refuses an address without a port, and a non-loopback one
// served over plain HTTP unless --insecure-listen says so; it loads the
// TLS certificate, and names the hosts a request's Host may carry.
func checkListen(o serveOptions) (listenPlan, error) {
	host, _, err := net.SplitHostPort(o.listen)
	if err != nil {
		return listenPlan{}, fmt.Errorf("invalid --listen %q: use host:port, such as %s", o.listen, DefaultListen)
	}
	p := listenPlan{scheme: "http"}
	if (o.tlsCert == "") != (o.tlsKey == "") {
		return listenPlan{}, errors.New("--tls-cert and --tls-key go together: give both, or neither")
	}
	if o.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(o.tlsCert, o.tlsKey)
		if err != nil {
			return listenPlan{}, fmt.Errorf("cannot use --tls-cert %s with --tls-key %s: %w", o.tlsCert, o.tlsKey, err)
		}
		p.cert, p.scheme = &cert, "https"
	}
	ip := net.ParseIP(host)
	loopback := host == "localhost" || ip != nil && ip.IsLoopback()
	if !loopback && p.cert == nil {
		if !o.insecureListen {
			return listenPlan{}, fmt.Errorf("--listen %s is reachable beyond this machine: serve it over TLS with --tls-cert and --tls-key, "+
				"or pass --insecure-listen to send the token and every question unencrypted", o.listen)
		}
		p.insecure = true
	}
	for _, n := range o.serverNames {
		n = strings.TrimSuffix(strings.Trim(strings.TrimSpace(n), "[]"), ".")
		if n == "" || strings.ContainsAny(n, ":/ ") && net.ParseIP(n) == nil {
			return listenPlan{}, fmt.Errorf("invalid --server-name %q: give a host name or address without port, such as asktui.example.net", n)
		}
		p.hosts = append(p.hosts, n)
	}
	if len(p.hosts) == 0 {
		if host == "" || ip != nil && ip.IsUnspecified() {
			return listenPlan{}, fmt.Errorf("--listen %s listens on every address: name the host clients connect to with --server-name", o.listen)
		}
		p.hosts = []string{host}
	}
	p.name = p.hosts[0]
	if loopback {
		// Clients may name a loopback server any of these ways.
		p.hosts = append(p.hosts, "localhost", "127.0.0.1", "::1")
	}
	return p, nil
}

// printConfig prints the setup of client for the server at url to w,
// and to hint any step it needs where the client runs. Every value is
// quoted for where it goes: the shell, TOML or JSON.
func printConfig(w, hint io.Writer, client, url, token string) error {
	return writeConfig(w, hint, client, mcpServer{url: url, token: token})
}

// printStdioConfig prints the setup of client for `asktui mcp`, the stdio
// bridge, started as exe with args. It needs no URL or token; Codex gets
// the variables the socket's default path depends on passed through
// (env_vars), which it otherwise leaves out of a stdio server's
// environment.
func printStdioConfig(w, hint io.Writer, client, exe string, args []string) error {
	return writeConfig(w, hint, client, mcpServer{exe: exe, args: args})
}

// writeConfig prints the setup of client for s: for Claude Code the
// `claude mcp add` command, for the others the entry for their file.
func writeConfig(w, hint io.Writer, client string, s mcpServer) error {
	var b strings.Builder
	switch client {
	case "claude":
		if s.stdio() {
			b.WriteString("# Adds asktui's stdio bridge to Claude Code's user scope (~/.claude.json: every project).\n")
		} else {
			// Claude Code waits for a tool as long as MCP_TOOL_TIMEOUT (ms) allows.
			b.WriteString("# Adds asktui to Claude Code's user scope (~/.claude.json: every project).\n" +
				"# For this project only, use --scope local; to share it in .mcp.json, --print-config json.\n")
		}
		b.WriteString(s.claudeAdd() + "\n")
	case "codex":
		b.WriteString("# ~/.codex/config.toml\n")
		if s.token != "" {
			b.WriteString("# Codex reads the token from ASKTUI_TOKEN (bearer_token_env_var), which must be\n" +
				"# exported where codex runs, or codex drops the server without a word:\n" +
				"#   export ASKTUI_TOKEN=" + shellQuote(s.token) + "\n" +
				"# Or keep the token in this file (then keep it private): replace the\n" +
				"# bearer_token_env_var line with the http_headers line below it.\n")
		}
		b.WriteString(s.codexTable())
		if s.token != "" {
			b.WriteString("# http_headers = { Authorization = " + tomlString("Bearer "+s.token) + " }\n")
		}
	case "gemini", "json", "copilot", "qwen":
		entry := map[string]func() map[string]any{"gemini": s.geminiEntry, "json": s.jsonEntry, "copilot": s.copilotEntry, "qwen": s.qwenEntry}[client]()
		cfg, _ := jsonl.MarshalIndent(map[string]any{"mcpServers": map[string]any{"asktui": entry}}) // strings always encode
		b.Write(cfg)
		if client == "json" && s.token != "" {
			_, _ = fmt.Fprintln(hint, tokenHint(s.token))
		}
		switch client {
		case "gemini":
			_, _ = fmt.Fprintln(hint, geminiTrustHint)
		case "copilot":
			_, _ = fmt.Fprintln(hint, "asktui: the \"mcpServers\" of ~/.copilot/mcp-config.json ($COPILOT_HOME); Copilot CLI shows its folder-trust dialog on its first start in a folder")
		case "qwen":
			_, _ = fmt.Fprintln(hint, "asktui: the \"mcpServers\" of ~/.qwen/settings.json ($QWEN_HOME); alwaysLoadTools offers the tool without Qwen's tool_search")
		}
	case "opencode":
		cfg, _ := jsonl.MarshalIndent(map[string]any{"mcp": map[string]any{"asktui": s.opencodeEntry()}}) // strings always encode
		b.Write(cfg)
		if s.token != "" {
			_, _ = fmt.Fprintln(hint, tokenHint(s.token))
		}
		_, _ = fmt.Fprintln(hint, "asktui: the \"mcp\" of opencode.json (~/.config/opencode, or the project's); opencode asks about commands and edits only where it says "+
			acp.OpencodeAsks+" (asktui setup opencode --permissions)")
	default:
		return fmt.Errorf("invalid --print-config %q: use one of %s", client, strings.Join(configClients, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// geminiTrustHint says where Gemini CLI loads a server entry from.
const geminiTrustHint = "asktui: Gemini CLI loads MCP servers from a project's .gemini/settings.json only in a trusted folder (folder trust, or GEMINI_CLI_TRUST_WORKSPACE=true)"

// tokenHint says to export the token an entry names by its variable.
func tokenHint(token string) string {
	return "asktui: the config reads the token from ASKTUI_TOKEN; export it where the client runs: export ASKTUI_TOKEN=" + shellQuote(token)
}

// mcpServer is how a client reaches asktui's tool: over HTTP, the MCP
// server of asktui serve at url (with the bearer token, unless it is ""),
// or over stdio, the bridge `asktui mcp` started as exe with args. Its
// methods build each client's entry; --print-config prints them and
// asktui setup writes them, so the two cannot differ.
type mcpServer struct {
	url, token string
	exe        string
	args       []string
}

func (s mcpServer) stdio() bool { return s.url == "" }

// claudeEntry is the entry `claude mcp add` (s.claudeAdd) writes into
// ~/.claude.json's mcpServers.
func (s mcpServer) claudeEntry() map[string]any {
	if s.stdio() {
		return map[string]any{"type": "stdio", "command": s.exe, "args": s.argList(), "env": map[string]any{}}
	}
	e := map[string]any{"type": "http", "url": s.url}
	if s.token != "" {
		e["headers"] = map[string]any{"Authorization": "Bearer " + s.token}
	}
	return e
}

// claudeAdd is the command that adds s to Claude Code's user scope.
func (s mcpServer) claudeAdd() string {
	if s.stdio() {
		cmd := "claude mcp add --scope user asktui -- " + shellQuote(s.exe)
		for _, a := range s.args {
			cmd += " " + shellQuote(a)
		}
		return cmd
	}
	cmd := "claude mcp add --scope user --transport http asktui " + shellQuote(s.url)
	if s.token != "" {
		cmd += " --header " + shellQuote("Authorization: Bearer "+s.token)
	}
	return cmd
}

// jsonEntry is the entry for a project's .mcp.json, which is committed:
// it names the token's variable, and the client expands it.
func (s mcpServer) jsonEntry() map[string]any {
	if s.stdio() {
		return map[string]any{"type": "stdio", "command": s.exe, "args": s.argList()}
	}
	e := map[string]any{"type": "http", "url": s.url}
	if s.token != "" {
		e["headers"] = map[string]any{"Authorization": "Bearer ${ASKTUI_TOKEN}"}
	}
	return e
}

// geminiEntry is the entry for Gemini CLI's settings.json. Gemini CLI
// asks its own confirmation before an untrusted server's tool, and under
// -p never offers it: "trust" lets the inbox be the only place the
// question is asked. Its timeout (ms) is 10 minutes unless set.
func (s mcpServer) geminiEntry() map[string]any {
	e := map[string]any{"timeout": 3600000, "trust": true}
	if s.stdio() {
		e["command"], e["args"] = s.exe, s.argList()
		return e
	}
	e["httpUrl"] = s.url
	if s.token != "" {
		e["headers"] = map[string]any{"Authorization": "Bearer " + s.token}
	}
	return e
}

// copilotEntry is the entry for GitHub Copilot CLI's mcp-config.json:
// .mcp.json's, with every tool of the server enabled. Copilot CLI 1.0.102
// passes its whole environment to a stdio server (its documentation says
// PATH alone), and expands ${VAR} in an entry.
func (s mcpServer) copilotEntry() map[string]any {
	e := s.jsonEntry()
	if !s.stdio() && s.token != "" {
		e["headers"] = map[string]any{"Authorization": "Bearer " + s.token}
	}
	e["tools"] = []any{"*"}
	return e
}

// qwenEntry is the entry for Qwen Code's settings.json: Gemini CLI's,
// whose format Qwen keeps, with alwaysLoadTools, without which Qwen
// defers an MCP server's tools until the model looks them up with its
// tool_search (and calls them through its tool_call).
func (s mcpServer) qwenEntry() map[string]any {
	e := s.geminiEntry()
	e["alwaysLoadTools"] = true
	return e
}

// opencodeEntry is the entry for opencode's "mcp": a local command line,
// or a remote URL with the token from ASKTUI_TOKEN ({env:…}, which
// opencode expands). Its timeout (ms) covers each call, which otherwise
// waits for the human 60 s at most between progress notifications (5 s,
// its documentation says).
func (s mcpServer) opencodeEntry() map[string]any {
	e := map[string]any{"enabled": true, "timeout": 3600000}
	if s.stdio() {
		cmd := []any{s.exe}
		for _, a := range s.args {
			cmd = append(cmd, a)
		}
		e["type"], e["command"] = "local", cmd
		return e
	}
	e["type"], e["url"] = "remote", s.url
	if s.token != "" {
		e["headers"] = map[string]any{"Authorization": "Bearer {env:ASKTUI_TOKEN}"}
	}
	return e
}

// codexTable is the [mcp_servers.asktui] table for Codex's config.toml.
// Over HTTP Codex reads the token from ASKTUI_TOKEN; over stdio it gets
// the variables the socket's default path depends on passed through,
// which it otherwise leaves out of a stdio server's environment.
func (s mcpServer) codexTable() string {
	var b strings.Builder
	b.WriteString("[mcp_servers.asktui]\n")
	if s.stdio() {
		b.WriteString("command = " + tomlString(s.exe) + "\nargs = [")
		for i, a := range s.args {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(tomlString(a))
		}
		b.WriteString("]\n# Codex starts stdio servers without these; the socket's default path uses them.\n" +
			"env_vars = [\"XDG_RUNTIME_DIR\", \"TMPDIR\"]\n")
	} else {
		b.WriteString("url = " + tomlString(s.url) + "\n")
		if s.token != "" {
			b.WriteString("bearer_token_env_var = \"ASKTUI_TOKEN\"\n")
		}
	}
	b.WriteString("tool_timeout_sec = 3600\n")
	return b.String()
}

func (s mcpServer) argList() []string {
	if s.args == nil {
		return []string{}
	}
	return s.args
}

// shellQuote quotes s for a POSIX shell: in single quotes, with each
// single quote in s ending the quoted part, escaped, and starting another.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// serveGCPercent is the garbage collector's target for serve, in place of
// Go's default of 100. serve holds one connection, a few goroutines and
// the SDK's session state per waiting call; with 1,000 calls held open,
// heap growth between collections was a third of the peak RSS. At 50 the
// peak fell from 157 to 127 MiB for no CPU time that could be measured
// (BenchmarkServeScale). GOGC, when set, wins.
const serveGCPercent = 50

// limitGC applies serveGCPercent unless the environment sets GOGC.
func limitGC(e env) {
	if e.getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
}

// warner shows the failures that do not stop serve, such as a history
// record that could not be written: on the inbox's screen at once (in the
// activity log, and on the status line once the view is attached), and on
// standard error, at once when that is not the terminal the inbox draws on
// (where it would tear the screen), else when serve ends.
type warner struct {
	stderr io.Writer
	live   bool
	report func(msg string) // the activity log

	mu        sync.Mutex
	status    string       // the view's status line without warnings
	setStatus func(string) // the view's, once attached
	warning   string       // the latest warning, for a view attached later
	later     []string     // messages for flush, in order
	count     map[string]int
}

func newWarner(stderr io.Writer, live bool, report func(msg string)) *warner {
	return &warner{stderr: stderr, live: live, report: report, count: map[string]int{}}
}

// attach shows warnings on a view's status line from now on, and the
// latest one at once.
func (w *warner) attach(status string, setStatus func(string)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.status, w.setStatus = status, setStatus
	if w.warning != "" {
		setStatus(status + "  ⚠ " + w.warning)
	}
}

// warn reports msg. It is safe for concurrent use.
func (w *warner) warn(msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.report(msg)
	w.warning = msg
	if w.setStatus != nil {
		w.setStatus(w.status + "  ⚠ " + msg)
	}
	if w.live {
		_, _ = fmt.Fprintln(w.stderr, "asktui: WARNING: "+msg)
		return
	}
	if w.count[msg] == 0 {
		w.later = append(w.later, msg)
	}
	w.count[msg]++
}

// flush prints what warn kept for the end.
func (w *warner) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, msg := range w.later {
		if n := w.count[msg]; n > 1 {
			msg += fmt.Sprintf(" (%d times)", n)
		}
		_, _ = fmt.Fprintln(w.stderr, "asktui: WARNING: "+msg)
	}
	w.later = nil
}
