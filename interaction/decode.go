package interaction

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"strings"
	"unicode/utf8"
)

// requestExample is the shape quoted by messages that tell a caller what to
// send.
const requestExample = `{"questions": [{"id": "q1", "question": "..."}]}`

// DecodeRequest reads one JSON request object from r, checks it with
// [Request.Validate] and returns it.
//
// It reads no more than one byte past [MaxRequestBytes] and fails when the
// request is longer than that limit.
// Only the object form {"questions": [...]} is accepted, and nothing but
// whitespace may follow it. Unknown fields are ignored. What models often
// send instead of the canonical form is accepted too: "multi_select" and
// "multiple" for "multiSelect" (see [Question.UnmarshalJSON]), options as
// plain strings (["Yes", "No"] for [{"label": "Yes"}, {"label": "No"}]),
// and questions without an "id" (they get "q1", "q2" … by their place, and
// their answers come back under those ids).
//
// Every error is an *[Error] with [CodeEmptyQuestions] or
// [CodeInvalidRequest] whose message says where the problem is: the line
// and column of a syntax error, or the question and field of a value of
// the wrong type.
func DecodeRequest(r io.Reader) (Request, error) {
	return decodeRequest(r, MaxRequestBytes)
}

// decodeRequest is DecodeRequest with the size limit as a parameter, so
// tests can probe the boundary without 64 MiB inputs.
func decodeRequest(r io.Reader, limit int) (Request, error) {
	src, err := readString(r, limit+1)
	if err != nil {
		return Request{}, WrapError(CodeInvalidRequest, err, "could not read the request: %v", err)
	}
	if len(src) > limit {
		return Request{}, Errorf(CodeInvalidRequest,
			"the request is larger than the limit of %d bytes%s; send fewer or shorter questions and options",
			limit, mebibytes(limit))
	}

	start := len(src) - len(strings.TrimLeft(src, " \t\n\r"))
	if start == len(src) {
		return Request{}, Errorf(CodeInvalidRequest, "the request is empty; send a JSON object such as %s", requestExample)
	}
	switch c := src[start]; c {
	case '{':
	case '[':
		return Request{}, Errorf(CodeInvalidRequest,
			`the request is a JSON array, but it must be an object: wrap the questions as {"questions": [...]}`)
	default:
		return Request{}, Errorf(CodeInvalidRequest,
			"the request must be a JSON object such as %s, but it starts with %s",
			requestExample, describeStart([]byte(src[start:min(start+utf8.UTFMax, len(src))])))
	}

	// Most requests are in the common form: scan them. The rest are
	// decoded by encoding/json in one pass, and only when that fails are
	// the questions decoded as raw values first, so that a type error can
	// name the question it is in.
	req, ok := scanRequest(src)
	if !ok {
		data := []byte(src)
		if req, ok = decodeFast(data); !ok {
			if req, err = decodeCareful(data); err != nil {
				return Request{}, err
			}
		}
	}
	fillMissingIDs(&req)
	if err := req.Validate(); err != nil {
		return Request{}, err
	}
	return req, nil
}

// readString reads r to its end, or to at most limit bytes, into one
// string. When r can say how long it is (a file, a bytes.Reader), the
// string is allocated at that size once: growing a buffer as it reads
// copies a request of a few MB many times over into fresh memory, as slow
// as the decoding in a process just started. A string, because the
// request's text is kept: [scanRequest] slices labels out of it.
func readString(r io.Reader, limit int) (string, error) {
	size := -1
	whole := false // r is in memory, all of it within limit
	switch r := r.(type) {
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			size = int(min(fi.Size(), int64(limit)))
		}
	case interface{ Len() int }:
		size = min(r.Len(), limit)
		switch r.(type) {
		case *bytes.Reader, *bytes.Buffer, *strings.Reader: // a Len to trust
			whole = r.Len() < limit
		}
	}
	var b strings.Builder
	if size >= 0 {
		b.Grow(size + 1) // one byte more, to see the end (or that a file grew since)
	}
	// A bytes.Reader or the like writes itself out in one piece: io.Copy
	// would put a fresh 32 KiB buffer in between (the LimitReader hides
	// WriterTo, and a strings.Builder has no ReadFrom), garbage on every
	// MCP call.
	if wt, ok := r.(io.WriterTo); ok && whole {
		_, err := wt.WriteTo(&b)
		return b.String(), err
	}
	_, err := io.Copy(&b, io.LimitReader(r, int64(limit)))
	return b.String(), err
}

// lenientOptions rewrites options given as plain strings, as models often
// send them ("options": ["Yes", "No"]), into objects with those labels. It
// returns raw unchanged when there is nothing to rewrite, or when raw is
// not what it expects (the decoder then says what is wrong).
func lenientOptions(raw json.RawMessage) json.RawMessage {
	var q map[string]json.RawMessage
	if json.Unmarshal(raw, &q) != nil {
		return raw
	}
	var items []json.RawMessage
	if opts, ok := q["options"]; !ok || json.Unmarshal(opts, &items) != nil {
		return raw
	}
	changed := false
	for i, item := range items {
		var label string
		if json.Unmarshal(item, &label) != nil {
			continue
		}
		b, err := json.Marshal(Option{Label: label})
		if err != nil {
			return raw
		}
		items[i], changed = b, true
	}
	if !changed {
		return raw
	}
	opts, err := json.Marshal(items)
	if err != nil {
		return raw
	}
	q["options"] = opts
	b, err := json.Marshal(q)
	if err != nil {
		return raw
	}
	return b
}

// fillMissingIDs gives each question sent without an id (or with "") the
// id "qN", N its place in the request, so its answer can be matched; "qN-2"
// and so on when the request already uses "qN".
func fillMissingIDs(req *Request) {
	used := make(map[string]bool, len(req.Questions))
	for _, q := range req.Questions {
		used[q.ID] = true
	}
	for i := range req.Questions {
		q := &req.Questions[i]
		if q.ID != "" {
			continue
		}
		id := fmt.Sprintf("q%d", i+1)
		for n := 2; used[id]; n++ {
			id = fmt.Sprintf("q%d-%d", i+1, n)
		}
		q.ID, used[id] = id, true
	}
}

// decodeCareful decodes data question by question, to say where a
// problem is; it decodes what decodeFast accepts to the same request.
func decodeCareful(data []byte) (Request, error) {
	raws, agent, err := decodeTop[json.RawMessage](data)
	if err != nil {
		return Request{}, err
	}
	req := Request{Agent: agent}
	if raws != nil {
		req.Questions = make([]Question, len(raws))
	}
	for i, raw := range raws {
		var w wireQuestion
		if err := json.Unmarshal(lenientOptions(raw), &w); err != nil {
			return Request{}, questionDecodeError(i, w.ID, err)
		}
		req.Questions[i] = w.question()
	}
	return req, nil
}

// decodeFast decodes a well-formed request in one pass; ok is false for
// anything else, which the caller decodes again to say what is wrong.
func decodeFast(data []byte) (req Request, ok bool) {
	wires, agent, err := decodeTop[wireQuestion](data)
	if err != nil {
		return Request{}, false
	}
	req.Agent = agent
	if wires != nil {
		req.Questions = make([]Question, len(wires))
		for i, w := range wires {
			req.Questions[i] = w.question()
		}
	}
	return req, true
}

// decodeTop decodes the request object in data with its questions as Q:
// exactly one object, and no more questions than allowed.
func decodeTop[Q any](data []byte) ([]Q, *Agent, error) {
	var top struct {
		Questions []Q    `json:"questions"`
		Agent     *Agent `json:"agent"`
	}
	// Unmarshal, not a Decoder, which would copy the request into a
	// buffer it grows as it reads: fresh memory, slow in a process just
	// started.
	if err := json.Unmarshal(data, &top); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			switch msg := syntax.Error(); {
			case strings.HasSuffix(msg, "after top-level value"):
				return nil, nil, Errorf(CodeInvalidRequest,
					"unexpected data after the request object at %s; send exactly one JSON object",
					position(data, max(int(syntax.Offset)-1, 0)))
			case msg == "unexpected end of JSON input":
				err = io.ErrUnexpectedEOF // as a Decoder says it
			}
		}
		return nil, nil, decodeError(data, err)
	}
	if err := tooManyQuestions(len(top.Questions)); err != nil {
		return nil, nil, err
	}
	return top.Questions, top.Agent, nil
}

// decodeError turns an error decoding the top-level object into an
// *Error.
func decodeError(data []byte, err error) *Error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		// Offset counts the bytes read up to and including the bad one.
		off := max(int(syntax.Offset)-1, 0)
		return WrapError(CodeInvalidRequest, err, "the request is not valid JSON: %v at %s",
			syntax, position(data, off))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return WrapError(CodeInvalidRequest, err,
			`the request is not valid JSON: it ends after %d bytes, before the object is complete; check for a missing "}", "]" or closing quote`,
			len(data))
	case errors.As(err, &typ):
		msg := typeErrorMessage(typ)
		if typ.Field == "questions" {
			msg += "; send " + requestExample
		}
		return WrapError(CodeInvalidRequest, err, "%s", msg)
	default:
		return WrapError(CodeInvalidRequest, err, "the request could not be decoded: %v", err)
	}
}

// questionDecodeError turns an error decoding question i (0-based) into an
// *Error. id is whatever of the question's id was decoded.
func questionDecodeError(i int, id string, err error) *Error {
	ref := questionRef(i, id)
	var typ *json.UnmarshalTypeError
	if !errors.As(err, &typ) {
		return WrapError(CodeInvalidRequest, err, "%s could not be decoded: %v", ref, err)
	}
	if typ.Field == "" {
		return WrapError(CodeInvalidRequest, err,
			`%s must be a JSON object such as {"id": "q%d", "question": "..."}, not %s`,
			ref, i+1, jsonKind(typ.Value))
	}
	if typ.Field == "options" && typ.Type == reflect.TypeFor[Option]() {
		return WrapError(CodeInvalidRequest, err,
			`%s: each entry of "options" must be a label string or an object such as {"label": "Yes", "description": "..."}, not %s`,
			ref, jsonKind(typ.Value))
	}
	return WrapError(CodeInvalidRequest, err, "%s: %s", ref, typeErrorMessage(typ))
}

// typeErrorMessage describes a value of the wrong type, as in `"agent.id"
// must be a string, not a number`.
func typeErrorMessage(e *json.UnmarshalTypeError) string {
	want := "a value of another type"
	if e.Type != nil {
		want = goKind(e.Type)
	}
	field := e.Field
	if field == "" {
		field = "a value"
	} else {
		field = fmt.Sprintf("%q", field)
	}
	return fmt.Sprintf("%s must be %s, not %s", field, want, jsonKind(e.Value))
}

// goKind names the JSON type that decodes into t.
func goKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	default:
		return "a value of another type"
	}
}

// jsonKind names the JSON value described by json.UnmarshalTypeError.Value,
// such as "string" or "number 1.5".
func jsonKind(v string) string {
	switch {
	case v == "bool":
		return "a boolean"
	case v == "array" || v == "object":
		return "an " + v
	case strings.HasPrefix(v, "number"):
		return "a number"
	case v == "":
		return "a value of another type"
	default:
		return "a " + v
	}
}

// describeStart names the JSON value that b starts with, for a top level
// that is not an object.
func describeStart(b []byte) string {
	switch c := b[0]; {
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || ('0' <= c && c <= '9'):
		return "a number"
	default:
		r, _ := utf8.DecodeRune(b)
		return fmt.Sprintf("%q, which is not JSON", r)
	}
}

// position describes byte offset off of data as a line and column (both
// counted from 1, columns in characters) and the byte offset.
func position(data []byte, off int) string {
	off = min(max(off, 0), len(data))
	before := data[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return fmt.Sprintf("line %d, column %d (byte offset %d)", line, col, off)
}

// mebibytes returns " (N MiB)" for a whole number N of mebibytes n, and ""
// otherwise.
func mebibytes(n int) string {
	if n <= 0 || n%(1<<20) != 0 {
		return ""
	}
	return fmt.Sprintf(" (%d MiB)", n>>20)
}

// trimLeftSpace drops leading JSON whitespace.
func trimLeftSpace(b []byte) []byte {
	for len(b) > 0 {
		switch b[0] {
		case ' ', '\t', '\n', '\r':
			b = b[1:]
		default:
			return b
		}
	}
	return b
}
