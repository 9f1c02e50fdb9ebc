package interaction

import (
	"encoding/json"
	"testing"
)

// countElements counts what encoding/json decodes from an array, and 0
// for anything else.
func FuzzCountElements(f *testing.F) {
	for _, s := range []string{`[]`, ` [ ] `, `[1]`, `[{"label":"a,b"},{"label":"[c]"}]`, `["x\"],", {"a":[1,2,[3]]}, null]`, `{"a":1}`, `"s"`, `[[],[[]],{}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var v any
		if json.Unmarshal([]byte(in), &v) != nil {
			return // only what encoding/json found well formed reaches it
		}
		want := 0
		if a, ok := v.([]any); ok {
			want = len(a)
		}
		if got := countElements([]byte(in)); got != want {
			t.Fatalf("countElements(%q) = %d, want %d", in, got, want)
		}
	})
}
