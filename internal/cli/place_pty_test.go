package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/asktui/asktui/internal/ptytest"
)

// The human's choice of place stands (tui/hold.go): a question the human
// left is never brought back by the program. Each test leaves a question
// as a person would, waits three seconds, types "3 items" at a human pace
// and checks where it went; the question left still waits, and answering
// it later proves no key reached it. tui/place_test.go pins the same
// paths on the model's clocks.

// humanPause is how long the human takes after choosing where to be
// before typing: the program's timing, not a wait for it.
const humanPause = 3 * time.Second

// typeLikeAHuman types text a key at a time, at a human pace.
func typeLikeAHuman(term *ptytest.Terminal, text string) {
	for _, r := range text {
		term.Type(string(r))
		time.Sleep(80 * time.Millisecond) // the human's pace, not a wait for asktui
	}
}

// writeAgents writes an agents.json under dir naming one scripted ACP
// agent per name, each playing testdata/acp-NAME.yaml.
func writeAgents(t *testing.T, dir string, names ...string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]any{}
	for _, n := range names {
		servers[n] = map[string]any{"command": exe, "args": []string{"demo", "--acp", "--speed", "20", abs(t, "testdata/acp-"+n+".yaml")}, "env": map[string]string{runAsMainEnv: "1"}}
	}
	b, _ := json.Marshal(map[string]any{"agent_servers": servers})
	if err := os.MkdirAll(filepath.Join(dir, "asktui"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "asktui", "agents.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// switchAway switches with the agent picker from the agent shown, who,
// to the other of the two running: the picker lists them in order, its
// cursor on the one shown.
func switchAway(t *testing.T, term *ptytest.Terminal, who string) {
	t.Helper()
	mark := term.Mark()
	term.Type("\x0c")
	term.WaitUntil(mark, "the agent picker", func() bool {
		text := term.Text(mark)
		return strings.Contains(text, "Agents") && strings.Contains(text, "acp-one") && strings.Contains(text, "acp-two")
	})
	text := term.Text(mark)
	if strings.Index(text, "acp-one") < strings.Index(text, "acp-two") == (who == "one") {
		term.Type("\x1b[B\r") // down
	} else {
		term.Type("\x1b[A\r") // up
	}
}

// askTurn sends a prompt to the agent shown and waits until its question
// takes keys; it returns who the agent is.
func askTurn(t *testing.T, term *ptytest.Terminal) string {
	t.Helper()
	mark := term.Mark()
	term.Type("go\r")
	term.WaitUntil(mark, "an agent's reply", func() bool { return strings.Contains(term.Text(mark), "I am agent-") })
	who := regexp.MustCompile(`I am agent-(one|two)`).FindStringSubmatch(term.Text(mark))[1]
	term.WaitFor(mark, "production")
	term.WaitSeen(mark)
	return who
}

// mustNotAnswer fails when, after mark, an agent said it was answered.
func mustNotAnswer(t *testing.T, term *ptytest.Terminal, mark int, what string) {
	t.Helper()
	time.Sleep(time.Second) // for a stray key's answer to come back, were there one
	if text := term.Text(mark); strings.Contains(text, "Answer for") {
		t.Fatalf("%s: a key typed %v after the human chose where to be answered a question:\n%s", what, humanPause, text)
	}
}

// Issue 24's steps: two agents; one's question on screen; the human
// switches to two and types 3 s later. The text goes to two; one's
// question still waits, and switching back returns to it.
func TestPTYSwitchingAgentsKeepsThePlace(t *testing.T) {
	skipUnderRace(t)
	dir := t.TempDir()
	writeAgents(t, dir, "one", "two")
	term := ptytest.New(t, ptytest.Options{Cols: 120, Rows: 35})
	got := runOnPTY(t, term, runEnviron(dir), func() {
		term.WaitFor(0, "enter sends")
		term.WaitUntil(0, "both agents", func() bool {
			text := term.Text(0)
			return strings.Contains(text, "one") && strings.Contains(text, "two")
		})
		start := term.Mark()
		first := askTurn(t, term)
		second := map[string]string{"one": "two", "two": "one"}[first]
		mark := term.Mark()
		switchAway(t, term, first)
		term.WaitFor(mark, "mention")
		time.Sleep(humanPause)
		typeLikeAHuman(term, "3 items")
		mustNotAnswer(t, term, start, "after switching agents")

		// Enter sends what was typed to the second agent.
		mark = term.Mark()
		term.Type("\r")
		term.WaitUntil(mark, second+"'s reply", func() bool { return strings.Contains(term.Text(mark), "I am agent-"+second) })
		if !strings.Contains(noSpace(term.Text(mark)), "3items") {
			t.Fatalf("the prompt sent to %s is not the text typed:\n%s", second, term.Text(mark))
		}
		term.WaitFor(mark, "production")
		term.WaitSeen(mark)
		answered := term.Mark()
		term.Type("1")
		waitTurnEnd(term, answered, "Answer for "+second+": Yes.")

		// Back to the first: its question, left unanswered, as it was left.
		mark = term.Mark()
		switchAway(t, term, second)
		term.WaitFor(mark, "production")
		term.WaitSeen(mark)
		answered = term.Mark()
		term.Type("2")
		waitTurnEnd(term, answered, "Answer for "+first+": No.")
		term.Type("\x03")
	}, "run", "--theme", "dark", "--history", "off", "--socket", "off", "one", "two")
	if got.code != 0 {
		t.Fatalf("exit %d, stderr %q; screen:\n%s", got.code, got.stderr, term.Text(0))
	}
}

// The transcript opened over a question and closed with esc: the keys go
// to the prompt, and the question waits until ctrl+g opens it.
func TestPTYTranscriptOverAQuestionKeepsThePlace(t *testing.T) {
	skipUnderRace(t)
	dir := t.TempDir()
	writeAgents(t, dir, "one")
	term := ptytest.New(t, ptytest.Options{})
	got := runOnPTY(t, term, runEnviron(dir), func() {
		term.WaitFor(0, "enter sends")
		start := term.Mark()
		askTurn(t, term)
		mark := term.Mark()
		term.Type("\x14") // ctrl+t
		term.WaitFor(mark, "items")
		mark = term.Mark()
		term.Type("\x1b")
		term.WaitFor(mark, "mention")
		time.Sleep(humanPause)
		typeLikeAHuman(term, "3 items")
		mustNotAnswer(t, term, start, "after the transcript")

		mark = term.Mark()
		term.Type("\x07") // ctrl+g: the one question waiting opens
		term.WaitFor(mark, "Pick")
		answered := term.Mark()
		term.Type("2")
		waitTurnEnd(term, answered, "Answer for one: No.")
		mark = term.Mark()
		term.Type("\r")
		term.WaitUntil(mark, "the prompt typed, sent", func() bool {
			return strings.Contains(noSpace(term.Text(mark)), "3items") && strings.Contains(term.Text(mark), "I am agent-one")
		})
		term.Type("\x03")
	}, "run", "--theme", "dark", "--history", "off", "--socket", "off", "one")
	if got.code != 0 && got.code != 130 {
		t.Fatalf("exit %d, stderr %q; screen:\n%s", got.code, got.stderr, term.Text(0))
	}
}

// The inbox opened from the prompt with two questions waiting, closed
// with esc: the keys go back to the prompt, and neither question opens.
func TestPTYInboxClosedKeepsThePlace(t *testing.T) {
	skipUnderRace(t)
	dir := t.TempDir()
	writeAgents(t, dir, "one", "two")
	term := ptytest.New(t, ptytest.Options{Cols: 120, Rows: 35})
	got := runOnPTY(t, term, runEnviron(dir), func() {
		term.WaitFor(0, "enter sends")
		term.WaitUntil(0, "both agents", func() bool {
			text := term.Text(0)
			return strings.Contains(text, "one") && strings.Contains(text, "two")
		})
		start := term.Mark()
		first := askTurn(t, term)
		mark := term.Mark()
		term.Type("\x05") // ctrl+e: back to the prompt, the question left
		term.WaitFor(mark, "mention")
		switchAway(t, term, first)
		second := askTurn(t, term)
		if second == first {
			t.Fatalf("the picker did not switch from %s", first)
		}
		mark = term.Mark()
		term.Type("\x05")
		term.WaitFor(mark, "questions")
		mark = term.Mark()
		term.Type("\x07") // ctrl+g: the inbox list
		term.WaitFor(mark, "Inbox")
		mark = term.Mark()
		term.Type("\x1b")
		term.WaitFor(mark, "mention")
		time.Sleep(humanPause)
		typeLikeAHuman(term, "3 items")
		mustNotAnswer(t, term, start, "after closing the inbox")

		// Opened from the inbox, the second's question takes the answer.
		mark = term.Mark()
		term.Type("\x07")
		term.WaitFor(mark, "Inbox")
		answered := term.Mark()
		term.Type("\r2")
		waitTurnEnd(term, answered, "Answer for "+second+": No.")
		term.Type("\x03")
	}, "run", "--theme", "dark", "--history", "off", "--socket", "off", "one", "two")
	if got.code != 0 && got.code != 130 {
		t.Fatalf("exit %d, stderr %q; screen:\n%s", got.code, got.stderr, term.Text(0))
	}
}

// The session view (serve, with an SSH view): the human leaves A for B
// with ctrl+n; B is answered over SSH. A is not brought back: the inbox
// list has the keys, and "3" typed 3 s later answers nothing; A waits
// until the human opens it.
func TestPTYServeNeverBringsBackAQuestionLeft(t *testing.T) {
	skipUnderRace(t)
	cs, local, remote, view := serveWithSSH(t)
	lm, rm := local.Mark(), remote.Mark()
	a := askAsync(cs, "tabs", "Use tabs for indentation?", "Yes", "No", "Later")
	local.WaitFor(lm, "indentation")
	local.WaitSeen(lm)
	remote.WaitFor(rm, "indentation")
	b := askAsync(cs, "db", "Drop the production database?", "Drop it", "Keep it")
	local.WaitFor(lm, "production") // B's row in the inbox
	lm = local.Mark()
	local.Type("\x0e") // ctrl+n: the human leaves A for B, and sees it
	local.WaitFor(lm, "Drop")

	// The SSH view answers B.
	remote.WaitFor(rm, "production")
	rm = remote.Mark()
	remote.Type("\x0e")
	remote.WaitFor(rm, "Drop") // the human's own move: keys act at once
	lm = local.Mark()
	remote.Type("1")
	if got := answerText(t, b, func() string { return remote.Text(0) }); !strings.Contains(got, `"Drop it"`) {
		t.Fatalf("B got %s", got)
	}
	local.WaitFor(lm, "answered")
	time.Sleep(humanPause)
	local.Type("3")
	select {
	case r := <-a:
		t.Fatalf("a key typed %v after B went answered A, which the human had left: %+v", humanPause, r.res)
	case <-time.After(time.Second): // for a stray key's answer to come back, were there one
	}
	// Enter opens A from the inbox list; then a key answers it.
	local.Type("\r2")
	if got := answerText(t, a, func() string { return local.Text(0) }); got != `{"answers":[{"id":"tabs","selected":["No"]}]}` {
		t.Fatalf("A got %s", got)
	}
	remote.Type("\x03")
	view.Wait(func() string { return remote.Text(0) })
}
