package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"testing"

	"github.com/asktui/asktui/interaction"
)

// runGuard runs a guard over input with a reader that handles its marks
// as the SDK would, and returns the lines passed on (marks left out).
func runGuard(input []byte) ([]string, error) {
	pr, pw := io.Pipe()
	g := newGuard(bytes.NewReader(input), pw, make(chan struct{}))
	lines := make(chan []string, 1)
	go func() {
		var out []string
		sc := bufio.NewScanner(pr)
		sc.Buffer(nil, maxLine+1)
		for sc.Scan() {
			var m struct {
				Method string `json:"method"`
				Params struct {
					N uint64 `json:"n"`
				} `json:"params"`
			}
			if json.Unmarshal(sc.Bytes(), &m) == nil && m.Method == markMethod {
				g.marked(m.Params.N)
				continue
			}
			out = append(out, sc.Text())
		}
		lines <- out
	}()
	err := g.run()
	return <-lines, err
}

func TestGuard(t *testing.T) {
	ok := `{"jsonrpc":"2.0","method":"session/update","params":{}}`
	req := `{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{}}`
	got, err := runGuard([]byte(ok + "\n\n" + req + "\n" + ok + "\nnot json\n" + ok + "\n"))
	if want := []string{ok, req, ok}; !reflect.DeepEqual(got, want) || interaction.CodeOf(err) != interaction.CodeAgentProtocol {
		t.Fatalf("passed %q, err %v; want %q and AGENT_PROTOCOL", got, err, want)
	}
	for _, bad := range []string{`{"id":1,"result":{}}`, `{"jsonrpc":"2.0"}`, `[1,2]`, `"x"`} {
		if _, err := runGuard([]byte(bad + "\n")); interaction.CodeOf(err) != interaction.CodeAgentProtocol {
			t.Errorf("%s: %v, want AGENT_PROTOCOL", bad, err)
		}
	}
	// Many notifications pass, with marks between them that wait.
	var many bytes.Buffer
	for range 3 * markEvery {
		many.WriteString(ok + "\n")
	}
	if got, err := runGuard(many.Bytes()); err != nil || len(got) != 3*markEvery {
		t.Fatalf("%d lines, %v", len(got), err)
	}
}

// FuzzGuardLines: whatever an agent writes, the guard passes on only
// JSON-RPC lines, or stops with AGENT_PROTOCOL; it never hangs or panics.
func FuzzGuardLines(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{}}` + "\n"))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"requestedSchema":{"properties":{"b":{},"a":{}}}}}` + "\n"))
	f.Add([]byte("\n\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := runGuard(data)
		if err != nil && interaction.CodeOf(err) != interaction.CodeAgentProtocol {
			t.Fatalf("uncoded error %v", err)
		}
		for _, l := range got {
			var p probe
			if json.Unmarshal([]byte(l), &p) != nil || p.JSONRPC != "2.0" {
				t.Fatalf("passed on %q", l)
			}
		}
	})
}
