package app

import (
	"errors"
	"testing"

	"github.com/asktui/asktui/interaction/conversation"
)

// noResumeLauncher is a launcher whose gemini cannot list its sessions.
type noResumeLauncher struct{ fakeLauncher }

func (l *noResumeLauncher) Agents() []conversation.AgentChoice {
	agents := l.fakeLauncher.Agents()
	agents[0].NoResume = "gemini cannot list its past sessions"
	return agents
}

// TestNoticeAndSessionInPicker: a launcher's notice shows in the
// transcript; the picker names a conversation's session, and where
// resuming is offered, says why an agent cannot list its sessions: a
// resume that cannot be chosen.
func TestNoticeAndSessionInPicker(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		m.launcher = &noResumeLauncher{}
		info := f.info
		info.Session = "sess-7"
		events(m, f.info.ID,
			conversation.Event{Kind: conversation.EventInfo, Info: &info},
			conversation.Event{Kind: conversation.EventNotice, Text: "session sess-7 · --resume=sess-7 reopens it"})
		mustContain(t, screen(m), "session sess-7 · --resume=sess-7 reopens it")
		press(m, "ctrl+l")
		s := screen(m)
		mustContain(t, s, "session sess-7", "start gemini", "resume gemini… · gemini cannot list its past sessions")
		press(m, "down", "down", "enter") // the resume row
		if m.mode() != modeAgents || m.picker.Loading() != "" {
			t.Fatalf("a resume that cannot be was chosen: mode %v, loading %q", m.mode(), m.picker.Loading())
		}
	})
}

// TestStartingStaysOnScreen: an agent that takes longer to start than a
// notice lasts (Claude Code on a busy machine takes most of a minute) is
// shown starting until it has started, never as "no agent is running".
func TestStartingStaysOnScreen(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testRunEmpty(t, 100, 30)
		m.startAgent("claude", "", true) // its command is left unrun: the agent is still starting
		send(m, clearNoticeMsg{seq: m.noticeSeq})
		s := screen(m)
		mustContain(t, s, "Starting claude…")
		mustNotContain(t, s, "No agent is running")
		send(m, convStartedMsg{agent: "claude", chosen: true, conv: newFakeConv("conv-1", "claude")})
		mustNotContain(t, screen(m), "Starting claude")
	})
}

// TestFailedStartEndsStarting: once a start fails, the screen says so,
// and no longer that the agent is starting.
func TestFailedStartEndsStarting(t *testing.T) {
	run(t, func(t *testing.T) {
		m := testRunEmpty(t, 100, 30)
		m.startAgent("claude", "", true)
		send(m, convStartedMsg{agent: "claude", chosen: true, err: errors.New("no such file")})
		send(m, clearNoticeMsg{seq: m.noticeSeq})
		s := screen(m)
		mustNotContain(t, s, "Starting claude")
		mustContain(t, s, "claude did not start")
	})
}

// TestSameAgentTwiceTellsTabsApart: the same agent started twice shows as
// two tabs that can be told apart.
func TestSameAgentTwiceTellsTabsApart(t *testing.T) {
	run(t, func(t *testing.T) {
		m, _ := testRun(t, 100, 30)
		send(m, convStartedMsg{agent: "gemini", conv: newFakeConv("conv-2", "gemini")})
		s := screen(m)
		mustContain(t, s, "gemini │ gemini 2")
	})
}
