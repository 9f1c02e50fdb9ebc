package cast

import "testing"

func TestDump(t *testing.T) {
	for _, alt := range []bool{false, true} {
		_, events, _ := record(t, frameModel{frames: 5, alt: alt})
		for _, e := range events {
			t.Logf("%v %q", e.Time, e.Data)
		}
	}
}
