package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/asktui/asktui/agent/socket"
	"github.com/asktui/asktui/interaction/history"
	"github.com/asktui/asktui/styles"
)

// env is everything a run of asktui takes from its process, so tests can
// run the whole CLI with buffers, their own environment and a fake (or
// pseudo) terminal.
//
// It is the one place the command line reads the environment: no package
// below it calls os.Getenv. The variables it consults are ACCESSIBLE,
// NO_COLOR, TERM, HOME, XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_DATA_HOME,
// XDG_RUNTIME_DIR, TMPDIR, ASKTUI_TOKEN and GOGC, and for asktui setup
// the clients' own CLAUDE_CONFIG_DIR, CODEX_HOME and GEMINI_CLI_HOME; the UI gets the whole
// environment to describe the terminal (TERM, COLORTERM, TMUX …).
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// environ is the process environment (KEY=value).
	environ []string
	// openTTY opens the controlling terminal the UI draws on and reads keys
	// from; tea.OpenTTY in production. It may return the same file twice.
	openTTY func() (in, out *os.File, err error)
	// build is the release's version and commit, for --version and the
	// MCP server's implementation info.
	build Build
	// executable returns the path of this program, which the printed
	// configs and asktui setup start; os.Executable when nil.
	executable func() (string, error)
}

// exe is the path of this program as the configs name it, or "asktui"
// when it cannot be found.
func (e env) exe() string {
	exe, err := e.executablePath()
	if err != nil {
		return "asktui"
	}
	return exe
}

// executablePath is the path of this program.
func (e env) executablePath() (string, error) {
	if e.executable != nil {
		return e.executable()
	}
	return os.Executable()
}

// getenv looks key up in e.environ; the last assignment wins, as in the
// shell.
func (e env) getenv(key string) string {
	val := ""
	for _, kv := range e.environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			val = v
		}
	}
	return val
}

// accessible reports whether ACCESSIBLE asks for plain, linear prompts.
func (e env) accessible() bool { return e.getenv("ACCESSIBLE") != "" }

// noColor reports whether the NO_COLOR convention (https://no-color.org)
// asks for output without colour: the variable is set and not empty.
func (e env) noColor() bool { return e.getenv("NO_COLOR") != "" }

// home returns the user's home directory, as os.UserHomeDir finds it, but
// in e's environment.
func (e env) home() (string, error) {
	key := "HOME"
	if runtime.GOOS == "windows" {
		key = "USERPROFILE"
	}
	if dir := e.getenv(key); dir != "" {
		return dir, nil
	}
	return "", errors.New("$" + key + " is not defined")
}

// configDir is asktui's configuration directory: $XDG_CONFIG_HOME/asktui,
// else ~/.config/asktui.
func (e env) configDir() (string, error) {
	if dir := e.getenv("XDG_CONFIG_HOME"); dir != "" {
		return filepath.Join(dir, "asktui"), nil
	}
	home, err := e.home()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".config", "asktui"), nil
}

// stateDir is asktui's state directory: $XDG_STATE_HOME/asktui, else
// ~/.local/state/asktui (where the history is too).
func (e env) stateDir() (string, error) {
	if dir := e.getenv("XDG_STATE_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "asktui"), nil
	}
	home, err := e.home()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "state", "asktui"), nil
}

// dataDir is asktui's data directory: $XDG_DATA_HOME/asktui, else
// ~/.local/share/asktui.
func (e env) dataDir() (string, error) {
	if dir := e.getenv("XDG_DATA_HOME"); dir != "" {
		return filepath.Join(dir, "asktui"), nil
	}
	home, err := e.home()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share", "asktui"), nil
}

// socketPath is where the inbox's socket is unless --socket says
// otherwise.
func (e env) socketPath() string { return socket.DefaultPath(e.getenv) }

// historyPath resolves the history file: flag, else the default in e's
// environment; "off" means none, and so does "" when there is no default.
func (e env) historyPath(flag string) string {
	switch flag {
	case "off":
		return ""
	case "":
		return history.DefaultPath(e.getenv)
	}
	return flag
}

// theme resolves a valid --theme choice in e: NO_COLOR turns ThemeAuto
// into ThemeMono, and a theme named on the command line wins over it, as
// https://no-color.org asks.
func (e env) theme(t styles.Theme) styles.Theme {
	if t == styles.ThemeAuto && e.noColor() {
		return styles.ThemeMono
	}
	return t
}
