package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/asktui/asktui/interaction"
)

// The answers name the labels and questions with the very bytes Claude
// Code sent, escapes included: a lone surrogate (which JavaScript strings
// may hold and Go decodes as U+FFFD) and a C1 control come back as sent.
func TestClaudeAnswersKeepTheBytesSent(t *testing.T) {
	const question, label = `"Pick\u009b?"`, `"a\ud800\u009b31m"`
	in := Input{HookEventName: "PreToolUse", ToolName: "AskUserQuestion",
		ToolInput: json.RawMessage(`{"questions":[{"question":` + question + `,"header":"h","options":[{"label":` + label + `},{"label":"b"}]}]}`)}
	out, err := HandleClaude(context.Background(), in, func(_ context.Context, req interaction.Request) (interaction.Answer, error) {
		q := req.Questions[0]
		return interaction.Answer{Answers: []interaction.AnswerItem{{ID: q.ID, Selected: []string{q.Options[0].Label}}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []byte(`"answers":{` + question + `:` + label + `}`); !bytes.Contains(out, want) {
		t.Errorf("output %s\nlacks %s", out, want)
	}
}

func TestJSStringify(t *testing.T) {
	for in, want := range map[string]string{
		"a, b":              `"a, b"`,
		"q\"\\\n\t\b\f\x01": `"q\"\\\n\t\b\f\u0001"`,
		"\u2028\u009b\x7f<": "\"\u2028\u009b\x7f<\"",
	} {
		if got := jsStringify(in); got != want {
			t.Errorf("jsStringify(%q) = %q, want %q", in, got, want)
		}
	}
}
