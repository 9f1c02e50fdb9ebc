package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/asktui/asktui/agent/acp"
	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/configfile"
)

// copilot lists GitHub Copilot CLI's files: mcp-config.json and
// hooks/asktui.json in COPILOT_HOME (~/.copilot), or a repository's
// .github/mcp.json and .github/hooks/asktui.json. The hook file is
// asktui's own: Copilot loads every file of its hooks directory.
func (p *setupPlan) copilot() (mcpT, hooksT setupTarget, notes []string) {
	dir := p.e.getenv("COPILOT_HOME")
	if dir == "" {
		dir = filepath.Join(p.home, ".copilot")
	}
	mcpT = setupTarget{path: filepath.Join(dir, "mcp-config.json"), mode: 0o600, edits: []setupEdit{p.jsonServer(p.s.copilotEntry())}, token: p.s.token != ""}
	hooksT = setupTarget{path: filepath.Join(dir, "hooks", "asktui.json"), mode: 0o644, edits: []setupEdit{p.copilotHooksEdit()}}
	if p.o.project {
		// A file that is committed names the token's variable.
		entry := p.s.jsonEntry()
		entry["tools"] = []any{"*"}
		github := filepath.Join(p.base, ".github")
		mcpT = setupTarget{path: filepath.Join(github, "mcp.json"), mode: 0o644, edits: []setupEdit{p.jsonServer(entry)}}
		hooksT.path = filepath.Join(github, "hooks", "asktui.json")
		notes = append(notes, "Copilot CLI loads a repository's .github/mcp.json and .github/hooks only in a folder you trust; "+
			"copilot -p only with GITHUB_COPILOT_PROMPT_MODE_WORKSPACE_MCP=true and GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true (or COPILOT_ALLOW_ALL).")
		if p.s.token != "" {
			notes = append(notes, tokenHint(p.s.token))
		}
	}
	notes = append(notes, "Copilot CLI shows its folder-trust dialog the first time it starts in a folder: answer it in Copilot's own terminal.")
	if p.o.hooks {
		notes = append(notes, "Copilot CLI runs asktui's hook before its own rules and prompt: each permission request comes to the inbox first; "+
			"with no inbox running, Copilot goes on as usual (and copilot -p, which cannot prompt, denies).")
	}
	return mcpT, hooksT, notes
}

// copilotHooksEdit is the edit of Copilot CLI's hook file, asktui.json:
// its "version" and each event's list of handlers.
func (p *setupPlan) copilotHooksEdit() setupEdit {
	return setupEdit{
		what: "hooks " + strings.Join(sortedKeys(p.hooks), ", ") + " (asktui hook copilot)",
		setJSON: func(d *configfile.JSON) (bool, error) {
			changed, err := d.Set(1, "version")
			if err != nil {
				return false, err
			}
			for _, event := range sortedKeys(p.hooks) {
				c, err := d.Set(p.hooks[event], "hooks", event)
				if err != nil {
					return false, err
				}
				changed = changed || c
			}
			return changed, nil
		},
		deleteJSON: func(d *configfile.JSON) (bool, error) {
			changed := false
			for _, event := range sortedKeys(p.hooks) {
				c, err := d.Delete("hooks", event)
				if err != nil {
					return false, err
				}
				changed = changed || c
			}
			if _, ok := d.Get("hooks"); !ok && changed {
				if _, err := d.Delete("version"); err != nil {
					return false, err
				}
			}
			return changed, nil
		},
	}
}

// qwen lists Qwen Code's file, settings.json in QWEN_HOME (~/.qwen) or
// the project's .qwen, which holds both entries.
func (p *setupPlan) qwen() (t setupTarget, notes []string) {
	dir := p.e.getenv("QWEN_HOME")
	if dir == "" {
		dir = filepath.Join(p.home, ".qwen")
	}
	if p.o.project {
		dir = filepath.Join(p.base, ".qwen")
		notes = append(notes, "With its folder trust on, Qwen Code reads a project's .qwen/settings.json only in a folder you trust.")
	}
	t = setupTarget{path: filepath.Join(dir, "settings.json"), mode: 0o644}
	if p.o.mcp {
		t.edits = append(t.edits, p.jsonServer(p.s.qwenEntry()))
		t.token = p.s.token != ""
		if t.token {
			t.mode = 0o600
		}
	}
	if p.o.hooks {
		t.edits = append(t.edits, p.hooksEdit("hooks"))
		notes = append(notes, "Qwen Code starts in its Auto approval mode, where a model decides some calls before any prompt: "+
			"choose Default (shift+tab), or set \"tools\": {\"approvalMode\": \"default\"}, for every one to come to the inbox.")
	}
	return t, notes
}

// opencodeAsk is what --permissions writes: opencode asks before its
// shell commands and edits.
var opencodeAsk = map[string]string{"bash": "ask", "edit": "ask"}

// opencode lists opencode's file: opencode.json (or opencode.jsonc, when
// only that one is there) in its configuration directory
// ($XDG_CONFIG_HOME/opencode) or the project. It holds asktui's MCP
// server ("mcp") and, with --permissions, the "permission" settings that
// make opencode ask. opencode has no command hooks.
func (p *setupPlan) opencode() (t setupTarget, notes []string) {
	dir := p.e.getenv("XDG_CONFIG_HOME")
	if dir == "" {
		dir = filepath.Join(p.home, ".config")
	}
	dir = filepath.Join(dir, "opencode")
	if p.o.project {
		dir = p.base
	}
	path := filepath.Join(dir, "opencode.json")
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Stat(path + "c"); err == nil {
			path += "c"
		}
	}
	t = setupTarget{path: path, mode: 0o644}
	if p.o.mcp {
		entry := p.s.opencodeEntry()
		t.edits = append(t.edits, setupEdit{
			what:       `MCP server "asktui" (` + p.s.describe() + ")",
			setJSON:    func(d *configfile.JSON) (bool, error) { return d.Set(entry, "mcp", "asktui") },
			deleteJSON: func(d *configfile.JSON) (bool, error) { return d.Delete("mcp", "asktui") },
		})
		if p.s.token != "" {
			notes = append(notes, tokenHint(p.s.token))
		}
	}
	if p.o.permissions {
		t.edits = append(t.edits, opencodePermissionsEdit())
		t.note = opencodeKept(path)
	} else if !p.o.undo {
		getenv := func(k string) string {
			if k == "HOME" {
				return p.home
			}
			return p.e.getenv(k)
		}
		cwd, _ := os.Getwd()
		if unasked := acp.OpencodeUnasked(getenv, cwd); len(unasked) > 0 {
			notes = append(notes, "opencode "+strings.Join(unasked, " and ")+" without asking (its permission settings do not say \"ask\"), "+
				"so under asktui run opencode none of those comes to you. asktui setup opencode --permissions adds "+acp.OpencodeAsks+
				" where your settings do not decide them (opencode's own terminal then asks too).")
		}
	}
	notes = append(notes, "opencode has no command hooks: its permission requests reach asktui through asktui run opencode.")
	return t, notes
}

// opencodePermissionsEdit is the edit of opencode's "permission": "ask"
// for bash and edit where the file does not decide them, never over a
// setting of the user's; taken out, only an "ask" of bash or edit goes.
func opencodePermissionsEdit() setupEdit {
	return setupEdit{
		what: `permission bash and edit "ask", where opencode.json does not decide them`,
		setJSON: func(d *configfile.JSON) (bool, error) {
			perm, ok := d.Get("permission")
			if !ok {
				return d.Set(opencodeAsk, "permission")
			}
			obj, isObj := perm.(map[string]any)
			if !isObj {
				return false, nil // one word for every tool: the user's
			}
			changed := false
			for _, tool := range sortedKeys(opencodeAsk) {
				if _, set := obj[tool]; set {
					continue
				}
				c, err := d.Set(opencodeAsk[tool], "permission", tool)
				if err != nil {
					return false, err
				}
				changed = changed || c
			}
			return changed, nil
		},
		deleteJSON: func(d *configfile.JSON) (bool, error) {
			changed := false
			for _, tool := range sortedKeys(opencodeAsk) {
				if v, ok := d.Get("permission", tool); ok && v == "ask" {
					c, err := d.Delete("permission", tool)
					if err != nil {
						return false, err
					}
					changed = changed || c
				}
			}
			return changed, nil
		},
	}
}

// opencodeKept says which of opencode's permission settings in path
// --permissions leaves as the user wrote them, and why; "" when none.
func opencodeKept(path string) string {
	b, _, err := configfile.Read(path)
	if err != nil || b == nil {
		return ""
	}
	d, err := configfile.ParseJSON(path, b)
	if err != nil {
		return ""
	}
	perm, ok := d.Get("permission")
	if !ok {
		return ""
	}
	if s, isWord := perm.(string); isWord {
		return fmt.Sprintf("%s says \"permission\": %q for every tool: asktui leaves your setting as it is", filepath.Base(path), s)
	}
	obj, _ := perm.(map[string]any)
	var kept []string
	for _, tool := range sortedKeys(opencodeAsk) {
		if v, set := obj[tool]; set && v != "ask" {
			kept = append(kept, fmt.Sprintf("%s (%v)", tool, v))
		}
	}
	if len(kept) == 0 {
		return ""
	}
	return filepath.Base(path) + " already decides " + strings.Join(kept, " and ") +
		": asktui leaves your settings as they are; make them \"ask\" yourself for opencode to ask"
}

// setupHooksRefused is the error for --hooks where a client has none.
func setupHooksRefused(client string) error {
	return interaction.Errorf(interaction.CodeInvalidRequest,
		"%s has no command hooks: asktui setup %s writes its MCP server; --permissions makes it ask before commands and edits, "+
			"which asktui run %s brings to you", clientName(client), client, client)
}
