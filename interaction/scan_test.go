package interaction

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// scanOptionsCases are option arrays in and out of the common form.
var scanOptionsCases = []string{
	`[]`,
	` [ ] `,
	`[{"label":"Yes"},{"label":"No","description":"not now"}]`,
	"[\n  {\"label\": \"A\", \"preview\": \"```go\\nx := 1\\n```\"},\n  {}\n]\n",
	`[{"label":"caf\u00e9 \"quoted\" \\ back"}]`,
	`[{"label":"é ü 日本"}]`,
	`[{"label":"a","label":"b"}]`,
	`[{"Label":"case differs"}]`,
	`[{"label":"x","extra":"unknown key"}]`,
	`[{"label":null}]`,
	`[{"label":1}]`,
	`["plain string"]`,
	`[{"label":"x"},]`,
	`[{"label":"x"}`,
	`[{"label":"x"}] trailing`,
	`[{"label":"tab	inside"}]`,
	"[{\"label\":\"bad \xff utf-8\"}]",
	`[{"lab\u0065l":"escaped key"}]`,
	`null`,
	`{}`,
}

// TestScanOptionsAgreesWithEncodingJSON: whatever scanOptions accepts, it
// decodes as encoding/json does.
func TestScanOptionsAgreesWithEncodingJSON(t *testing.T) {
	accepted := 0
	for _, in := range scanOptionsCases {
		if checkScanOptions(t, []byte(in)) {
			accepted++
		}
	}
	if accepted < 7 {
		t.Errorf("scanOptions took only %d of the cases in the common form", accepted)
	}
}

// FuzzScanOptions checks scanOptions against encoding/json on any input.
func FuzzScanOptions(f *testing.F) {
	for _, in := range scanOptionsCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkScanOptions(t, data) })
}

// checkScanOptions compares scanOptions with encoding/json on data and
// reports whether scanOptions took it.
func checkScanOptions(t *testing.T, data []byte) bool {
	t.Helper()
	got, ok := scanOptions(data)
	if !ok {
		return false
	}
	var want []Option
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("scanOptions took %q, which encoding/json refuses: %v", data, err)
	}
	if len(got) == 0 && len(want) == 0 {
		return true
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("scanOptions(%q) = %#v, encoding/json %#v", data, got, want)
	}
	return true
}

// scanRequestCases are requests in and out of the common form.
var scanRequestCases = []string{
	`{}`,
	`{"questions":[]}`,
	`{"questions":[{}]}`,
	`{"questions":[{"id":"db","question":"Which database?","header":"DB","detail":"**why**","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite"}],"multiSelect":true,"noOther":false}]}`,
	" {\n \"questions\" : [ { \"id\" : \"a\" , \"multi_select\" : true } , { \"multiple\" : false } ] , \"agent\" : { \"id\" : \"x\" , \"name\" : \"X\" } } \n",
	`{"agent":{}}`,
	`{"agent":{"id":"a"},"questions":[{"question":"caf\u00e9?"}]}`,
	`{"questions":[{"id":"a","header":"h"}],"questions":[{"id":"b"}]}`,
	`{"agent":{"id":"a"},"agent":{"name":"b"}}`,
	`{"questions":[{"id":"a","id":"b","multiSelect":true,"multiSelect":false}]}`,
	`{"questions":[{"options":["Yes","No"]}]}`,
	`{"questions":[{"options":null}]}`,
	`{"questions":null}`,
	`{"agent":null}`,
	`{"questions":[{"multiSelect":"true"}]}`,
	`{"questions":[{"multiSelect":truex}]}`,
	`{"questions":[{"multiSelect":tru}]}`,
	`{"questions":[{"multiSelect":true`,
	`{"questions":[{"ID":"case"}]}`,
	`{"questions":[{"id":"a"}],"extra":1}`,
	`{"questions":[{"id":"a"}]} trailing`,
	`{"questions":[{"id":"a"},]}`,
	`{"questions":[{"id":"a","options":[{"label":"x"},{"label":"y"}]},{"id":"b","options":[]}]}`,
	`{"questions":[{"id":"a","options":[{"label":"[{,\"]"}]}]}`,
	"{\"questions\":[{\"question\":\"bad \xff utf-8\"}]}",
	`[]`,
	`{"questions":[1]}`,
}

// TestScanRequestAgreesWithEncodingJSON: whatever scanRequest accepts, it
// decodes as the encoding/json path does.
func TestScanRequestAgreesWithEncodingJSON(t *testing.T) {
	accepted := 0
	for _, in := range scanRequestCases {
		if checkScanRequest(t, in) {
			accepted++
		}
	}
	if accepted < 10 {
		t.Errorf("scanRequest took only %d of the cases in the common form", accepted)
	}
	// Too many questions are left to the path that says so.
	many := `{"questions":[` + strings.Repeat(`{},`, MaxQuestions) + `{}]}`
	if _, ok := scanRequest(many); ok {
		t.Errorf("scanRequest took %d questions", MaxQuestions+1)
	}
	if _, ok := scanRequest(many[:len(many)-len(`,{}]}`)] + "]}"); !ok {
		t.Errorf("scanRequest refused %d questions", MaxQuestions)
	}
}

// FuzzScanRequest checks scanRequest against encoding/json on any input.
func FuzzScanRequest(f *testing.F) {
	for _, in := range scanRequestCases {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, src string) { checkScanRequest(t, src) })
}

// checkScanRequest compares scanRequest with decodeFast on src and
// reports whether scanRequest took it.
func checkScanRequest(t *testing.T, src string) bool {
	t.Helper()
	got, ok := scanRequest(src)
	if !ok {
		return false
	}
	want, ok := decodeFast([]byte(src))
	if !ok {
		t.Fatalf("scanRequest took %q, which encoding/json refuses", src)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("scanRequest(%q) = %#v, encoding/json %#v", src, got, want)
	}
	return true
}

// TestArrayLen counts elements as capacities.
func TestArrayLen(t *testing.T) {
	for in, want := range map[string]int{
		`]`:                          0,
		` ] , 1`:                     0,
		`{}]`:                        1,
		`{"a":[1,2]},{"b":"],"}]`:    2,
		`{"a":"\"],"},{}]`:           2,
		`1,2,3] , [4,5]`:             3,
		`{"label":"x"},{"label":"y"`: 2,
	} {
		if got := arrayLen(in); got != want {
			t.Errorf("arrayLen(%q) = %d, want %d", in, got, want)
		}
	}
}
