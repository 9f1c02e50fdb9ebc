package interaction

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

func TestDecodeRequest(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Request
	}{
		{"minimal", `{"questions":[{"id":"a","question":"Why?"}]}`,
			req(Question{ID: "a", Question: "Why?"})},
		{"full", `  {"questions":[{"id":"db","question":"Which?","header":"H","options":[{"label":"A"},{"label":"B","description":"b"}],"multiSelect":true}],"agent":{"id":"x","name":"Claude"}} ` + "\n",
			Request{Questions: []Question{{ID: "db", Question: "Which?", Header: "H", Options: []Option{{Label: "A"}, {Label: "B", Description: "b"}}, MultiSelect: true}}, Agent: &Agent{ID: "x", Name: "Claude"}}},
		{"multi_select", `{"questions":[{"id":"a","question":"?","options":[{"label":"x"}],"multi_select":true}]}`,
			req(Question{ID: "a", Question: "?", Options: []Option{{Label: "x"}}, MultiSelect: true})},
		{"unknown fields", `{"version":2,"questions":[{"id":"a","question":"?","priority":"high","options":[{"label":"x","icon":"🎉"}]}],"agent":{"id":"z","pid":42}}`,
			Request{Questions: []Question{{ID: "a", Question: "?", Options: []Option{{Label: "x"}}}}, Agent: &Agent{ID: "z"}}},
		{"null agent", `{"questions":[{"id":"a","question":"?"}],"agent":null}`,
			req(Question{ID: "a", Question: "?"})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeRequest(strings.NewReader(tt.in))
			if err != nil {
				t.Fatalf("DecodeRequest: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("DecodeRequest = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDecodeRequestErrors(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		code      Code
		fragments []string
	}{
		{"empty input", "", CodeInvalidRequest, []string{"the request is empty", `{"questions": [`}},
		{"whitespace only", " \n\t", CodeInvalidRequest, []string{"the request is empty"}},
		{"top-level array", ` [{"id":"a","question":"?"}]`, CodeInvalidRequest,
			[]string{"is a JSON array", `wrap the questions as {"questions": [...]}`}},
		{"top-level string", `"hello"`, CodeInvalidRequest, []string{"must be a JSON object", "starts with a string"}},
		{"top-level null", `null`, CodeInvalidRequest, []string{"must be a JSON object", "starts with null"}},
		{"top-level number", `42`, CodeInvalidRequest, []string{"starts with a number"}},
		{"not JSON", `questions: []`, CodeInvalidRequest, []string{`starts with 'q', which is not JSON`}},
		{"syntax error", "{\n  \"questions\": [\n    {\"id\": \"a\",}\n  ]\n}", CodeInvalidRequest,
			[]string{"not valid JSON", "invalid character '}'", "line 3, column 16 (byte offset 34)"}},
		{"truncated", `{"questions":[{"id":"a"`, CodeInvalidRequest,
			[]string{"not valid JSON", "ends after 23 bytes", "missing"}},
		{"trailing data", `{"questions":[{"id":"a","question":"?"}]} {"questions":[]}`, CodeInvalidRequest,
			[]string{"unexpected data after the request object at line 1, column 43 (byte offset 42)", "exactly one JSON object"}},
		{"trailing garbage", "{\"questions\":[{\"id\":\"a\",\"question\":\"?\"}]}\n]", CodeInvalidRequest,
			[]string{"unexpected data after the request object at line 2, column 1"}},
		{"questions not array", `{"questions":{"id":"a"}}`, CodeInvalidRequest,
			[]string{`"questions" must be an array, not an object`, `send {"questions": [`}},
		{"question not object", `{"questions":[{"id":"a","question":"?"},"Which db?"]}`, CodeInvalidRequest,
			[]string{`question 2 must be a JSON object such as {"id": "q2", "question": "..."}, not a string`}},
		{"id wrong type", `{"questions":[{"id":"a","question":"?"},{"id":7,"question":"?"}]}`, CodeInvalidRequest,
			[]string{`question 2: "id" must be a string, not a number`}},
		{"multiSelect wrong type", `{"questions":[{"id":"db","question":"?","multiSelect":"yes"}]}`, CodeInvalidRequest,
			[]string{`question 1 (id "db"): "multiSelect" must be true or false, not a string`}},
		{"multi_select wrong type", `{"questions":[{"id":"db","question":"?","multi_select":1}]}`, CodeInvalidRequest,
			[]string{`question 1 (id "db"): "multi_select" must be true or false, not a number`}},
		{"options not array", `{"questions":[{"id":"db","question":"?","options":"a,b"}]}`, CodeInvalidRequest,
			[]string{`question 1 (id "db"): "options" must be an array, not a string`}},
		{"options as numbers", `{"questions":[{"id":"db","question":"?","options":["Yes",2]}]}`, CodeInvalidRequest,
			[]string{`question 1 (id "db"): each entry of "options" must be a label string or an object such as {"label": "Yes"`, "not a number"}},
		{"label wrong type", `{"questions":[{"id":"db","question":"?","options":[{"label":true}]}]}`, CodeInvalidRequest,
			[]string{`question 1 (id "db"): "options.label" must be a string, not a boolean`}},
		{"agent wrong type", `{"questions":[{"id":"a","question":"?"}],"agent":"me"}`, CodeInvalidRequest,
			[]string{`"agent" must be an object, not a string`}},
		{"agent id wrong type", `{"questions":[{"id":"a","question":"?"}],"agent":{"id":[]}}`, CodeInvalidRequest,
			[]string{`"agent.id" must be a string, not an array`}},
		{"no questions", `{}`, CodeEmptyQuestions, []string{"no questions"}},
		{"null questions", `{"questions":null}`, CodeEmptyQuestions, []string{"no questions"}},
		{"empty questions", `{"questions":[]}`, CodeEmptyQuestions, []string{"no questions"}},
		{"invalid", `{"questions":[{"id":"a","question":"?","options":[{"label":""}]}]}`, CodeInvalidRequest,
			[]string{`question 1 (id "a"): option 1 has an empty label`}},
		{"too many questions", `{"questions":[` + strings.Repeat(`{},`, MaxQuestions) + `{}]}`, CodeInvalidRequest,
			[]string{"101 questions exceed the limit of 100 questions per request"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := DecodeRequest(strings.NewReader(tt.in))
			wantError(t, err, tt.code, tt.fragments...)
			if !reflect.DeepEqual(r, Request{}) {
				t.Errorf("DecodeRequest returned %+v with an error, want the zero Request", r)
			}
		})
	}
}

func TestDecodeRequestReadError(t *testing.T) {
	boom := errors.New("connection reset")
	_, err := DecodeRequest(iotest.ErrReader(boom))
	wantError(t, err, CodeInvalidRequest, "could not read the request", "connection reset")
	if !errors.Is(err, boom) {
		t.Error("the read error is not wrapped")
	}
}

// spaces is the block repeatReader copies from.
var spaces = bytes.Repeat([]byte{' '}, 64<<10)

// repeatReader yields spaces forever, without allocating.
type repeatReader struct{}

func (repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		n += copy(p[n:], spaces)
	}
	return n, nil
}

func TestDecodeRequestTooBig(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 64 MiB")
	}
	// A valid request followed by endless whitespace: DecodeRequest must
	// stop reading one byte past the limit and fail.
	prefix := `{"questions":[{"id":"a","question":"?"}]}`
	_, err := DecodeRequest(io.MultiReader(strings.NewReader(prefix), repeatReader{}))
	wantError(t, err, CodeInvalidRequest, "larger than the limit of 67108864 bytes (64 MiB)")
}

func TestDecodeRequestLimitBoundary(t *testing.T) {
	prefix := `{"questions":[{"id":"a","question":"?"}]}`
	limit := len(prefix) + 100
	padded := func(n int) io.Reader {
		return io.MultiReader(strings.NewReader(prefix), io.LimitReader(repeatReader{}, int64(n-len(prefix))))
	}
	if _, err := decodeRequest(padded(limit), limit); err != nil {
		t.Errorf("a request of exactly the limit: %v", err)
	}
	_, err := decodeRequest(padded(limit+1), limit)
	wantError(t, err, CodeInvalidRequest, "larger than the limit of 141 bytes; send fewer")
	_, err = decodeRequest(io.MultiReader(strings.NewReader(prefix), repeatReader{}), limit)
	wantError(t, err, CodeInvalidRequest, "larger than the limit of 141 bytes")
}

func TestDecodeRequestMaxOptions(t *testing.T) {
	var buf bytes.Buffer
	build := func(n int) []byte {
		buf.Reset()
		buf.WriteString(`{"questions":[{"id":"big","question":"Pick","options":[`)
		for i := range n {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.WriteString(`{"label":"option `)
			buf.Write(strconv.AppendInt(nil, int64(i), 10))
			buf.WriteString(`"}`)
		}
		buf.WriteString(`]}]}`)
		return buf.Bytes()
	}
	r, err := DecodeRequest(bytes.NewReader(build(MaxOptions)))
	if err != nil {
		t.Fatalf("%d options: %v", MaxOptions, err)
	}
	if n := len(r.Questions[0].Options); n != MaxOptions {
		t.Fatalf("decoded %d options, want %d", n, MaxOptions)
	}
	_, err = DecodeRequest(bytes.NewReader(build(MaxOptions + 1)))
	wantError(t, err, CodeInvalidRequest, `question 1 (id "big"): 100001 options exceed the limit of 100000 options per question`)
}

// BenchmarkDecodeRequest decodes and validates a one-question request
// with 100,000 options (2.4 MB), as `asktui ask` does before its first
// frame.
func BenchmarkDecodeRequest(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(`{"questions":[{"id":"pick","question":"Pick one","options":[`)
	for i := range 100_000 {
		if i > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, `{"label":"Option %d"}`, i+1)
	}
	buf.WriteString(`]}]}`)
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := DecodeRequest(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckOneOfManyLabels checks an answer naming one of 100,000
// options, as the provider's answer is checked before it is returned.
func BenchmarkCheckOneOfManyLabels(b *testing.B) {
	opts := make([]Option, 100_000)
	for i := range opts {
		opts[i] = Option{Label: fmt.Sprintf("Option %d", i+1)}
	}
	req := Request{Questions: []Question{{ID: "pick", Question: "Pick one", Options: opts}}}
	ans := Answer{Answers: []AnswerItem{{ID: "pick", Selected: []string{"Option 99999"}}}}
	for b.Loop() {
		if err := ans.Check(req); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDecodeLenient: the forms models send instead of the canonical one
// are accepted and decode to the canonical request.
func TestDecodeLenient(t *testing.T) {
	tests := []struct {
		name, in string
		want     []Question
	}{
		{"options as strings", `{"questions":[{"id":"db","question":"Which?","options":["Postgres",{"label":"SQLite","description":"a file"}]}]}`,
			[]Question{{ID: "db", Question: "Which?", Options: []Option{{Label: "Postgres"}, {Label: "SQLite", Description: "a file"}}}}},
		{"missing ids", `{"questions":[{"question":"One?"},{"id":"","question":"Two?"},{"id":"x","question":"Three?"}]}`,
			[]Question{{ID: "q1", Question: "One?"}, {ID: "q2", Question: "Two?"}, {ID: "x", Question: "Three?"}}},
		{"a filled id taken", `{"questions":[{"question":"One?"},{"id":"q1","question":"Two?"}]}`,
			[]Question{{ID: "q1-2", Question: "One?"}, {ID: "q1", Question: "Two?"}}},
		{"multiple", `{"questions":[{"id":"a","question":"?","options":["x","y"],"multiple":true}]}`,
			[]Question{{ID: "a", Question: "?", Options: []Option{{Label: "x"}, {Label: "y"}}, MultiSelect: true}}},
		{"multi_select", `{"questions":[{"id":"a","question":"?","multi_select":true}]}`,
			[]Question{{ID: "a", Question: "?", MultiSelect: true}}},
		{"html-like labels survive", `{"questions":[{"id":"a","question":"?","options":["<b>&</b>"]}]}`,
			[]Question{{ID: "a", Question: "?", Options: []Option{{Label: "<b>&</b>"}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := DecodeRequest(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(req.Questions, tt.want) {
				t.Fatalf("got %+v\nwant %+v", req.Questions, tt.want)
			}
		})
	}
}
