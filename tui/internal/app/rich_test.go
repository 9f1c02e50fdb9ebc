package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/styles"
)

const planDetail = "## Plan\n\n| step | time |\n|---|---|\n| copy rows | 2 min |\n| swap tables | 1 s |\n\n```go\nfunc migrate(db *sql.DB) error {\n\treturn db.Exec(\"INSERT INTO events_v2 SELECT * FROM events\")\n}\n```\n\nThe old table stays for a day."

func richRequest() interaction.Request {
	return interaction.Request{Agent: &interaction.Agent{ID: "claude", Name: "claude-code"}, Questions: []interaction.Question{{
		ID: "plan", Header: "Migration", Question: "Approve this plan?", Detail: planDetail,
		Options: []interaction.Option{
			{Label: "Approve", Description: "Run it now", Preview: "```sql\nINSERT INTO events_v2 SELECT * FROM events;\nDROP TABLE events;\n```"},
			{Label: "Dry run", Preview: "Prints the statements, **changes nothing**."},
			{Label: "Reject"},
		},
	}}}
}

func TestRichQuestionGolden(t *testing.T) {
	for _, theme := range []styles.Theme{styles.ThemeDark, styles.ThemeLight, styles.ThemeMono} {
		for _, size := range [][2]int{{100, 30}, {60, 20}} {
			for _, keys := range [][]string{nil, {"down"}, {"ctrl+r"}} {
				name := fmt.Sprintf("%s/%dx%d/%s", theme, size[0], size[1], strings.Join(keys, "+"))
				t.Run(name, func(t *testing.T) {
					run(t, func(t *testing.T) {
						m := testModel(t, size[0], size[1])
						m.setStyles(styles.For(theme, true))
						ask(t, m, richRequest())
						glance(m)
						press(m, keys...)
						s := screen(m)
						mustFit(t, s, size[0], size[1])
						golden.RequireEqual(t, s)
						if theme == styles.ThemeMono && (strings.Contains(m.render(), "\x1b[38") || strings.Contains(m.render(), "\x1b[48")) {
							t.Fatal("mono screen has colour")
						}
					})
				})
			}
		}
	}
}

func TestRichQuestionShowsDetailPreviewAndNote(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 100, 30)
		p := ask(t, m, richRequest())
		s := screen(m)
		mustContain(t, s, "Plan", "copy rows", "func migrate", "INSERT INTO events_v2", "Approve")
		mustNotContain(t, s, "```", "|---|")
		press(m, "down")
		mustContain(t, screen(m), "changes nothing")
		mustNotContain(t, screen(m), "DROP TABLE")
		press(m, "ctrl+r")
		mustContain(t, screen(m), "**changes nothing**")
		press(m, "ctrl+r", "n", "only after the backup", "enter")
		mustContain(t, screen(m), "✎ note: only after the backup")
		press(m, "enter")
		a := result(t, p).Answer.Answers[0]
		if a.Selected[0] != "Dry run" || a.Note != "only after the backup" {
			t.Fatalf("answer %+v, want Dry run with the note", a)
		}
	})
}

// BenchmarkPreviewDown is ↓ through options that each carry a 2,000-line
// preview, at 120x40: the preview follows the cursor without rendering
// more than a screenful. Target: ≤ 4 ms a key.
func BenchmarkPreviewDown(b *testing.B) {
	var src strings.Builder
	src.WriteString("```go\n")
	for i := range 2000 {
		fmt.Fprintf(&src, "func f%d(x int) int { return x * %d } // line %d\n", i, i, i)
	}
	src.WriteString("```\n")
	opts := make([]interaction.Option, 200)
	for i := range opts {
		opts[i] = interaction.Option{Label: fmt.Sprintf("option %d", i), Preview: fmt.Sprintf("# Option %d\n\n", i) + src.String()}
	}
	m := newModel(styles.ThemeDark, true, func() time.Time { return fixedNow })
	m.answers = newFakeInbox()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(askMsg{req: &inbox.Request{ID: 1, Request: interaction.Request{Questions: []interaction.Question{{ID: "q", Question: "Pick?", Options: opts}}}, Arrived: fixedNow}})
	m.View()
	down := keyMsgs("down")[0]
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		m.Update(down)
		m.drawn = ""
		m.View()
		if i%190 == 189 {
			m.Update(keyMsgs("home")[0])
		}
	}
}

// Agent-written text is one Markdown dialect wherever it shows: a
// question's *emphasis* and [links](…) are drawn, not shown raw, an http
// link is an OSC 8 hyperlink, and a URL is never broken across lines.
func TestQuestionTextIsMarkdown(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testModel(t, 40, 20)
		ask(t, m, single(interaction.Question{ID: "q", Question: "Pick *one*, see [the docs](https://docs.example/guide/deploy) or https://status.example/now", Options: opts("A", "B")}))
		s := screen(m)
		mustNotContain(t, s, "*one*", "[the docs]", "](")
		mustContain(t, s, "the docs", "https://status.example/now")
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "https://docs") && !strings.Contains(l, "https://docs.example/guide/deploy") && !strings.Contains(l, "…") {
				t.Fatalf("a URL broken across lines: %q", l)
			}
		}
		if !strings.Contains(m.render(), "\x1b]8;;https://docs.example/guide/deploy\a") {
			t.Fatal("the link is not a hyperlink")
		}
	})
}

// A streamed block looks the same while it streams as once its message
// is complete: both are the same Markdown.
func TestStreamedBlockKeepsItsLook(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 80, 30)
		send(m, keyMsgs("go")[0])
		send(m, keyMsgs("enter")[0])
		text := "Some *emphasis*, `code` and **bold**\nacross two lines:\n- one\n- two"
		events(m, f.info.ID, msgChunk(text))
		streaming := drawTranscript(m, 80, 20)
		mustNotContain(t, ansi.Strip(streaming), "*emphasis*", "**bold**", "- one")
		f.stop <- conversation.StopEndTurn
		send(m, turnDoneMsg{conv: f.info.ID, stop: conversation.StopEndTurn})
		done := drawTranscript(m, 80, 20)
		if !strings.Contains(done, strings.Join(lastLines(streaming, 5), "\n")) {
			t.Fatalf("the block changed its look when its message ended:\nstreaming:\n%s\ndone:\n%s", ansi.Strip(streaming), ansi.Strip(done))
		}
	})
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) []string {
	lines := strings.Split(s, "\n")
	return lines[max(len(lines)-n, 0):]
}
