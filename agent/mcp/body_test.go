package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// guarded is what the guard passes on of in, read a byte at a time so
// that every state crosses a read.
func guarded(in string, maxString int) (string, *jsonGuard, error) {
	g := newJSONGuard(iotest.OneByteReader(strings.NewReader(in)), maxString)
	out, err := io.ReadAll(g)
	return string(out), g, err
}

func TestJSONGuard(t *testing.T) {
	long := strings.Repeat("x", maxString+10)
	tests := []struct {
		name, in, want string
		cut            int64
	}{
		{"whitespace normalised", " { \"a\" : [ 1 , 2 ] ,\n\t\"b\" : \" kept \\\" \" , \"c\":true} ", `{"a" :[1 ,2 ],"b" :" kept \" " ,"c" :true }`, -1},
		{"escapes kept", `["\\","\"","\u0041\n"]`, `["\\" ,"\"" ,"\u0041\n" ]`, -1},
		{"at the limit", `"` + long[:maxString] + `"`, `"` + long[:maxString] + `" `, -1},
		{"cut", `["` + long + `",1]`, `["` + long[:maxString] + `" ,1 ]`, int64(2 + maxString)},
		{"cut after a whole escape", `"` + long[:maxString-1] + `\u00e9x"`, `"` + long[:maxString-1] + `\u00e9" `, int64(1 + maxString + 5)},
		{"cut after a whole character", `"` + long[:maxString-1] + "éx\"", `"` + long[:maxString-1] + "é\" ", int64(1 + maxString + 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, g, err := guarded(tt.in, maxString)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("passed on %.80q… (%d bytes), want %.80q… (%d bytes)", got, len(got), tt.want, len(tt.want))
			}
			if !json.Valid([]byte(got)) {
				t.Errorf("passed on invalid JSON")
			}
			if g.cut != tt.cut {
				t.Errorf("cut at %d, want %d", g.cut, tt.cut)
			}
		})
	}
	if _, _, err := guarded(`[`+strings.Repeat("1", maxLiteral+1)+`]`, maxString); !errors.Is(err, errLongLiteral) {
		t.Errorf("a long number: %v, want errLongLiteral", err)
	}
}

// FuzzJSONGuard: what the guard passes on of valid JSON is the same JSON
// but for whitespace, or, when it cut a string (here any over 8 bytes),
// still valid JSON.
func FuzzJSONGuard(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e3,true,null],"b":"x\"y\\u00e9"}`, ` [ "é" , { } ] `, `"\ud83d\ude00"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if !json.Valid([]byte(in)) {
			return
		}
		out, g, err := guarded(in, 8) // short, so that strings are cut
		if err != nil {
			if errors.Is(err, errLongLiteral) {
				return
			}
			t.Fatal(err)
		}
		if g.cut >= 0 {
			if !json.Valid([]byte(out)) {
				t.Fatalf("cut %q into invalid JSON %q", in, out)
			}
			return
		}
		var want, got bytes.Buffer
		if err := json.Compact(&want, []byte(in)); err != nil {
			t.Fatal(err)
		}
		if err := json.Compact(&got, []byte(out)); err != nil {
			t.Fatalf("passed %q on as invalid JSON %q", in, out)
		}
		if got.String() != want.String() {
			t.Fatalf("passed %q on as %q", in, out)
		}
	})
}

// postCall posts body to the handler of a session at once, in process,
// and returns the response and the bytes the handler allocated.
func postCall(t *testing.T, h http.Handler, session string, body []byte) (*httptest.ResponseRecorder, uint64) {
	t.Helper()
	req := httptest.NewRequestWithContext(context.Background(), http.MethodPost, "/mcp", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", protocolWithSessions)
	req.Header.Set("Mcp-Session-Id", session)
	rec := httptest.NewRecorder()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	h.ServeHTTP(rec, req)
	runtime.ReadMemStats(&after)
	return rec, after.TotalAlloc - before.TotalAlloc
}

// A call of 50 MB that breaks a limit is refused as the limit is seen:
// the handler allocates a few MiB for it, where reading it whole and
// decoding it took 1.4 GB. Each is answered with a coded tool error, also
// when the id comes last (as the TypeScript SDK writes it). (Under the
// race detector, which reads 50 MB slowly, calls of 4 MB: reading them
// whole took 110 MB.)
func TestRefusedCallCostsLittle(t *testing.T) {
	size := 50 << 20
	if raceEnabled {
		size = 4 << 20
	}
	srv, hs := serveHTTP(t, interactiontest.NewProvider(), Options{}, nil)
	cs := connect(t, hs, nil)
	h := srv.Handler()

	call := func(args string, idLast bool) []byte {
		params := `"params":{"name":"ask_user_question","arguments":` + args + `}`
		if idLast {
			return []byte(`{"method":"tools/call",` + params + `,"jsonrpc":"2.0","id":7}`)
		}
		return []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call",` + params + `}`)
	}
	longText := call(`{"questions":[{"id":"q","question":"`+strings.Repeat("x", size)+`"}]}`, false)
	var opts strings.Builder
	opts.WriteString(`{"questions":[{"id":"q","question":"Pick one","options":[`)
	for i := 0; opts.Len() < size; i++ {
		if i > 0 {
			opts.WriteByte(',')
		}
		opts.WriteString(`{"label":"option"}`)
	}
	opts.WriteString(`]}]}`)
	manyOptions := call(opts.String(), true)
	var qs strings.Builder
	qs.WriteString(`{"questions":[`)
	for i := 0; qs.Len() < size; i++ {
		if i > 0 {
			qs.WriteByte(',')
		}
		qs.WriteString(`{"id":"q","question":"` + strings.Repeat("?", 1000) + `"}`)
	}
	qs.WriteString(`]}`)
	manyQuestions := call(qs.String(), false)

	for _, c := range []struct {
		name string
		body []byte
		want string
	}{
		{"a 50 MB question", longText, "over the limit of 65536 bytes"},
		{"a million options, the id last", manyOptions, "100000 options"},
		{"fifty thousand questions", manyQuestions, "100 questions"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec, allocated := postCall(t, h, cs.ID(), c.body)
			t.Logf("%d MB refused: %.1f MiB allocated", len(c.body)>>20, float64(allocated)/(1<<20))
			if allocated > 16<<20 {
				t.Errorf("refusing a %d MB call allocated %.0f MiB, want at most 16", len(c.body)>>20, float64(allocated)/(1<<20))
			}
			// The answer: JSON, or an event of an SSE stream.
			data := rec.Body.Bytes()
			if i := bytes.Index(data, []byte("data: ")); i >= 0 {
				data = data[i+len("data: "):]
			}
			var resp struct {
				ID     int `json:"id"`
				Result struct {
					IsError bool `json:"isError"`
					Content []struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"result"`
			}
			if err := json.NewDecoder(bytes.NewReader(data)).Decode(&resp); err != nil || resp.ID != 7 || !resp.Result.IsError ||
				len(resp.Result.Content) != 1 || !strings.HasPrefix(resp.Result.Content[0].Text, string(interaction.CodeInvalidRequest)+": ") ||
				!strings.Contains(resp.Result.Content[0].Text, c.want) {
				t.Fatalf("%d %.500s (%v), want a tool error saying %q", rec.Code, rec.Body.String(), err, c.want)
			}
		})
	}
}

// A body is kept in chunks sized to it: a call of a few hundred bytes
// holds one small chunk, not a 64 KiB one, a large body grows in chunks
// that double up to keepChunk, and reading it back gives it whole.
func TestKeeperChunksFitTheBody(t *testing.T) {
	kept := func(body []byte) *keeper {
		k := &keeper{}
		for rest := body; len(rest) > 0; {
			n := min(len(rest), 1000) // as the guard passes it on
			if _, err := k.Write(rest[:n]); err != nil {
				t.Fatal(err)
			}
			rest = rest[n:]
		}
		return k
	}
	held := func(k *keeper) (int, string) {
		total := 0
		for _, c := range k.chunks {
			total += cap(c)
		}
		data, err := io.ReadAll(&heldBody{chunks: k.chunks})
		if err != nil {
			t.Fatal(err)
		}
		return total, string(data)
	}

	small := bytes.Repeat([]byte("x"), 400)
	if total, data := held(kept(small)); total > firstChunk || data != string(small) {
		t.Fatalf("a 400-byte body holds %d bytes (at most %d) and reads back %d bytes", total, firstChunk, len(data))
	}

	large := bytes.Repeat([]byte("0123456789"), 100_000) // 1 MB
	k := kept(large)
	for i, c := range k.chunks {
		if want := min(firstChunk<<i, keepChunk); cap(c) != want {
			t.Fatalf("chunk %d holds %d bytes, want %d", i, cap(c), want)
		}
	}
	if total, data := held(k); total > len(large)+keepChunk || data != string(large) {
		t.Fatalf("a 1 MB body holds %d bytes and reads back %d bytes", total, len(data))
	}
}
