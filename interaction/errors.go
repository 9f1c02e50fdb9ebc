package interaction

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Code classifies an [Error]. Codes are stable strings that callers, and
// the models behind them, can branch on.
type Code string

// The error codes.
const (
	// CodeEmptyQuestions means the request has no questions.
	CodeEmptyQuestions Code = "EMPTY_QUESTIONS"
	// CodeNoProvider means no user interface is registered to ask the human.
	CodeNoProvider Code = "NO_PROVIDER"
	// CodeDuplicateProvider means a provider registered while another was active.
	CodeDuplicateProvider Code = "DUPLICATE_PROVIDER"
	// CodeAborted means the caller's context ended before the human answered.
	CodeAborted Code = "ASK_ABORTED"
	// CodeDeclined means the human declined to answer.
	CodeDeclined Code = "ASK_DECLINED"
	// CodeTimeout means the request outlived asktui's own --timeout.
	CodeTimeout Code = "ASK_TIMEOUT"
	// CodeSettledElsewhere means the caller withdrew the request because
	// the human settled it somewhere else first, such as a coding agent's
	// own permission dialog shown beside the inbox.
	CodeSettledElsewhere Code = "SETTLED_ELSEWHERE"
	// CodeProviderClosed means the user interface went away while the
	// request was waiting.
	CodeProviderClosed Code = "PROVIDER_CLOSED"
	// CodeInvalidRequest means the request is malformed or breaks a limit.
	CodeInvalidRequest Code = "INVALID_REQUEST"
	// CodeNoTTY means there is no terminal to ask the human on.
	CodeNoTTY Code = "NO_TTY"
	// CodeInvalidRule means a standing rule of the human's, or the rules
	// file that holds them, cannot be read as one: the message names the
	// line and what is wrong.
	CodeInvalidRule Code = "INVALID_RULE"
	// CodeInvalidAnswer means a provider returned an answer inconsistent with
	// the request.
	CodeInvalidAnswer Code = "INVALID_ANSWER"
	// CodeUntrusted means the other end of a local connection could not be
	// shown to be the current user's own, such as a socket in a directory
	// another user created: nothing was sent to it. It also refuses a
	// rules file that others can write, could replace, or that is not the
	// user's.
	CodeUntrusted Code = "UNTRUSTED"
	// CodeAddressInUse means the address to listen on (a port, a socket)
	// is taken by another program, such as another asktui serve.
	CodeAddressInUse Code = "ADDRESS_IN_USE"
	// CodeAgentNotFound means the agent to start is unknown or its
	// executable is not installed.
	CodeAgentNotFound Code = "AGENT_NOT_FOUND"
	// CodeAgentExited means the agent's process ended (or could not start).
	CodeAgentExited Code = "AGENT_EXITED"
	// CodeAgentProtocol means the agent broke its protocol: malformed
	// messages, a version we do not speak, no answer in time.
	CodeAgentProtocol Code = "AGENT_PROTOCOL"
	// CodeAgentAuth means the agent needs the human to sign in first.
	CodeAgentAuth Code = "AGENT_AUTH"
	// CodeBusy means the conversation is in a turn already.
	CodeBusy Code = "BUSY"
	// CodeUnsupported means the agent (or this interface) cannot do what
	// was asked, such as listing past sessions.
	CodeUnsupported Code = "UNSUPPORTED"
	// CodePermission means asktui may not, or will not, write a file: the
	// system refused it, or the user made the file or its directory
	// read-only.
	CodePermission Code = "PERMISSION_DENIED"
	// CodeInternal marks an unexpected failure that carries no other code.
	CodeInternal Code = "INTERNAL"
)

// CodeDoc is what an error code means to a person reading the
// documentation. README.md's table of error codes is generated from
// [Codes], and a test fails when the two differ.
type CodeDoc struct {
	// Code is the error code.
	Code Code
	// Meaning says when the code is given, in Markdown: a phrase that
	// starts in lower case.
	Meaning string
}

// codeDocs is every code with its meaning, in the order the
// documentation lists them: the ways an ask ends, bad requests, the
// library's own, asktui run's, and the rest.
var codeDocs = []CodeDoc{
	{CodeDeclined, "the human declined to answer"},
	{CodeTimeout, "asktui's own `--timeout` elapsed"},
	{CodeAborted, "the caller withdrew the request (its context ended; for the CLI, a signal)"},
	{CodeSettledElsewhere, "the caller withdrew the request because you answered it elsewhere first (`asktui hook claude`: in Claude Code's own permission dialog); the history records the outcome `elsewhere`"},
	{CodeProviderClosed, "the UI went away (ctrl+c, closed) while the request waited"},
	{CodeInvalidRequest, "the request is malformed or breaks a limit; the message says where (for `asktui setup`: a client's configuration file it cannot parse, with the line)"},
	{CodeEmptyQuestions, "the request has no questions"},
	{CodeNoTTY, "there is no terminal to ask on"},
	{CodeInvalidRule, "a rule of `asktui rules`, or a line of the rules file, cannot be read as one; the message names the line ([rules.md](rules.md)); while the file is invalid no rule answers and you are asked"},
	{CodeNoProvider, "(library) no UI is registered with the service"},
	{CodeDuplicateProvider, "(library) a second UI tried to register"},
	{CodeInvalidAnswer, "(library) what `Answer.Check` reports about an answer that does not fit its request; providers use it in their tests (the service passes answers on, normalised)"},
	{CodeAgentNotFound, "`asktui run`: the agent is unknown or its executable is not installed"},
	{CodeAgentExited, "`asktui run`: the agent's process ended (its last words on standard error follow)"},
	{CodeAgentProtocol, "`asktui run`: the agent wrote something other than JSON-RPC, or did not answer in time"},
	{CodeAgentAuth, "`asktui run`: the agent needs you to sign in first"},
	{CodeBusy, "`asktui run`: a prompt while the agent is still working on the last one"},
	{CodeUnsupported, "`asktui run`: the agent cannot do it (resume, list sessions)"},
	{CodeAddressInUse, "`serve` cannot listen: another program (another `asktui serve`?) holds the port or the socket"},
	{CodeUntrusted, "the socket `ask --connect`, `asktui mcp` or `asktui hook` would use is not yours alone (its directory or file belongs to another user or others can write the directory, or another user serves it); nothing was sent. Also the rules file, when it is not yours, others can write it, or others could replace a directory on its way from /: no rule answers"},
	{CodePermission, "`asktui setup`: a client's configuration file, or its directory, is read-only (its owner may not write it) or the system refused the write; nothing was written"},
	{CodeInternal, "an unexpected failure"},
}

// Codes returns every error code with what it means, in the order the
// documentation lists them. The slice is the caller's.
func Codes() []CodeDoc { return slices.Clone(codeDocs) }

// Sentinels for the common outcomes of an ask. Any [*Error] matches the
// sentinel of its code under [errors.Is], whatever its message or cause:
//
//	if errors.Is(err, interaction.ErrDeclined) { ... }
//
// They are templates to compare with, and ready-made errors: a context
// ended with context.WithTimeoutCause(ctx, d, interaction.ErrTimeout)
// makes Ask return ErrTimeout itself. Do not change them.
var (
	// ErrDeclined matches ASK_DECLINED: the human declined to answer.
	ErrDeclined = &Error{Code: CodeDeclined, Message: "declined by the human"}
	// ErrTimeout matches ASK_TIMEOUT: no answer came in the time allowed.
	ErrTimeout = &Error{Code: CodeTimeout, Message: "no answer in the time allowed"}
	// ErrAborted matches ASK_ABORTED: the caller withdrew the request (its
	// context ended) before the human answered.
	ErrAborted = &Error{Code: CodeAborted, Message: "the request was withdrawn by its caller"}
	// ErrClosed matches PROVIDER_CLOSED: the user interface went away
	// (the human quit it, or it ended) while the request waited.
	ErrClosed = &Error{Code: CodeProviderClosed, Message: "the user interface closed before the question was answered"}
	// ErrNoTTY matches NO_TTY: there is no terminal to ask on.
	ErrNoTTY = &Error{Code: CodeNoTTY, Message: "no terminal to ask on"}
	// ErrInvalidRequest matches INVALID_REQUEST: the request breaks a rule
	// or a limit (its message says which). A request without questions is
	// EMPTY_QUESTIONS instead, which ErrEmptyQuestions matches.
	ErrInvalidRequest = &Error{Code: CodeInvalidRequest, Message: "the request is invalid"}
	// ErrEmptyQuestions matches EMPTY_QUESTIONS: the request has no
	// questions.
	ErrEmptyQuestions = &Error{Code: CodeEmptyQuestions, Message: "the request has no questions"}
)

// Declined returns the error a provider gives its caller when the human
// declines a request: ASK_DECLINED, "declined by the human". Its message
// is for a person (a program's log, the history); what an agent is told
// is [Error.ForAgent].
func Declined() *Error {
	return &Error{Code: CodeDeclined, Message: "declined by the human"}
}

// TimeoutAfter returns the error of a request that got no answer within
// d, the time its asker gave it: ASK_TIMEOUT, "no answer within 1m30s".
// Every timeout asktui sets has this one wording, whichever side of a
// connection ends first (the client's own deadline or the inbox's timer
// for it), so the history says the same of the same timeout.
func TimeoutAfter(d time.Duration) *Error {
	return Errorf(CodeTimeout, "no answer within %s", d)
}

// agentAdvice is what an agent should do about an error of code, where
// there is something to say: what [Error.ForAgent] adds.
func agentAdvice(code Code) string {
	switch code {
	case CodeDeclined:
		return "do not ask the same questions again unless the user asks you to"
	default:
		return ""
	}
}

// Error is a coded failure of the interaction machinery.
//
// Compare errors by code with [errors.Is] and a sentinel such as
// [ErrDeclined] (or any *Error of the same code), or with [CodeOf]:
//
//	if errors.Is(err, interaction.ErrDeclined) { ... }
//	switch interaction.CodeOf(err) { case interaction.CodeDeclined: ... }
type Error struct {
	// Code classifies the failure.
	Code Code
	// Message says what went wrong and, where the caller can fix it, what
	// to send instead.
	Message string
	// Err is the optional underlying cause. It is reachable through
	// [errors.Unwrap] but neither printed by Error nor encoded as JSON.
	Err error
}

// Error returns "CODE: message".
func (e *Error) Error() string {
	if e.Message == "" {
		return string(e.Code)
	}
	return string(e.Code) + ": " + e.Message
}

// ForAgent returns the error as an agent is told it, such as in an MCP
// tool error: Error's "CODE: message", and for a code that calls for it
// what the agent should do next ("ASK_DECLINED: declined by the human; do
// not ask the same questions again unless the user asks you to"). Error
// says what happened, for a person; the advice is for the model.
func (e *Error) ForAgent() string {
	s := e.Error()
	if advice := agentAdvice(e.Code); advice != "" {
		s += "; " + advice
	}
	return s
}

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same code, so that
// errors.Is(err, ErrAborted) matches any ASK_ABORTED error.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && e != nil && t != nil && t.Code == e.Code
}

// MarshalJSON encodes the error as {"code": "...", "message": "..."},
// leaving "<", ">" and "&" as they are (messages quote YAML anchors and
// merge keys, and are read by people too).
func (e *Error) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(wireError{Code: e.Code, Message: e.Message}); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON decodes {"code": "...", "message": "..."}, so a client can
// decode an [ErrorEnvelope]. The cause is not part of the wire form and is
// left nil.
func (e *Error) UnmarshalJSON(data []byte) error {
	w := wireError{Code: e.Code, Message: e.Message}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*e = Error{Code: w.Code, Message: w.Message}
	return nil
}

type wireError struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
}

// Errorf returns an *Error with the given code and a message formatted as
// by [fmt.Sprintf].
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WrapError returns an *Error with the given code, a formatted message and
// cause as its underlying error. The message is what Error prints, so
// include the cause in it (with %v) when the reader needs it. An empty
// message falls back to the cause's text.
func WrapError(code Code, cause error, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	if msg == "" && cause != nil {
		msg = cause.Error()
	}
	return &Error{Code: code, Message: msg, Err: cause}
}

// CodeOf returns the code of the first *Error in err's chain, or "" when err
// is nil or carries no *Error.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) && e != nil {
		return e.Code
	}
	return ""
}

// ContextError returns the error for a request whose context ctx has ended,
// or nil while ctx is still live.
//
// When the context's cause is (or wraps) an *Error, that cause is returned
// as is: callers that set their own deadline use
// context.WithTimeoutCause(ctx, d, Errorf(CodeTimeout, ...)) to report
// ASK_TIMEOUT. Any other cause becomes an ASK_ABORTED error wrapping it.
func ContextError(ctx context.Context) error {
	cause := context.Cause(ctx)
	if cause == nil {
		return nil
	}
	var e *Error
	if errors.As(cause, &e) {
		return cause
	}
	return WrapError(CodeAborted, cause, "the request was withdrawn by its caller: %v", cause)
}

// ErrorEnvelope is the wire form of a failure:
// {"error": {"code": "...", "message": "..."}}.
type ErrorEnvelope struct {
	// Error is the failure; nil encodes as null.
	Error *Error `json:"error"`
}

// NewErrorEnvelope wraps err for the wire. An error carrying an *Error
// keeps its code and message; a bare context cancellation or deadline
// becomes ASK_ABORTED; anything else becomes INTERNAL with err's text. A nil
// err gives an envelope with a nil Error.
func NewErrorEnvelope(err error) ErrorEnvelope {
	if err == nil {
		return ErrorEnvelope{}
	}
	var e *Error
	if errors.As(err, &e) && e != nil {
		return ErrorEnvelope{Error: e}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return ErrorEnvelope{Error: WrapError(CodeAborted, err, "the request was withdrawn by its caller: %v", err)}
	}
	return ErrorEnvelope{Error: WrapError(CodeInternal, err, "%v", err)}
}
