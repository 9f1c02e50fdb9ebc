package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
)

// ConfigFile is the name of the agents' configuration file in asktui's
// configuration directory.
const ConfigFile = "agents.json"

// Default time limits.
const (
	// DefaultStartTimeout bounds starting an agent: the process and the
	// initialize exchange (npx may download the adapter first).
	DefaultStartTimeout = 2 * time.Minute
	// DefaultSessionTimeout bounds session/new, session/load and
	// session/list (claude-agent-acp took over a minute on a loaded
	// machine).
	DefaultSessionTimeout = 2 * time.Minute
	// DefaultCancelGrace is how long Cancel waits for the agent to end
	// its turn before giving up on it.
	DefaultCancelGrace = 10 * time.Second
)

// Asker puts a request to the human, as [interaction.Service.Ask] does.
type Asker interface {
	Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error)
}

// MCPServer is asktui's own MCP server, passed to every new session so
// that the agent can ask through ask_user_question too: over HTTP (URL,
// with Token as a bearer token) when the agent supports it, else as the
// stdio command (Command, Args; `asktui mcp --socket …`). The zero value
// passes none.
type MCPServer struct {
	URL, Token string
	Command    string
	Args       []string
	// Register, when set, gives each conversation's agent a token of its
	// own, which goes with asktui's MCP server (in the HTTP header
	// TokenHeader, or the stdio command's environment variable TokenEnv),
	// so that the server names the agent's questions after the
	// conversation (Agent.ID the conversation's ID). forget is called
	// when the conversation ends.
	Register              func(agent interaction.Agent) (token string, forget func())
	TokenHeader, TokenEnv string
}

// Options configure a [Launcher].
type Options struct {
	// Asker receives every question, permission request and elicitation
	// of every conversation; required.
	Asker Asker
	// Cwd is the directory the agents work in; empty means the process's.
	Cwd string
	// MCP is asktui's MCP server, handed to the agents.
	MCP MCPServer
	// ConfigPath is the agents.json file ([ConfigFile] in asktui's
	// configuration directory); empty or missing means the built-ins only.
	ConfigPath string
	// Getenv looks up PATH to find the agents' executables; nil finds
	// only commands given with a path.
	Getenv func(string) string
	// Environ is the agents' environment, before the configuration's env
	// is added; nil means this process's.
	Environ []string
	// Logger receives diagnostics (the SDK's, and each agent's standard
	// error); nil discards them. Nothing is ever written to the terminal.
	Logger *slog.Logger
	// Version is asktui's version, sent as the client's.
	Version string
	// RunEnv, when set, names an environment variable every agent starts
	// with, set to its conversation's id: it tells the programs the agent
	// runs that they run under asktui run. asktui's own hooks read it and
	// step aside (Claude Code under claude-agent-acp loads the user's
	// hooks), since the conversation asks about the same calls itself.
	RunEnv string
	// StartTimeout, SessionTimeout and CancelGrace override the defaults
	// when positive.
	StartTimeout, SessionTimeout, CancelGrace time.Duration
}

// agentDef is an agent the launcher can start.
type agentDef struct {
	name        string
	description string
	command     string
	args        []string
	env         map[string]string
	// defaults are environment variables set only where neither the
	// process's environment nor agents.json sets them.
	defaults map[string]string
	hint     string // how to install it
	// mcpNote, when set, says why the agent may leave asktui's MCP
	// server out, and the fix; "" when it will load it.
	mcpNote func(*Launcher, agentDef) string
	// note, when set, says what the human should know of the agent when
	// its session starts (opencode asking about nothing), and the fix;
	// "" when there is nothing to say.
	note func(*Launcher, agentDef) string
}

// builtins are the agents asktui knows by name.
func builtins() []agentDef {
	return []agentDef{
		{name: "gemini", description: "Gemini CLI (gemini --acp)", command: "gemini", args: []string{"--acp"},
			hint: "install Gemini CLI: npm install -g @google/gemini-cli", mcpNote: geminiTrustNote},
		{name: "claude", description: "Claude Code through its ACP adapter (npx @agentclientprotocol/claude-agent-acp)",
			command: "npx", args: []string{"@agentclientprotocol/claude-agent-acp"},
			hint: "install Node.js (for npx) and sign in with claude once; npx fetches the adapter"},
		{name: "codex", description: "Codex through its ACP adapter (npx @agentclientprotocol/codex-acp)",
			command: "npx", args: []string{"@agentclientprotocol/codex-acp"},
			// codex-acp 2.6 starts in "Auto review", where a second model
			// request decides its approvals and none reaches the human.
			defaults: map[string]string{"INITIAL_AGENT_MODE": "workspace-write"},
			hint:     "install Node.js (for npx) and sign in with codex once; npx fetches the adapter"},
		{name: "copilot", description: "GitHub Copilot CLI (copilot --acp --stdio)", command: "copilot", args: []string{"--acp", "--stdio"},
			hint: "install GitHub Copilot CLI: npm install -g @github/copilot, and sign in with copilot once (/login)"},
		{name: "qwen", description: "Qwen Code (qwen --acp)", command: "qwen", args: []string{"--acp"},
			hint: "install Qwen Code: npm install -g @qwen-code/qwen-code, and sign in or set its model with qwen once"},
		{name: "opencode", description: "opencode (opencode acp)", command: "opencode", args: []string{"acp"},
			hint: "install opencode: npm install -g opencode-ai", note: opencodeAskNote},
		{name: "goose", description: "Goose (goose acp)", command: "goose", args: []string{"acp"},
			hint: "install Goose: https://block.github.io/goose/docs/getting-started/installation"},
	}
}

// Launcher starts conversations with ACP agents: the built-in ones, those
// of the configuration file, and commands added with [Launcher.AddCommand].
// It implements [conversation.Launcher] and is safe for concurrent use.
type Launcher struct {
	opts Options

	mu     sync.Mutex
	agents []agentDef
	ids    map[string]int                   // conversations started per agent name
	caps   map[string]sdk.AgentCapabilities // what each agent said it can do, once started
}

var _ conversation.Launcher = (*Launcher)(nil)

// NewLauncher returns a launcher with the built-in agents and those of
// opts.ConfigPath. A configuration file that cannot be read or parsed is
// an INVALID_REQUEST error naming the file (and line).
func NewLauncher(opts Options) (*Launcher, error) {
	if opts.Asker == nil {
		return nil, interaction.Errorf(interaction.CodeInternal, "acp: Options.Asker is required")
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	if opts.SessionTimeout <= 0 {
		opts.SessionTimeout = DefaultSessionTimeout
	}
	if opts.CancelGrace <= 0 {
		opts.CancelGrace = DefaultCancelGrace
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Cwd == "" {
		if wd, err := os.Getwd(); err == nil {
			opts.Cwd = wd
		}
	}
	l := &Launcher{opts: opts, agents: builtins(), ids: map[string]int{}, caps: map[string]sdk.AgentCapabilities{}}
	if opts.ConfigPath != "" {
		if err := l.loadConfig(opts.ConfigPath); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// configEntry is one agent of agents.json, in the shape of Zed's
// agent_servers: {"agent_servers": {"name": {"command", "args", "env"}}}.
type configEntry struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

// loadConfig adds the agents of the configuration file at path. An entry
// without a command adds its env to the built-in agent of the same name.
func (l *Launcher) loadConfig(path string) error {
	data, err := os.ReadFile(path) //nolint:gosec // the agents file the user named
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return interaction.WrapError(interaction.CodeInvalidRequest, err, "cannot read the agents file %s: %v", path, err)
	}
	var cfg struct {
		Servers map[string]json.RawMessage `json:"agent_servers"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&cfg); err != nil {
		return configError(path, data, err)
	}
	names := make([]string, 0, len(cfg.Servers))
	for name := range cfg.Servers {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		raw := cfg.Servers[name]
		var e configEntry
		d := json.NewDecoder(bytes.NewReader(raw))
		d.DisallowUnknownFields()
		if err := d.Decode(&e); err != nil {
			off := int64(bytes.Index(data, raw))
			return interaction.WrapError(interaction.CodeInvalidRequest, err,
				"%s: line %d: agent %q: %v; an agent is {\"command\": \"…\", \"args\": […], \"env\": {…}}",
				path, lineOf(data, off), name, err)
		}
		if strings.TrimSpace(name) == "" {
			return interaction.Errorf(interaction.CodeInvalidRequest, "%s: line %d: an agent has an empty name",
				path, lineOf(data, int64(bytes.Index(data, raw))))
		}
		i := slices.IndexFunc(l.agents, func(a agentDef) bool { return a.name == name })
		if e.Command == "" {
			if i < 0 {
				return interaction.Errorf(interaction.CodeInvalidRequest,
					"%s: line %d: agent %q has no \"command\"; give one, or use a built-in name (%s) to add env only",
					path, lineOf(data, int64(bytes.Index(data, raw))), name, strings.Join(BuiltinNames(), ", "))
			}
			l.agents[i].env = e.Env
			continue
		}
		def := agentDef{name: name, description: strings.Join(append([]string{e.Command}, e.Args...), " "),
			command: e.Command, args: e.Args, env: e.Env, hint: "check \"command\" in " + path}
		if i >= 0 {
			def.mcpNote, def.note = l.agents[i].mcpNote, l.agents[i].note // the same program, started another way
			l.agents[i] = def
		} else {
			l.agents = append(l.agents, def)
		}
	}
	return nil
}

// configError words a JSON error in the agents file with its line.
func configError(path string, data []byte, err error) error {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off >= 0 {
		return interaction.WrapError(interaction.CodeInvalidRequest, err, "%s: line %d: %v", path, lineOf(data, off), err)
	}
	return interaction.WrapError(interaction.CodeInvalidRequest, err, "%s: %v", path, err)
}

// lineOf is the 1-based line of byte offset off in data.
func lineOf(data []byte, off int64) int {
	if off < 0 {
		return 1
	}
	off = min(off, int64(len(data)))
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// BuiltinNames lists the agents asktui knows by name, in order.
func BuiltinNames() []string {
	var names []string
	for _, a := range builtins() {
		names = append(names, a.name)
	}
	return names
}

// Agents lists the agents the launcher can start; Missing says why one
// cannot start here.
func (l *Launcher) Agents() []conversation.AgentChoice {
	l.mu.Lock()
	defs := slices.Clone(l.agents)
	caps := maps.Clone(l.caps)
	l.mu.Unlock()
	out := make([]conversation.AgentChoice, 0, len(defs))
	for _, d := range defs {
		c := conversation.AgentChoice{Name: d.name, Description: d.description}
		if _, err := l.lookPath(d.command); err != nil {
			c.Missing = d.command + " is not installed: " + d.hint
		}
		if cp, ok := caps[d.name]; ok {
			c.NoResume = noResume(d.name, cp)
		}
		out = append(out, c)
	}
	return out
}

// noResume says why an agent's past sessions cannot be listed and
// resumed, or "" when they can.
func noResume(name string, caps sdk.AgentCapabilities) string {
	switch {
	case !resumable(caps):
		return name + " cannot resume sessions"
	case caps.SessionCapabilities.List == nil:
		return name + " cannot list its past sessions: reopen one by its id with --resume=ID (its transcript shows the id when a session starts)"
	}
	return ""
}

// AddCommand adds an agent that runs argv (`asktui run -- CMD ARGS`) and
// returns the name to start it by.
func (l *Launcher) AddCommand(argv []string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(argv) == 0 {
		return ""
	}
	base := filepath.Base(argv[0])
	name := base
	for n := 2; slices.ContainsFunc(l.agents, func(a agentDef) bool { return a.name == name }); n++ {
		name = base + "-" + strconv.Itoa(n)
	}
	l.agents = append(l.agents, agentDef{name: name, description: strings.Join(argv, " "),
		command: argv[0], args: slices.Clone(argv[1:]), hint: "check the command after --"})
	return name
}

// StartCommand starts a conversation with the agent argv runs.
func (l *Launcher) StartCommand(ctx context.Context, argv []string, resume string, sink conversation.Sink) (conversation.Conversation, error) {
	if len(argv) == 0 {
		return nil, interaction.Errorf(interaction.CodeInvalidRequest, "no command to run: give one after --")
	}
	return l.Start(ctx, l.AddCommand(argv), resume, sink)
}

// def returns the agent named name.
func (l *Launcher) def(name string) (agentDef, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, d := range l.agents {
		if d.name == name {
			return d, nil
		}
	}
	var names []string
	for _, d := range l.agents {
		names = append(names, d.name)
	}
	return agentDef{}, interaction.Errorf(interaction.CodeAgentNotFound,
		"no agent is called %q: use one of %s, add it to %s, or run a command with asktui run -- CMD ARGS",
		name, strings.Join(names, ", "), ConfigFile)
}

// nextID returns a conversation id for agent name, unique in this
// launcher: the name, then name-2, name-3 …
func (l *Launcher) nextID(name string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ids[name]++
	if n := l.ids[name]; n > 1 {
		return name + "-" + strconv.Itoa(n)
	}
	return name
}

// lookPath finds an executable as exec.LookPath would, with PATH from
// Options.Getenv.
func (l *Launcher) lookPath(file string) (string, error) {
	if file == "" {
		return "", errors.New("no command")
	}
	if strings.ContainsRune(file, filepath.Separator) || strings.Contains(file, "/") {
		if !filepath.IsAbs(file) {
			file = filepath.Join(l.opts.Cwd, file)
		}
		if isExecutable(file) {
			return file, nil
		}
		return "", fmt.Errorf("%s is not an executable file", file)
	}
	path := ""
	if l.opts.Getenv != nil {
		path = l.opts.Getenv("PATH")
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, file)
		if isExecutable(p) {
			if !filepath.IsAbs(p) {
				p = filepath.Join(l.opts.Cwd, p)
			}
			return p, nil
		}
	}
	return "", fmt.Errorf("%s is not on PATH", file)
}

func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// Start starts a conversation with the agent named name, resuming session
// resume when it is not empty. It fails with AGENT_NOT_FOUND when the
// agent is unknown or not installed, AGENT_EXITED when it ends while
// starting, AGENT_PROTOCOL when it does not speak ACP (or not in time),
// AGENT_AUTH when it wants the human to sign in first, UNSUPPORTED when it
// cannot resume.
func (l *Launcher) Start(ctx context.Context, name, resume string, sink conversation.Sink) (conversation.Conversation, error) {
	c, err := l.start(ctx, name, sink)
	if err != nil {
		return nil, err
	}
	if err := c.open(ctx, resume); err != nil {
		return nil, c.startError(err)
	}
	return c, nil
}

// start launches the agent's process and says hello.
func (l *Launcher) start(ctx context.Context, name string, sink conversation.Sink) (*session, error) {
	d, err := l.def(name)
	if err != nil {
		return nil, err
	}
	path, err := l.lookPath(d.command)
	if err != nil {
		return nil, interaction.WrapError(interaction.CodeAgentNotFound, err,
			"cannot start %s: %v; %s", name, err, d.hint)
	}
	id := l.nextID(name)
	environ := l.environ(d.envWithDefaults(l.passedEnv(d)))
	if l.opts.RunEnv != "" {
		if environ == nil {
			environ = os.Environ()
		}
		// Last, so that it wins over an inherited one (asktui run started
		// inside another's agent).
		environ = append(environ, l.opts.RunEnv+"="+id)
	}
	p, err := startProcess(path, d.args, l.opts.Cwd, environ, l.opts.Logger.With("agent", name))
	if err != nil {
		return nil, interaction.WrapError(interaction.CodeAgentExited, err, "cannot start %s: %v", name, err)
	}
	c := newConversation(l.opts, id, name, sink, p.stdout, p.stdin, p)
	if err := c.initialize(ctx); err != nil {
		return nil, c.startError(err)
	}
	c.mu.Lock()
	caps := c.caps
	c.mu.Unlock()
	l.mu.Lock()
	l.caps[name] = caps
	l.mu.Unlock()
	if d.mcpNote != nil {
		c.mcpNote = d.mcpNote(l, d)
	}
	if d.note != nil {
		c.note = d.note(l, d)
	}
	return c, nil
}

// agentEnv looks a variable up in the environment agent d runs with.
func (l *Launcher) agentEnv(d agentDef) func(string) string {
	return func(k string) string {
		if v, ok := d.env[k]; ok {
			return v
		}
		if l.opts.Environ != nil {
			for i := len(l.opts.Environ) - 1; i >= 0; i-- {
				if v, ok := strings.CutPrefix(l.opts.Environ[i], k+"="); ok {
					return v
				}
			}
			return ""
		}
		if l.opts.Getenv != nil {
			return l.opts.Getenv(k)
		}
		return ""
	}
}

// passedEnv looks a variable up in what the agent inherits: agentEnv, or
// this process's environment when no other is given.
func (l *Launcher) passedEnv(d agentDef) func(string) string {
	look := l.agentEnv(d)
	return func(k string) string {
		if v := look(k); v != "" || l.opts.Environ != nil {
			return v
		}
		return os.Getenv(k)
	}
}

// envWithDefaults is d's env with its defaults for the variables that
// neither it nor getenv (the environment asktui passes on) sets.
func (d agentDef) envWithDefaults(getenv func(string) string) map[string]string {
	if len(d.defaults) == 0 {
		return d.env
	}
	env := maps.Clone(d.env)
	if env == nil {
		env = map[string]string{}
	}
	for k, v := range d.defaults {
		if _, set := env[k]; !set && getenv(k) == "" {
			env[k] = v
		}
	}
	return env
}

// environ is the agent's environment: Options.Environ (or this
// process's) with env added.
func (l *Launcher) environ(env map[string]string) []string {
	if len(env) == 0 && l.opts.Environ == nil {
		return nil
	}
	base := l.opts.Environ
	if base == nil {
		base = os.Environ()
	}
	out := slices.Clone(base)
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+"="+env[k])
	}
	return out
}

// Sessions lists the agent's past sessions in the working directory,
// newest first (session/list). It fails with UNSUPPORTED when the agent
// cannot list them.
func (l *Launcher) Sessions(ctx context.Context, name string) ([]conversation.PastSession, error) {
	c, err := l.start(ctx, name, nil)
	if err != nil {
		return nil, err
	}
	defer func() { _ = c.Close() }()
	return c.sessions(ctx)
}

// startError closes a conversation that failed to start and returns why,
// with the end of what the agent said on its standard error (a sign-in
// prompt, a stack trace), unless its own end said it already.
func (c *session) startError(err error) error {
	_ = c.Close()
	c.mu.Lock()
	ended := c.endErr
	c.mu.Unlock()
	if ended != nil && errors.Is(err, ended) {
		return err
	}
	return c.withStderr(err)
}

// discard is a sink that drops every event.
type discard struct{}

func (discard) ConversationEvent(conversation.Event) {}

var _ io.Closer = (*session)(nil)
