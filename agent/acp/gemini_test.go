package acp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
)

func TestGeminiTrust(t *testing.T) {
	home := t.TempDir()
	work := filepath.Join(home, "src", "shop")
	if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o755); err != nil { //nolint:gosec // a test's own directory; its mode is part of the set-up
		t.Fatal(err)
	}
	if err := os.MkdirAll(work, 0o755); err != nil { //nolint:gosec // a test's own directory; its mode is part of the set-up
		t.Fatal(err)
	}
	write := func(name, data string) {
		t.Helper()
		p := filepath.Join(home, ".gemini", name)
		if data == "" {
			_ = os.Remove(p)
			return
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name, env, settings, folders string
		trusted                      bool
	}{
		{"no rule", "", "", "", false},
		{"trusted by the environment", "GEMINI_CLI_TRUST_WORKSPACE=true", "", "", true},
		{"distrusted by the environment", "GEMINI_CLI_TRUST_WORKSPACE=false", "", `{"` + work + `": "TRUST_FOLDER"}`, false},
		{"restricted mode", "GEMINI_RESTRICTED_MODE=true", "", `{"` + work + `": "TRUST_FOLDER"}`, false},
		{"a parent folder trusted", "", "", `{"` + filepath.Join(home, "src") + `": "TRUST_FOLDER"}`, true},
		{"trust the parent", "", "", `{"` + filepath.Join(work, "sub") + `": "TRUST_PARENT"}`, true},
		{"the longest rule wins", "", "", `{"` + home + `": "TRUST_FOLDER", "` + work + `": "DO_NOT_TRUST"}`, false},
		{"a sibling is not a parent", "", "", `{"` + work + `2": "TRUST_FOLDER"}`, false},
		{"folder trust turned off", "", `{"security": {"folderTrust": {"enabled": false}}}`, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			write("settings.json", tt.settings)
			write("trustedFolders.json", tt.folders)
			env := []string{"HOME=" + home}
			if tt.env != "" {
				env = append(env, tt.env)
			}
			l, err := NewLauncher(Options{Asker: interaction.NewService(), Cwd: work, Environ: env})
			if err != nil {
				t.Fatal(err)
			}
			d, _ := l.def("gemini")
			note := geminiTrustNote(l, d)
			if tt.trusted != (note == "") {
				t.Fatalf("note %q, want trusted=%v", note, tt.trusted)
			}
			if !tt.trusted && (!strings.Contains(note, "GEMINI_CLI_TRUST_WORKSPACE=true") || !strings.Contains(note, work)) {
				t.Fatalf("the note does not give the fix: %q", note)
			}
		})
	}
}

// TestGeminiTrustNoteInTranscript: gemini (here the test binary, named
// gemini in agents.json) in an untrusted folder gets the note in its
// transcript once it starts.
func TestGeminiTrustNoteInTranscript(t *testing.T) {
	home := t.TempDir()
	scenario, _ := filepath.Abs("testdata/quick.yaml")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(home, ConfigFile)
	if err := os.WriteFile(cfg, []byte(`{"agent_servers": {"gemini": {"command": "`+self+`", "args": ["-test.run=^$"]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := NewLauncher(Options{Asker: interaction.NewService(), Cwd: home, ConfigPath: cfg,
		Environ: append(os.Environ(), "HOME="+home, agentModeEnv+"=scenario:"+scenario, "GEMINI_CLI_TRUST_WORKSPACE="),
		MCP:     MCPServer{Command: "/bin/asktui", Args: []string{"mcp"}}})
	if err != nil {
		t.Fatal(err)
	}
	s := newSink()
	conv, err := l.Start(context.Background(), "gemini", "", s)
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
	// The scenario agent keeps no sessions: no session line, only the note.
	if len(notes) != 1 || !strings.Contains(notes[0], "will not load asktui's MCP server") {
		t.Fatalf("notices %q", notes)
	}
	for _, a := range l.Agents() {
		if a.Name == "gemini" && !strings.Contains(a.NoResume, "cannot resume") {
			t.Fatalf("gemini (the scenario agent, which keeps no sessions): NoResume %q", a.NoResume)
		}
	}
}
