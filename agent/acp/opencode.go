package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/tailscale/hujson"
)

// OpencodeAsks is the permission setting that makes opencode ask before
// it runs a shell command or edits a file: by default (1.18) it does both
// without asking, so that no permission request reaches asktui.
const OpencodeAsks = `"permission": {"bash": "ask", "edit": "ask"}`

// opencodeAskNote says, when opencode's settings let it run shell
// commands or edit files without asking (its default), that none of them
// will come here, and how to change that; "" when they ask (or are
// denied), or when a settings file cannot be read (opencode decides, and
// asktui does not guess). asktui never changes the setting itself: it is
// the human's policy.
func opencodeAskNote(l *Launcher, d agentDef) string {
	unasked := OpencodeUnasked(l.agentEnv(d), l.opts.Cwd)
	if len(unasked) == 0 {
		return ""
	}
	return "opencode " + strings.Join(unasked, " and ") + " without asking (its permission settings do not say \"ask\"), " +
		"so none of those permissions come here. To be asked here, add " + OpencodeAsks + " to opencode.json " +
		"(~/.config/opencode/opencode.json, or the project's), or run asktui setup opencode --permissions."
}

// OpencodeUnasked says what opencode, by its settings as it merges them
// for the directory dir (getenv its environment), does without asking:
// "runs shell commands", "edits files"; nil when it asks before both (or
// denies them), or when a settings file cannot be read.
func OpencodeUnasked(getenv func(string) string, dir string) []string {
	perm, ok := opencodePermission(getenv, dir)
	if !ok {
		return nil
	}
	var unasked []string
	for _, tool := range []string{"bash", "edit"} {
		if opencodeAction(perm, tool) == "allow" {
			unasked = append(unasked, map[string]string{"bash": "runs shell commands", "edit": "edits files"}[tool])
		}
	}
	return unasked
}

// opencodePermission is opencode's "permission" setting as it merges it
// (1.18, Config.loadInstanceState): the files of [opencodeFiles], later
// over earlier, OPENCODE_CONFIG_CONTENT and OPENCODE_PERMISSION; then its
// default agent's own (agent.build.permission). ok is false when a file
// that is there cannot be read as JSON with comments.
func opencodePermission(env func(string) string, cwd string) (perm any, ok bool) {
	var merged map[string]any
	add := func(data []byte) bool {
		std, err := hujson.Standardize(data)
		if err != nil {
			return false
		}
		var cfg map[string]any
		if json.Unmarshal(std, &cfg) != nil {
			return false
		}
		merged, _ = mergeDeep(merged, cfg).(map[string]any)
		return true
	}
	for _, f := range opencodeFiles(env, cwd) {
		data, err := os.ReadFile(f) //nolint:gosec // opencode's own configuration, read as opencode reads it
		if err != nil {
			continue
		}
		if !add(data) {
			return nil, false
		}
	}
	if content := env("OPENCODE_CONFIG_CONTENT"); content != "" && !add([]byte(content)) {
		return nil, false
	}
	perm = merged["permission"]
	if p := env("OPENCODE_PERMISSION"); p != "" {
		var v any
		if json.Unmarshal([]byte(p), &v) != nil {
			return nil, false
		}
		perm = mergeDeep(perm, v)
	}
	if agents, ok := merged["agent"].(map[string]any); ok {
		if build, ok := agents["build"].(map[string]any); ok && build["permission"] != nil {
			perm = mergeDeep(perm, build["permission"])
		}
	}
	return perm, true
}

// opencodeFiles are opencode's configuration files in the order it
// merges them: the user's config.json, opencode.json and opencode.jsonc,
// OPENCODE_CONFIG, the project's opencode.json(c) from the repository's
// root down to the working directory, the .opencode directories and
// OPENCODE_CONFIG_DIR.
func opencodeFiles(env func(string) string, cwd string) []string {
	home := env("HOME")
	configDir := env("XDG_CONFIG_HOME")
	if configDir == "" && home != "" {
		configDir = filepath.Join(home, ".config")
	}
	var files []string
	if configDir != "" {
		for _, f := range []string{"config.json", "opencode.json", "opencode.jsonc"} {
			files = append(files, filepath.Join(configDir, "opencode", f))
		}
	}
	if f := env("OPENCODE_CONFIG"); f != "" {
		files = append(files, f)
	}
	var dirs []string // the working directory up to the repository's root
	if !truthy(env("OPENCODE_DISABLE_PROJECT_CONFIG")) && cwd != "" {
		for dir := filepath.Clean(cwd); ; dir = filepath.Dir(dir) {
			dirs = append(dirs, dir)
			if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil || filepath.Dir(dir) == dir {
				break
			}
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		files = append(files, filepath.Join(dirs[i], "opencode.json"), filepath.Join(dirs[i], "opencode.jsonc"))
	}
	var extra []string
	for _, dir := range dirs {
		extra = append(extra, filepath.Join(dir, ".opencode"))
	}
	if home != "" {
		extra = append(extra, filepath.Join(home, ".opencode"))
	}
	if d := env("OPENCODE_CONFIG_DIR"); d != "" {
		extra = append(extra, d)
	}
	for _, dir := range extra {
		files = append(files, filepath.Join(dir, "opencode.json"), filepath.Join(dir, "opencode.jsonc"))
	}
	return files
}

// opencodeAction is what a permission setting decides for a call of
// tool that no narrower pattern names: the tool's own setting (a word, or
// its "*" pattern), else the setting for every tool, else opencode's
// default, "allow".
func opencodeAction(perm any, tool string) string {
	word := func(v any) string {
		switch v := v.(type) {
		case string:
			return v
		case map[string]any:
			s, _ := v["*"].(string)
			return s
		}
		return ""
	}
	if p, ok := perm.(map[string]any); ok {
		if a := word(p[tool]); a != "" {
			return a
		}
		if a, _ := p["*"].(string); a != "" {
			return a
		}
		return "allow"
	}
	if a := word(perm); a != "" {
		return a
	}
	return "allow"
}

// mergeDeep merges b over a: objects member by member, anything else
// replaced.
func mergeDeep(a, b any) any {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if !aok || !bok {
		if b == nil {
			return a
		}
		return b
	}
	out := make(map[string]any, len(am)+len(bm))
	for k, v := range am {
		out[k] = v
	}
	for k, v := range bm {
		out[k] = mergeDeep(am[k], v)
	}
	return out
}

// truthy is opencode's reading of a flag variable: "true" or "1".
func truthy(v string) bool {
	v = strings.ToLower(v)
	return v == "true" || v == "1"
}
