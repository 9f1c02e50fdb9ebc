package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// geminiTrustNote says why Gemini CLI will leave asktui's MCP server out
// of its session, and the fix; "" when it will load it. Gemini CLI
// (0.61) starts no MCP server, those given in session/new included, in a
// folder it does not trust, and says nothing over ACP. It decides as
// checkPathTrust does in its source: GEMINI_CLI_TRUST_WORKSPACE=true
// trusts, GEMINI_RESTRICTED_MODE=true or GEMINI_CLI_TRUST_WORKSPACE=false
// distrusts; with folder trust turned off in its user settings every
// folder is trusted; otherwise the longest rule of trustedFolders.json
// that covers the folder decides, and no rule means untrusted.
func geminiTrustNote(l *Launcher, d agentDef) string {
	env := l.agentEnv(d)
	switch {
	case env("GEMINI_RESTRICTED_MODE") == "true" || env("GEMINI_CLI_TRUST_WORKSPACE") == "false":
		return geminiUntrusted(l.opts.Cwd, "its environment says not to trust it (GEMINI_RESTRICTED_MODE or GEMINI_CLI_TRUST_WORKSPACE=false)")
	case env("GEMINI_CLI_TRUST_WORKSPACE") == "true":
		return ""
	}
	home := env("GEMINI_CLI_HOME")
	if home == "" {
		home = env("HOME")
	}
	if home == "" {
		return "" // nothing to go by: say nothing rather than guess
	}
	dir := filepath.Join(home, ".gemini")
	var settings struct {
		Security struct {
			FolderTrust struct {
				Enabled *bool `json:"enabled"`
			} `json:"folderTrust"`
		} `json:"security"`
	}
	if data, err := os.ReadFile(filepath.Join(dir, "settings.json")); err == nil { //nolint:gosec // Gemini CLI's own settings, read as Gemini reads them
		if json.Unmarshal(data, &settings) != nil {
			return "" // with comments, or broken: Gemini CLI decides
		}
		if e := settings.Security.FolderTrust.Enabled; e != nil && !*e {
			return ""
		}
	}
	path := env("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
	if path == "" {
		path = filepath.Join(dir, "trustedFolders.json")
	}
	rules := map[string]string{}
	if data, err := os.ReadFile(path); err == nil && json.Unmarshal(data, &rules) != nil { //nolint:gosec // Gemini CLI's own trusted-folders file
		return ""
	}
	switch geminiTrustOf(l.opts.Cwd, rules) {
	case "TRUST_FOLDER", "TRUST_PARENT":
		return ""
	case "DO_NOT_TRUST":
		return geminiUntrusted(l.opts.Cwd, path+" says not to trust it")
	}
	return geminiUntrusted(l.opts.Cwd, "it is not among the folders Gemini CLI trusts")
}

// geminiTrustOf is the trust level of the longest rule covering dir, as
// Gemini CLI's isPathTrusted finds it, or "".
func geminiTrustOf(dir string, rules map[string]string) string {
	resolve := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return filepath.Clean(p)
	}
	dir = resolve(dir)
	best, level := -1, ""
	for rule, trust := range rules {
		effective := rule
		if trust == "TRUST_PARENT" {
			effective = filepath.Dir(rule)
		}
		e := resolve(effective)
		if (dir == e || strings.HasPrefix(dir, strings.TrimSuffix(e, string(filepath.Separator))+string(filepath.Separator))) && len(rule) > best {
			best, level = len(rule), trust
		}
	}
	return level
}

func geminiUntrusted(cwd, why string) string {
	return "Gemini CLI will not load asktui's MCP server here: it starts MCP servers only in a folder it trusts, and " + why +
		", so its own tools cannot ask through asktui's ask_user_question (its permission requests still come here). " +
		"To change that, run asktui with GEMINI_CLI_TRUST_WORKSPACE=true, or trust " + cwd + " in Gemini CLI (gemini trust)."
}
