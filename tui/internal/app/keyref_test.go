package app

import (
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/rulebook"
	"github.com/asktui/asktui/tui/internal/ui"
)

// updating reports whether the tests run with -update (the flag the
// golden package defines): the key reference in docs/keys.md is rewritten too.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

const (
	keysBegin = "<!-- keys:begin (generated from the panes' actions, the table that dispatches keys; go test ./tui/internal/app -run TestKeyReference -update) -->\n"
	keysEnd   = "<!-- keys:end -->"
)

// refSections are docs/keys.md's tables, one per section of the ?
// overlay, in this order; a section the panes use and this list lacks
// fails the test.
var refSections = []struct{ section, title, note string }{
	{"Options", "Options", "A question with options; its last row, Other, takes a typed answer."},
	{"Answer", "A free-text answer", ""},
	{"Question", "Any question", ""},
	{"Note", "Note editor", "A note goes with the answer, beside the options chosen or the text."},
	{"Review", "Review step", "The last tab of a request with several questions."},
	{"Remember", "Remember dialog", "On a permission, with rules on: save a rule, then answer with it (docs/rules.md)."},
	{"Dialog", "Confirmations", "Declining, submitting with unanswered questions, removing a rule."},
	{"Inbox", "Inbox", "The waiting requests, in the session and conversation views."},
	{"Activity", "Activity", "The agents' activity, in the session view (`asktui serve`, `demo`)."},
	{"Past answers", "Past answers", ""},
	{"Rules", "Rules", "Your standing answers to permissions, in the session and conversation views (docs/rules.md)."},
	{"Prompt", "Prompt editor", "The conversation view (`asktui run`)."},
	{"Completions", "Completions", "Under the prompt: files after @, the agent's commands after /."},
	{"Transcript", "Transcript", "The conversation view (`asktui run`)."},
	{"Agents", "Agent picker", "The conversation view (`asktui run`)."},
	{"Help", "The keys overlay", ""},
	{"Everywhere", "Everywhere", "Beside the keys above, wherever they do not type or answer a dialog."},
}

// refEntry is one row: a key and what it does, in every state it was
// seen in.
type refEntry struct {
	key   string
	descs []string
}

// keyReference walks programs of each kind through every pane and the
// states where their keys differ, and lists every action they offer, as
// the ? overlay would: docs/keys.md is made from the same actions that
// dispatch keys and draw the help.
func keyReference(t *testing.T) string {
	t.Helper()
	seen := map[string][]*refEntry{}
	take := func(m *Model) {
		for _, a := range ui.Acting(m.paneFor(m.focus)) {
			h := a.Key.Help()
			k, desc := h.Key, h.Desc
			if a.Long != "" {
				desc = a.Long
			}
			if k == "" {
				continue
			}
			if ks := a.Key.Keys(); len(ks) > 0 && ks[0] == "1" {
				k = "1-9" // the digits of as many rows as there are
			}
			var e *refEntry
			for _, x := range seen[a.Section] {
				if x.key == k {
					e = x
				}
			}
			if e == nil {
				e = &refEntry{key: k}
				seen[a.Section] = append(seen[a.Section], e)
			}
			if desc != "" && !slices.Contains(e.descs, desc) {
				e.descs = append(e.descs, desc)
			}
		}
	}
	walk := func(m *Model, steps ...[]string) {
		take(m)
		for _, keys := range steps {
			press(m, keys...)
			take(m)
		}
	}
	run(t, func(t *testing.T) {
		m := testSession(t, 200, 60)
		ask(t, m, setupRequest())
		askFrom(t, m, "codex", deployQuestion())
		glance(m)
		walk(m, []string{"/"}, []string{"x", "enter"}, []string{"esc"}, []string{"end", "down"}, []string{"x"}, []string{"up"},
			[]string{"home", "enter"}, []string{"tab", "space"}, []string{"tab"}, []string{"tab"}, []string{"enter"}, []string{"n"},
			[]string{"1", "n"}, []string{"esc"}, []string{"esc"}, []string{"n"},
			[]string{"ctrl+g"}, []string{"esc", "ctrl+t"}, []string{"esc", "ctrl+o"}, []string{"esc", "f1"}, []string{"esc", "?"})
	})
	run(t, func(t *testing.T) {
		m := testModel(t, 60, 10)
		ask(t, m, single(interaction.Question{ID: "long", Question: strings.Repeat("A long question. ", 100), Options: opts("A", "B")}))
		glance(m)
		walk(m, []string{"1"})
		ask(t, m, richRequest())
		glance(m)
		walk(m, []string{"1"})
		ask(t, m, setupRequest())
		glance(m)
		walk(m, []string{"tab", "tab", "tab", "tab"}, []string{"?"})
	})
	run(t, func(t *testing.T) {
		m := testModel(t, 60, 20)
		ask(t, m, planRequest()) // a plan review: its pages, and the note a decline asks for
		glance(m)
		walk(m, []string{"2"})
	})
	run(t, func(t *testing.T) {
		m := testSession(t, 100, 30)
		for i := range 60 {
			tool(m, "codex", "read_file", `{"path":"f`+strings.Repeat("x", i)+`"}`, "ok")
		}
		ask(t, m, single(deployQuestion()))
		glance(m)
		walk(m, []string{"1"}, []string{"ctrl+o"}, []string{"esc", "ctrl+t", "up"})
	})
	run(t, func(t *testing.T) {
		m, f, _ := rulesSession(t, 100, 30)
		f.rules = []rulebook.RuleEntry{{RuleText: rulebook.RuleText{Line: "allow ~/src/app Bash(go test:*)"}}, {RuleText: rulebook.RuleText{Line: "deny ~/src/app Bash(rm:*)"}}}
		f.leaves = map[string][]string{"Bash(go test:*)": nil} // a rule that does not cover the call: enter only saves
		walk(m, []string{"a"}, []string{"down"}, []string{"shift+tab"}, []string{"shift+tab"}, []string{"esc", "ctrl+k"}, []string{"e"}, []string{"esc", "d"}, []string{"n"})
	})
	run(t, func(t *testing.T) {
		m, f := testRun(t, 120, 40)
		diff := &conversation.Diff{Path: "a.go", Old: str("a\n"), New: "b\n"}
		events(m, f.info.ID,
			conversation.Event{Kind: conversation.EventThoughtChunk, Text: "**Plan** it"},
			msgChunk("Done."),
			conversation.Event{Kind: conversation.EventToolCall, Tool: &conversation.ToolCall{ID: "1", Title: "edit", Kind: conversation.ToolEdit, Content: []conversation.ToolContent{{Diff: diff}}}})
		walk(m, []string{"hello"}, []string{"enter"}, []string{"up"}, []string{"down", "/"}, []string{"esc"}, []string{"ctrl+t"},
			[]string{"esc", "ctrl+l"}, []string{"esc"})
		ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: f.info.ID}, Questions: []interaction.Question{{ID: "ok", Question: "Go on?", Options: opts("Yes", "No")}}})
		ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: f.info.ID}, Questions: []interaction.Question{{ID: "why", Question: "Why?"}}})
		walk(m, []string{"ctrl+g"}, []string{"enter"})
		f.stop <- conversation.StopEndTurn // the turn started above ends
	})
	var b strings.Builder
	known := map[string]bool{}
	for _, s := range refSections {
		known[s.section] = true
		entries := seen[s.section]
		if len(entries) == 0 {
			t.Errorf("no pane offered a key of section %q", s.section)
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString("**" + s.title + ".**")
		if s.note != "" {
			b.WriteString(" " + s.note)
		}
		b.WriteString("\n\n| key | does |\n|---|---|\n")
		for _, e := range entries {
			b.WriteString("| " + mdCell(e.key) + " | " + mdCell(strings.Join(e.descs, "; ")) + " |\n")
		}
	}
	for section := range seen {
		if !known[section] {
			t.Errorf("section %q of the overlay is not in docs/keys.md's list (refSections)", section)
		}
	}
	// The accessible mode's keys are its prompts' words, not actions.
	acc := keys.Default().Accessible
	b.WriteString("\n**Accessible mode.** Plain prompts, one question at a time, options chosen by number.\n\n| key | does |\n|---|---|\n")
	for _, kb := range []key.Binding{acc.Decline, acc.Skip} {
		b.WriteString("| " + mdCell(kb.Help().Key) + " | " + mdCell(kb.Help().Desc) + " |\n")
	}
	return b.String()
}

// mdCell escapes a Markdown table cell.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "`", "\\`").Replace(s)
}

// TestKeyReference fails when docs/keys.md's key tables and the actions
// the panes offer disagree.
func TestKeyReference(t *testing.T) {
	const path = "../../../docs/keys.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, "<!-- keys:begin"), strings.Index(doc, keysEnd)
	if i < 0 || j < i {
		t.Fatalf("docs/keys.md has no generated key reference between <!-- keys:begin and %q", keysEnd)
	}
	nl := strings.IndexByte(doc[i:], '\n')
	got := doc[i+nl+1 : j]
	want := keyReference(t)
	if got == want && doc[i:i+nl+1] == keysBegin {
		return
	}
	if updating() {
		if err := os.WriteFile(path, []byte(doc[:i]+keysBegin+want+doc[j:]), 0o644); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("docs/keys.md's key reference is stale; run go test ./tui -run TestKeyReference -update\nwant:\n%s", want)
}
