package question

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/request"
	"github.com/asktui/asktui/tui/internal/rulebook"
	"github.com/asktui/asktui/tui/internal/tuitest"
	"github.com/asktui/asktui/tui/internal/ui"
)

// fakeHost is the program as the panel sees it: one request shown, and
// a record of what the panel asked the program to do with it.
type fakeHost struct {
	shown    *request.Request
	held     bool
	answered []interaction.Answer
	declined int
	notices  []string
}

func (h *fakeHost) Globals(bool) []ui.Action  { return nil }
func (h *fakeHost) Help(bool) ui.Action       { return ui.Action{} }
func (h *fakeHost) Quit() ui.Action           { return ui.Action{} }
func (h *fakeHost) Request() *request.Request { return h.shown }
func (h *fakeHost) Find(id uint64) *request.Request {
	if h.shown != nil && h.shown.ID == id {
		return h.shown
	}
	return nil
}
func (h *fakeHost) Answer(_ *request.Request, a interaction.Answer, notice string) tea.Cmd {
	h.answered = append(h.answered, a)
	h.notices = append(h.notices, notice)
	h.shown = nil
	return nil
}
func (h *fakeHost) Decline(_ *request.Request, notice string) tea.Cmd {
	h.declined++
	h.notices = append(h.notices, notice)
	h.shown = nil
	return nil
}
func (h *fakeHost) Notice(text string) tea.Cmd        { h.notices = append(h.notices, text); return nil }
func (h *fakeHost) Rules() rulebook.Rules             { return nil }
func (h *fakeHost) CallHeld(*request.Request) bool    { return h.held }
func (h *fakeHost) ArrivalHeld(*request.Request) bool { return false }
func (h *fakeHost) AgentColor(string) int             { return 0 }
func (h *fakeHost) Many() bool                        { return false }
func (h *fakeHost) Inline() bool                      { return false }
func (h *fakeHost) ScreenWidth() int                  { return 80 }

// permission is a Bash permission as the hooks ask it: the command is
// the question's detail, the call the human approves.
func permission() *request.Request {
	return request.New(&inbox.Request{ID: 7, Arrived: tuitest.FixedNow, Request: interaction.Request{
		Agent: &interaction.Agent{ID: "claude", Name: "Claude Code"},
		Questions: []interaction.Question{{
			ID: "permission", Header: "Bash", Question: "Allow this command?",
			Detail:  "```sh\ngo test ./...\n```",
			Options: []interaction.Option{{Label: "Allow once"}, {Label: "Deny"}},
		}},
	}})
}

// shown is the panel of h's request laid out in 80x20, its field ready.
func shown(h *fakeHost) *Pane {
	p := New(tuitest.Common(), h)
	p.Follow()
	p.ReadyField(false)
	p.SetSize(80, 20)
	_ = p.Focus()
	return &p
}

// The panel is a pane of its own: it draws the request its host shows,
// the call included, and hands the answer to its host, which owns the
// request and takes it off the screen.
func TestPanelAnswersThroughItsHost(t *testing.T) {
	h := &fakeHost{shown: permission()}
	p := shown(h)
	view := ansi.Strip(p.View())
	for _, want := range []string{"Allow this command?", "go test ./...", "Allow once", "Deny"} {
		if !strings.Contains(view, want) {
			t.Fatalf("the panel does not show %q:\n%s", want, view)
		}
	}
	if !p.HasCall() || !p.ShowsCall(0) {
		t.Fatalf("the call is not laid out on screen (has %v, shows %v)", p.HasCall(), p.ShowsCall(0))
	}
	tuitest.Press(t, p, "2")
	if len(h.answered) != 1 || strings.Join(h.answered[0].Answers[0].Selected, ",") != "Deny" {
		t.Fatalf("answered %+v, want Deny", h.answered)
	}
}

// The hold is the program's (app/hold.go): the panel grades the keys
// that answer as answers, so the program's dispatch can drop them, and
// says on screen why they do nothing while its host holds them.
func TestPanelShowsItsHostsHold(t *testing.T) {
	h := &fakeHost{shown: permission(), held: true}
	p := shown(h)
	if view := ansi.Strip(p.View()); !strings.Contains(view, "⏸ scroll to see the details") {
		t.Fatalf("the panel does not say the keys are held:\n%s", view)
	}
	msgs, err := keys.Parse("1")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range ui.Acting(p) {
		if key.Matches(msgs[0], a.Key) && a.Grade != ui.GradeAnswer {
			t.Fatalf("the key that answers is graded %v: the program would not hold it", a.Grade)
		}
	}
	if len(h.answered) != 0 {
		t.Fatalf("answered %+v", h.answered)
	}
}

// Esc asks before declining; the decline goes to the host.
func TestPanelDeclinesThroughItsHost(t *testing.T) {
	h := &fakeHost{shown: permission()}
	p := shown(h)
	tuitest.Press(t, p, "esc")
	if p.Layer() != OnConfirm || h.declined != 0 {
		t.Fatalf("layer %v, declined %d: esc must ask first", p.Layer(), h.declined)
	}
	tuitest.Press(t, p, "y")
	if h.declined != 1 {
		t.Fatalf("declined %d times, want 1", h.declined)
	}
}
