package mockmodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// NewAnthropic starts a mock Anthropic Messages API (POST /v1/messages,
// streamed as server-sent events), for ANTHROPIC_BASE_URL. Requests
// without tools (titles, summaries) get "ok".
func NewAnthropic(t testing.TB, script Script) *Server {
	return newServer(t, "anthropic", &anthropic{}, script)
}

type anthropic struct{ ids atomic.Int64 }

// anthropicMessage is one message of a request.
type anthropicMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type anthropicRequest struct {
	Model    string             `json:"model"`
	Stream   bool               `json:"stream"`
	Messages []anthropicMessage `json:"messages"`
	Tools    []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// blocks reads a message's content: a string is one text block.
func anthropicBlocks(raw json.RawMessage) []anthropicBlock {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []anthropicBlock{{Type: "text", Text: s}}
	}
	var bs []anthropicBlock
	_ = json.Unmarshal(raw, &bs)
	return bs
}

// humanPrompt finds the human's last message: a user message with text of
// its own (not only tool results and system reminders). It returns its
// text and the index of the message after it.
func humanPrompt(msgs []anthropicMessage) (string, int) {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role != "user" {
			continue
		}
		human := false
		for _, b := range anthropicBlocks(m.Content) {
			if b.Type == "tool_result" {
				human = false
				break
			}
			if b.Type == "text" && !strings.HasPrefix(strings.TrimSpace(b.Text), "<system-reminder>") {
				human = true
			}
		}
		if human {
			var texts []string
			for _, b := range anthropicBlocks(m.Content) {
				if b.Type == "text" {
					texts = append(texts, b.Text)
				}
			}
			return strings.Join(texts, "\n"), i + 1
		}
	}
	return "", 0
}

func (a *anthropic) read(w http.ResponseWriter, r *http.Request, body []byte) (Turn, bool, bool) {
	path := r.URL.Path
	switch {
	case r.Method != http.MethodPost:
		writeJSON(w, map[string]any{})
		return Turn{}, false, false
	case strings.HasSuffix(path, "/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 10})
		return Turn{}, false, false
	case !strings.HasSuffix(path, "/v1/messages"):
		writeJSON(w, map[string]any{})
		return Turn{}, false, false
	}
	var req anthropicRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return Turn{}, false, false
	}
	turn := Turn{Path: path, Main: len(req.Tools) > 0}
	for _, t := range req.Tools {
		turn.Tools = append(turn.Tools, t.Name)
	}
	var start int
	turn.Prompt, start = humanPrompt(req.Messages)
	names := map[string]string{}
	for _, m := range req.Messages[start:] {
		for _, b := range anthropicBlocks(m.Content) {
			switch b.Type {
			case "tool_use":
				names[b.ID] = b.Name
			case "tool_result":
				var content string
				for _, c := range anthropicBlocks(b.Content) {
					content += c.Text
				}
				turn.Results = append(turn.Results, Result{Name: names[b.ToolUseID], ID: b.ToolUseID, Content: content, IsError: b.IsError})
			}
		}
	}
	turn.model = req.Model
	return turn, req.Stream, true
}

func (a *anthropic) write(w http.ResponseWriter, r *http.Request, turn Turn, reply Reply, stream bool, quit <-chan struct{}) {
	model := turn.model
	id := a.ids.Add(1)
	var content []map[string]any
	if t := strings.Join(reply.Text, ""); t != "" {
		content = append(content, map[string]any{"type": "text", "text": t})
	}
	stop := "end_turn"
	if reply.Call != nil {
		stop = "tool_use"
		content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_mock%04d", id), "name": reply.Call.Name, "input": reply.Call.Args})
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5}
	if !stream {
		writeJSON(w, map[string]any{"id": fmt.Sprintf("msg_mock%04d", id), "type": "message", "role": "assistant", "model": model,
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	startSSE(w)
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_mock%04d", id), "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}})
	index := 0
	if len(reply.Text) > 0 {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": index, "content_block": map[string]any{"type": "text", "text": ""}})
		for _, d := range reply.Text {
			sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": index, "delta": map[string]any{"type": "text_delta", "text": d}})
		}
		if reply.Hang {
			hold(r, quit)
			return
		}
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	if reply.Call != nil {
		args, _ := json.Marshal(reply.Call.Args)
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_mock%04d", id), "name": reply.Call.Name, "input": map[string]any{}}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": index, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(args)}})
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
	}
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}
