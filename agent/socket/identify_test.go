package socket

import (
	"context"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// TestConversationToken: a request that carries a known conversation
// token is named after that conversation, whatever agent it names; an
// unknown token changes nothing.
func TestConversationToken(t *testing.T) {
	f := interactiontest.NewProvider()
	claude := interaction.Agent{ID: "claude", Name: "Claude Code"}
	srv := startServer(t, f, Options{Identify: func(token string) (interaction.Agent, bool) {
		return claude, token == "tok-1"
	}})
	for _, tt := range []struct {
		token string
		want  string
	}{{"tok-1", "claude"}, {"forged", "mcp:1"}} {
		c, err := Dial(context.Background(), srv.path)
		if err != nil {
			t.Fatal(err)
		}
		c.Conversation = tt.token
		done := make(chan error, 1)
		go func() {
			_, err := c.Ask(context.Background(), interaction.Request{Agent: &interaction.Agent{ID: "mcp:1", Name: "claude-code"},
				Questions: []interaction.Question{{ID: "q", Question: "?"}}})
			done <- err
		}()
		call := f.Next(t)
		if a := call.Req.Agent; a == nil || a.ID != tt.want {
			t.Errorf("token %q: agent %+v, want id %q", tt.token, a, tt.want)
		}
		call.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "q", Custom: "x"}}})
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		_ = c.Close()
	}
}
