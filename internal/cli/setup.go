package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/configfile"
)

// setupClients are the clients asktui setup configures.
var setupClients = []string{"claude", "codex", "gemini", "copilot", "qwen", "opencode"}

// setupOptions are the flags of `asktui setup`.
type setupOptions struct {
	mcp, hooks, all bool
	// permissions is opencode's "permission" settings that make it ask.
	permissions bool
	project     bool
	dryRun      bool
	undo        bool
	transport   string
	socket      string
}

func newSetupCmd(e env) *cobra.Command {
	o := &setupOptions{}
	cmd := &cobra.Command{
		Use:   "setup claude|codex|gemini|copilot|qwen|opencode",
		Short: "Write asktui into a coding agent CLI's own configuration",
		Long: `Add asktui to a client's own configuration files: its MCP server (the
ask_user_question tool) and its hooks (the client's own questions and
approval prompts, answered in the inbox), the same entries --print-config
prints for serve, mcp and hook.

  claude   ~/.claude.json (mcpServers) and ~/.claude/settings.json (hooks);
           with --project, .mcp.json and .claude/settings.json
  codex    ~/.codex/config.toml ([mcp_servers.asktui]) and ~/.codex/hooks.json;
           with --project, .codex/config.toml and .codex/hooks.json
  gemini   ~/.gemini/settings.json (mcpServers and hooks); with --project,
           .gemini/settings.json
  copilot  ~/.copilot/mcp-config.json and ~/.copilot/hooks/asktui.json; with
           --project, .github/mcp.json and .github/hooks/asktui.json
  qwen     ~/.qwen/settings.json (mcpServers and hooks, its timeout in
           milliseconds); with --project, .qwen/settings.json
  opencode ~/.config/opencode/opencode.json (mcp; it has no command hooks);
           with --project, opencode.json. --permissions adds
           "permission": {"bash": "ask", "edit": "ask"} where the file
           does not decide them, for opencode to ask (by default it runs
           both unasked); it never changes a setting of yours.

CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, COPILOT_HOME, QWEN_HOME and
XDG_CONFIG_HOME move the user's files as they move the clients' own.

The MCP server is the stdio bridge, asktui mcp, unless --transport http
names the HTTP server of asktui serve: the bridge needs no token in any
file, and reaches an inbox started before or after the client.

Only asktui's own entries change: every other key, comment and line of
the file stays as it was. An entry asktui wrote before (another path,
another socket) is updated where it stands; a second run changes nothing
and says so. Before changing a file, setup copies it beside itself
(settings.json.asktui-backup-DATE-TIME, readable by you only), then
replaces it in one rename, keeping its permissions. A file it cannot
parse is refused with the line at fault, and nothing is written; a file
or directory you made read-only is refused (PERMISSION_DENIED, exit 77).
--dry-run prints the changes as a unified diff and writes nothing;
--undo gives a file that nobody changed since back byte for byte as it
was (and removes one setup created), else takes asktui's entries out.`,
		Example: `  # See what it would change, then change it
  asktui setup claude --dry-run
  asktui setup claude

  # Only the hooks, for this project only
  asktui setup gemini --hooks --project

  # Take asktui out of Codex's configuration
  asktui setup codex --undo

  # opencode's MCP server, and opencode asking before commands and edits
  asktui setup opencode --mcp --permissions`,
		ValidArgs: setupClients,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 || !slices.Contains(setupClients, args[0]) {
				return fmt.Errorf("name the client to set up: asktui setup %s", strings.Join(setupClients, "|"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSetup(args[0], *o, e)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.mcp, "mcp", false, "the MCP server entry only")
	f.BoolVar(&o.hooks, "hooks", false, "the hooks only")
	f.BoolVar(&o.all, "all", false, "the MCP server entry and the hooks (the default)")
	f.BoolVar(&o.permissions, "permissions", false, `opencode only: its "permission" settings, bash and edit "ask", where the file does not decide them`)
	f.BoolVar(&o.project, "project", false, "write the project's files in the current directory instead of the user's")
	f.BoolVar(&o.dryRun, "dry-run", false, "print the changes as a unified diff and write nothing")
	f.BoolVar(&o.undo, "undo", false, "take asktui's entries out of the files")
	f.StringVar(&o.transport, "transport", "stdio", `how the client reaches the MCP tool: "stdio" (asktui mcp, the bridge) or "http" (asktui serve's server, with its token)`)
	f.StringVar(&o.socket, "socket", "", "the inbox's socket, for the bridge and the hooks (default: "+defaultSocketHelp+")")
	_ = cmd.RegisterFlagCompletionFunc("transport", cobra.FixedCompletions([]string{"stdio", "http"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// setupTarget is one file setup edits, and what it puts there.
type setupTarget struct {
	path  string
	toml  bool
	mode  fs.FileMode // of a new file
	edits []setupEdit
	// token is set when the file is to hold asktui's token.
	token bool
	// note is said of the file whether or not setup changes it (opencode's
	// settings that --permissions left as they are).
	note string
}

// setupEdit is one entry of a setupTarget: what it is (for the report),
// how to put it in, and how to take it out.
type setupEdit struct {
	what       string
	setJSON    func(*configfile.JSON) (bool, error)
	deleteJSON func(*configfile.JSON) (bool, error)
	setTOML    func(*configfile.TOML) (bool, error)
	deleteTOML func(*configfile.TOML) (bool, error)
}

func runSetup(client string, o setupOptions, e env) error {
	if o.transport != "stdio" && o.transport != "http" {
		return fmt.Errorf(`invalid --transport %q: use "stdio" or "http"`, o.transport)
	}
	if o.permissions && client != "opencode" {
		return fmt.Errorf("--permissions is for opencode only: %s asks as its own settings say, and asktui's hooks answer it", clientName(client))
	}
	if client == "opencode" && o.hooks {
		return setupHooksRefused(client)
	}
	if !o.mcp && !o.hooks && !o.permissions {
		o.all = true
	}
	if o.all {
		o.mcp, o.hooks = true, client != "opencode"
	}
	exe, err := e.executablePath()
	if err != nil {
		return interaction.WrapError(interaction.CodeInternal, err, "cannot find the asktui executable to write into the configuration: %v", err)
	}
	if temporaryBuild(exe) && !o.undo {
		return interaction.Errorf(interaction.CodeInvalidRequest,
			"asktui runs from a temporary build (%s, go run): the configuration would name a file that goes away; "+
				"build or install asktui (go install github.com/asktui/asktui@latest) and run that one's setup", exe)
	}
	server, err := setupServer(o, e, exe)
	if err != nil {
		return err
	}
	targets, notes, err := setupTargets(client, o, e, exe, server)
	if err != nil {
		return err
	}

	// Every file is read and edited before any is written: a file that
	// cannot be parsed leaves them all as they are.
	records := loadSetupRecords(e)
	changes := make([]configfile.Change, len(targets))
	for i, t := range targets {
		if o.undo {
			changes[i], err = t.planUndo(records)
		} else {
			changes[i], err = t.plan(false)
		}
		if err != nil {
			return setupError(err)
		}
	}
	home, _ := e.home()
	wrote := false
	for i, t := range targets {
		w, err := t.apply(e.stdout, changes[i], o, home, records)
		if err != nil {
			return err
		}
		wrote = wrote || w
	}
	if o.dryRun || o.undo || !wrote {
		return nil
	}
	for _, n := range notes {
		_, _ = fmt.Fprintln(e.stdout, n)
	}
	undo := "asktui setup " + client + " --undo"
	if o.project {
		undo += " --project"
	}
	if o.permissions {
		undo += " --permissions"
	}
	_, _ = fmt.Fprintf(e.stdout, "Restart %s to load it. To take it out again: %s\n", clientName(client), undo)
	return nil
}

// apply makes the change c to the target, or with --dry-run shows it,
// and says on w what it did; it reports whether it wrote the file.
func (t setupTarget) apply(w io.Writer, c configfile.Change, o setupOptions, home string, records *setupRecords) (bool, error) {
	name := tildePath(t.path, home)
	if t.note != "" && !o.undo {
		defer func() { _, _ = fmt.Fprintf(w, "  %s\n", t.note) }()
	}
	if !c.Changed() || c.Before == nil && o.undo {
		_, _ = fmt.Fprintf(w, "%s: %s, unchanged\n", name, t.unchanged(o.undo))
		return false, nil
	}
	if o.dryRun {
		_, _ = io.WriteString(w, c.Diff(name))
		return false, nil
	}
	backup, c, err := applyChange(t, o.undo, c, records)
	if err != nil {
		return false, setupError(err)
	}
	if !o.undo && c.Before != nil {
		// A backup that holds asktui's entries (an older setup's) is no
		// file to restore on --undo.
		if u, err := t.planFrom(c.Before, true); err != nil || u.Changed() {
			backup = ""
		}
	}
	records.wrote(t.path, c, backup)
	switch {
	case c.Remove:
		_, _ = fmt.Fprintf(w, "removed %s: asktui setup had created it, and it was as setup left it\n", name)
	case o.undo && c.Restore:
		_, _ = fmt.Fprintf(w, "restored %s: byte for byte as it was before asktui setup\n", name)
	case c.Before == nil:
		_, _ = fmt.Fprintf(w, "created %s: %s\n", name, t.what())
	case o.undo:
		_, _ = fmt.Fprintf(w, "removed asktui from %s: %s\n", name, t.what())
	default:
		_, _ = fmt.Fprintf(w, "updated %s: %s\n", name, t.what())
	}
	if backup != "" {
		_, _ = fmt.Fprintf(w, "  backup: %s\n", tildePath(backup, home))
	}
	if t.token && !o.undo {
		if _, mode, err := configfile.Read(t.path); err == nil && mode&0o077 != 0 {
			_, _ = fmt.Fprintf(w, "  WARNING: %s holds asktui's token and others can read it: chmod 600 %s\n", name, name)
		}
	}
	return true, nil
}

// setupServer is how the MCP server entry reaches asktui: the bridge, or
// serve's default address with its token.
func setupServer(o setupOptions, e env, exe string) (mcpServer, error) {
	if o.transport == "stdio" {
		return mcpServer{exe: exe, args: bridgeArgs(o.socket)}, nil
	}
	s := mcpServer{url: "http://" + DefaultListen + "/mcp"}
	if o.undo || !o.mcp {
		return s, nil
	}
	if o.dryRun && e.getenv("ASKTUI_TOKEN") == "" {
		// Peek: the token file is made on a real run, not a dry one.
		if p, err := tokenPath(e); err == nil {
			if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
				s.token = "(a new token, made when asktui setup runs)"
				return s, nil
			}
		}
	}
	token, err := loadToken("", e)
	if err != nil {
		return s, err
	}
	s.token = token
	return s, nil
}

// setupTargets lists the files setup edits for client, with their edits.
func setupTargets(client string, o setupOptions, e env, exe string, s mcpServer) ([]setupTarget, []string, error) {
	p, err := newSetupPlan(client, o, e, exe, s)
	if err != nil {
		return nil, nil, err
	}
	var mcpT, hooksT setupTarget
	var notes []string
	switch client {
	case "claude":
		mcpT, hooksT, notes = p.claude()
	case "codex":
		mcpT, hooksT, notes = p.codex()
	case "gemini":
		t, notes := p.gemini() // one file holds both
		return []setupTarget{t}, notes, nil
	case "copilot":
		mcpT, hooksT, notes = p.copilot()
	case "qwen":
		t, notes := p.qwen() // one file holds both
		return []setupTarget{t}, notes, nil
	case "opencode":
		t, notes := p.opencode() // one file, and no hooks
		return []setupTarget{t}, notes, nil
	}
	var targets []setupTarget
	if o.mcp {
		targets = append(targets, mcpT)
	}
	if o.hooks {
		targets = append(targets, hooksT)
	}
	return targets, notes, nil
}

// setupPlan is what setupTargets knows while it lists a client's files.
type setupPlan struct {
	client string
	o      setupOptions
	e      env
	exe    string
	s      mcpServer
	home   string
	base   string // the user's configuration directory, or the project
	hooks  map[string][]any
}

// newSetupPlan finds the directories setup edits in, and the hooks it
// writes.
func newSetupPlan(client string, o setupOptions, e env, exe string, s mcpServer) (*setupPlan, error) {
	p := &setupPlan{client: client, o: o, e: e, exe: exe, s: s}
	var err error
	p.home, err = e.home()
	if o.project {
		if p.base, err = os.Getwd(); err != nil {
			return nil, interaction.WrapError(interaction.CodeInternal, err, "cannot find the current directory: %v", err)
		}
	} else if err != nil {
		return nil, interaction.WrapError(interaction.CodeInternal, err, "cannot find your home directory: %v", err)
	}
	for _, h := range hookCLIs {
		if h.use != client {
			continue // opencode has none
		}
		if p.hooks, err = hookGroups(h.hooksBlock(exe, o.socket, defaultHookTimeout)); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// hooksEdit is the edit of the hooks object at path.
func (p *setupPlan) hooksEdit(path ...string) setupEdit {
	ours := func(h map[string]any) bool { return ourHook(h, p.exe) }
	return setupEdit{
		what:       "hooks " + strings.Join(sortedKeys(p.hooks), ", ") + " (asktui hook " + p.client + ")",
		setJSON:    func(d *configfile.JSON) (bool, error) { return d.SetHooks(p.hooks, ours, path...) },
		deleteJSON: func(d *configfile.JSON) (bool, error) { return d.DeleteHooks(ours, path...) },
	}
}

// serverWhat names the MCP server entry in the report.
func (p *setupPlan) serverWhat() string { return `MCP server "asktui" (` + p.s.describe() + ")" }

// jsonServer is the edit of the MCP server entry, entry, in a JSON file.
func (p *setupPlan) jsonServer(entry map[string]any) setupEdit {
	return setupEdit{
		what:       p.serverWhat(),
		setJSON:    func(d *configfile.JSON) (bool, error) { return d.Set(entry, "mcpServers", "asktui") },
		deleteJSON: func(d *configfile.JSON) (bool, error) { return d.Delete("mcpServers", "asktui") },
	}
}

// claude lists Claude Code's files: ~/.claude.json and
// ~/.claude/settings.json, or a project's .mcp.json and
// .claude/settings.json.
func (p *setupPlan) claude() (mcpT, hooksT setupTarget, notes []string) {
	dir := p.e.getenv("CLAUDE_CONFIG_DIR")
	mcpFile := filepath.Join(dir, ".claude.json")
	if dir == "" {
		dir, mcpFile = filepath.Join(p.home, ".claude"), filepath.Join(p.home, ".claude.json")
	}
	mcpT = setupTarget{path: mcpFile, mode: 0o600, edits: []setupEdit{p.jsonServer(p.s.claudeEntry())}, token: p.s.token != ""}
	hooksT = setupTarget{path: filepath.Join(dir, "settings.json"), mode: 0o644, edits: []setupEdit{p.hooksEdit("hooks")}}
	if p.o.project {
		mcpT = setupTarget{path: filepath.Join(p.base, ".mcp.json"), mode: 0o644, edits: []setupEdit{p.jsonServer(p.s.jsonEntry())}}
		hooksT.path = filepath.Join(p.base, ".claude", "settings.json")
		notes = append(notes, "Claude Code asks you once before it starts the servers of a project's .mcp.json.")
		if p.s.token != "" {
			notes = append(notes, tokenHint(p.s.token))
		}
	}
	return mcpT, hooksT, notes
}

// codex lists Codex's files: config.toml and hooks.json, in CODEX_HOME
// (~/.codex) or a project's .codex.
func (p *setupPlan) codex() (mcpT, hooksT setupTarget, notes []string) {
	dir := p.e.getenv("CODEX_HOME")
	if dir == "" {
		dir = filepath.Join(p.home, ".codex")
	}
	if p.o.project {
		dir = filepath.Join(p.base, ".codex")
		notes = append(notes, "Codex reads a project's .codex/ only once you trust the project.")
	}
	table := p.s.codexTable()
	mcpT = setupTarget{path: filepath.Join(dir, "config.toml"), toml: true, mode: 0o600, edits: []setupEdit{{
		what:       p.serverWhat(),
		setTOML:    func(d *configfile.TOML) (bool, error) { return d.SetTable(table, "mcp_servers", "asktui") },
		deleteTOML: func(d *configfile.TOML) (bool, error) { return d.DeleteTable("mcp_servers", "asktui") },
	}}}
	hooksT = setupTarget{path: filepath.Join(dir, "hooks.json"), mode: 0o644, edits: []setupEdit{p.hooksEdit("hooks")}}
	if p.o.hooks {
		notes = append(notes, "Codex runs a new or changed hook only once you trust it: open /hooks in Codex and trust asktui's.")
	}
	if p.s.token != "" {
		notes = append(notes, "asktui: Codex reads the token from ASKTUI_TOKEN; export it where codex runs: export ASKTUI_TOKEN="+shellQuote(p.s.token))
	}
	return mcpT, hooksT, notes
}

// gemini lists Gemini CLI's file, .gemini/settings.json in
// GEMINI_CLI_HOME (~) or the project, which holds both entries.
func (p *setupPlan) gemini() (t setupTarget, notes []string) {
	dir := p.e.getenv("GEMINI_CLI_HOME")
	if dir == "" {
		dir = p.home
	}
	if p.o.project {
		dir = p.base
		notes = append(notes, strings.TrimPrefix(geminiTrustHint, "asktui: ")+".")
	}
	t = setupTarget{path: filepath.Join(dir, ".gemini", "settings.json"), mode: 0o644}
	if p.o.mcp {
		notes = append(notes, geminiFolderTrustNote)
		t.edits = append(t.edits, p.jsonServer(p.s.geminiEntry()))
		t.token = p.s.token != ""
		if t.token {
			t.mode = 0o600
		}
	}
	if p.o.hooks {
		t.edits = append(t.edits, p.hooksEdit("hooks"))
	}
	return t, notes
}

// plan reads the target and returns the change its edits make (or, with
// undo, the change that takes them out).
func (t setupTarget) plan(undo bool) (configfile.Change, error) {
	before, _, err := configfile.Read(t.path)
	if err != nil {
		return configfile.Change{}, err
	}
	return t.planFrom(before, undo)
}

// planFrom is plan for the content before (nil: no file).
func (t setupTarget) planFrom(before []byte, undo bool) (configfile.Change, error) {
	c := configfile.Change{Path: t.path, Before: before, After: before, Mode: t.mode, DirMode: 0o700}
	if undo && before == nil {
		return c, nil
	}
	if t.toml {
		d, err := configfile.ParseTOML(t.path, before)
		if err != nil {
			return c, err
		}
		for _, ed := range t.edits {
			edit := ed.setTOML
			if undo {
				edit = ed.deleteTOML
			}
			if _, err := edit(d); err != nil {
				return c, err
			}
		}
		c.After = d.Bytes()
		return c, nil
	}
	d, err := configfile.ParseJSON(t.path, before)
	if err != nil {
		return c, err
	}
	for _, ed := range t.edits {
		edit := ed.setJSON
		if undo {
			edit = ed.deleteJSON
		}
		if _, err := edit(d); err != nil {
			return c, err
		}
	}
	c.After = d.Bytes()
	return c, nil
}

// applyChange writes c; when another program wrote the file since it
// was read (Claude Code rewrites ~/.claude.json as it runs), it reads the
// file again and makes the edit anew, a few times. It returns the backup
// and the change it made.
func applyChange(t setupTarget, undo bool, c configfile.Change, records *setupRecords) (string, configfile.Change, error) {
	for try := 0; ; try++ {
		backup, err := c.Apply(time.Now())
		if !errors.Is(err, configfile.ErrChanged) || try == 3 {
			return backup, c, err
		}
		if undo {
			c, err = t.planUndo(records)
		} else {
			c, err = t.plan(false)
		}
		if err != nil {
			return "", c, err
		}
		if !c.Changed() {
			return "", c, nil
		}
	}
}

// planUndo is the change --undo makes to the target. When the file is
// exactly as setup last left it, that is the file as it was before setup
// first changed it, byte for byte (its backup), or no file when setup
// created it. Otherwise (the user or the client changed it since) it is
// the file with asktui's entries taken out and all else kept.
func (t setupTarget) planUndo(records *setupRecords) (configfile.Change, error) {
	c, err := t.plan(true)
	if err != nil || c.Before == nil {
		return c, err
	}
	rec, ok := records.find(t.path)
	if !ok || rec.Wrote != digest(c.Before) {
		return c, nil
	}
	if rec.Backup == "" {
		c.Remove = true
		return c, nil
	}
	orig, _, err := configfile.Read(rec.Backup)
	if err != nil || orig == nil {
		return c, nil //nolint:nilerr // no backup to restore: take the entries out instead
	}
	c.After, c.Restore = orig, true
	return c, nil
}

// what names the target's entries for the report.
func (t setupTarget) what() string {
	var whats []string
	for _, ed := range t.edits {
		whats = append(whats, ed.what)
	}
	return strings.Join(whats, "; ")
}

// unchanged says why the target needs no change.
func (t setupTarget) unchanged(undo bool) string {
	if undo {
		return "no asktui entries"
	}
	return "already set up"
}

// setupError codes a failure to read, parse or write a configuration
// file: a file asktui cannot parse is for the user to fix
// (INVALID_REQUEST), so is one it may not write (PERMISSION_DENIED: the
// user made it read-only, or the system refused), anything else is
// INTERNAL.
func setupError(err error) error {
	var pe *configfile.ParseError
	if errors.As(err, &pe) {
		return interaction.WrapError(interaction.CodeInvalidRequest, err,
			"%v; fix the file and run asktui setup again (nothing was written)", err)
	}
	if errors.Is(err, fs.ErrPermission) {
		return interaction.WrapError(interaction.CodePermission, err,
			"%v; make it writable (chmod u+w) and run asktui setup again, or add the entries by hand (--dry-run prints them); this file was not written", err)
	}
	return interaction.WrapError(interaction.CodeInternal, err, "%v", err)
}

// hookGroups reads a hooks block ({"hooks": {event: [group, …]}}).
func hookGroups(block []byte) (map[string][]any, error) {
	var v struct {
		Hooks map[string][]any `json:"hooks"`
	}
	if err := json.Unmarshal(block, &v); err != nil {
		return nil, fmt.Errorf("the hooks block: %w", err)
	}
	return v.Hooks, nil
}

// asktuiHook matches the command line of a hook that runs `asktui hook
// <cli>`, under any path: one written by an older asktui, or from
// another install, is replaced rather than doubled.
var asktuiHook = regexp.MustCompile(`(^|[/\\'"\s])asktui(\.exe)?['"]?\s+hook\s+(claude|codex|gemini|copilot|qwen)(\s|$)`)

// ourHook reports whether a hook handler runs asktui's hook: by its
// command line (Claude Code's "command" with its "args", or the shell
// line Codex and Gemini CLI run), or the path exe setup writes.
func ourHook(h map[string]any, exe string) bool {
	line, _ := h["command"].(string)
	if args, ok := h["args"].([]any); ok {
		for _, a := range args {
			s, _ := a.(string)
			line += " " + s
		}
	}
	return asktuiHook.MatchString(line) ||
		strings.HasPrefix(line, exe+" hook ") || strings.HasPrefix(line, shellQuote(exe)+" hook ")
}

// describe says how the client reaches asktui through s.
func (s mcpServer) describe() string {
	if s.stdio() {
		return "the stdio bridge: " + filepath.Base(s.exe) + " " + strings.Join(s.args, " ")
	}
	return s.url
}

// temporaryBuild reports whether exe is a binary `go run` built, which
// is deleted when it exits.
func temporaryBuild(exe string) bool {
	return strings.Contains(exe, string(filepath.Separator)+"go-build") && filepath.Base(filepath.Dir(exe)) == "exe"
}

// tildePath writes path under home as ~/…, as people read it.
func tildePath(path, home string) string {
	if home != "" {
		if rel, err := filepath.Rel(home, path); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return "~" + string(filepath.Separator) + rel
		}
	}
	return path
}

func clientName(client string) string {
	switch client {
	case "claude":
		return "Claude Code"
	case "codex":
		return "Codex"
	case "copilot":
		return "Copilot CLI"
	case "qwen":
		return "Qwen Code"
	case "opencode":
		return "opencode"
	}
	return "Gemini CLI"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// geminiFolderTrustNote is what setup says of Gemini CLI's folder trust:
// in a folder it does not trust, Gemini starts no MCP server at all, the
// user's own included ("No MCP servers configured").
const geminiFolderTrustNote = "Gemini CLI starts MCP servers only in a folder it trusts (when its folder trust is on): " +
	"in a folder you have not trusted, or marked \"Don't trust\", it loads none, asktui's included, and /mcp says \"No MCP servers configured\". " +
	"Trust the folder when Gemini asks, or with /permissions in Gemini (the rules are in ~/.gemini/trustedFolders.json), " +
	"or start it with GEMINI_CLI_TRUST_WORKSPACE=true."

// setupRecords remembers, for each file setup wrote, what it wrote (a
// digest) and where the file as it was before setup first changed it is
// kept (its backup; none when setup created the file), so that --undo can
// restore it byte for byte when nobody changed it since. They live in
// asktui's state directory (setup.json); without them --undo takes
// asktui's entries out of the file instead.
type setupRecords struct {
	path  string
	files map[string]setupRecord
}

// setupRecord is what setupRecords keeps of one file.
type setupRecord struct {
	Wrote  string `json:"wrote"`
	Backup string `json:"backup,omitempty"`
}

// loadSetupRecords reads the records; none when there are none or they
// cannot be read.
func loadSetupRecords(e env) *setupRecords {
	r := &setupRecords{files: map[string]setupRecord{}}
	dir, err := e.stateDir()
	if err != nil {
		return r
	}
	r.path = filepath.Join(dir, "setup.json")
	if b, _, err := configfile.Read(r.path); err == nil && b != nil {
		_ = json.Unmarshal(b, &r.files)
	}
	return r
}

// key is the record's key for path: absolute, and the file a link names.
func recordKey(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	return path
}

func (r *setupRecords) find(path string) (setupRecord, bool) {
	rec, ok := r.files[recordKey(path)]
	return rec, ok
}

// wrote records the change c that setup made to path, with backup the
// copy it kept. A restore or a removal ends the record; a write after
// setup's own last write keeps the backup from before the first. A
// record that cannot be saved only makes --undo take the entries out
// instead of restoring.
func (r *setupRecords) wrote(path string, c configfile.Change, backup string) {
	if r.path == "" {
		return
	}
	key := recordKey(path)
	old, had := r.files[key]
	switch {
	case c.Remove || c.Restore:
		delete(r.files, key)
	case had && c.Before != nil && old.Wrote == digest(c.Before):
		r.files[key] = setupRecord{Wrote: digest(c.After), Backup: old.Backup}
	case c.Before == nil:
		r.files[key] = setupRecord{Wrote: digest(c.After)}
	case backup != "":
		r.files[key] = setupRecord{Wrote: digest(c.After), Backup: backup}
	default:
		delete(r.files, key)
	}
	b, err := json.MarshalIndent(r.files, "", "  ")
	if err != nil {
		return
	}
	before, _, err := configfile.Read(r.path)
	if err != nil {
		return
	}
	_, _ = configfile.Change{Path: r.path, Before: before, After: append(b, '\n'), Mode: 0o600, DirMode: 0o700, NoBackup: true}.Apply(time.Now())
}

// digest is the SHA-256 of b, in hex.
func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
