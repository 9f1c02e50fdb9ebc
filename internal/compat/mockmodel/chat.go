package mockmodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// NewChat starts a mock OpenAI Chat Completions API (POST
// /v1/chat/completions, streamed as server-sent events when asked), the
// dialect of GitHub Copilot CLI's "openai" provider, Qwen Code and
// opencode's openai-compatible providers: base URL URL+"/v1". Requests
// without tools get "ok", or "{}" when they ask for a JSON object; GET
// /v1/models lists the model "compat-model".
func NewChat(t testing.TB, script Script) *Server {
	return newServer(t, "chat", &chat{}, script)
}

type chat struct{ ids atomic.Int64 }

type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tool_calls"`
}

type chatRequest struct {
	Model    string        `json:"model"`
	Stream   bool          `json:"stream"`
	Messages []chatMessage `json:"messages"`
	Tools    []struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	ResponseFormat struct {
		Type string `json:"type"`
	} `json:"response_format"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

func (c *chat) read(w http.ResponseWriter, r *http.Request, body []byte) (Turn, bool, bool) {
	path := r.URL.Path
	if r.Method == http.MethodGet && strings.HasSuffix(path, "/models") {
		writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{
			"id": "compat-model", "object": "model", "created": 0, "owned_by": "compat"}}})
		return Turn{}, false, false
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(path, "/chat/completions") {
		http.NotFound(w, r)
		return Turn{}, false, false
	}
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return Turn{}, false, false
	}
	turn := Turn{Path: path, model: req.Model, wantJSON: strings.HasPrefix(req.ResponseFormat.Type, "json")}
	for _, tool := range req.Tools {
		turn.Tools = append(turn.Tools, tool.Function.Name)
	}
	turn.Main = len(turn.Tools) > 0
	// The human's last message, then the tool results after it.
	start := 0
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			turn.Prompt = openaiText(req.Messages[i].Content)
			start = i + 1
			break
		}
	}
	names := map[string]string{}
	for _, m := range req.Messages[start:] {
		switch m.Role {
		case "assistant":
			for _, tc := range m.ToolCalls {
				names[tc.ID] = tc.Function.Name
			}
		case "tool":
			turn.Results = append(turn.Results, Result{Name: names[m.ToolCallID], ID: m.ToolCallID, Content: openaiText(m.Content)})
		}
	}
	return turn, req.Stream, true
}

func (c *chat) write(w http.ResponseWriter, r *http.Request, turn Turn, reply Reply, stream bool, quit <-chan struct{}) {
	id := c.ids.Add(1)
	chatID := fmt.Sprintf("chatcmpl-mock%04d", id)
	text := strings.Join(reply.Text, "")
	if turn.wantJSON && !turn.Main {
		text = "{}"
	}
	var calls []any
	finish := "stop"
	if call := reply.Call; call != nil {
		args, _ := json.Marshal(call.Args)
		calls = append(calls, map[string]any{"index": 0, "id": fmt.Sprintf("call_mock%04d", id), "type": "function",
			"function": map[string]any{"name": call.Name, "arguments": string(args)}})
		finish = "tool_calls"
	}
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	created := time.Now().Unix()
	if !stream {
		msg := map[string]any{"role": "assistant", "content": text}
		if calls != nil {
			msg["tool_calls"] = calls
		}
		writeJSON(w, map[string]any{"id": chatID, "object": "chat.completion", "created": created, "model": turn.model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": chatID, "object": "chat.completion.chunk", "created": created, "model": turn.model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	startSSE(w)
	sse(w, "", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	deltas := reply.Text
	if turn.wantJSON && !turn.Main {
		deltas = []string{text}
	}
	for _, d := range deltas {
		sse(w, "", chunk(map[string]any{"content": d}, nil))
	}
	if reply.Hang {
		hold(r, quit)
		return
	}
	if calls != nil {
		sse(w, "", chunk(map[string]any{"tool_calls": calls}, nil))
	}
	sse(w, "", chunk(map[string]any{}, finish))
	// The usage in a chunk of its own, as OpenAI sends it with
	// stream_options.include_usage: clients that did not ask ignore it.
	sse(w, "", map[string]any{"id": chatID, "object": "chat.completion.chunk", "created": created, "model": turn.model,
		"choices": []any{}, "usage": usage})
	_, _ = fmt.Fprint(w, "data: [DONE]\n\n")
	_ = http.NewResponseController(w).Flush()
}
