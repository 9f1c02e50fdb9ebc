package chat

import (
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/ui"
)

// testHost is the program as the room's tests play it: no keys of its
// own, a page of 20 rows, nothing waiting.
type testHost struct{}

func (testHost) Globals(bool) []ui.Action { return nil }
func (testHost) Help(bool) ui.Action      { return ui.Action{} }
func (testHost) Quit() ui.Action          { return ui.Action{} }
func (testHost) Page() int                { return 20 }
func (testHost) ToPrompt()                {}
func (testHost) Send() tea.Cmd            { return nil }
func (testHost) Cancel() tea.Cmd          { return nil }
func (testHost) NextMode() tea.Cmd        { return nil }
func (testHost) Questions() int           { return 0 }
func (testHost) Spinner() string          { return "" }

// testID is the conversation of the tests.
const testID = "conv-1"

// testChat is a chat with gemini, its long texts kept in sp (none when
// nil), drawn in the dark theme.
func testChat(t testing.TB, sp *Spill) *Chat {
	t.Helper()
	st := styles.For(styles.ThemeDark, true)
	now := time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	com := &ui.Common{Styles: st, Markdown: cell.NewMarkdown(st), Keys: keys.Default(), Now: func() time.Time { return now }}
	c := New(testID, sp, com, testHost{}, testHost{})
	c.Restyle(st)
	events(c, conversation.Event{Kind: conversation.EventInfo, Info: &conversation.Info{ID: testID, Agent: interaction.Agent{ID: testID, Name: "gemini"}}})
	return c
}

// events applies conversation events as the program takes them: then
// the transcript keeps to its budget.
func events(c *Chat, es ...conversation.Event) {
	for _, e := range es {
		e.Conversation = c.id
		c.Apply(e)
	}
	c.EnforceBudget()
}

func msgChunk(s string) conversation.Event {
	return conversation.Event{Kind: conversation.EventMessageChunk, Text: s}
}

// waitSpill waits until the spill has done what was queued.
func waitSpill(s *Spill) { s.Wait() }

// withSpill is a spill in a directory of the test's.
func withSpill(t testing.TB) *Spill {
	t.Helper()
	sp := NewSpill(t.TempDir(), nil)
	t.Cleanup(func() { _ = sp.Close() })
	return sp
}

// lastItem is the newest item of the transcript.
func lastItem(c *Chat) *convItem {
	return c.items[len(c.items)-1]
}

// drawTranscript draws the transcript at width×height, unfocused, as a
// screen that size would.
func drawTranscript(c *Chat, width, height int) string {
	v := &c.view
	v.SetSize(width, height)
	return v.View()
}

// screen is the transcript as the conversation view at 100x30 shows it,
// without styles.
func screen(c *Chat) string { return ansi.Strip(drawTranscript(c, 100, 22)) }

// press presses keys (by name) on pane p: each goes to the action whose
// key it is, as the program hands it on.
func press(t testing.TB, p ui.Pane, names ...string) {
	t.Helper()
	for _, name := range names {
		msgs, err := keys.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, msg := range msgs {
			for _, a := range p.Actions() {
				if a.Do != nil && key.Matches(msg, a.Key) {
					a.Do(msg)
					break
				}
			}
		}
	}
}

func stripped(s string) string { return ansi.Strip(s) }

func mustContain(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Fatalf("missing %q in:\n%s", sub, s)
		}
	}
}

func mustNotContain(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			t.Fatalf("unexpected %q in:\n%s", sub, s)
		}
	}
}
