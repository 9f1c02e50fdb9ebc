package interaction

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestMarshalShapes(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"option", Option{Label: "Yes"}, `{"label":"Yes"}`},
		{"option with description", Option{Label: "Yes", Description: "do it"}, `{"label":"Yes","description":"do it"}`},
		{"minimal question", Question{ID: "q1", Question: "Why?"}, `{"id":"q1","question":"Why?"}`},
		{
			"full question",
			Question{ID: "db", Question: "Which?", Header: "Storage", Options: []Option{{Label: "A"}, {Label: "B", Description: "b"}}, MultiSelect: true},
			`{"id":"db","question":"Which?","header":"Storage","options":[{"label":"A"},{"label":"B","description":"b"}],"multiSelect":true}`,
		},
		{"agent", Agent{ID: "a1", Name: "Claude"}, `{"id":"a1","name":"Claude"}`},
		{"agent without name", Agent{ID: "a1"}, `{"id":"a1"}`},
		{"request", Request{Questions: []Question{{ID: "q", Question: "?"}}}, `{"questions":[{"id":"q","question":"?"}]}`},
		{
			"request with agent",
			Request{Questions: []Question{{ID: "q", Question: "?"}}, Agent: &Agent{ID: "a"}},
			`{"questions":[{"id":"q","question":"?"}],"agent":{"id":"a"}}`,
		},
		{"answer item selected", AnswerItem{ID: "q", Selected: []string{"A", "B"}}, `{"id":"q","selected":["A","B"]}`},
		{"answer item nil selected", AnswerItem{ID: "q"}, `{"id":"q","selected":[]}`},
		{"answer item empty selected", AnswerItem{ID: "q", Selected: []string{}}, `{"id":"q","selected":[]}`},
		{"answer item custom", AnswerItem{ID: "q", Custom: "other"}, `{"id":"q","selected":[],"custom":"other"}`},
		{"custom overrides selected", AnswerItem{ID: "q", Selected: []string{"A"}, Custom: "other"}, `{"id":"q","selected":[],"custom":"other"}`},
		{"pointer answer item", &AnswerItem{ID: "q"}, `{"id":"q","selected":[]}`},
		{"skip", Skip("q"), `{"id":"q","selected":[]}`},
		{"nil answers", Answer{}, `{"answers":[]}`},
		{"answer with nil selected", Answer{Answers: []AnswerItem{{ID: "a"}, {ID: "b", Selected: []string{"X"}}}}, `{"answers":[{"id":"a","selected":[]},{"id":"b","selected":["X"]}]}`},
		{"pointer answer", &Answer{}, `{"answers":[]}`},
		{"error", &Error{Code: CodeDeclined, Message: "no"}, `{"code":"ASK_DECLINED","message":"no"}`},
		{"error drops cause", WrapError(CodeInternal, context.Canceled, "boom"), `{"code":"INTERNAL","message":"boom"}`},
		{"envelope", ErrorEnvelope{Error: Errorf(CodeNoProvider, "none")}, `{"error":{"code":"NO_PROVIDER","message":"none"}}`},
		{"nil envelope", ErrorEnvelope{}, `{"error":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("json.Marshal = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestRoundTrip decodes the encoding of every shape and compares it with
// the original.
func TestRoundTrip(t *testing.T) {
	tests := []any{
		&Option{Label: "Yes", Description: "d"},
		&Question{ID: "db", Question: "Which?", Header: "H", Options: []Option{{Label: "A"}}, MultiSelect: true},
		&Agent{ID: "a", Name: "n"},
		&Request{Questions: []Question{{ID: "q", Question: "?", Options: []Option{{Label: "x"}}}}, Agent: &Agent{ID: "a"}},
		&AnswerItem{ID: "q", Selected: []string{"x"}},
		&AnswerItem{ID: "q", Selected: []string{}, Custom: "c"},
		&Answer{Answers: []AnswerItem{{ID: "q", Selected: []string{}}}},
		&Error{Code: CodeTimeout, Message: "too slow"},
		&ErrorEnvelope{Error: &Error{Code: CodeAborted, Message: "gone"}},
	}
	for _, v := range tests {
		t.Run(reflect.TypeOf(v).Elem().Name(), func(t *testing.T) {
			data, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			got := reflect.New(reflect.TypeOf(v).Elem()).Interface()
			if err := json.Unmarshal(data, got); err != nil {
				t.Fatalf("Unmarshal(%s): %v", data, err)
			}
			if !reflect.DeepEqual(got, v) {
				t.Errorf("round trip of %s = %+v, want %+v", data, got, v)
			}
		})
	}
}

func TestQuestionUnmarshal(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Question
	}{
		{"camel case", `{"id":"q","question":"?","multiSelect":true}`, Question{ID: "q", Question: "?", MultiSelect: true}},
		{"snake case", `{"id":"q","question":"?","multi_select":true}`, Question{ID: "q", Question: "?", MultiSelect: true}},
		{"both, snake true", `{"id":"q","question":"?","multiSelect":false,"multi_select":true}`, Question{ID: "q", Question: "?", MultiSelect: true}},
		{"both, camel true", `{"id":"q","question":"?","multiSelect":true,"multi_select":false}`, Question{ID: "q", Question: "?", MultiSelect: true}},
		{"both false", `{"id":"q","question":"?","multiSelect":false,"multi_select":false}`, Question{ID: "q", Question: "?"}},
		{"unknown fields ignored", `{"id":"q","question":"?","colour":"red","nested":{"a":[1,2]},"options":[{"label":"A","icon":"x"}]}`,
			Question{ID: "q", Question: "?", Options: []Option{{Label: "A"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Question
			if err := json.Unmarshal([]byte(tt.in), &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Unmarshal(%s) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestRequestUnmarshalNested(t *testing.T) {
	in := `{"questions":[{"id":"a","question":"?","multi_select":true},null],"agent":{"id":"x","extra":1},"extra":true}`
	var got Request
	if err := json.Unmarshal([]byte(in), &got); err != nil {
		t.Fatal(err)
	}
	want := Request{Questions: []Question{{ID: "a", Question: "?", MultiSelect: true}, {}}, Agent: &Agent{ID: "x"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestQuestionUnmarshalTypeError(t *testing.T) {
	var q Question
	err := json.Unmarshal([]byte(`{"id":"q","multi_select":"yes"}`), &q)
	var typ *json.UnmarshalTypeError
	if !errors.As(err, &typ) || typ.Field != "multi_select" {
		t.Fatalf("error = %#v, want a type error on field multi_select", err)
	}
}

func TestSkipped(t *testing.T) {
	tests := []struct {
		item AnswerItem
		want bool
	}{
		{AnswerItem{ID: "q"}, true},
		{Skip("q"), true},
		{AnswerItem{ID: "q", Selected: []string{"A"}}, false},
		{AnswerItem{ID: "q", Custom: "x"}, false},
	}
	for _, tt := range tests {
		if got := tt.item.Skipped(); got != tt.want {
			t.Errorf("%+v.Skipped() = %v, want %v", tt.item, got, tt.want)
		}
	}
	if s := Skip("q"); s.Selected == nil || len(s.Selected) != 0 || s.ID != "q" || s.Custom != "" {
		t.Errorf("Skip(q) = %#v", s)
	}
}

func TestAnswerGet(t *testing.T) {
	a := Answer{Answers: []AnswerItem{{ID: "a", Selected: []string{"1"}}, {ID: "b", Custom: "x"}}}
	if got, ok := a.Get("b"); !ok || got.Custom != "x" {
		t.Errorf("Get(b) = %+v, %v", got, ok)
	}
	if got, ok := a.Get("c"); ok || !reflect.DeepEqual(got, AnswerItem{}) {
		t.Errorf("Get(c) = %+v, %v; want zero, false", got, ok)
	}
}

func TestDisplayName(t *testing.T) {
	tests := []struct {
		agent Agent
		want  string
	}{
		{Agent{ID: "id", Name: "Name"}, "Name"},
		{Agent{ID: "id"}, "id"},
		{Agent{ID: "id", Name: "  "}, "id"},
		{Agent{}, "agent"},
		{Agent{ID: " "}, "agent"},
	}
	for _, tt := range tests {
		if got := tt.agent.DisplayName(); got != tt.want {
			t.Errorf("%+v.DisplayName() = %q, want %q", tt.agent, got, tt.want)
		}
	}
}

func TestProviderFunc(t *testing.T) {
	var p Provider = ProviderFunc(func(ctx context.Context, req Request) (Answer, error) {
		return Answer{Answers: []AnswerItem{Skip(req.Questions[0].ID)}}, nil
	})
	ans, err := p.Ask(context.Background(), Request{Questions: []Question{{ID: "z"}}})
	if err != nil || len(ans.Answers) != 1 || ans.Answers[0].ID != "z" {
		t.Errorf("Ask = %+v, %v", ans, err)
	}
}

func TestAnswerKeepsHTMLCharacters(t *testing.T) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(Answer{Answers: []AnswerItem{{ID: "q", Custom: "<b> & </b>"}}}); err != nil {
		t.Fatal(err)
	}
	if want := `{"answers":[{"id":"q","selected":[],"custom":"<b> & </b>"}]}` + "\n"; b.String() != want {
		t.Fatalf("got %s, want %s", b.String(), want)
	}
}

func TestDetailPreviewAndNoteRoundTrip(t *testing.T) {
	req, err := DecodeRequest(strings.NewReader(`{"questions":[{"id":"plan","question":"Approve?","detail":"# Plan\n- a","options":[{"label":"Yes","preview":"` + "```go\\nx\\n```" + `"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	q := req.Questions[0]
	if q.Detail != "# Plan\n- a" || q.Options[0].Preview != "```go\nx\n```" {
		t.Fatalf("decoded %+v", q)
	}
	ans := Answer{Answers: []AnswerItem{{ID: "plan", Selected: []string{"Yes"}, Note: "but test it first"}}}
	if err := ans.Check(req); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(ans)
	if string(b) != `{"answers":[{"id":"plan","selected":["Yes"],"note":"but test it first"}]}` {
		t.Fatalf("encoded %s", b)
	}
	got, err := NewService().askWith(t, req, ans)
	if err != nil || got.Answers[0].Note != "but test it first" {
		t.Fatalf("the service lost the note: %+v %v", got, err)
	}
	long := Request{Questions: []Question{{ID: "a", Question: "q", Detail: strings.Repeat("x", MaxDetailLen+1)}}}
	if err := long.Validate(); CodeOf(err) != CodeInvalidRequest || !strings.Contains(err.Error(), `"detail"`) {
		t.Fatalf("a long detail: %v", err)
	}
}

// askWith registers a provider that answers ans and asks req.
func (s *Service) askWith(t *testing.T, req Request, ans Answer) (Answer, error) {
	t.Helper()
	unregister, err := s.Register(ProviderFunc(func(context.Context, Request) (Answer, error) { return ans, nil }))
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()
	return s.Ask(context.Background(), req)
}
