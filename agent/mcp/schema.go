package mcp

import (
	_ "embed" // the tool description
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/asktui/asktui/interaction"
)

// ToolName is the name of the one tool the server offers.
const ToolName = "ask_user_question"

// toolDescription tells a model when and how to use the tool. Models read
// it on every turn, so it is short and concrete.
//
//go:embed question.md
var toolDescription string

// toolInput is the tool's input as the model sees it: the request's
// questions plus the sub-agent's name. It exists for its schema; the
// arguments are decoded by decodeArguments.
type toolInput struct {
	Questions []interaction.Question `json:"questions" jsonschema:"The questions, asked in this order in one flow."`
	Agent     string                 `json:"agent,omitempty" jsonschema:"Name of the sub-agent asking, when it is not the main agent."`
}

// schemas are the tool's schemas, generated from the Go types so that
// they cannot drift from what the server decodes and returns, and encoded
// once, when the first server is built. The SDK is given the encoded JSON:
// it encodes a tool's input schema again on every tools/call of protocol
// 2026-07-28 and later, to look for parameter headers
// (validateMcpHeaders), and a *jsonschema.Schema is encoded by reflection
// each time, about 7% of serve's CPU with 1,000 calls at once, where
// encoded JSON is copied.
var schemas = sync.OnceValues(func() (in, out json.RawMessage) {
	si, so, err := toolSchemas()
	if err == nil {
		in, err = json.Marshal(si)
	}
	if err == nil {
		out, err = json.Marshal(so)
	}
	if err != nil {
		panic(err) // a type the generator cannot describe: caught by every test
	}
	return in, out
})

// toolSchemas derives the input schema from [toolInput] and the output
// schema from [interaction.Answer].
//
// The input schema describes the canonical form and stays permissive where
// the decoder is lenient: objects accept properties it does not list (so
// "multi_select" and the other spellings models use pass a client that
// validates arguments), and a question's "id" is optional (missing ids are
// numbered q1, q2, …). Options are described as objects only, though the
// decoder also takes plain strings. Nothing in it is nullable: models
// should never send null.
//
// The output schema is exact: it is what structuredContent always holds.
func toolSchemas() (in, out *jsonschema.Schema, err error) {
	in, err = jsonschema.For[toolInput](nil)
	if err != nil {
		return nil, nil, fmt.Errorf("input schema: %w", err)
	}
	walk(in, func(s *jsonschema.Schema) {
		dropNull(s)
		s.AdditionalProperties = nil
	})
	questions := in.Properties["questions"]
	questions.MinItems = jsonschema.Ptr(1)
	questions.MaxItems = jsonschema.Ptr(interaction.MaxQuestions)
	questions.Items.Required = []string{"question"}

	out, err = jsonschema.For[interaction.Answer](nil)
	if err != nil {
		return nil, nil, fmt.Errorf("output schema: %w", err)
	}
	walk(out, dropNull) // "answers" and "selected" are always arrays
	return in, out, nil
}

// walk calls f on s and every schema below it.
func walk(s *jsonschema.Schema, f func(*jsonschema.Schema)) {
	if s == nil {
		return
	}
	f(s)
	for _, p := range s.Properties {
		walk(p, f)
	}
	walk(s.Items, f)
}

// dropNull turns the nullable type the generator gives slices,
// ["null", "array"], into plain "array".
func dropNull(s *jsonschema.Schema) {
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
}
