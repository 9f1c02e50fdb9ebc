package inboxlist

import (
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/request"
	"github.com/asktui/asktui/tui/internal/ui"
)

var now = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

// fakeHost is the program as the list sees it, recording what the list
// asked of it.
type fakeHost struct {
	reqs   []*request.Request
	opened []int
	back   int
}

func (h *fakeHost) Globals(bool) []ui.Action       { return nil }
func (h *fakeHost) Help(bool) ui.Action            { return ui.Action{} }
func (h *fakeHost) Quit() ui.Action                { return ui.Action{} }
func (h *fakeHost) Requests() []*request.Request   { return h.reqs }
func (h *fakeHost) Active() int                    { return 0 }
func (h *fakeHost) AgentColor(string) int          { return 0 }
func (h *fakeHost) Open(i int)                     { h.opened = append(h.opened, i) }
func (h *fakeHost) GoBack()                        { h.back++ }
func (h *fakeHost) ask(id uint64, agent, q string) { h.reqs = append(h.reqs, waiting(id, agent, q)) }

func waiting(id uint64, agent, q string) *request.Request {
	return request.New(&inbox.Request{ID: id, Arrived: now.Add(-time.Minute), Request: interaction.Request{
		Agent:     &interaction.Agent{ID: agent, Name: agent},
		Questions: []interaction.Question{{ID: "q", Question: q, Options: []interaction.Option{{Label: "Yes"}, {Label: "No"}}}},
	}})
}

func common() *ui.Common {
	st := styles.For(styles.ThemeDark, true)
	return &ui.Common{Styles: st, Markdown: cell.NewMarkdown(st), Keys: keys.Default(), Now: func() time.Time { return now }}
}

// press runs the first action of p that k matches, as the program's
// dispatch does.
func press(t *testing.T, p ui.Pane, k string) {
	t.Helper()
	msgs, err := keys.Parse(k)
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range msgs {
		for _, a := range ui.Acting(p) {
			if key.Matches(msg, a.Key) {
				a.Do(msg)
				break
			}
		}
	}
}

// The list is a pane of its own: it draws the requests its host holds,
// moves its cursor itself, and asks its host to open one or to go back;
// it changes nothing of the program's.
func TestListAsksItsHost(t *testing.T) {
	h := &fakeHost{}
	h.ask(1, "claude", "Deploy now?")
	h.ask(2, "gemini", "Which database?")
	p := New(common(), h)
	p.SetSize(60, 10)
	_ = p.Focus()
	view := ansi.Strip(p.View())
	for _, want := range []string{"Inbox · 2 requests", "claude", "Deploy now?", "gemini", "Which database?"} {
		if !strings.Contains(view, want) {
			t.Fatalf("the list does not show %q:\n%s", want, view)
		}
	}
	press(t, &p, "down")
	press(t, &p, "enter")
	if len(h.opened) != 1 || h.opened[0] != 1 {
		t.Fatalf("opened %v, want the second request (1)", h.opened)
	}
	press(t, &p, "esc")
	if h.back != 1 {
		t.Fatalf("went back %d times, want 1", h.back)
	}
}
