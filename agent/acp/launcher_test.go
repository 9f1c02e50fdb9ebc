package acp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// launcher returns a launcher whose agents run this test binary in mode.
func launcher(t *testing.T, mode string, opts Options) (*Launcher, *interactiontest.Provider, []string) {
	t.Helper()
	human := interactiontest.NewProvider()
	svc := interaction.NewService()
	unregister, err := svc.Register(human)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(unregister)
	opts.Asker = svc
	opts.Environ = append(os.Environ(), agentModeEnv+"="+mode)
	l, err := NewLauncher(opts)
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return l, human, []string{self, "-test.run=^$"}
}

func TestMissingExecutable(t *testing.T) {
	l, err := NewLauncher(Options{Asker: interaction.NewService(), Getenv: func(string) string { return t.TempDir() }})
	if err != nil {
		t.Fatal(err)
	}
	agents := l.Agents()
	if len(agents) != len(BuiltinNames()) || len(agents) != 7 {
		t.Fatalf("agents %+v, want the seven built-ins", agents)
	}
	for _, a := range agents {
		if a.Missing == "" {
			t.Errorf("%s is not missing", a.Name)
		}
	}
	_, err = l.Start(context.Background(), "gemini", "", nil)
	if interaction.CodeOf(err) != interaction.CodeAgentNotFound || !strings.Contains(err.Error(), "npm install -g @google/gemini-cli") {
		t.Fatalf("Start gemini: %v, want AGENT_NOT_FOUND with the install hint", err)
	}
	_, err = l.Start(context.Background(), "nobody", "", nil)
	if interaction.CodeOf(err) != interaction.CodeAgentNotFound || !strings.Contains(err.Error(), "gemini, claude") {
		t.Fatalf("Start nobody: %v, want AGENT_NOT_FOUND listing the agents", err)
	}
	_, err = l.StartCommand(context.Background(), []string{"/no/such/agent"}, "", nil)
	if interaction.CodeOf(err) != interaction.CodeAgentNotFound {
		t.Fatalf("StartCommand: %v", err)
	}
}

func TestConfigFile(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil { //nolint:gosec // a test's own directory; its mode is part of the set-up
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "my-agent"), []byte("#!/bin/sh\n"), 0o755); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
		t.Fatal(err)
	}
	write := func(s string) string {
		p := filepath.Join(dir, ConfigFile)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	path := write(`{
  "agent_servers": {
    "mine": {"command": "my-agent", "args": ["--acp"], "env": {"TOKEN": "x"}},
    "gemini": {"env": {"GEMINI_API_KEY": "k"}}
  }
}`)
	l, err := NewLauncher(Options{Asker: interaction.NewService(), ConfigPath: path, Getenv: func(string) string { return bin }})
	if err != nil {
		t.Fatal(err)
	}
	var mine *conversation.AgentChoice
	for _, a := range l.Agents() {
		if a.Name == "mine" {
			mine = &a
		}
	}
	if mine == nil || mine.Missing != "" || mine.Description != "my-agent --acp" {
		t.Fatalf("mine: %+v", mine)
	}
	if d, _ := l.def("gemini"); d.env["GEMINI_API_KEY"] != "k" || d.command != "gemini" {
		t.Fatalf("gemini: %+v", d)
	}
	if env := l.environ(map[string]string{"A": "1"}); env[len(env)-1] != "A=1" {
		t.Fatalf("environ %q", env)
	}

	for _, tt := range []struct{ file, want string }{
		{"{\n  \"agent_servers\": {\n    \"x\": {\"command\": 1}\n  }\n}", "line 3"},
		{"{\n  \"agent_servers\": {\n    \"x\": {\"comand\": \"a\"}\n  }\n}", `line 3: agent "x"`},
		{"{\n  \"agent_servers\": {\n    \"x\": {\"args\": []}\n  }\n}", `agent "x" has no "command"`},
		{"{\n  \"agent_servers\": {,\n}", "line 2"},
	} {
		_, err := NewLauncher(Options{Asker: interaction.NewService(), ConfigPath: write(tt.file)})
		if interaction.CodeOf(err) != interaction.CodeInvalidRequest || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("config %q: %v, want INVALID_REQUEST naming the file and %q", tt.file, err, tt.want)
		}
	}
	if _, err := NewLauncher(Options{Asker: interaction.NewService(), ConfigPath: filepath.Join(dir, "none.json")}); err != nil {
		t.Fatalf("a missing file: %v", err)
	}
}

func TestAgentProcessFailures(t *testing.T) {
	for _, tt := range []struct {
		mode    string
		timeout time.Duration
		code    interaction.Code
		want    string
	}{
		{"garbage", 0, interaction.CodeAgentProtocol, "Starting agent v1.2"},
		{"crash", 0, interaction.CodeAgentExited, "out of cheese"},
		{"hang", 300 * time.Millisecond, interaction.CodeAgentProtocol, "did not answer initialize within"},
		// What it said on its standard error comes with the reason.
		{"hang", 300 * time.Millisecond, interaction.CodeAgentProtocol, "it said: waiting for a login token…"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			l, _, argv := launcher(t, tt.mode, Options{StartTimeout: tt.timeout})
			_, err := l.StartCommand(context.Background(), argv, "", nil)
			if interaction.CodeOf(err) != tt.code || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("StartCommand: %v, want %s with %q", err, tt.code, tt.want)
			}
		})
	}
}

// Issue 35: with RunEnv, every agent starts with that variable set to
// its conversation's id, over one it inherited; without, it is left as
// it was.
func TestAgentKnowsItRunsUnderRun(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	argv := []string{self, "-test.run=^$"}
	environ := append(os.Environ(), agentModeEnv+"=env:ASKTUI_RUN", "ASKTUI_RUN=outer")
	start := func(l *Launcher) string {
		t.Helper()
		_, err := l.StartCommand(context.Background(), argv, "", nil)
		if interaction.CodeOf(err) != interaction.CodeAgentExited {
			t.Fatalf("StartCommand: %v", err)
		}
		return err.Error()
	}
	l, err := NewLauncher(Options{Asker: interaction.NewService(), Environ: environ, RunEnv: "ASKTUI_RUN"})
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Base(self)
	for _, id := range []string{base, base + "-2"} {
		if got := start(l); !strings.Contains(got, `ASKTUI_RUN="`+id+`" set=true`) {
			t.Fatalf("the agent of conversation %s said: %s", id, got)
		}
	}
	l, err = NewLauncher(Options{Asker: interaction.NewService(), Environ: environ})
	if err != nil {
		t.Fatal(err)
	}
	if got := start(l); !strings.Contains(got, `ASKTUI_RUN="outer" set=true`) {
		t.Fatalf("without RunEnv, the agent said: %s", got)
	}
}

func TestScenarioOverAProcess(t *testing.T) {
	scenario, _ := filepath.Abs("testdata/quick.yaml")
	l, human, argv := launcher(t, "scenario:"+scenario, Options{})
	s := newSink()
	conv, err := l.StartCommand(context.Background(), argv, "", s)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conv.Close() }()
	if info := conv.Info(); info.Agent.Name != "asktui demo: quick" || info.ID != filepath.Base(argv[0]) {
		t.Fatalf("info %+v", info)
	}
	// The first time the database is chosen with a note, the second time
	// written in: the companion carries both, and the scenario reads them
	// back as claude-agent-acp does.
	for _, db := range []interaction.AnswerItem{{Selected: []string{"SQLite"}, Note: "a file is fine"}, {Custom: "DuckDB"}} {
		want := "Done: Yes, " + db.Custom + ", billing."
		if db.Custom == "" {
			want = "Done: Yes, SQLite, billing."
		}
		playQuick(t, conv, human, s, db, want)
	}
	if err := conv.Close(); err != nil {
		t.Fatal(err)
	}
	if ended := s.waitKind(t, conversation.EventEnded); ended.Err != nil {
		t.Fatalf("ended with %v", ended.Err)
	}
}

// playQuick plays testdata/quick.yaml once, answering the database
// question with db, and checks the transcript's last words.
func playQuick(t *testing.T, conv conversation.Conversation, human *interactiontest.Provider, s *sink, db interaction.AnswerItem, want string) {
	t.Helper()
	before := len(s.all())
	done := make(chan promptResult, 1)
	go func() {
		stop, err := conv.Prompt(context.Background(), []conversation.PromptPart{{Text: "go"}})
		done <- promptResult{stop, err}
	}()

	perm := human.Next(t)
	if q := perm.Req.Questions[0]; q.Question != "Allow Run the migration?" || len(q.Options) != 2 || q.Options[0].Label != "Yes" {
		t.Fatalf("permission question %+v", q)
	}
	perm.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: permissionID, Selected: []string{"Yes"}}}})

	form := human.Next(t)
	if len(form.Req.Questions) != 2 || form.Req.Questions[0].Question != "Which database?" || len(form.Req.Questions[0].Options) != 2 {
		t.Fatalf("form %+v", form.Req.Questions)
	}
	db.ID = form.Req.Questions[0].ID
	form.Answer(interaction.Answer{Answers: []interaction.AnswerItem{db, {ID: form.Req.Questions[1].ID, Custom: "billing"}}})
	res := wait(t, done)
	if res.err != nil || res.stop != conversation.StopEndTurn {
		t.Fatalf("Prompt = %q, %v", res.stop, res.err)
	}
	var text strings.Builder
	tools := 0
	for _, e := range s.all()[before:] {
		if e.Kind == conversation.EventMessageChunk {
			text.WriteString(e.Text)
		}
		if e.Kind == conversation.EventToolCall {
			tools++
		}
	}
	if !strings.Contains(text.String(), want) || tools < 2 {
		t.Fatalf("transcript %q, %d tool events; want %q", text.String(), tools, want)
	}
}

func TestFailedStartSendsNoEvents(t *testing.T) {
	l, _, argv := launcher(t, "crash", Options{})
	s := newSink()
	if _, err := l.StartCommand(context.Background(), argv, "", s); interaction.CodeOf(err) != interaction.CodeAgentExited {
		t.Fatalf("StartCommand: %v", err)
	}
	if events := s.all(); len(events) != 0 {
		t.Fatalf("a conversation that never started sent %v", kinds(events))
	}
}

// TestCloseKillsTheProcessGroup: an agent whose child holds its standard
// output open ends with Close all the same (the output's end is what the
// conversation waits for).
func TestCloseKillsTheProcessGroup(t *testing.T) {
	scenario, _ := filepath.Abs("testdata/quick.yaml")
	l, _, argv := launcher(t, "spawn:"+scenario, Options{})
	s := newSink()
	conv, err := l.StartCommand(context.Background(), argv, "", s)
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	go func() { closed <- conv.Close() }()
	if err := wait(t, closed); err != nil {
		t.Fatal(err)
	}
	if ended := s.waitKind(t, conversation.EventEnded); ended.Err != nil {
		t.Fatalf("ended with %v", ended.Err)
	}
}

// TestNoDescriptorLeft: a conversation leaves no file open behind it.
func TestNoDescriptorLeft(t *testing.T) {
	fds := func() int {
		entries, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip("no /proc/self/fd here")
		}
		return len(entries)
	}
	scenario, _ := filepath.Abs("testdata/quick.yaml")
	l, _, argv := launcher(t, "scenario:"+scenario, Options{})
	before := fds()
	for range 3 {
		conv, err := l.StartCommand(context.Background(), argv, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := conv.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if after := fds(); after > before {
		t.Fatalf("%d descriptors open before three conversations, %d after", before, after)
	}
}

// codex-acp's approvals reach the human: its built-in definition starts it
// in workspace-write unless the user chose a mode.
func TestCodexStartsWhereApprovalsReachTheHuman(t *testing.T) {
	var codex agentDef
	for _, d := range builtins() {
		if d.name == "codex" {
			codex = d
		}
	}
	none := func(string) string { return "" }
	if got := codex.envWithDefaults(none)["INITIAL_AGENT_MODE"]; got != "workspace-write" {
		t.Fatalf("INITIAL_AGENT_MODE = %q", got)
	}
	chosen := func(k string) string {
		if k == "INITIAL_AGENT_MODE" {
			return "read-only"
		}
		return ""
	}
	if _, set := codex.envWithDefaults(chosen)["INITIAL_AGENT_MODE"]; set {
		t.Fatal("the user's own mode was overridden")
	}
}
