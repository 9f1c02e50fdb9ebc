package mcp

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
)

// BenchmarkCallOverhead measures what asktui adds to a question: one
// ask_user_question call through the SDK's streamable HTTP client and the
// real handler (auth, origin check, decoding, validation, the result), with
// a human who answers instantly, in a session (2025-11-25) and without one
// (2026-07-28, where the SDK also checks the standard headers against the
// tool's input schema on every call).
func BenchmarkCallOverhead(b *testing.B) {
	instant := interaction.ProviderFunc(func(_ context.Context, req interaction.Request) (interaction.Answer, error) {
		return interaction.Answer{Answers: []interaction.AnswerItem{{ID: req.Questions[0].ID, Selected: []string{req.Questions[0].Options[0].Label}}}}, nil
	})
	for _, version := range []string{protocolWithSessions, protocolSessionless} {
		b.Run(version, func(b *testing.B) {
			_, hs := serve(b, instant, Options{})
			cs := dialVersion(b, hs, nil, false, version)
			params := askParams(map[string]any{"questions": []any{map[string]any{
				"id": "deploy", "question": "Deploy 1.8.0 to production?",
				"options": []any{map[string]any{"label": "Yes (Recommended)"}, map[string]any{"label": "No"}},
			}}})
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				res, err := cs.CallTool(context.Background(), params)
				if err != nil || res.IsError {
					b.Fatalf("call: %v %+v", err, res)
				}
			}
		})
	}
}

// BenchmarkLargeCall is the server's side of a call of 100,000 options
// (2.9 MB), from the POST's body to the tool result, with a human who
// answers instantly: reading the body (body.go), the SDK's decoding, and
// asktui's decoding and validation of the request.
func BenchmarkLargeCall(b *testing.B) {
	instant := interaction.ProviderFunc(func(_ context.Context, req interaction.Request) (interaction.Answer, error) {
		return interaction.Answer{Answers: []interaction.AnswerItem{{ID: req.Questions[0].ID, Selected: []string{req.Questions[0].Options[0].Label}}}}, nil
	})
	srv, hs := serveHTTP(b, instant, Options{}, nil)
	cs := connect(b, hs, nil)
	var body strings.Builder
	body.WriteString(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_user_question","arguments":{"questions":[{"id":"pick","question":"Pick one","options":[`)
	for i := range 100_000 {
		if i > 0 {
			body.WriteByte(',')
		}
		fmt.Fprintf(&body, `{"label":"Option %d"}`, i+1)
	}
	body.WriteString(`]}]}}}`)
	data := []byte(body.String())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		req := httptest.NewRequestWithContext(context.Background(), http.MethodPost, "/mcp", bytes.NewReader(data))
		req.Header.Set("Authorization", "Bearer "+testToken)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", protocolWithSessions)
		req.Header.Set("Mcp-Session-Id", cs.ID())
		rec := httptest.NewRecorder()
		srv.Handler().ServeHTTP(rec, req)
		if !strings.Contains(rec.Body.String(), `"selected":["Option 1"]`) {
			b.Fatalf("%d %.300s", rec.Code, rec.Body.String())
		}
	}
}
