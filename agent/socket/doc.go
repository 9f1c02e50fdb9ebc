// Package socket is asktui's local socket: a JSON-lines protocol over a
// Unix socket through which scripts, `asktui ask --connect` and the stdio
// MCP bridge put questions to the running asktui inbox.
//
// It owns the protocol on both sides: [Listen] (or [ListenPrivate]) and
// [Serve] for the inbox,
// [Dial] and [Client] for callers, plus [DefaultPath]. The socket file is
// created with mode 0600 in a directory of mode 0700, so the file system's
// permissions are the only authentication: whoever can open the socket can
// ask. The client trusts the server no more than that: [Dial] refuses, with
// an UNTRUSTED error and before sending anything, a socket or directory
// that is not the current user's, a directory others can write to, and a
// server running as another user.
//
// # Protocol
//
// Each message is one JSON object on one line (UTF-8, terminated by "\n").
// A client sends requests:
//
//	{"id": 1, "request": {"questions": [{"id": "db", "question": "Which database?",
//	  "options": [{"label": "Postgres"}, {"label": "SQLite"}]}]}}
//
// (shown wrapped here; on the wire it is one line). The "id" is any JSON
// value the client chooses; it is echoed verbatim in the reply. The
// "request" is an interaction request, decoded and validated as the rest of
// asktui does ("multi_select" is accepted for "multiSelect"; see
// interaction.DecodeRequest). The server replies with exactly one line per
// request, when the human has acted:
//
//	{"id": 1, "answer": {"answers": [{"id": "db", "selected": ["SQLite"]}]}}
//
// or, on failure,
//
//	{"id": 1, "error": {"code": "ASK_DECLINED", "message": "..."}}
//
// where "code" is one of asktui's error codes (INVALID_REQUEST,
// EMPTY_QUESTIONS, ASK_DECLINED, ASK_ABORTED, ASK_TIMEOUT, SETTLED_ELSEWHERE, PROVIDER_CLOSED,
// NO_PROVIDER, INVALID_ANSWER, INTERNAL) and "message" says what to do about
// it.
//
// A permission request of asktui's own hooks also carries, beside the
// request, the tool call it is about (interaction.Permission), which the
// human's standing rules match on:
//
//	{"id": 1, "request": {...}, "permission": {"client": "codex", "kind": "execute",
//	  "command": "go test ./...", "cwd": "/home/me/src/app", "question": "permission",
//	  "allow": "Allow once", "deny": "Deny"}}
//
// The request's own JSON never carries it. It is decoded strictly (an
// unknown field is an INVALID_REQUEST error) and checked against the
// request (interaction.Request.Validate).
//
// A request line may also give the time the client will wait, in
// milliseconds:
//
//	{"id": 1, "timeout_ms": 30000, "request": {...}}
//
// The inbox then shows the countdown, and when it runs out the request
// ends with ASK_TIMEOUT (recorded as the outcome timeout).
//
// Many requests may be in flight on one connection at once. They reach the
// inbox in the order they were sent; replies come in the order the human
// answers, not the order of the requests, so match them by id. An id may not be reused while its request is still waiting
// (that is an INVALID_REQUEST error line); ids are compared by their JSON
// text, so 1 and "1" differ.
//
// A line that cannot be read as a request gets an INVALID_REQUEST error
// line, carrying the line's "id" when it could be read and null otherwise,
// and the connection stays usable. Blank lines are ignored. A line may be
// at most [MaxLineBytes] long.
//
// To withdraw one waiting request, send
//
//	{"id": 1, "cancel": true}
//
// The request's reply is then an ASK_ABORTED error line (or its answer, if
// the human got there first). A client that gives up because its own
// timeout ran out says so, and the request ends as a timeout:
//
//	{"id": 1, "cancel": true, "reason": {"code": "ASK_TIMEOUT", "message": "no answer within 30s"}}
//
// A client whose human answered the same prompt elsewhere first (a coding
// agent's own permission dialog) says so with SETTLED_ELSEWHERE, and the
// request ends with the outcome elsewhere. A reason with any other code is
// ignored. A cancel line for an id that is not waiting is
// ignored. Closing the connection, or just its writing half, withdraws
// every request still waiting on it, so keep the connection open until the
// last reply has arrived. When the inbox shuts down, waiting requests get
// PROVIDER_CLOSED error lines before the connection closes.
package socket
