package main

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// The flood agent answers the handshake and a prompt with what it was
// told to send, then the prompt's result.
func TestFloodAgent(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		updates int
		bytes   int
	}{
		{[]string{"-mode", "reply", "-bytes", "1000", "-chunk", "100"}, 10, 1000},
		{[]string{"-mode", "reply", "-bytes", "1000", "-chunk", "100", "-text", "paragraph"}, 10, 1000},
		{[]string{"-mode", "flood", "-updates", "80"}, 80, -1},
		{[]string{"-mode", "flood", "-updates", "80", "-kinds", "message"}, 80, -1},
	} {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		go func() {
			_ = floodAgent(tt.args, inR, outW)
			_ = outW.Close()
		}()
		go func() {
			for _, l := range []string{
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
				`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{}}`,
				`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{}}`,
			} {
				_, _ = io.WriteString(inW, l+"\n")
			}
		}()
		sc := bufio.NewScanner(outR)
		updates, text := 0, 0
		for sc.Scan() {
			var m struct {
				ID     int    `json:"id"`
				Method string `json:"method"`
				Params struct {
					Update struct {
						Kind    string          `json:"sessionUpdate"`
						Content json.RawMessage `json:"content"`
					} `json:"update"`
				} `json:"params"`
				Result struct {
					Stop string `json:"stopReason"`
				} `json:"result"`
			}
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatalf("%v: %q", err, sc.Text())
			}
			if m.Method == "session/update" {
				updates++
				var c struct {
					Text string `json:"text"`
				}
				if m.Params.Update.Kind == "agent_message_chunk" && json.Unmarshal(m.Params.Update.Content, &c) == nil {
					text += len(c.Text)
				}
			}
			if m.ID == 3 {
				if m.Result.Stop != "end_turn" || updates != tt.updates || tt.bytes >= 0 && text != tt.bytes {
					t.Fatalf("%s: stop %q after %d updates of %d bytes of text", strings.Join(tt.args, " "), m.Result.Stop, updates, text)
				}
				break
			}
		}
		_ = inW.Close()
		_ = outR.Close()
	}
}
