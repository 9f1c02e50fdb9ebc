package mockmodel

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// NewGemini starts a mock Gemini API (POST
// /v1beta/models/MODEL:streamGenerateContent?alt=sse, and
// :generateContent), for GOOGLE_GEMINI_BASE_URL. Requests without tools
// (Gemini CLI's classifiers and checks, which ask for JSON) get "{}" or
// "ok".
func NewGemini(t testing.TB, script Script) *Server {
	return newServer(t, "gemini", gemini{}, script)
}

type gemini struct{}

type geminiPart struct {
	Text             string `json:"text"`
	Thought          bool   `json:"thought"`
	FunctionResponse *struct {
		ID       string         `json:"id"`
		Name     string         `json:"name"`
		Response map[string]any `json:"response"`
	} `json:"functionResponse"`
}

type geminiRequest struct {
	Contents []struct {
		Role  string       `json:"role"`
		Parts []geminiPart `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseMIMEType string `json:"responseMimeType"`
	} `json:"generationConfig"`
}

func (gemini) read(w http.ResponseWriter, r *http.Request, body []byte) (Turn, bool, bool) {
	path := r.URL.Path
	stream := strings.HasSuffix(path, ":streamGenerateContent")
	switch {
	case strings.HasSuffix(path, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 10})
		return Turn{}, false, false
	case r.Method != http.MethodPost || !stream && !strings.HasSuffix(path, ":generateContent"):
		writeJSON(w, map[string]any{})
		return Turn{}, false, false
	}
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return Turn{}, false, false
	}
	turn := Turn{Path: path}
	for _, t := range req.Tools {
		for _, f := range t.FunctionDeclarations {
			turn.Tools = append(turn.Tools, f.Name)
		}
	}
	turn.Main = len(turn.Tools) > 0
	turn.wantJSON = req.GenerationConfig.ResponseMIMEType == "application/json"
	// The human's last message: a user content with text and no
	// function response.
	start := 0
	for i := len(req.Contents) - 1; i >= 0; i-- {
		c := req.Contents[i]
		if c.Role != "user" {
			continue
		}
		var texts []string
		human := true
		for _, p := range c.Parts {
			if p.FunctionResponse != nil {
				human = false
			}
			if p.Text != "" && !p.Thought {
				texts = append(texts, p.Text)
			}
		}
		if human && len(texts) > 0 {
			turn.Prompt = strings.Join(texts, "\n")
			start = i + 1
			break
		}
	}
	for _, c := range req.Contents[start:] {
		for _, p := range c.Parts {
			if f := p.FunctionResponse; f != nil {
				_, isErr := f.Response["error"]
				turn.Results = append(turn.Results, Result{Name: f.Name, ID: f.ID, Content: text(f.Response), IsError: isErr})
			}
		}
	}
	return turn, stream, true
}

func (gemini) write(w http.ResponseWriter, r *http.Request, turn Turn, reply Reply, stream bool, quit <-chan struct{}) {
	if turn.wantJSON && !turn.Main {
		reply = Text("{}")
	}
	usage := map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
	chunk := func(parts []map[string]any, finish string) map[string]any {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		if finish != "" {
			cand["finishReason"] = finish
		}
		resp := map[string]any{"candidates": []any{cand}, "modelVersion": "gemini-mock"}
		if finish != "" {
			resp["usageMetadata"] = usage
		}
		return resp
	}
	var call []map[string]any
	if reply.Call != nil {
		call = []map[string]any{{"functionCall": map[string]any{"name": reply.Call.Name, "args": reply.Call.Args}}}
	}
	if !stream {
		parts := call
		if t := strings.Join(reply.Text, ""); t != "" {
			parts = append([]map[string]any{{"text": t}}, parts...)
		}
		writeJSON(w, chunk(parts, "STOP"))
		return
	}
	startSSE(w)
	for i, d := range reply.Text {
		last := i == len(reply.Text)-1 && reply.Call == nil && !reply.Hang
		finish := ""
		if last {
			finish = "STOP"
		}
		sse(w, "", chunk([]map[string]any{{"text": d}}, finish))
	}
	if reply.Hang {
		hold(r, quit)
		return
	}
	if call != nil {
		sse(w, "", chunk(call, "STOP"))
	} else if len(reply.Text) == 0 {
		sse(w, "", chunk([]map[string]any{{"text": ""}}, "STOP"))
	}
}
