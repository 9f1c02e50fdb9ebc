package interaction

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func FuzzDecodeRequest(f *testing.F) {
	seeds := []string{
		// Realistic requests.
		`{"questions":[{"id":"db","question":"Which database should the service use?","header":"Storage","options":[{"label":"Postgres","description":"Managed, in the cloud"},{"label":"SQLite","description":"A file next to the binary"}]}]}`,
		`{"questions":[{"id":"langs","question":"Which languages?","options":[{"label":"Go"},{"label":"Rust"},{"label":"Zig"}],"multiSelect":true},{"id":"notes","question":"Anything else?"}],"agent":{"id":"session-42","name":"Claude"}}`,
		`{"questions":[{"id":"ok","question":"Proceed?","options":[{"label":"Yes"},{"label":"No"}],"multi_select":false}],"agent":{"id":"a"}}`,
		`{"questions":[{"id":"日本","question":"🎉 ¿Qué?\n\t\u001b[31mred","options":[{"label":"é"},{"label":"e\u0301"}]}]}`,
		"\n {\"questions\" : [ {\"id\":\"x\", \"question\":\"?\", \"extra\": {\"a\": [1, 2.5e3, null, true]}} ] }\n",
		`{"QUESTIONS":[{"ID":"x","Question":"?","MultiSelect":true}]}`,
		`{"questions":[{"id":"x","question":"?","options":[]}]}`,
		`{"questions":[{"id":"x","question":"?"}],"agent":{}}`,
		// Broken ones.
		``,
		`[]`,
		`[{"id":"a","question":"?"}]`,
		`{}`,
		`{"questions":[]}`,
		`{"questions":null}`,
		`{"questions":[null]}`,
		`{"questions":{"id":"a"}}`,
		`{"questions":["a"]}`,
		`{"questions":[{"id":"a","question":"?","options":["Yes","No"]}]}`,
		`{"questions":[{"id":1,"question":"?"}]}`,
		`{"questions":[{"id":"a","question":"?","multiSelect":"yes"}]}`,
		`{"questions":[{"id":"a","question":"?"},{"id":"a","question":"?"}]}`,
		`{"questions":[{"id":"a","question":" ","options":[{"label":""},{"label":"x"},{"label":"x"}]}]}`,
		`{"questions":[{"id":"a","question":"?"}]} trailing`,
		`{"questions":[{"id":"a","question":"?"}`,
		`{"questions":[{"id":"a\ud800","question":"\xff"}]}`,
		`null`,
		`"questions"`,
		`{"questions":[{"id":"a","question":"?"}],"agent":"me"}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		if fast, ok := decodeFast(data); ok {
			careful, err := decodeCareful(data)
			if err != nil {
				t.Fatalf("the one-pass decode accepted what the careful one rejects: %v", err)
			}
			if !reflect.DeepEqual(fast, careful) {
				t.Fatalf("the decodes differ:\n fast    %#v\n careful %#v", fast, careful)
			}
		}
		r, err := DecodeRequest(bytes.NewReader(data))
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is a %T, want *Error", err, err)
			}
			if e.Code != CodeInvalidRequest && e.Code != CodeEmptyQuestions {
				t.Fatalf("error code %s, want INVALID_REQUEST or EMPTY_QUESTIONS: %v", e.Code, err)
			}
			if e.Message == "" {
				t.Fatal("error with an empty message")
			}
			if len(e.Message) > 8192 {
				t.Fatalf("error message is %d bytes; messages should stay bounded", len(e.Message))
			}
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("DecodeRequest accepted a request that Validate rejects: %v", err)
		}
		enc, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		again, err := DecodeRequest(bytes.NewReader(enc))
		if err != nil {
			t.Fatalf("decoding the encoding %s: %v", enc, err)
		}
		if want := normalizeRequest(r); !reflect.DeepEqual(again, want) {
			t.Fatalf("round trip changed the request:\n got %#v\nwant %#v", again, want)
		}
	})
}

// normalizeRequest maps empty option lists to nil, as the encoding omits
// them.
func normalizeRequest(r Request) Request {
	qs := make([]Question, len(r.Questions))
	for i, q := range r.Questions {
		if len(q.Options) == 0 {
			q.Options = nil
		}
		qs[i] = q
	}
	r.Questions = qs
	return r
}
