package tui

import (
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
// transcript; the picker names a conversation's session and offers no
// resume for an agent that cannot list its sessions.
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
		mustContain(t, s, "session sess-7", "start gemini")
		mustNotContain(t, s, "resume gemini")
	})
}
