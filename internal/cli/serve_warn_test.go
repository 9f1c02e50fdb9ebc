package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestWarnerShowsAndKeeps: a failure serve survives reaches the screen at
// once, and stderr at once when that is not the inbox's terminal, else
// when serve ends, once per message.
func TestWarnerShowsAndKeeps(t *testing.T) {
	for _, live := range []bool{true, false} {
		var stderr bytes.Buffer
		var logged, status []string
		w := newWarner(&stderr, live, func(msg string) { logged = append(logged, msg) })
		w.warn("a history record was not written: disk full")
		// A view attached later shows the latest warning at once.
		w.attach("MCP: x", func(line string) { status = append(status, line) })
		w.warn("a history record was not written: disk full")
		w.warn("the socket stopped serving: boom")
		if len(logged) != 3 || logged[2] != "the socket stopped serving: boom" {
			t.Errorf("live=%v: logged %q", live, logged)
		}
		if len(status) != 3 || status[0] != "MCP: x  ⚠ a history record was not written: disk full" ||
			status[2] != "MCP: x  ⚠ the socket stopped serving: boom" {
			t.Errorf("live=%v: status lines %q", live, status)
		}
		if !live && stderr.Len() != 0 {
			t.Errorf("stderr written while the inbox draws on it: %q", stderr.String())
		}
		w.flush()
		want := "asktui: WARNING: a history record was not written: disk full (2 times)\nasktui: WARNING: the socket stopped serving: boom\n"
		if live {
			want = "asktui: WARNING: a history record was not written: disk full\n" +
				"asktui: WARNING: a history record was not written: disk full\n" +
				"asktui: WARNING: the socket stopped serving: boom\n"
		}
		if got := stderr.String(); got != want {
			t.Errorf("live=%v: stderr\n%s\nwant\n%s", live, got, want)
		}
		if strings.Count(stderr.String(), "\n") != strings.Count(want, "\n") {
			t.Errorf("flush printed twice")
		}
	}
}
