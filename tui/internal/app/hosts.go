package app

import (
	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/tui/internal/chat"
	"github.com/asktui/asktui/tui/internal/request"
	"github.com/asktui/asktui/tui/internal/rulebook"
	"github.com/asktui/asktui/tui/internal/ui"
)

// This file is everything a pane may ask of the program. No pane holds
// the root model: each declares, beside itself, the small interface of
// what it needs (its host), and the program hands it one of the types
// below, which answer from the model. A pane changes what only it owns;
// what the program owns (the requests, the focus, the status line) it
// asks the program to change, through its host.

// paneKeys are the program's keys as a pane of focus f offers them.
type paneKeys struct {
	m *Model
	f focus
}

func (k paneKeys) Globals(typing bool) []ui.Action { return k.m.globals(k.f, typing) }
func (k paneKeys) Help(typing bool) ui.Action      { return k.m.helpAction(typing) }
func (k paneKeys) Quit() ui.Action                 { return k.m.quitAction() }

// keysFrom are the program's keys offered from the pane of focus f.
func (m *Model) keysFrom(f focus) paneKeys { return paneKeys{m: m, f: f} }

// forPast is the program as the past answers see it.
type forPast struct{ paneKeys }

func (h forPast) GoBack()                        { h.m.goBack() }
func (h forPast) Notice(text string) tea.Cmd     { return h.m.setNotice(text) }
func (h forPast) AgentColor(agentKey string) int { return h.m.log.Color(agentKey) }

// forInbox is the program as the inbox list sees it.
type forInbox struct{ paneKeys }

func (h forInbox) Requests() []*request.Request   { return h.m.requests }
func (h forInbox) Active() int                    { return h.m.active }
func (h forInbox) AgentColor(agentKey string) int { return h.m.log.Color(agentKey) }
func (h forInbox) GoBack()                        { h.m.goBack() }

// Open shows request i, when it still waits, and gives the panel the
// keys.
func (h forInbox) Open(i int) {
	if i < len(h.m.requests) {
		h.m.show(i)
	}
	h.m.focus = focusPanel
}

// forActivity is the program as the activity pane sees it.
type forActivity struct{ paneKeys }

func (h forActivity) Spinner() string { return h.m.spin.View() }
func (h forActivity) Page() int       { return h.m.page() }
func (h forActivity) ShowPanel()      { h.m.focus = focusPanel }

// forIdle is the program as the idle screen sees it.
type forIdle struct{ paneKeys }

func (h forIdle) Session() bool  { return h.m.kind == kindSession }
func (h forIdle) Waiting() int   { return len(h.m.requests) }
func (h forIdle) Status() string { return h.m.status }
func (h forIdle) Inline() bool   { return h.m.inline }

// forAgents is the program as the agent picker sees it.
type forAgents struct{ paneKeys }

func (h forAgents) Pick(row *chat.Row) tea.Cmd { return h.m.pick(row) }
func (h forAgents) ToPrompt()                  { h.m.toPrompt() }

// forTranscript is the program as a transcript sees it.
type forTranscript struct{ paneKeys }

func (h forTranscript) Page() int { return h.m.page() }
func (h forTranscript) ToPrompt() { h.m.toPrompt() }

// forPrompt is the program as a prompt editor sees it.
type forPrompt struct{ paneKeys }

func (h forPrompt) Send() tea.Cmd     { return h.m.sendPrompt() }
func (h forPrompt) Cancel() tea.Cmd   { return h.m.cancelTurn() }
func (h forPrompt) NextMode() tea.Cmd { return h.m.nextMode() }
func (h forPrompt) Questions() int    { return request.QuestionCount(h.m.requests) }
func (h forPrompt) Spinner() string   { return h.m.spin.View() }

// forRules is the program as the rules pane sees it.
type forRules struct{ paneKeys }

func (h forRules) Rules() rulebook.Rules      { return h.m.rules }
func (h forRules) Notice(text string) tea.Cmd { return h.m.setNotice(text) }
func (h forRules) GoBack()                    { h.m.goBack() }

// forOverlay is the program as the ? overlay sees it.
type forOverlay struct{ paneKeys }

func (h forOverlay) Under() ui.Pane { return h.m.paneFor(h.m.back) }
func (h forOverlay) Close()         { h.m.focus = h.m.back }

// forBar is the program as the help bar sees it.
type forBar struct{ m *Model }

func (h forBar) Focused() ui.Pane { return h.m.paneFor(h.m.focus) }

// forQuestion is the program as the question panel sees it.
type forQuestion struct{ paneKeys }

func (h forQuestion) Request() *request.Request { return h.m.activeRequest() }

func (h forQuestion) Find(id uint64) *request.Request {
	if i := h.m.indexOf(id); i >= 0 {
		return h.m.requests[i]
	}
	return nil
}

func (h forQuestion) Answer(r *request.Request, a interaction.Answer, notice string) tea.Cmd {
	return h.m.submitWith(r, a, notice)
}

func (h forQuestion) Decline(r *request.Request, notice string) tea.Cmd {
	return h.m.declineWith(r, notice)
}

func (h forQuestion) Notice(text string) tea.Cmd          { return h.m.setNotice(text) }
func (h forQuestion) Rules() rulebook.Rules               { return h.m.rules }
func (h forQuestion) CallHeld(r *request.Request) bool    { return h.m.callHeld(r) }
func (h forQuestion) ArrivalHeld(r *request.Request) bool { return h.m.heldFor(r) }
func (h forQuestion) AgentColor(agentKey string) int      { return h.m.log.Color(agentKey) }
func (h forQuestion) Many() bool                          { return h.m.kind.many() }
func (h forQuestion) Inline() bool                        { return h.m.inline }
func (h forQuestion) ScreenWidth() int                    { return h.m.width }
