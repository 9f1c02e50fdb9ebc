package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/asktui/asktui/interaction"
)

// argumentsExample is the shape quoted by errors about the arguments as a
// whole.
const argumentsExample = `{"questions": [{"id": "q1", "question": "...", "options": [{"label": "Yes"}, {"label": "No"}]}]}`

// decodeArguments turns the raw tool arguments into a request and the
// optional sub-agent name, reading them once: the top level is split into
// its two members, and the questions go to [interaction.DecodeRequest]
// as they came, so every spelling it accepts works and its errors name
// the question at fault. (The request's own "agent" is an object, the
// tool's a name, hence the split.) Every error is an *interaction.Error.
func decodeArguments(raw json.RawMessage) (interaction.Request, string, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage(`{}`)
	}
	var top struct {
		Questions json.RawMessage `json:"questions"`
		Agent     json.RawMessage `json:"agent"`
	}
	if err := json.Unmarshal(raw, &top); err != nil || bytes.TrimSpace(raw)[0] != '{' {
		return interaction.Request{}, "", interaction.Errorf(interaction.CodeInvalidRequest,
			"the arguments must be a JSON object such as %s", argumentsExample)
	}

	var agent string
	if len(top.Agent) > 0 && string(top.Agent) != "null" {
		if err := json.Unmarshal(top.Agent, &agent); err != nil {
			return interaction.Request{}, "", interaction.Errorf(interaction.CodeInvalidRequest,
				`"agent" must be a string naming the sub-agent that asks, such as "reviewer"`)
		}
	}
	agent = strings.TrimSpace(agent)
	if len(agent) > maxAgentBytes {
		return interaction.Request{}, "", interaction.Errorf(interaction.CodeInvalidRequest,
			`"agent" is %d bytes long; send a short name of at most %d bytes`, len(agent), maxAgentBytes)
	}

	var req bytes.Buffer
	req.Grow(len(`{"questions":}`) + len(top.Questions))
	req.WriteString(`{"questions":`)
	if len(top.Questions) == 0 {
		req.WriteString("null")
	}
	req.Write(top.Questions)
	req.WriteString("}")
	r, err := interaction.DecodeRequest(&req)
	if err != nil {
		return interaction.Request{}, "", err
	}
	return r, agent, nil
}

// maxAgentBytes bounds the sub-agent name, which is shown in the inbox.
const maxAgentBytes = 200

// agentFor names the asker: the client's name from its initialize info,
// plus the sub-agent's name when given. The ID is stable per session and
// sub-agent, so one agent's questions group together; a call without a
// session (the sessionless protocol) is grouped by the client's name.
func agentFor(sessionID, clientName, subAgent string) interaction.Agent {
	if strings.TrimSpace(clientName) == "" {
		clientName = "MCP client"
	}
	id := "mcp:" + sessionID
	if sessionID == "" {
		id = "mcp-client:" + clientName
	}
	a := interaction.Agent{ID: id, Name: clientName}
	if subAgent != "" {
		a.ID += "/" + subAgent
		a.Name = fmt.Sprintf("%s › %s", clientName, subAgent)
	}
	return a
}
