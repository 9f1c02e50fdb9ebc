package app

import (
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/interaction/inbox"
)

// transcriptText is the transcript of the conversation shown, as drawn
// at its size, without styles.
func transcriptText(m *Model) string {
	v := m.conv().Transcript()
	v.SetSize(100, 200)
	return stripped(v.View())
}

// Issue 35: a question of the conversation's agent and the answer given
// stay in its transcript, as a chat keeps them, in the place it was
// asked; while it waits, the transcript names it.
func TestTranscriptKeepsTheQuestionAndTheAnswer(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		events(m, f.info.ID, msgChunk("Staging looks healthy on 1.8.0."))
		ask(t, m, demoDeployRequest(f))
		s := transcriptText(m)
		mustContain(t, s, "? Deploy 1.8.0 to production? · waiting for your answer")
		glance(m)
		press(m, "2")
		events(m, f.info.ID, msgChunk("The canary takes 5% of traffic."))
		s = transcriptText(m)
		mustContain(t, s, "? Deploy 1.8.0 to production?\n  Questions from release-agent\n  ✓ Canary only")
		mustNotContain(t, s, "waiting for your answer")
		if i, j, k := strings.Index(s, "Staging looks"), strings.Index(s, "Canary only"), strings.Index(s, "The canary takes"); i > j || j > k {
			t.Fatalf("the question is not where it was asked:\n%s", s)
		}
		// The screen shows it too, once the panel has gone.
		mustContain(t, screen(m), "✓ Canary only")
	})
}

// Each question of a request keeps its own answer, and a note goes with
// its answer.
func TestTranscriptKeepsEveryQuestionsAnswer(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		p := ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: f.info.ID, Name: "gemini"}, Questions: []interaction.Question{
			{ID: "db", Header: "Database", Question: "Which database?", Options: opts("Postgres", "SQLite")},
			{ID: "name", Question: "What is the service called?"},
		}})
		// Answered from another view of the inbox (the test's own answer
		// comes back as it would over SSH).
		s := inbox.Settlement{By: "ssh bob@host", Answer: interaction.Answer{Answers: []interaction.AnswerItem{
			{ID: "db", Selected: []string{"SQLite"}, Note: "small data"}, {ID: "name", Custom: "ledger"},
		}}}
		fake(m).ended[p.id] = s
		send(m, settledMsg{id: p.id, s: s})
		mustContain(t, transcriptText(m),
			"? Database\n  Which database?\n  ✓ SQLite · “small data”\n? What is the service called?\n  ✓ “ledger”\n  answered from ssh bob@host")
	})
}

// A question that is not answered keeps how it ended: declined here,
// withdrawn (and why), timed out.
func TestTranscriptKeepsUnansweredQuestions(t *testing.T) {
	cases := []struct {
		name string
		end  func(*Model, pending)
		want string
	}{
		{"declined", func(m *Model, _ pending) { glance(m); press(m, "esc", "y") }, "✗ declined"},
		{"withdrawn", func(_ *Model, p pending) {
			withdraw(p, interaction.Errorf(interaction.CodeAborted, "the turn was cancelled"))
		}, "⊘ withdrawn: the turn was cancelled"},
		{"timeout", func(_ *Model, p pending) {
			withdraw(p, interaction.Errorf(interaction.CodeTimeout, "no answer in 5m"))
		}, "⊘ timed out"},
		{"declined elsewhere", func(m *Model, p pending) {
			s := inbox.Settlement{By: "ssh bob@host", Err: interaction.Declined()}
			fake(m).ended[p.id] = s
			send(m, settledMsg{id: p.id, s: s})
		}, "✗ declined from ssh bob@host"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run(t, func(t *testing.T) {
				m, f := testRun(t, 100, 30)
				p := ask(t, m, demoDeployRequest(f))
				c.end(m, p)
				s := transcriptText(m)
				mustContain(t, s, "? Deploy 1.8.0 to production?\n  Questions from release-agent\n  "+c.want)
				mustNotContain(t, s, "waiting for your answer", "✓")
			})
		})
	}
}

// A question of another agent (a script on the socket) stays out of the
// conversation's transcript, and no conversation is made for it.
func TestTranscriptKeepsOnlyItsAgentsQuestions(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		events(m, f.info.ID, msgChunk("Working."))
		ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: "socket", Name: "script"},
			Questions: []interaction.Question{{ID: "q", Question: "Proceed?", Options: opts("Yes", "No")}}})
		mustNotContain(t, transcriptText(m), "Proceed?")
		if len(m.convs) != 1 {
			t.Fatalf("%d conversations, want 1", len(m.convs))
		}
	})
}

// Issue 35: a permission of the conversation's agent that a rule
// answered shows in its transcript as the session view's activity does
// ("allowed by rule 3: …"), below the tool call it is about, even while
// that call still waits in the link; another agent's does not.
func TestRuleActivityShowsInTheConversation(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		l := NewLink(nil, make(chan struct{}))
		l.started.Do(func() {})
		m.sink = l
		// The tool call waits in the link when the rule's answer comes.
		l.ConversationEvent(conversation.Event{Conversation: f.info.ID, Kind: conversation.EventToolCall,
			Tool: &conversation.ToolCall{ID: "t1", Title: "go test ./...", Kind: conversation.ToolExecute, Status: conversation.ToolPending}})
		send(m, activityMsg{activity: interaction.Activity{Agent: interaction.Agent{ID: f.info.ID, Name: "gemini"},
			Kind: interaction.ActivityMessage, Text: "allowed by rule 3: Bash(go test:*)"}})
		send(m, activityMsg{activity: interaction.Activity{Agent: interaction.Agent{ID: "claude-code:s1", Name: "Claude Code"},
			Kind: interaction.ActivityMessage, Text: "allowed by rule 4: Bash(ls:*)"}})
		s := transcriptText(m)
		mustContain(t, s, "$ go test ./...", "— allowed by rule 3: Bash(go test:*)")
		mustNotContain(t, s, "rule 4")
		if strings.Index(s, "go test ./...") > strings.Index(s, "allowed by rule 3") {
			t.Fatalf("the rule's answer came before the call:\n%s", s)
		}
		// ctrl+t, the transcript with the keys, shows it as well.
		press(m, "ctrl+t")
		mustContain(t, screen(m), "allowed by rule 3: Bash(go test:*)")
	})
}

// A permission comes below the tool call it is about, even while that
// call still waits in the link when the question arrives.
func TestQuestionComesBelowItsToolCall(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		l := NewLink(nil, make(chan struct{}))
		l.started.Do(func() {})
		m.sink = l
		l.ConversationEvent(conversation.Event{Conversation: f.info.ID, Kind: conversation.EventToolCall,
			Tool: &conversation.ToolCall{ID: "t1", Title: "kubectl apply -f canary.yaml", Kind: conversation.ToolExecute, Status: conversation.ToolPending}})
		ask(t, m, interaction.Request{Agent: &interaction.Agent{ID: f.info.ID, Name: "gemini"}, Questions: []interaction.Question{{
			ID: "permission", Header: "Permission", Question: "Allow `kubectl apply -f canary.yaml`?", Options: opts("Allow once", "Reject once"), NoOther: true,
		}}})
		send(m, convBatchMsg{link: l})
		s := transcriptText(m)
		i, j := strings.Index(s, "$ kubectl apply"), strings.Index(s, "? Permission")
		if i < 0 || j < i {
			t.Fatalf("the permission is not below its tool call:\n%s", s)
		}
	})
}
