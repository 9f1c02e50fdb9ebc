package mcp

import (
	"context"
	"net/http"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// header adds a header to every request.
type header struct {
	name, value string
	base        http.RoundTripper
}

func (h header) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.name, h.value)
	return h.base.RoundTrip(r)
}

// TestConversationHeader: a call whose requests carry a conversation's
// token is named after the conversation (with the sub-agent), not the
// client; an unknown token changes nothing.
func TestConversationHeader(t *testing.T) {
	asker := interactiontest.NewProvider()
	claude := interaction.Agent{ID: "claude", Name: "Claude Code"}
	_, hs := serve(t, asker, Options{Identify: func(token string) (interaction.Agent, bool) {
		return claude, token == "tok-1"
	}})
	for _, tt := range []struct {
		token    string
		id, name string
	}{{"tok-1", "claude", "Claude Code › reviewer"}, {"forged", "", "claude-code › reviewer"}} {
		tr := &http.Transport{}
		t.Cleanup(tr.CloseIdleConnections)
		client := sdk.NewClient(&sdk.Implementation{Name: "claude-code", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{
			Endpoint:   hs.URL + "/mcp",
			HTTPClient: &http.Client{Transport: bearer{token: testToken, base: header{ConversationHeader, tt.token, tr}}},
			MaxRetries: -1,
		}, &sdk.ClientSessionOptions{ProtocolVersion: protocolWithSessions})
		if err != nil {
			t.Fatal(err)
		}
		ch := callAsync(context.Background(), cs, askParams(map[string]any{"questions": dbQuestion["questions"], "agent": "reviewer"}))
		p := asker.Next(t)
		a := p.Req.Agent
		if a == nil || a.Name != tt.name || (tt.id != "" && a.ID != tt.id) || (tt.id == "" && a.ID == "claude") {
			t.Errorf("token %q: agent %+v, want %q named %q", tt.token, a, tt.id, tt.name)
		}
		p.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"Postgres (Recommended)"}}}})
		if r := waitCall(t, ch); r.err != nil {
			t.Fatal(r.err)
		}
		_ = cs.Close()
	}
}
