package app

import (
	"fmt"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
)

// The panel drives each question's field itself, without a huh form
// (ARCHITECTURE.md, "huh"). These tests pin what a huh form around the
// field did wrong here; each failed when the panel routed keys through
// one.

// Tab typed into a lone free-text question keeps typing: huh's Text
// completed its form on its Next key, and no key typed after it reached
// the answer.
func TestFreeTextTabKeepsTyping(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		p := ask(t, m, single(interaction.Question{ID: "n", Question: "Name?"}))
		press(m, "bill", "tab", "ing", "enter")
		r := result(t, p)
		if got := r.Answer.Answers[0].Custom; got != "billing" {
			t.Fatalf("custom = %q, want the letters typed after Tab", got)
		}
	})
}

// ctrl+e in a free-text question opens no external editor: huh's Text
// suspended the screen for $EDITOR (Text.Editor), which for a view over
// SSH ran on the server, unless its keymap was switched off.
func TestFreeTextCtrlEOpensNoEditor(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		ask(t, m, single(interaction.Question{ID: "n", Question: "Name?"}))
		glance(m)
		advance(m, time.Second)
		_, cmd := m.Update(keyMsgs("ctrl+e")[0])
		for _, msg := range flatten(cmd) {
			if fmt.Sprintf("%T", msg) == "tea.execMsg" {
				t.Fatal("ctrl+e started an external editor")
			}
		}
	})
}

// The field is sized by the layout pass, so a window that grows shows
// more options at once: huh's group hands a new height down only to a
// field taller than it, and redraws its viewport only in Update.
func TestGrownWindowShowsMoreOptions(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 80, 14)
		labels := make([]string, 40)
		for i := range labels {
			labels[i] = "option " + string(rune('A'+i%26)) + string(rune('a'+i/26))
		}
		ask(t, m, single(interaction.Question{ID: "o", Question: "Which?", Options: opts(labels...)}))
		glance(m)
		mustNotContain(t, screen(m), "option Ta")
		send(m, teaSize(80, 40))
		mustContain(t, screen(m), "option Ta")
	})
}
