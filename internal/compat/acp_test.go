package compat

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asktui/asktui/internal/compat/mockmodel"
	"github.com/asktui/asktui/internal/ptytest"
)

// acpRun drives asktui run with an adapter through every round trip a
// conversation has: a prompt and its streamed reply; the agent's shell
// tool shown, allowed (the model sees its output) and denied (the model
// sees the refusal); asktui's own MCP tool answered; a turn cancelled
// while the model streams (the model's request is dropped). Then ctrl+c
// quits with 0.
//
// With a.ownQuestion, the agent's own question tool too (a form
// elicitation), answered with "Other" text.
func acpRun(t *testing.T, w *world, mock *mockmodel.Server, env []string, a acpAgent, agent ...string) {
	t.Helper()
	log := filepath.Join(w.home, "run.log")
	run := []string{"--"}
	if a.byName {
		run = nil
	}
	if d := os.Getenv("ASKTUI_COMPAT_DUMP"); d != "" {
		// The log, and the ACP messages each way, kept for reading.
		log = filepath.Join(d, t.Name()+"-run.log")
		if !a.byName {
			agent = append([]string{"sh", "-c", `tee -a "$0.in" | "$@" | tee -a "$0.out"`, filepath.Join(d, t.Name()+"-acp")}, agent...)
		}
	}
	t.Cleanup(func() {
		if t.Failed() {
			out, _ := exec.CommandContext(context.Background(), "tail", "-c", "6000", log).Output() //nolint:gosec // the test runs a command of its own choosing
			t.Logf("asktui run's log (its end):\n%s", out)
		}
	})
	term, p := startRun(t, w, env, w.socket, log, append(run, agent...)...)

	prompt := func(text string) (mark, mmark int) {
		t.Helper()
		mark, mmark = term.Mark(), mock.Mark()
		term.typeInto("│ ", text)
		term.Type("\r")
		return mark, mmark
	}
	turnEnd := func(mark int, reply string) {
		t.Helper()
		term.WaitUntil(reply+" and the turn's end", func() bool {
			s := term.Screen()
			return strings.Contains(term.Text(mark), "enter sends ·") && strings.Contains(s, reply) && strings.Contains(s, "enter sends ·")
		})
	}

	t.Log("a prompt, its reply streamed in deltas")
	mark, _ := prompt(promptStream)
	turnEnd(mark, streamed)

	t.Log("the shell tool shown, allowed: the model gets its output")
	mark, mmark := prompt(promptShell)
	waitQuestion(term, mark)
	term.Type(pick(t, term, allow...))
	mock.WaitFor(mmark, "the shell command's output", ranShell)
	turnEnd(mark, resulted)
	w.removeShellFile(t)

	t.Log("the shell tool denied: the model gets the refusal")
	mark, mmark = prompt(promptShell)
	waitQuestion(term, mark)
	term.Type(pick(t, term, deny...))
	if a.denyEndsTurn != "" {
		turnEnd(mark, a.denyEndsTurn)
	} else {
		mock.WaitFor(mmark, "the shell command's refusal", refusedShell)
		turnEnd(mark, resulted)
	}
	w.noShellFile(t)

	t.Log("asktui's ask_user_question, answered in the conversation")
	mark, mmark = prompt(promptAsk)
	// An agent may ask permission for the MCP tool first.
	term.WaitUntil("the question, or a permission for asktui's tool", func() bool {
		return optionRe.MatchString(term.Screen())
	})
	term.WaitSeen(mark)
	if optionKey(term.Screen(), "Postgres") == "" {
		term.Type(pick(t, term, allow...))
		mark = term.Mark()
		term.WaitUntil("asktui's question", func() bool { return optionKey(term.Screen(), "Postgres") != "" })
		term.WaitSeen(mark)
	}
	term.Type(pick(t, term, "Postgres"))
	mock.WaitFor(mmark, "ask_user_question's answer", answered)
	turnEnd(mark, resulted)

	if a.ownQuestion {
		t.Log("the agent's own question (an elicitation), answered with Other text")
		mark, mmark = prompt(promptQuestion)
		term.WaitUntil("the agent's question", func() bool { return optionKey(term.Screen(), "Postgres") != "" })
		term.WaitSeen(mark)
		term.Type(pick(t, term, "Other"))
		term.Type(otherText)
		term.WaitScreen(otherText)
		term.Type("\r")
		mock.WaitFor(mmark, "the question's Other text", func(t mockmodel.Turn) bool {
			r, ok := lastResult(t)
			return ok && strings.Contains(r.Content, otherText)
		})
		turnEnd(mark, resulted)
	}

	t.Log("a turn cancelled while the model streams: the model's request ends")
	_, mmark = prompt(promptHang)
	term.WaitScreen("compat-hanging")
	term.Type("\x1b")
	mock.WaitFor(mmark, "the held request dropped", func(t mockmodel.Turn) bool { return t.Left })
	term.WaitScreen("turn cancelled")

	term.Type("\x03")
	if code := p.Wait(func() string { return term.Text(0) }); code != 0 {
		t.Fatalf("asktui run exited %d; stderr %s", code, p.Stderr.String())
	}
}

// startRun starts asktui run with args (the agent, after "--" or by its
// name) on a terminal of its own, its socket at socket and its log at log,
// and waits until the agent's session is open. An agent that fails to
// start (asktui gives session/new a minute, which Claude Code on a
// machine loaded enough can take) gets a second chance in a new run.
func startRun(t *testing.T, w *world, env []string, socket, log string, args ...string) (*vterm, *ptytest.Process) {
	t.Helper()
	// The session is open once its id shows.
	var term *vterm
	var p *ptytest.Process
	for try := 1; ; try++ {
		term = newVTerm(t)
		p = w.asktui(t, term, env, append([]string{"run", "--theme", "dark", "--history", "off",
			"--socket", socket, "--log", log}, args...)...)
		started := false
		var idle time.Time // since when the screen has shown no agent, and no start
		term.WaitUntil("the session's id, or the agent's failure", func() bool {
			s := term.Text(0)
			started = strings.Contains(s, "session") && (strings.Contains(s, "--resume=") || strings.Contains(s, "resume sessions"))
			// Failed: the screen says no agent runs and none starts, for
			// long enough not to be the first frame or one half drawn.
			scr := term.Screen()
			if !strings.Contains(scr, "No agent is running") || strings.Contains(scr, "starting") {
				idle = time.Time{}
			} else if idle.IsZero() {
				idle = time.Now()
			}
			return started || !idle.IsZero() && time.Since(idle) > 5*time.Second
		})
		if started {
			return term, p
		}
		if try == 2 {
			t.Fatalf("the agent did not start; the screen:\n%s", term.Screen())
		}
		t.Logf("the agent did not start; trying once more. The screen:\n%s", term.Screen())
		_ = p.Cmd.Process.Kill()
		<-p.Exited()
	}
}

// acpAgent says how an agent differs from the rest.
type acpAgent struct {
	// denyEndsTurn is for an agent whose only way to deny stops the turn
	// instead of telling the model (codex-acp's "No, and tell Codex what
	// to do differently", Copilot CLI's "Deny"): what the screen shows
	// when the turn ends, and the command did not run.
	denyEndsTurn string
	// ownQuestion is for an agent whose question tool the model may call
	// (claude-agent-acp's AskUserQuestion, sent as a form elicitation;
	// Qwen Code's ask_user_question, sent as a permission request).
	ownQuestion bool
	// byName starts the agent by its built-in name (asktui run NAME),
	// found on the environment's PATH, rather than as a command.
	byName bool
}

// otherText is what the human types in a question's "Other" row.
const otherText = "compat-custom-answer"

// The labels of the options that allow a tool call once, and that deny
// it, in the CLIs' permission requests and asktui's hook questions.
var (
	allow = []string{"Allow once", "Allow", "Yes", "Approve"}
	deny  = []string{"Reject", "Deny", "No", "Decline"}
)

// TestClaudeACP is asktui run with claude-agent-acp, which runs Claude
// Code (the Agent SDK's build) against the mock Anthropic API.
func TestClaudeACP(t *testing.T) {
	tl := need(t)
	mock := mockmodel.NewAnthropic(t, script)
	w := newWorld(t, tl)
	// Claude Code starts in auto mode (a classifier decides) unless told
	// otherwise; the default mode asks.
	w.writeJSON(t, ".claude/settings.json", map[string]any{"permissions": map[string]any{"defaultMode": "default"}})
	env := w.with("ANTHROPIC_BASE_URL="+mock.URL, "ANTHROPIC_API_KEY="+anthropicKey,
		// claude-agent-acp passes --dangerously-skip-permissions, which
		// Claude Code refuses as root without it.
		"IS_SANDBOX=1")
	acpRun(t, w, mock, env, acpAgent{ownQuestion: true}, filepath.Join(tl.bin, "claude-agent-acp"))
}

// TestGeminiACP is asktui run with gemini --acp against the mock Gemini
// API, in a folder it trusts (else it starts no MCP server).
func TestGeminiACP(t *testing.T) {
	tl := need(t)
	mock := mockmodel.NewGemini(t, script)
	w := newWorld(t, tl)
	geminiSettings(t, w)
	env := w.with("GOOGLE_GEMINI_BASE_URL="+mock.URL, "GEMINI_API_KEY=compat-mock-key", "GEMINI_CLI_TRUST_WORKSPACE=true")
	acpRun(t, w, mock, env, acpAgent{}, filepath.Join(tl.bin, "gemini"), "--acp")
}

// anthropicKey is the API key Claude Code sends the mock.
const anthropicKey = "sk-ant-api03-compat-mockmockmock-AAAAAAAAAAAA"

// geminiSettings writes Gemini CLI's user settings: API-key auth, no
// update checks, no usage statistics.
func geminiSettings(t *testing.T, w *world, extra ...map[string]any) {
	t.Helper()
	s := map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"general":  map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
	}
	for _, e := range extra {
		for k, v := range e {
			s[k] = v
		}
	}
	w.writeJSON(t, ".gemini/settings.json", s)
}

// TestCodexACP is asktui run with codex-acp, which runs Codex against the
// mock OpenAI Responses API. Codex is optional: see needCodex.
func TestCodexACP(t *testing.T) {
	tl, cx := needCodex(t)
	mock := mockmodel.NewOpenAI(t, script)
	w := newWorld(t, tl, cx.bin)
	codexHome(t, w, mock)
	// codex-acp starts in its "Auto review" mode, where a model reviews
	// the approvals instead of the human; "Workspace access" asks.
	acpRun(t, w, mock, w.with("COMPAT_MOCK_KEY=compat-mock-key", "INITIAL_AGENT_MODE=workspace-write"), acpAgent{denyEndsTurn: "turn cancelled"}, filepath.Join(cx.bin, "codex-acp"))
}

// codexHome writes Codex's config.toml: the mock as its model provider,
// commands outside the safe list asked about, the project trusted.
func codexHome(t *testing.T, w *world, mock *mockmodel.Server, more ...string) {
	t.Helper()
	w.writeFile(t, ".codex/config.toml", []byte(fmt.Sprintf(`model = "gpt-5.1-codex"
model_provider = "mock"
approval_policy = "on-request"
sandbox_mode = "workspace-write"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = %q
wire_api = "responses"
env_key = "COMPAT_MOCK_KEY"
request_max_retries = 0
stream_max_retries = 0

[projects.%q]
trust_level = "trusted"
%s`, mock.URL+"/v1", w.project, strings.Join(more, "\n"))))
}
