// Package mockmodel is the model behind the real agents of asktui's
// compatibility suite (internal/compat): HTTP servers that speak a model
// API's streaming dialect well enough for the real CLI, with a script
// instead of a model. A [Server] reads each request into a [Turn] (the
// human's last prompt, the tools offered, the tool results since), asks
// the test's [Script] for a [Reply] (text streamed in deltas, a tool
// call, or a stream held open until the client leaves), writes it in the
// dialect, and keeps every turn for the test to wait on.
//
// The dialects: Anthropic Messages (Claude Code, the Agent SDK,
// claude-agent-acp), Gemini streamGenerateContent (Gemini CLI), OpenAI
// Responses (Codex) and OpenAI Chat Completions (GitHub Copilot CLI, Qwen
// Code, opencode). Only tests import it; like net/http/httptest it
// imports only the standard library.
package mockmodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Within bounds every wait of the package: a failure deadline, not a
// speed bound. The real CLIs start slowly on a loaded machine.
const Within = 3 * time.Minute

// Turn is one request to the model, as the server read it.
type Turn struct {
	// Path is the request's URL path.
	Path string
	// Main reports whether the request offers tools: the agent's own
	// conversation, not a title, summary or classifier on the side.
	Main bool
	// Prompt is the text of the human's last message.
	Prompt string
	// Tools are the names of the tools offered.
	Tools []string
	// Results are the tool results since the human's last message, in
	// order.
	Results []Result
	// Left is set on the copy of a held turn recorded when its client
	// went away (see [Reply.Hang]).
	Left bool

	model    string // the model asked for, echoed in the reply
	wantJSON bool   // the request asks for a JSON reply (Gemini)
}

// Result is a tool's result as the agent sent it back to the model.
type Result struct {
	// Name is the tool's name (when the dialect says it), ID the call's.
	Name, ID string
	// Content is the result's text (its JSON, where the dialect sends an
	// object).
	Content string
	// IsError reports whether the agent marked it as an error.
	IsError bool
}

// Tool returns the first of names that the turn offers, or "".
func (t Turn) Tool(names ...string) string {
	for _, n := range names {
		for _, have := range t.Tools {
			if have == n {
				return have
			}
		}
	}
	return ""
}

// Find returns the first tool offered whose name contains part.
func (t Turn) Find(part string) string {
	for _, have := range t.Tools {
		if strings.Contains(have, part) {
			return have
		}
	}
	return ""
}

// String is the turn in one line, for failures.
func (t Turn) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s main=%v left=%v prompt=%q tools=%d", t.Path, t.Main, t.Left, clip(t.Prompt, 80), len(t.Tools))
	for _, r := range t.Results {
		fmt.Fprintf(&b, " result(%s %s err=%v %q)", r.Name, r.ID, r.IsError, clip(r.Content, 200))
	}
	return b.String()
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// Reply is what the model answers.
type Reply struct {
	// Text is streamed one delta per element.
	Text []string
	// Call, when set, follows the text: a tool call.
	Call *Call
	// Hang holds the stream open after the text until the client goes
	// away (a cancelled turn), instead of ending the reply.
	Hang bool
}

// Call is a tool call.
type Call struct {
	// Name is the tool's name as offered; Namespace, for Codex's MCP
	// tools, the namespace it was offered in.
	Name, Namespace string
	// Args are its arguments.
	Args map[string]any
}

// Script decides the reply to a turn; it runs on the server's goroutines.
type Script func(Turn) Reply

// Text is a reply of text streamed in the given deltas.
func Text(deltas ...string) Reply { return Reply{Text: deltas} }

// dialect reads requests and writes replies in one API's format.
type dialect interface {
	// read returns the turn a request asks for, and whether the reply
	// is to stream; ok false means the request is not a model call, and
	// the dialect has answered it.
	read(w http.ResponseWriter, r *http.Request, body []byte) (turn Turn, stream, ok bool)
	// write writes reply to turn; it returns once the reply is written,
	// or, for a held reply, when the client has gone or the server stops.
	write(w http.ResponseWriter, r *http.Request, turn Turn, reply Reply, stream bool, quit <-chan struct{})
}

// Server is a mock model API on a loopback port.
type Server struct {
	// URL is the server's base URL, http://127.0.0.1:PORT.
	URL string

	t       testing.TB
	name    string
	d       dialect
	script  Script
	srv     *httptest.Server
	quit    chan struct{}
	dumpDir string

	mu      sync.Mutex
	turns   []Turn
	n       int // requests, for the dump's file names
	changed chan struct{}
}

func newServer(t testing.TB, name string, d dialect, script Script) *Server {
	t.Helper()
	s := &Server{t: t, name: name, d: d, script: script, quit: make(chan struct{}), changed: make(chan struct{}, 1)}
	// ASKTUI_COMPAT_DUMP=DIR keeps every request's body and reply, for
	// reading what a new CLI version sends.
	if dir := os.Getenv("ASKTUI_COMPAT_DUMP"); dir != "" {
		s.dumpDir = filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+"-"+name)
		_ = os.MkdirAll(s.dumpDir, 0o700)
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(func() {
		close(s.quit)
		s.srv.CloseClientConnections()
		s.srv.Close()
		if t.Failed() {
			t.Logf("%s mock saw:\n%s", s.name, s.Summary())
		}
	})
	return s
}

// maxBody bounds a request's body: the CLIs send their whole
// conversation, system prompt and tool schemas each time.
const maxBody = 32 << 20

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	turn, stream, ok := s.d.read(w, r, body)
	s.mu.Lock()
	s.n++
	n := s.n
	s.mu.Unlock()
	s.dump(n, r, body, "")
	if !ok {
		return
	}
	reply := Text("ok")
	if turn.Main {
		reply = s.script(turn)
	}
	s.record(turn)
	if j, err := json.MarshalIndent(reply, "", " "); err == nil {
		s.dump(n, r, nil, string(j))
	}
	s.d.write(w, r, turn, reply, stream, s.quit)
	if reply.Hang {
		left := turn
		left.Left = true
		s.record(left)
	}
}

func (s *Server) dump(n int, r *http.Request, body []byte, reply string) {
	if s.dumpDir == "" {
		return
	}
	name := filepath.Join(s.dumpDir, fmt.Sprintf("%03d", n))
	if reply != "" {
		_ = os.WriteFile(name+".reply", []byte(reply), 0o600)
		return
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, body, "", " ") != nil {
		pretty.Reset()
		pretty.Write(body)
	}
	_ = os.WriteFile(name+".req", append([]byte(r.Method+" "+r.URL.String()+"\n"), pretty.Bytes()...), 0o600) //nolint:gosec // name is the dump directory and a counter; the request only fills the file
}

func (s *Server) record(t Turn) {
	s.mu.Lock()
	s.turns = append(s.turns, t)
	s.mu.Unlock()
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// Mark returns the number of turns recorded so far, for [Server.WaitFor].
func (s *Server) Mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns)
}

// Turns returns the turns recorded after mark.
func (s *Server) Turns(mark int) []Turn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Turn(nil), s.turns[mark:]...)
}

// WaitFor waits for a turn after mark that match accepts, and returns it;
// what names the wait in a failure, which lists the turns seen.
func (s *Server) WaitFor(mark int, what string, match func(Turn) bool) Turn {
	s.t.Helper()
	deadline := time.After(Within)
	for {
		for _, t := range s.Turns(mark) {
			if match(t) {
				return t
			}
		}
		select {
		case <-s.changed:
		case <-deadline:
			s.t.Fatalf("the %s mock never saw %s; it saw:\n%s", s.name, what, s.Summary())
		}
	}
}

// Summary lists every turn recorded, one a line.
func (s *Server) Summary() string {
	var b strings.Builder
	for i, t := range s.Turns(0) {
		fmt.Fprintf(&b, "%3d %s\n", i, t)
	}
	return b.String()
}

// sse writes one server-sent event (event may be empty) and flushes it.
func sse(w http.ResponseWriter, event string, data any) {
	j, _ := json.Marshal(data)
	if event != "" {
		_, _ = fmt.Fprintf(w, "event: %s\n", event)
	}
	_, _ = fmt.Fprintf(w, "data: %s\n\n", j)
	_ = http.NewResponseController(w).Flush()
}

// startSSE writes the headers of an event stream.
func startSSE(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_ = http.NewResponseController(w).Flush()
}

// hold waits until the client leaves or the server stops.
func hold(r *http.Request, quit <-chan struct{}) {
	select {
	case <-r.Context().Done():
	case <-quit:
	}
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// text returns s as a JSON string's content, or the JSON of v.
func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	j, _ := json.Marshal(v)
	return string(j)
}
