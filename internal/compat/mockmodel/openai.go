package mockmodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// NewOpenAI starts a mock OpenAI Responses API (POST /v1/responses,
// streamed as server-sent events), for a Codex model provider with
// wire_api = "responses" and base_url URL+"/v1". Requests without tools
// get "ok".
func NewOpenAI(t testing.TB, script Script) *Server {
	return newServer(t, "openai", &openai{}, script)
}

type openai struct{ ids atomic.Int64 }

type openaiItem struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Name    string          `json:"name"`
	CallID  string          `json:"call_id"`
	Output  json.RawMessage `json:"output"`
	// Namespace is set on a call of a tool offered in a namespace
	// (Codex's MCP tools).
	Namespace string `json:"namespace"`
}

type openaiTool struct {
	Type  string       `json:"type"`
	Name  string       `json:"name"`
	Tools []openaiTool `json:"tools"` // a namespace's
}

type openaiRequest struct {
	Model  string       `json:"model"`
	Stream bool         `json:"stream"`
	Input  []openaiItem `json:"input"`
	Tools  []openaiTool `json:"tools"`
}

// openaiText returns a message's text: a string, or its text parts.
func openaiText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type, Text string
	}
	_ = json.Unmarshal(raw, &parts)
	var texts []string
	for _, p := range parts {
		texts = append(texts, p.Text)
	}
	return strings.Join(texts, "\n")
}

// toolNames lists tools by name, a namespace's as NAMESPACE/NAME.
func toolNames(tools []openaiTool, namespace string) []string {
	var names []string
	for _, t := range tools {
		switch {
		case t.Type == "namespace":
			names = append(names, toolNames(t.Tools, t.Name)...)
		case namespace != "":
			names = append(names, namespace+"/"+t.Name)
		case t.Name != "":
			names = append(names, t.Name)
		default:
			names = append(names, t.Type) // a built-in: web_search, tool_search
		}
	}
	return names
}

func (o *openai) read(w http.ResponseWriter, r *http.Request, body []byte) (Turn, bool, bool) {
	path := r.URL.Path
	if r.Method != http.MethodPost || !strings.HasSuffix(path, "/responses") {
		writeJSON(w, map[string]any{"object": "list", "data": []any{}})
		return Turn{}, false, false
	}
	var req openaiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return Turn{}, false, false
	}
	turn := Turn{Path: path, Tools: toolNames(req.Tools, ""), model: req.Model}
	turn.Main = len(turn.Tools) > 0
	// The human's last message: a user message (Codex's own context
	// comes as user messages too, before it).
	start := 0
	for i := len(req.Input) - 1; i >= 0; i-- {
		it := req.Input[i]
		if it.Type == "message" && it.Role == "user" {
			turn.Prompt = openaiText(it.Content)
			start = i + 1
			break
		}
	}
	names := map[string]string{}
	for _, it := range req.Input[start:] {
		switch it.Type {
		case "function_call", "custom_tool_call", "tool_search_call":
			name := it.Name
			if it.Namespace != "" {
				name = it.Namespace + "/" + name
			}
			if it.Type == "tool_search_call" {
				name = "tool_search"
			}
			names[it.CallID] = name
		case "function_call_output", "custom_tool_call_output", "tool_search_output":
			content := openaiText(it.Output)
			if content == "" {
				content = string(it.Output)
			}
			name := names[it.CallID]
			if it.Type == "tool_search_output" {
				name = "tool_search"
			}
			turn.Results = append(turn.Results, Result{Name: name, ID: it.CallID, Content: content})
		}
	}
	return turn, req.Stream, true
}

func (o *openai) write(w http.ResponseWriter, r *http.Request, turn Turn, reply Reply, stream bool, quit <-chan struct{}) {
	id := o.ids.Add(1)
	respID := fmt.Sprintf("resp_mock%04d", id)
	var output []map[string]any
	text := strings.Join(reply.Text, "")
	msg := map[string]any{"type": "message", "id": fmt.Sprintf("msg_mock%04d", id), "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
	if text != "" {
		output = append(output, msg)
	}
	if c := reply.Call; c != nil {
		args, _ := json.Marshal(c.Args)
		call := map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_mock%04d", id), "call_id": fmt.Sprintf("call_mock%04d", id),
			"name": c.Name, "arguments": string(args), "status": "completed"}
		if c.Name == "tool_search" {
			call = map[string]any{"type": "tool_search_call", "id": fmt.Sprintf("ts_mock%04d", id), "call_id": fmt.Sprintf("call_mock%04d", id),
				"execution": "client", "arguments": c.Args, "status": "completed"}
		} else if c.Namespace != "" {
			call["namespace"] = c.Namespace
		}
		output = append(output, call)
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
		"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}
	response := map[string]any{"id": respID, "object": "response", "status": "completed", "model": turn.model, "output": output, "usage": usage}
	if !stream {
		writeJSON(w, response)
		return
	}
	startSSE(w)
	sse(w, "response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": respID, "object": "response", "status": "in_progress"}})
	if len(reply.Text) > 0 {
		sse(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0,
			"item": map[string]any{"type": "message", "id": msg["id"], "role": "assistant", "status": "in_progress", "content": []any{}}})
		for _, d := range reply.Text {
			sse(w, "response.output_text.delta", map[string]any{"type": "response.output_text.delta", "item_id": msg["id"], "output_index": 0, "content_index": 0, "delta": d})
		}
		if reply.Hang {
			hold(r, quit)
			return
		}
	}
	for i, item := range output {
		sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": i, "item": item})
	}
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": response})
}
