package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkSDKStatelessCall is the go-sdk alone, without asktui: one
// tools/call of a tool that returns at once, served by the SDK's stateless
// streamable handler as asktui serves calls without a session. It is the
// floor of what a call costs serve's HTTP side before asktui's own work:
//
//	go test -run '^$' -bench SDKStatelessCall -benchmem ./agent/mcp
//
// Most of its bytes per call are the SDK's JSON decoder: every
// internal/json.Unmarshal makes a segmentio Decoder with a fresh 32 KiB
// buffer, and a call is decoded several times over (the batch, the
// headers' check, the params).
func BenchmarkSDKStatelessCall(b *testing.B) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	type in struct {
		Q string `json:"q"`
	}
	sdk.AddTool(srv, &sdk.Tool{Name: "echo", Description: "echo"},
		func(_ context.Context, _ *sdk.CallToolRequest, a in) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: a.Q}}}, nil, nil
		})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{Stateless: true})
	const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"q":"Deploy the billing service?"}}}`
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequestWithContext(context.Background(), http.MethodPost, "/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "billing") {
			b.Fatalf("status %d: %s", rec.Code, rec.Body.String())
		}
	}
}
