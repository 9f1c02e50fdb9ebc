//go:build !windows

package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/ptytest"
	"github.com/asktui/asktui/internal/rules"
)

// replaceEnv makes the test binary edit one rule as the screen's rules
// pane does (Store.Replace) and exit: its arguments are the rules file,
// the rule's number, its line as read and the new line.
const replaceEnv = "ASKTUI_TEST_RULES_REPLACE"

func init() {
	if os.Getenv(replaceEnv) == "1" {
		os.Exit(replaceRule(os.Args[1:]))
	}
}

// replaceRule is the child of replaceEnv: exit 0 and "Replaced rule N:
// LINE", or asktui's exit code and the error.
func replaceRule(args []string) int {
	if len(args) != 4 {
		_, _ = fmt.Fprintln(os.Stderr, "want: FILE N OLD NEW")
		return exitUsage
	}
	n, err := strconv.Atoi(args[1])
	var r rules.Rule
	if err == nil {
		r, err = rules.ParseRule(args[3])
	}
	if err == nil {
		_, err = rules.Open(args[0], "", os.Getenv("HOME")).Replace(n, args[2], r)
	}
	if err != nil {
		_, _ = fmt.Fprintln(os.Stderr, err)
		return exitCode(err)
	}
	_, _ = fmt.Printf("Replaced rule %d: %s\n", n, r)
	return exitAnswered
}

// TestRulesConcurrentProcesses runs 20 asktui rules add, 20 rules remove
// (ten of rule 7, ten of a rule by its text) and 20 edits of a rule (as
// the rules pane makes them), each in a process of its own, all at once
// on one rules file. Every change that reports success is in the file;
// every failure is a removal or an edit of a rule whose number another
// change moved, and says so; nothing else changed, and the file parses.
// Under -race, where each process starts several times slower, 8 of
// each.
func TestRulesConcurrentProcesses(t *testing.T) {
	n := 20
	if ptytest.RaceEnabled {
		n = 8
	}
	home, _ := rulesEnv(t)
	app := filepath.Join(home, "src", "app")
	path := filepath.Join(home, ".config", "asktui", "rules.conf")
	old := func(k int) string { return fmt.Sprintf("deny ~/src/app Bash(old%d:*)", k) }
	var initial []string
	for k := 1; k <= 30; k++ {
		initial = append(initial, old(k))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(initial, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	type change struct {
		kind   string // add, remove7, removeText, edit
		k      int
		cmd    *exec.Cmd
		stdout bytes.Buffer
		stderr bytes.Buffer
		code   int
	}
	command := func(kind string, k int, env string, args ...string) *change {
		c := &change{kind: kind, k: k, cmd: exec.CommandContext(context.Background(), exe, args...)} //nolint:gosec // the test runs itself
		c.cmd.Env = []string{env + "=1", "PATH=" + os.Getenv("PATH"), "HOME=" + home,
			"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
			// Under -race a process waits a second at exit unless told not to.
			"GORACE=atexit_sleep_ms=0"}
		if cover := os.Getenv("GOCOVERDIR"); cover != "" {
			c.cmd.Env = append(c.cmd.Env, "GOCOVERDIR="+cover)
		}
		c.cmd.Stdout, c.cmd.Stderr = &c.stdout, &c.stderr
		return c
	}
	var changes []*change
	// Rules 1 to 6 keep their numbers (only rules from 7 on go), so
	// their edits succeed; rules 7 to 20 may move before their edit, and
	// rule 7 before its removal; the rules removed by their text are
	// after every rule edited.
	for i := 1; i <= n; i++ {
		changes = append(changes,
			command("add", i, runAsMainEnv, "rules", "add", "--deny", "--dir", app, fmt.Sprintf("Bash(new%d:*)", i)),
			command("edit", i, replaceEnv, path, strconv.Itoa(i), old(i), fmt.Sprintf("allow ~/src/app Bash(edit%d:*)", i)))
		if i <= n/2 {
			changes = append(changes, command("remove7", 7, runAsMainEnv, "rules", "remove", "7"))
		} else {
			k := 20 + i - n/2
			changes = append(changes, command("removeText", k, runAsMainEnv, "rules", "remove", old(k)))
		}
	}
	began := time.Now()
	var wg sync.WaitGroup
	for _, c := range changes {
		wg.Go(func() {
			err := c.cmd.Run()
			c.code = c.cmd.ProcessState.ExitCode()
			if err != nil && c.code <= 0 {
				t.Errorf("%s %d: %v", c.kind, c.k, err)
			}
		})
	}
	wg.Wait()
	t.Logf("%d processes in %v", len(changes), time.Since(began).Round(time.Millisecond))

	data, err := os.ReadFile(path) //nolint:gosec // the test's own file
	if err != nil {
		t.Fatal(err)
	}
	set, err := rules.Parse(data, home)
	if err != nil {
		t.Fatalf("the file does not parse: %v\n%s", err, data)
	}
	// What the successes made and unmade, each line once.
	made, unmade := map[string]bool{}, map[string]string{}
	for _, l := range initial {
		made[l] = true
	}
	undo := func(line string, c *change) {
		if by, ok := unmade[line]; ok {
			t.Errorf("%s by %s %d, and again by %s", line, by, c.k, c.kind)
		}
		unmade[line] = fmt.Sprintf("%s %d", c.kind, c.k)
	}
	for _, c := range changes {
		out := strings.TrimSpace(c.stdout.String())
		if c.code != exitAnswered {
			// Only a number another change moved may fail.
			if c.kind == "add" || c.kind == "removeText" || c.kind == "edit" && c.k < 7 ||
				c.code != exitUsage || !strings.Contains(c.stderr.String(), string(interaction.CodeInvalidRule)) ||
				!strings.Contains(c.stderr.String(), "changed since it was read") {
				t.Errorf("%s %d: exit %d, stdout %q, stderr %q", c.kind, c.k, c.code, out, c.stderr.String())
			}
			continue
		}
		switch c.kind {
		case "add":
			line := fmt.Sprintf("deny ~/src/app Bash(new%d:*)", c.k)
			if !strings.HasPrefix(out, "Added rule ") || !strings.Contains(out, ": "+line+"\n") {
				t.Errorf("add %d: %q", c.k, out)
			}
			made[line] = true
		case "remove7", "removeText":
			_, line, ok := strings.Cut(out, ": ")
			if !ok || strings.Contains(line, "\n") || c.kind == "remove7" && !strings.HasPrefix(out, "Removed rule 7: ") ||
				c.kind == "removeText" && line != old(c.k) {
				t.Errorf("%s %d: %q", c.kind, c.k, out)
			}
			undo(line, c)
		case "edit":
			line := fmt.Sprintf("allow ~/src/app Bash(edit%d:*)", c.k)
			if out != fmt.Sprintf("Replaced rule %d: %s", c.k, line) {
				t.Errorf("edit %d: %q", c.k, out)
			}
			made[line] = true
			undo(old(c.k), c)
		}
	}
	want := map[string]bool{}
	for l := range made {
		if _, ok := unmade[l]; !ok {
			want[l] = true
		}
	}
	for l, by := range unmade {
		if !made[l] {
			t.Errorf("%s reports removing %s, which no change made", by, l)
		}
	}
	got := map[string]bool{}
	for _, r := range set.Rules() {
		l := r.String()
		if got[l] {
			t.Errorf("%s is in the file twice", l)
		}
		got[l] = true
		if !want[l] {
			t.Errorf("%s is in the file, but a change that succeeded took it out (%s)", l, unmade[l])
		}
	}
	for l := range want {
		if !got[l] {
			t.Errorf("%s should be in the file, but is not", l)
		}
	}
	ok := map[string]int{}
	for _, c := range changes {
		if c.code == exitAnswered {
			ok[c.kind]++
		}
	}
	t.Logf("succeeded: %v; %d rules left", ok, set.Len())
	if t.Failed() {
		t.Logf("the file:\n%s", data)
	}
}
