package mcp

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// TestLongClientNameIsClipped: a client whose name is thousands of bytes
// long, with a sub-agent whose name is long too, still gets its calls
// through (the request's limits refuse an agent name over 256 bytes), and
// the inbox keeps a short name.
func TestLongClientNameIsClipped(t *testing.T) {
	asker := interactiontest.NewProvider()
	_, hs := serve(t, asker, Options{})
	long := strings.Repeat("é", 1<<16) // 128 KiB
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	client := sdk.NewClient(&sdk.Implementation{Name: long, Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint:   hs.URL + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{token: testToken, base: tr}},
		MaxRetries: -1,
	}, &sdk.ClientSessionOptions{ProtocolVersion: protocolWithSessions})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() }) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	if a := asker.NextActivity(t); len(a.Agent.Name) > maxNameBytes {
		t.Errorf("connected as a %d-byte name", len(a.Agent.Name))
	}
	args := map[string]any{"agent": strings.Repeat("r", 1000), "questions": dbQuestion["questions"]}
	ch := callAsync(context.Background(), cs, askParams(args))
	p := asker.Next(t)
	if err := p.Req.Validate(); err != nil {
		t.Errorf("the request the inbox got is invalid: %v", err)
	}
	name := p.Req.Agent.Name
	if len(name) > 2*maxNameBytes+len(" › ") || !utf8.ValidString(name) || !strings.HasPrefix(name, "éé") || !strings.Contains(name, "› rrr") {
		t.Errorf("agent name %q (%d bytes)", name, len(name))
	}
	p.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"SQLite"}}}})
	if r := waitCall(t, ch); r.err != nil || r.res.IsError {
		t.Fatalf("call: %v %+v", r.err, r.res)
	}
}

// TestAgentIsNamedAfterItsClient: the question shows the client's own
// name under both protocols, read from the session's initialize with
// sessions and from each call's _meta without.
func TestAgentIsNamedAfterItsClient(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			asker := interactiontest.NewProvider()
			_, hs := serve(t, asker, Options{})
			cs := dialVersion(t, hs, nil, false, p.version)
			ch := callAsync(context.Background(), cs, askParams(dbQuestion))
			pending := asker.Next(t)
			if pending.Req.Agent == nil || pending.Req.Agent.Name != "test-client" {
				t.Errorf("agent = %+v, want the name %q", pending.Req.Agent, "test-client")
			}
			pending.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"SQLite"}}}})
			if r := waitCall(t, ch); r.err != nil || r.res.IsError {
				t.Fatalf("call: %v %+v", r.err, r.res)
			}
		})
	}
}

// TestCallerName: the client's name in a call's _meta wins; without one,
// the session's is used, as the SDK's ClientInfo has it.
func TestCallerName(t *testing.T) {
	withMeta := &sdk.CallToolRequest{Params: &sdk.CallToolParamsRaw{Meta: sdk.Meta{
		sdk.MetaKeyClientInfo: map[string]any{"name": "codex", "version": "1"},
	}}}
	if got := callerName(withMeta); got != "codex" {
		t.Errorf("from _meta: %q, want %q", got, "codex")
	}
	// Read, not decoded again: ClientInfo would encode the entry and
	// decode it with a 32 KiB buffer on every call.
	if n := testing.AllocsPerRun(10, func() { callerName(withMeta) }); n != 0 {
		t.Errorf("reading the name from _meta took %v allocations, want none", n)
	}
	typed := &sdk.CallToolRequest{Params: &sdk.CallToolParamsRaw{Meta: sdk.Meta{
		sdk.MetaKeyClientInfo: &sdk.Implementation{Name: "in-process", Version: "1"},
	}}}
	if got := callerName(typed); got != "in-process" {
		t.Errorf("from a typed _meta: %q, want %q", got, "in-process")
	}
	if got := callerName(&sdk.CallToolRequest{Params: &sdk.CallToolParamsRaw{}}); got != "" {
		t.Errorf("with no client anywhere: %q, want none", got)
	}
}

func TestClip(t *testing.T) {
	for in, want := range map[string]string{
		"  codex  ":  "codex",
		"abcdefghij": "abcde…",
		"ééééé":      "éé…",
		"ok\xffok":   "ok\uFFFDok",
		"xxxxxxxx":   "xxxxxxxx",
	} {
		if got := clip(in, 8); got != want || len(got) > 8 {
			t.Errorf("clip(%q) = %q, want %q", in, got, want)
		}
	}
}
