package interaction

import (
	"encoding/json"
	"reflect"
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
