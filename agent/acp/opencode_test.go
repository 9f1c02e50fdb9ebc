package acp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
)

// opencode asks about nothing unless its settings say "ask": asktui run
// says so when they do not, and not when they do, reading them as
// opencode merges them. It never changes them.
func TestOpencodeAskNote(t *testing.T) {
	home := t.TempDir()
	repo := filepath.Join(home, "src", "shop")
	work := filepath.Join(repo, "web")
	for _, d := range []string{filepath.Join(home, ".config", "opencode"), filepath.Join(repo, ".git"), work} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"user":      filepath.Join(home, ".config", "opencode", "opencode.json"),
		"userc":     filepath.Join(home, ".config", "opencode", "opencode.jsonc"),
		"repo":      filepath.Join(repo, "opencode.json"),
		"work":      filepath.Join(work, "opencode.json"),
		"above git": filepath.Join(home, "src", "opencode.json"),
	}
	for _, tt := range []struct {
		name  string
		files map[string]string
		env   []string
		asks  bool // no note
	}{
		{name: "no settings: opencode's default runs them unasked"},
		{name: "the user asks for both", files: map[string]string{"user": `{"permission": {"bash": "ask", "edit": "ask"}}`}, asks: true},
		{name: "commands only", files: map[string]string{"user": `{"permission": {"bash": "ask"}}`}},
		{name: "everything asks", files: map[string]string{"userc": "{\n // every tool\n \"permission\": \"ask\",\n}"}, asks: true},
		{name: "every tool asks, by pattern", files: map[string]string{"user": `{"permission": {"*": "ask"}}`}, asks: true},
		{name: "a command pattern asks, the rest not", files: map[string]string{"user": `{"permission": {"bash": {"*": "allow", "rm *": "ask"}, "edit": "ask"}}`}},
		{name: "the project allows over the user's ask",
			files: map[string]string{"user": `{"permission": {"bash": "ask", "edit": "ask"}}`, "work": `{"permission": {"bash": "allow"}}`}},
		{name: "the repository's root asks", files: map[string]string{"repo": `{"permission": {"bash": "ask", "edit": "deny"}}`}, asks: true},
		{name: "above the repository is not read", files: map[string]string{"above git": `{"permission": "ask"}`}},
		{name: "project settings off", files: map[string]string{"repo": `{"permission": "ask"}`}, env: []string{"OPENCODE_DISABLE_PROJECT_CONFIG=1"}},
		{name: "OPENCODE_PERMISSION", env: []string{`OPENCODE_PERMISSION={"bash":"ask","edit":"ask"}`}, asks: true},
		{name: "OPENCODE_CONFIG_CONTENT over the user's", files: map[string]string{"user": `{"permission": "ask"}`},
			env: []string{`OPENCODE_CONFIG_CONTENT={"permission":{"edit":"allow"}}`}},
		{name: "the build agent's own", files: map[string]string{"user": `{"permission": "ask", "agent": {"build": {"permission": {"bash": "allow"}}}}`}},
		{name: "a file it cannot read: opencode decides", files: map[string]string{"user": `{"permission": `}, asks: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, p := range files {
				_ = os.Remove(p)
			}
			for k, data := range tt.files {
				if err := os.WriteFile(files[k], []byte(data), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			l, err := NewLauncher(Options{Asker: interaction.NewService(), Cwd: work, Environ: append([]string{"HOME=" + home}, tt.env...)})
			if err != nil {
				t.Fatal(err)
			}
			d, _ := l.def("opencode")
			note := opencodeAskNote(l, d)
			if tt.asks != (note == "") {
				t.Fatalf("note %q, want none: %v", note, tt.asks)
			}
			if !tt.asks && (!strings.Contains(note, OpencodeAsks) || !strings.Contains(note, "asktui setup opencode --permissions")) {
				t.Fatalf("the note does not give the fix: %q", note)
			}
		})
	}
}

// TestOpencodeNoteInTranscript: opencode (here the test binary, named
// opencode in agents.json) with its default settings gets the note in its
// transcript once it starts.
func TestOpencodeNoteInTranscript(t *testing.T) {
	home := t.TempDir()
	scenario, _ := filepath.Abs("testdata/quick.yaml")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(home, ConfigFile)
	if err := os.WriteFile(cfg, []byte(`{"agent_servers": {"opencode": {"command": "`+self+`", "args": ["-test.run=^$"]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := NewLauncher(Options{Asker: interaction.NewService(), Cwd: home, ConfigPath: cfg,
		Environ: append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=", agentModeEnv+"=scenario:"+scenario)})
	if err != nil {
		t.Fatal(err)
	}
	s := newSink()
	conv, err := l.Start(context.Background(), "opencode", "", s)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conv.Close() }()
	var notes []string
	for _, e := range s.all() {
		if e.Kind == conversation.EventNotice {
			notes = append(notes, e.Text)
		}
	}
	if !slices.ContainsFunc(notes, func(n string) bool {
		return strings.Contains(n, "opencode runs shell commands and edits files without asking")
	}) {
		t.Fatalf("notices %q, want one saying opencode runs commands unasked", notes)
	}
}
