package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
)

// The flood agent: `ptybench agent [flags]` is an ACP agent on standard
// input and output, written against the protocol's JSON lines (no SDK), that
// answers every prompt by sending as much as it is told, as fast as the
// pipe takes it. `ptybench stream` runs it under `asktui run -- …`.

// agentOptions say what the agent sends for each prompt.
type agentOptions struct {
	mode    string // reply: one message in chunks; flood: many small updates of every kind
	bytes   int64  // reply: the message's size
	chunk   int    // reply: bytes per agent_message_chunk
	updates int    // flood: how many session/update notifications
	text    string // reply: markdown (paragraphs, lists, code) or paragraph (never a blank line)
	kinds   string // flood: all (every kind of update), or message (one message's chunks, and usage)
}

func parseAgentFlags(args []string) (agentOptions, error) {
	var o agentOptions
	fs := flag.NewFlagSet("ptybench agent", flag.ContinueOnError)
	fs.StringVar(&o.mode, "mode", "reply", "reply (one message in chunks) or flood (small updates of every kind)")
	fs.Int64Var(&o.bytes, "bytes", 100<<20, "reply: the message's size in bytes")
	fs.IntVar(&o.chunk, "chunk", 1<<20, "reply: bytes per agent_message_chunk")
	fs.IntVar(&o.updates, "updates", 100_000, "flood: session/update notifications per prompt")
	fs.StringVar(&o.text, "text", "markdown", "reply: markdown, or paragraph (one paragraph that never ends)")
	fs.StringVar(&o.kinds, "kinds", "all", "flood: all (every kind of update), or message (the chunks of one message, and usage updates)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.mode != "reply" && o.mode != "flood" {
		return o, fmt.Errorf("-mode %q: reply or flood", o.mode)
	}
	if o.chunk < 1 || o.bytes < 1 || o.updates < 1 {
		return o, errors.New("-chunk, -bytes and -updates must be positive")
	}
	return o, nil
}

// agentMessage is the part of a JSON-RPC message the agent reads.
type agentMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// floodAgent serves ACP on in and out until in ends.
func floodAgent(args []string, in io.Reader, out io.Writer) error {
	o, err := parseAgentFlags(args)
	if err != nil {
		return err
	}
	a := &agent{o: o, w: bufio.NewWriterSize(out, 64<<10)}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var m agentMessage
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		switch m.Method {
		case "initialize":
			a.reply(m.ID, `{"protocolVersion":1,"agentCapabilities":{},"authMethods":[],"agentInfo":{"name":"flood","version":"1"}}`)
		case "session/new":
			a.reply(m.ID, `{"sessionId":"flood-1"}`)
		case "session/prompt":
			a.cancelled.Store(false)
			go a.prompt(m.ID)
		case "session/cancel":
			a.cancelled.Store(true)
		default:
			if len(m.ID) > 0 && m.Method != "" {
				a.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, m.ID))
			}
		}
	}
	return sc.Err()
}

type agent struct {
	o         agentOptions
	mu        sync.Mutex
	w         *bufio.Writer
	cancelled atomic.Bool
}

// send writes one line and flushes it.
func (a *agent) send(line string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, _ = a.w.WriteString(line)
	_ = a.w.WriteByte('\n')
	_ = a.w.Flush()
}

func (a *agent) reply(id json.RawMessage, result string) {
	a.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result))
}

// update sends one session/update with update as its "update".
func (a *agent) update(update string) {
	a.send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"flood-1","update":` + update + `}}`)
}

// prompt plays one turn and answers the prompt request.
func (a *agent) prompt(id json.RawMessage) {
	if a.o.mode == "flood" {
		a.flood()
	} else {
		a.stream()
	}
	stop := "end_turn"
	if a.cancelled.Load() {
		stop = "cancelled"
	}
	a.reply(id, `{"stopReason":"`+stop+`"}`)
}

// markdownText is a realistic reply: prose, a list, a code block.
const markdownText = "The refund rounds down where Charge rounded half away from zero, so the **partial refund** test fails by one cent.\n\n- `refund.go` divides in integers\n- the test expects 2000\n\n```go\nfunc refund(c int) int {\n\treturn int(math.Round(float64(c) / 2))\n}\n```\n\n"

// paragraphText never has a blank line: one paragraph as long as the reply.
const paragraphText = "The refund rounds down where Charge rounded half away from zero, so the **partial refund** test fails by one cent; "

// stream sends the reply in chunks until it is all sent or cancelled.
func (a *agent) stream() {
	unit := markdownText
	if a.o.text == "paragraph" {
		unit = paragraphText
	}
	var b strings.Builder
	for sent := int64(0); sent < a.o.bytes && !a.cancelled.Load(); {
		n := int(min(int64(a.o.chunk), a.o.bytes-sent))
		b.Reset()
		for b.Len() < n {
			off := int(sent+int64(b.Len())) % len(unit)
			b.WriteString(unit[off:min(len(unit), off+n-b.Len())])
		}
		text, _ := json.Marshal(b.String())
		a.update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":` + string(text) + `}}`)
		sent += int64(n)
	}
}

// flood sends small updates: of every kind the screen shows (message and
// thought chunks, which alternate, so each is a new item; tool calls and
// their updates; usage; plans), or the chunks of one message that never
// ends a paragraph, with usage updates.
func (a *agent) flood() {
	for i := 0; i < a.o.updates && !a.cancelled.Load(); i++ {
		if a.o.kinds == "message" {
			if i%8 == 7 {
				a.update(fmt.Sprintf(`{"sessionUpdate":"usage_update","used":%d,"size":200000}`, i))
			} else {
				a.update(fmt.Sprintf(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"word %d "}}`, i))
			}
			continue
		}
		switch i % 8 {
		case 0, 1, 2:
			a.update(fmt.Sprintf(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"word %d "}}`, i))
		case 3:
			a.update(fmt.Sprintf(`{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"thinking %d "}}`, i))
		case 4:
			a.update(fmt.Sprintf(`{"sessionUpdate":"tool_call","toolCallId":"t%d","title":"Read file %d","kind":"read","status":"in_progress"}`, i/80, i))
		case 5:
			a.update(fmt.Sprintf(`{"sessionUpdate":"tool_call_update","toolCallId":"t%d","status":"completed","content":[{"type":"content","content":{"type":"text","text":"line %d\nline 2"}}]}`, i/80, i))
		case 6:
			a.update(fmt.Sprintf(`{"sessionUpdate":"usage_update","used":%d,"size":200000}`, i))
		case 7:
			a.update(fmt.Sprintf(`{"sessionUpdate":"plan","entries":[{"content":"Step %d","priority":"high","status":"in_progress"},{"content":"Next","priority":"low","status":"pending"}]}`, i))
		}
	}
}
