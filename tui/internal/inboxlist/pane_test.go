package inboxlist

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/tui/internal/request"
	"github.com/asktui/asktui/tui/internal/tuitest"
	"github.com/asktui/asktui/tui/internal/ui"
)

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
	return request.New(&inbox.Request{ID: id, Arrived: tuitest.FixedNow.Add(-time.Minute), Request: interaction.Request{
		Agent:     &interaction.Agent{ID: agent, Name: agent},
		Questions: []interaction.Question{{ID: "q", Question: q, Options: []interaction.Option{{Label: "Yes"}, {Label: "No"}}}},
	}})
}

// The list is a pane of its own: it draws the requests its host holds,
// moves its cursor itself, and asks its host to open one or to go back;
// it changes nothing of the program's.
func TestListAsksItsHost(t *testing.T) {
	h := &fakeHost{}
	h.ask(1, "claude", "Deploy now?")
	h.ask(2, "gemini", "Which database?")
	p := New(tuitest.Common(), h)
	p.SetSize(60, 10)
	_ = p.Focus()
	view := ansi.Strip(p.View())
	for _, want := range []string{"Inbox · 2 requests", "claude", "Deploy now?", "gemini", "Which database?"} {
		if !strings.Contains(view, want) {
			t.Fatalf("the list does not show %q:\n%s", want, view)
		}
	}
	tuitest.Press(t, &p, "down")
	tuitest.Press(t, &p, "enter")
	if len(h.opened) != 1 || h.opened[0] != 1 {
		t.Fatalf("opened %v, want the second request (1)", h.opened)
	}
	tuitest.Press(t, &p, "esc")
	if h.back != 1 {
		t.Fatalf("went back %d times, want 1", h.back)
	}
}
