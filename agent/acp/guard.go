package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asktui/asktui/interaction"
)

// The SDK reads the agent's output itself, but it skips a line that is not
// JSON with a log message, and it closes the connection when more than
// 1,024 notifications wait to be handled. The guard stands between the
// agent's standard output and the SDK: it ends the conversation with
// AGENT_PROTOCOL on the first line that is not a JSON-RPC message, and
// after every markEvery notifications (or markBytes of them) it slips in
// a notification of its own (a mark) and does not read on until the one
// before it has been handled, so a fast agent waits for a slow screen
// instead of losing its connection or filling memory: a mark is handled
// once the sink keeps up (conversation.Pacer). Before a question (a
// permission request, an elicitation) it waits for a mark too, so the
// question comes after the updates sent before it, such as its tool call.
// A last mark at the end of the output says that everything the agent
// sent has reached the sink.

// markMethod is the guard's own notification, an ACP extension method.
const markMethod = "_asktui/mark"

// markEvery and markBytes bound the notifications between two marks: at
// most that many, and not much more than that many bytes (the last may go
// over by one line). As the guard reads on past a mark only once the mark
// before it was handled (past a mark for bytes, once that mark was), at
// most twice markEvery notifications, or one interval of bytes, wait in
// the SDK.
const (
	markEvery = 256
	markBytes = 4 << 20
)

// maxLine is the longest line the guard (and the SDK) accepts.
const maxLine = 10 << 20

// drainTimeout bounds waiting for the last mark at the end.
const drainTimeout = 5 * time.Second

// guard copies the agent's output to the SDK, line by line.
type guard struct {
	src  io.Reader
	dst  *io.PipeWriter
	seen atomic.Uint64 // the last mark handled
	poke chan struct{} // a mark was handled
	stop chan struct{} // the SDK's connection is gone

	orders sync.Map // elicitation property order, by sorted key set
}

func newGuard(src io.Reader, dst *io.PipeWriter, stop chan struct{}) *guard {
	return &guard{src: src, dst: dst, poke: make(chan struct{}, 1), stop: stop}
}

// marked records that mark n was handled.
func (g *guard) marked(n uint64) {
	g.seen.Store(n)
	select {
	case g.poke <- struct{}{}:
	default:
	}
}

// waitMark waits until mark n has been handled, the SDK is gone, or
// timeout (when positive) passes.
func (g *guard) waitMark(n uint64, timeout time.Duration) {
	var expire <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expire = t.C
	}
	for g.seen.Load() < n {
		select {
		case <-g.poke:
		case <-g.stop:
			return
		case <-expire:
			return
		}
	}
}

// probe is what the guard reads of each line.
type probe struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
}

// run copies until the agent's output ends. It returns a coded
// AGENT_PROTOCOL error when a line is not JSON-RPC, nil at the end of the
// output. Either way the SDK's input is closed after the last mark.
func (g *guard) run() error {
	sc := bufio.NewScanner(g.src)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var protoErr error
	var c guardCount
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		var p probe
		if err := json.Unmarshal(b, &p); err != nil || p.JSONRPC != "2.0" || (p.Method == "" && len(p.ID) == 0) {
			protoErr = interaction.Errorf(interaction.CodeAgentProtocol,
				"the agent wrote something other than JSON-RPC on its standard output (line %d: %s); an ACP agent must write only JSON-RPC messages there, and logs on standard error",
				line, excerpt(b))
			break
		}
		if !g.pass(&c, p, b) {
			break
		}
	}
	if err := sc.Err(); protoErr == nil && errors.Is(err, bufio.ErrTooLong) {
		protoErr = interaction.Errorf(interaction.CodeAgentProtocol,
			"the agent wrote a line longer than %d MiB on its standard output", maxLine>>20)
	}
	c.mark++
	if g.writeMark(c.mark) == nil {
		g.waitMark(c.mark, drainTimeout)
	}
	_ = g.dst.Close()
	return protoErr
}

// guardCount is what run counts: the last mark written, and the
// notifications (and their bytes) since the last mark they asked for.
type guardCount struct {
	mark, notes uint64
	noteBytes   int
}

// pass passes the JSON-RPC message p, the line b, on to the SDK, with the
// marks it needs, and reports whether the SDK's input is still open.
func (g *guard) pass(c *guardCount, p probe, b []byte) bool {
	if p.Method == "elicitation/create" && len(p.ID) > 0 {
		g.rememberOrder(b)
	}
	if len(p.ID) > 0 && (p.Method == "session/request_permission" || p.Method == "elicitation/create") {
		// The SDK handles requests concurrently with notifications: let
		// the tool call a question is about arrive first.
		c.mark++
		if g.writeMark(c.mark) != nil {
			return false
		}
		g.waitMark(c.mark, 0)
	}
	if g.write(b) != nil {
		return false
	}
	if p.Method == "" || len(p.ID) > 0 {
		return true
	}
	return g.noted(c, len(b))
}

// noted counts a notification of n bytes passed on; every markEvery of
// them, or markBytes, it writes a mark and waits, and reports whether the
// SDK's input is still open.
func (g *guard) noted(c *guardCount, n int) bool {
	c.notes++
	c.noteBytes += n
	if c.notes < markEvery && c.noteBytes < markBytes {
		return true
	}
	// Many small updates stream on while the SDK handles the ones before
	// the last mark; after MiBs of them, the guard waits until they are
	// handled, so that a flood of huge updates keeps at most one in the
	// SDK (a 9 MiB update takes it most of a second to decode: a cancelled
	// turn ends that much sooner).
	wait := c.mark
	if c.noteBytes >= markBytes {
		wait = c.mark + 1
	}
	c.notes, c.noteBytes = 0, 0
	c.mark++
	if g.writeMark(c.mark) != nil {
		return false
	}
	g.waitMark(wait, 0)
	return true
}

func (g *guard) write(b []byte) error {
	if _, err := g.dst.Write(b); err != nil {
		return err
	}
	_, err := g.dst.Write([]byte{'\n'})
	return err
}

func (g *guard) writeMark(n uint64) error {
	return g.write(fmt.Appendf(nil, `{"jsonrpc":"2.0","method":%q,"params":{"n":%d}}`, markMethod, n))
}

// excerpt quotes the start of a bad line.
func excerpt(b []byte) string {
	const n = 80
	s := strings.ToValidUTF8(string(b), "?")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// orderKey identifies a set of property names.
func orderKey(keys []string) string {
	s := append([]string(nil), keys...)
	sort.Strings(s)
	return strings.Join(s, "\x00")
}

// rememberOrder notes the order of an elicitation's properties, which the
// SDK's map loses, for [guard.order].
func (g *guard) rememberOrder(line []byte) {
	var p struct {
		Params struct {
			Schema struct {
				Properties json.RawMessage `json:"properties"`
			} `json:"requestedSchema"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &p) != nil {
		return
	}
	keys := objectKeys(p.Params.Schema.Properties)
	if len(keys) > 1 {
		g.orders.Store(orderKey(keys), keys)
	}
}

// order returns keys in the order the agent sent them, when known, else
// sorted.
func (g *guard) order(keys []string) []string {
	if g != nil {
		if v, ok := g.orders.Load(orderKey(keys)); ok {
			return v.([]string)
		}
	}
	s := append([]string(nil), keys...)
	sort.Strings(s)
	return s
}

// objectKeys returns the keys of a JSON object in order.
func objectKeys(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		k, ok := t.(string)
		if !ok {
			return nil
		}
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return nil
		}
	}
	return keys
}
