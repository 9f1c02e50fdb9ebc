package interaction

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestErrorString(t *testing.T) {
	tests := []struct {
		err  *Error
		want string
	}{
		{Errorf(CodeDeclined, "the human said %s", "no"), "ASK_DECLINED: the human said no"},
		{&Error{Code: CodeNoTTY}, "NO_TTY"},
		{WrapError(CodeInternal, io.EOF, "reading: %v", io.EOF), "INTERNAL: reading: EOF"},
		{WrapError(CodeInternal, io.EOF, ""), "INTERNAL: EOF"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestErrorIsAs(t *testing.T) {
	cause := errors.New("pipe closed")
	err := fmt.Errorf("asking: %w", WrapError(CodeProviderClosed, cause, "the UI went away"))

	if !errors.Is(err, &Error{Code: CodeProviderClosed}) {
		t.Error("errors.Is with the same code = false, want true")
	}
	if errors.Is(err, &Error{Code: CodeAborted}) {
		t.Error("errors.Is with another code = true, want false")
	}
	if !errors.Is(err, cause) {
		t.Error("errors.Is(err, cause) = false: Unwrap does not reach the cause")
	}
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeProviderClosed || e.Message != "the UI went away" {
		t.Errorf("errors.As = %#v", e)
	}
	if got := CodeOf(err); got != CodeProviderClosed {
		t.Errorf("CodeOf = %q, want %q", got, CodeProviderClosed)
	}
	if got := CodeOf(nil); got != "" {
		t.Errorf("CodeOf(nil) = %q, want empty", got)
	}
	if got := CodeOf(cause); got != "" {
		t.Errorf("CodeOf(plain error) = %q, want empty", got)
	}
	if errors.Is(cause, &Error{Code: CodeProviderClosed}) {
		t.Error("a plain error matched an *Error template")
	}
}

func TestErrorEnvelopeDecode(t *testing.T) {
	in := `{"error":{"code":"ASK_TIMEOUT","message":"no answer within 5m0s","extra":1}}`
	var env ErrorEnvelope
	if err := json.Unmarshal([]byte(in), &env); err != nil {
		t.Fatal(err)
	}
	want := &Error{Code: CodeTimeout, Message: "no answer within 5m0s"}
	if !reflect.DeepEqual(env.Error, want) {
		t.Errorf("decoded %+v, want %+v", env.Error, want)
	}
	if !errors.Is(env.Error, &Error{Code: CodeTimeout}) {
		t.Error("decoded error does not match its code")
	}

	var null ErrorEnvelope
	if err := json.Unmarshal([]byte(`{"error":null}`), &null); err != nil || null.Error != nil {
		t.Errorf("decoding a null error = %+v, %v", null, err)
	}
	if err := json.Unmarshal([]byte(`{"error":{"code":5}}`), &env); err == nil {
		t.Error("decoding a numeric code succeeded")
	}
}

// Messages quote YAML anchors ("&a") and merge keys ("<<"): the wire form
// keeps them readable, not as \u0026 and \u003c.
func TestErrorMarshalKeepsHTMLCharacters(t *testing.T) {
	var b strings.Builder
	enc := json.NewEncoder(&b) // as asktui's writers encode: without HTML escaping
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ErrorEnvelope{Error: &Error{Code: CodeInvalidRequest, Message: `alias "*a" is inside the anchor "&a"; merge keys (<<) are not supported`}}); err != nil {
		t.Fatal(err)
	}
	want := `{"error":{"code":"INVALID_REQUEST","message":"alias \"*a\" is inside the anchor \"&a\"; merge keys (<<) are not supported"}}` + "\n"
	if b.String() != want {
		t.Errorf("got  %s\nwant %s", b.String(), want)
	}
}

func TestNewErrorEnvelope(t *testing.T) {
	coded := Errorf(CodeDeclined, "declined")
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, `{"error":null}`},
		{"coded", coded, `{"error":{"code":"ASK_DECLINED","message":"declined"}}`},
		{"wrapped coded", fmt.Errorf("ctx: %w", coded), `{"error":{"code":"ASK_DECLINED","message":"declined"}}`},
		{"plain", errors.New("disk on fire"), `{"error":{"code":"INTERNAL","message":"disk on fire"}}`},
		{"canceled", context.Canceled, `{"error":{"code":"ASK_ABORTED","message":"the request was withdrawn by its caller: context canceled"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := NewErrorEnvelope(tt.err)
			got, err := json.Marshal(env)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			if tt.err != nil && !errors.Is(env.Error, tt.err) && CodeOf(tt.err) == "" {
				t.Errorf("the envelope's error does not wrap %v", tt.err)
			}
		})
	}
}

func TestContextError(t *testing.T) {
	if err := ContextError(context.Background()); err != nil {
		t.Errorf("live context: %v, want nil", err)
	}

	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	err := ContextError(canceled)
	if CodeOf(err) != CodeAborted || !errors.Is(err, context.Canceled) {
		t.Errorf("canceled context: %v, want ASK_ABORTED wrapping context.Canceled", err)
	}

	timeout := Errorf(CodeTimeout, "no answer within 1ns")
	timed, cancel2 := context.WithTimeoutCause(context.Background(), time.Nanosecond, timeout)
	defer cancel2()
	<-timed.Done()
	if err := ContextError(timed); err != timeout { //nolint:errorlint // the very cause, not an error that wraps it
		t.Errorf("context with *Error cause: %v, want the cause itself", err)
	}

	custom := errors.New("user hit ctrl-c")
	withCause, cancel3 := context.WithCancelCause(context.Background())
	cancel3(custom)
	err = ContextError(withCause)
	if CodeOf(err) != CodeAborted || !errors.Is(err, custom) {
		t.Errorf("context with plain cause: %v, want ASK_ABORTED wrapping it", err)
	}
}

// TestSentinels checks that each sentinel matches every *Error of its code,
// wrapped or not, whatever its message, and no *Error of another code.
func TestSentinels(t *testing.T) {
	sentinels := map[Code]*Error{
		CodeDeclined:       ErrDeclined,
		CodeTimeout:        ErrTimeout,
		CodeAborted:        ErrAborted,
		CodeProviderClosed: ErrClosed,
		CodeNoTTY:          ErrNoTTY,
		CodeInvalidRequest: ErrInvalidRequest,
		CodeEmptyQuestions: ErrEmptyQuestions,
	}
	for code, sentinel := range sentinels {
		if sentinel.Code != code || sentinel.Message == "" {
			t.Errorf("the sentinel for %s is %#v", code, sentinel)
		}
		for other := range sentinels {
			err := fmt.Errorf("asking: %w", WrapError(other, io.EOF, "some message of its own"))
			if got, want := errors.Is(err, sentinel), other == code; got != want {
				t.Errorf("errors.Is(%s error, the %s sentinel) = %v, want %v", other, code, got, want)
			}
		}
		if errors.Is(errors.New("no code"), sentinel) {
			t.Errorf("a plain error matched the %s sentinel", code)
		}
	}
}

// TestDeclinedSaysWhatHappened: the error of a human's decline says what
// happened, for a person (a library program's log.Fatal, the history), and
// only what an agent is told (ForAgent) carries the advice meant for a
// model (issue 35: "ASK_DECLINED: … do not ask the same questions again"
// was printed to people).
func TestDeclinedSaysWhatHappened(t *testing.T) {
	for _, e := range []*Error{Declined(), ErrDeclined} {
		if got, want := e.Error(), "ASK_DECLINED: declined by the human"; got != want {
			t.Errorf("Error() = %q, want %q", got, want)
		}
		if got, want := e.ForAgent(), "ASK_DECLINED: declined by the human; do not ask the same questions again unless the user asks you to"; got != want {
			t.Errorf("ForAgent() = %q, want %q", got, want)
		}
	}
	// A code without advice is told as Error says it.
	e := Errorf(CodeTimeout, "no answer within 1s")
	if got := e.ForAgent(); got != e.Error() {
		t.Errorf("ForAgent() of a timeout = %q, want %q", got, e.Error())
	}
}

// TestSentinelAsContextCause checks that a context ended with a sentinel
// as its cause makes ContextError (and so Ask) return that sentinel.
func TestSentinelAsContextCause(t *testing.T) {
	ctx, cancel := context.WithTimeoutCause(context.Background(), time.Nanosecond, ErrTimeout)
	defer cancel()
	<-ctx.Done()
	if err := ContextError(ctx); err != ErrTimeout { //nolint:errorlint // the very value, not an error that wraps it
		t.Errorf("ContextError = %v, want ErrTimeout itself", err)
	}
	_, err := NewService().Ask(ctx, Request{})
	if !errors.Is(err, ErrTimeout) {
		t.Errorf("Ask on an ended context = %v, want ErrTimeout", err)
	}
}

// TestEveryCodeHasAMeaning: a code added to errors.go without a line in
// Codes would be missing from the README's table; one listed twice, or
// without a meaning, would be a broken row.
func TestEveryCodeHasAMeaning(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []Code
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			if typ, ok := v.Type.(*ast.Ident); !ok || typ.Name != "Code" {
				continue
			}
			for _, val := range v.Values {
				lit, ok := val.(*ast.BasicLit)
				if !ok {
					t.Fatalf("a Code constant's value is not a literal: %#v", val)
				}
				c, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				declared = append(declared, Code(c))
			}
		}
	}
	if len(declared) == 0 {
		t.Fatal("found no Code constants in errors.go")
	}
	seen := map[Code]int{}
	for _, d := range Codes() {
		seen[d.Code]++
		if strings.TrimSpace(d.Meaning) == "" {
			t.Errorf("%s has no meaning", d.Code)
		}
	}
	for _, c := range declared {
		if seen[c] != 1 {
			t.Errorf("%s is in Codes %d times, want once", c, seen[c])
		}
		delete(seen, c)
	}
	for c := range seen {
		t.Errorf("Codes lists %s, which errors.go does not declare", c)
	}
}
