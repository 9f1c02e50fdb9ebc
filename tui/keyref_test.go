package tui

import (
	"flag"
	"os"
	"strings"
	"testing"
)

// updating reports whether the tests run with -update (the flag the
// golden package defines): the key reference in docs/keys.md is rewritten too.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

const (
	keysBegin = "<!-- keys:begin (generated from tui.DefaultKeyMap; go test ./tui -run TestKeyReference -update) -->\n"
	keysEnd   = "<!-- keys:end -->"
)

// TestKeyReference fails when docs/keys.md's key tables and the key
// maps disagree.
func TestKeyReference(t *testing.T) {
	const path = "../docs/keys.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i, j := strings.Index(readme, keysBegin), strings.Index(readme, keysEnd)
	if i < 0 || j < i {
		t.Fatalf("docs/keys.md has no generated key reference between %q and %q", keysBegin, keysEnd)
	}
	got := readme[i+len(keysBegin) : j]
	want := KeyReference()
	if got == want {
		return
	}
	if updating() {
		if err := os.WriteFile(path, []byte(readme[:i+len(keysBegin)]+want+readme[j:]), 0o644); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("docs/keys.md's key reference is stale; run go test ./tui -run TestKeyReference -update\nwant:\n%s", want)
}

// Every key the help bar shows in any mode is in the reference.
func TestHelpKeysAreInTheReference(t *testing.T) {
	ref := KeyReference()
	run(t, func(t *testing.T) {
		m := testSession(t, 200, 60)
		ask(t, m, setupRequest())
		askFrom(t, m, "codex", deployQuestion())
		seen := map[mode]bool{}
		check := func() {
			seen[m.mode()] = true
			bar, _ := barKeys(m.paneFor(m.focus))
			for _, kb := range bar {
				k := kb.Help().Key
				if strings.HasPrefix(k, "1-") {
					k = "1-9" // the review numbers as many questions as it has
				}
				for _, part := range strings.Split(k, "/") {
					if !strings.Contains(ref, part) {
						t.Errorf("mode %v shows key %q, missing from the reference", m.mode(), kb.Help().Key)
					}
				}
			}
		}
		for _, keys := range [][]string{{}, {"/"}, {"esc", "end", "down"}, {"tab", "tab", "tab"}, {"tab"}, {"esc"}, {"n"}, {"tab", "up"}, {"n"}, {"esc"}, {"ctrl+g"}, {"esc", "ctrl+t"}, {"esc", "ctrl+o"}, {"esc", "?"}} {
			press(m, keys...)
			check()
		}
		for _, want := range []mode{modeQuestion, modeReview, modeConfirm, modeNote, modeInbox, modeActivity, modePast, modeHelp} {
			if !seen[want] {
				t.Errorf("mode %v never reached", want)
			}
		}
	})
}
