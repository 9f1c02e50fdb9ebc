package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/asktui/asktui/interaction"
)

// ToolName is the name of the one tool the server offers.
const ToolName = "ask_user_question"

// toolDescription tells a model when and how to use the tool. Models read
// it on every turn, so it is short and concrete.
const toolDescription = `Ask the human at the asktui inbox one or more structured questions and wait for the answers.

Use it only when a decision belongs to the human: a preference, a trade-off, missing requirements, or permission for something risky. Do not ask what you can find out yourself, and do not ask to confirm routine steps.

How to ask well:
- Batch related questions into one call (each becomes a step of one flow) instead of calling repeatedly.
- Give each question a short stable "id", the full "question" text, and a short "header" (a few words).
- Offer 2-6 concrete "options", each a short "label" plus a "description" of its consequence. Put the option you recommend first and end its label with " (Recommended)".
- Set "multi_select": true when several options may be chosen together.
- Omit "options" for a free-text question. The human can always type their own answer through "Other", so do not add an "Other" option.
- Sub-agents set "agent" to their name so the human knows who is asking.

The result is {"answers":[{"id":"...","selected":["label", ...],"custom":"..."}]} with one item per question, in order. "selected" holds the chosen option labels; "custom" is free text that overrides "selected" when present; a skipped question has "selected": [] and no "custom". Follow the answers. If the call fails, the error text starts with a code: ASK_DECLINED means the human declined to answer (do not ask the same again; continue without, or stop), ASK_ABORTED means the call was withdrawn, INVALID_REQUEST says what to fix in the input.`

// inputSchema advertises the model-facing input. "multiSelect" is accepted
// as well but not advertised, so models learn one spelling.
const inputSchema = `{
  "type": "object",
  "properties": {
    "questions": {
      "type": "array",
      "minItems": 1,
      "description": "The questions, asked in this order in one flow.",
      "items": {
        "type": "object",
        "properties": {
          "id": {"type": "string", "description": "Stable identifier echoed in the answer, such as \"db\"."},
          "question": {"type": "string", "description": "The complete question to ask."},
          "header": {"type": "string", "description": "Very short heading for the question (a few words)."},
          "options": {
            "type": "array",
            "description": "2-6 choices, recommended first with \" (Recommended)\" at the end of its label. Omit for a free-text question.",
            "items": {
              "type": "object",
              "properties": {
                "label": {"type": "string", "description": "Short, unique text of the choice; returned in \"selected\"."},
                "description": {"type": "string", "description": "What choosing it means."}
              },
              "required": ["label"]
            }
          },
          "multi_select": {"type": "boolean", "description": "Allow several options to be selected. Default false."}
        },
        "required": ["id", "question"]
      }
    },
    "agent": {"type": "string", "description": "Name of the sub-agent asking, when it is not the main agent."}
  },
  "required": ["questions"]
}`

// decodeArguments turns the raw tool arguments into a request and the
// optional sub-agent name. Questions go through [interaction.DecodeRequest],
// so both spellings of the multi-select flag work and errors name the
// question at fault. Every error is an *interaction.Error.
func decodeArguments(raw json.RawMessage) (interaction.Request, string, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage(`{}`)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil || top == nil {
		return interaction.Request{}, "", interaction.Errorf(interaction.CodeInvalidRequest,
			`the arguments must be a JSON object such as {"questions": [{"id": "q1", "question": "...", "options": [{"label": "Yes"}, {"label": "No"}]}]}`)
	}

	var agent string
	if a, ok := top["agent"]; ok {
		delete(top, "agent")
		if string(bytes.TrimSpace(a)) != "null" {
			if err := json.Unmarshal(a, &agent); err != nil {
				return interaction.Request{}, "", interaction.Errorf(interaction.CodeInvalidRequest,
					`"agent" must be a string naming the sub-agent that asks, such as "reviewer"`)
			}
		}
	}
	agent = strings.TrimSpace(agent)
	if len(agent) > maxAgentBytes {
		return interaction.Request{}, "", interaction.Errorf(interaction.CodeInvalidRequest,
			`"agent" is %d bytes long; send a short name of at most %d bytes`, len(agent), maxAgentBytes)
	}

	// Re-encode without "agent": interaction's decoder reads a top-level
	// "agent" as an object, whereas here it is the sub-agent's name.
	rest, err := json.Marshal(top)
	if err != nil {
		return interaction.Request{}, "", interaction.WrapError(interaction.CodeInvalidRequest, err,
			"the arguments could not be read: %v", err)
	}
	req, err := interaction.DecodeRequest(bytes.NewReader(rest))
	if err != nil {
		return interaction.Request{}, "", err
	}
	return req, agent, nil
}

// maxAgentBytes bounds the sub-agent name, which is shown in the inbox.
const maxAgentBytes = 200

// agentFor names the asker: the client's name from its initialize info,
// plus the sub-agent's name when given. The ID is stable per session and
// sub-agent, so one agent's questions group together.
//
// Both names are clipped (maxNameBytes each), so that whatever a client
// calls itself, its calls pass the request's limits and the inbox keeps
// little of it.
func agentFor(sessionID, clientName, subAgent string) interaction.Agent {
	clientName = clip(clientName, maxNameBytes)
	if clientName == "" {
		clientName = "MCP client"
	}
	a := interaction.Agent{ID: "mcp:" + sessionID, Name: clientName}
	if subAgent != "" {
		a.ID = clip(a.ID+"/"+subAgent, interaction.MaxIDLen)
		a.Name = fmt.Sprintf("%s › %s", clientName, clip(subAgent, maxNameBytes))
	}
	return a
}

// maxNameBytes bounds a client's or sub-agent's name as shown.
const maxNameBytes = 64

// clip trims s, makes it valid UTF-8, and cuts it to at most n bytes,
// ending in "…" when cut.
func clip(s string, n int) string {
	s = strings.ToValidUTF8(strings.TrimSpace(s), "\uFFFD")
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
