package mcp

import (
	"context"
	"testing"

	"github.com/asktui/asktui/interaction"
)

// BenchmarkCallOverhead measures what asktui adds to a question: one
// ask_user_question call through the SDK's streamable HTTP client and the
// real handler (auth, origin check, decoding, validation, the result), with
// a human who answers instantly.
func BenchmarkCallOverhead(b *testing.B) {
	instant := interaction.ProviderFunc(func(_ context.Context, req interaction.Request) (interaction.Answer, error) {
		return interaction.Answer{Answers: []interaction.AnswerItem{{ID: req.Questions[0].ID, Selected: []string{req.Questions[0].Options[0].Label}}}}, nil
	})
	_, hs := serve(b, instant, Options{})
	cs := connect(b, hs, nil)
	params := askParams(map[string]any{"questions": []any{map[string]any{
		"id": "deploy", "question": "Deploy 1.8.0 to production?",
		"options": []any{map[string]any{"label": "Yes (Recommended)"}, map[string]any{"label": "No"}},
	}}})
	b.ResetTimer()
	for range b.N {
		res, err := cs.CallTool(context.Background(), params)
		if err != nil || res.IsError {
			b.Fatalf("call: %v %+v", err, res)
		}
	}
}
