package cli

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
)

func TestThemeFlagAndNoColor(t *testing.T) {
	plain := env{environ: []string{"TERM=xterm-256color"}}
	noColor := env{environ: []string{"TERM=xterm-256color", "NO_COLOR=1"}}
	emptyNoColor := env{environ: []string{"NO_COLOR="}}
	for _, tt := range []struct {
		flag string
		e    env
		want styles.Theme
	}{
		{"auto", plain, styles.ThemeAuto},
		{"", plain, styles.ThemeAuto},
		{"Dark", plain, styles.ThemeDark},
		{"auto", noColor, styles.ThemeMono},
		{"auto", emptyNoColor, styles.ThemeAuto}, // set but empty: colour
		// A theme named on the command line wins over NO_COLOR.
		{"dark", noColor, styles.ThemeDark},
		{"ansi", noColor, styles.ThemeANSI},
		{"mono", plain, styles.ThemeMono},
	} {
		got, err := themeFlag(tt.flag).theme(tt.e)
		if err != nil || got != tt.want {
			t.Errorf("--theme %q with %q: %q, %v; want %q", tt.flag, tt.e.environ, got, err, tt.want)
		}
	}
	if _, err := themeFlag("neon").theme(plain); err == nil {
		t.Error(`--theme "neon" was accepted`)
	}
}

func TestEnvPaths(t *testing.T) {
	e := env{environ: []string{"HOME=/home/h", "XDG_RUNTIME_DIR=/run/user/7"}}
	if got := e.socketPath(); got != "/run/user/7/asktui/asktui.sock" {
		t.Errorf("socket %q", got)
	}
	if got := e.historyPath(""); got != "/home/h/.local/state/asktui/history.jsonl" {
		t.Errorf("history %q", got)
	}
	if got := e.historyPath("off"); got != "" {
		t.Errorf("history off %q", got)
	}
	if got := e.historyPath("h.jsonl"); got != "h.jsonl" {
		t.Errorf("history flag %q", got)
	}
	if got, err := tokenPath(e); err != nil || got != filepath.Join("/home/h", ".config", "asktui", "token") {
		t.Errorf("token %q, %v", got, err)
	}
	e.environ = append(e.environ, "XDG_CONFIG_HOME=/cfg", "XDG_STATE_HOME=/state")
	if got, err := tokenPath(e); err != nil || got != "/cfg/asktui/token" {
		t.Errorf("token %q, %v", got, err)
	}
	if got := e.historyPath(""); got != "/state/asktui/history.jsonl" {
		t.Errorf("history %q", got)
	}
	if _, err := tokenPath(env{}); err == nil {
		t.Error("a token path without HOME or XDG_CONFIG_HOME")
	}
}

func TestWithTimeout(t *testing.T) {
	ctx, cancel := withTimeout(context.Background(), 0)
	defer cancel()
	if ctx != context.Background() {
		t.Error("a zero timeout made a new context")
	}
	ctx, cancel = withTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	if err := context.Cause(ctx); interaction.CodeOf(err) != interaction.CodeTimeout {
		t.Errorf("cause %v, want ASK_TIMEOUT", err)
	}
	if checkTimeout(-time.Second) == nil || checkTimeout(0) != nil {
		t.Error("checkTimeout")
	}
}
