package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/asktui/asktui/interaction"
)

// Reading a POST's body. A body is decoded as it is read, so that a call
// that breaks a limit costs what was read up to the limit, not the whole
// body several times over (the SDK reads a body whole, then decodes its
// envelope, its parameters and the tool's arguments, each a copy):
//
//   - jsonGuard passes the JSON text on with its whitespace normalised,
//     cuts every string longer than maxString bytes as sent
//     (no field of a request may hold more), and fails on a number or
//     other literal longer than maxLiteral, so a decoder reading it never
//     buffers more than that of one token;
//   - bodyWalker reads the message from the guard with encoding/json's
//     token API, finds its id and method wherever they are, and counts the
//     questions and each question's options as they come;
//   - what the guard passed on is kept, while nothing is wrong, and becomes
//     the body the SDK reads.
//
// A call with more questions or options than a request may have, or with a
// string in its questions longer than any field may be, is refused as soon
// as that is seen; the rest of the body is read and dropped (up to
// oversizeScan times the cap), so that the client, still sending, gets the
// answer rather than a reset connection, and so that an id after the
// parameters is found. A string cut anywhere else (a client's 4 MiB name)
// reaches the SDK cut, which only shortens what asktui shortens anyway.

// maxString is the longest string kept, in bytes as sent: the longest
// field of a request (65,536 bytes) with every byte escaped as \u00XX.
const maxString = 6 * (interaction.MaxQuestionLen + 1)

// maxLiteral is the longest number (or true, false, null) accepted.
const maxLiteral = 1 << 10

// errLongLiteral fails a body with a number longer than maxLiteral.
var errLongLiteral = errors.New("a number or literal is longer than 1,024 bytes")

// jsonGuard is an io.Reader that passes the JSON text read from r on,
// bounded as described above. It also counts what it read.
type jsonGuard struct {
	r       io.Reader
	max     int // the longest string kept, in bytes as sent
	scratch []byte

	read int64 // bytes read from r
	out  int64 // bytes passed on
	cut  int64 // where in the output the first cut string was cut, or -1

	inString bool
	escape   int  // bytes of an escape sequence still to come
	dropping bool // the current string is past maxString
	strLen   int  // bytes of the current string passed on
	literal  int  // bytes of the current literal
}

func newJSONGuard(r io.Reader, maxString int) *jsonGuard {
	return &jsonGuard{r: r, max: maxString, cut: -1}
}

func (g *jsonGuard) Read(p []byte) (int, error) {
	if len(p) < 2 {
		return 0, io.ErrShortBuffer
	}
	for {
		// What is passed on may take twice the room (see filter).
		if cap(g.scratch) < len(p)/2 {
			g.scratch = make([]byte, len(p)/2)
		}
		in := g.scratch[:len(p)/2]
		m, err := g.r.Read(in)
		g.read += int64(m)
		n, ferr := g.filter(p, in[:m])
		g.out += int64(n)
		switch {
		case ferr != nil:
			return n, ferr
		case n > 0 || err != nil:
			return n, err
		}
	}
}

// filter copies what of in passes into p, which has room for twice as
// much. A string or literal is followed by a space: encoding/json's
// Decoder, decoding a value, reads one byte past it, and makes an error
// (which it throws away) of any other byte, an allocation per value.
func (g *jsonGuard) filter(p, in []byte) (int, error) {
	n := 0
	for _, c := range in {
		if g.inString {
			n = g.stringByte(p, n, c)
			continue
		}
		var err error
		if n, err = g.structByte(p, n, c); err != nil {
			return n, err
		}
	}
	return n, nil
}

// stringByte copies byte c of a string to p[n:], unless the string is
// past its limit, and returns the new n.
func (g *jsonGuard) stringByte(p []byte, n int, c byte) int {
	switch {
	case g.escape == 5 && c == 'u':
		// An escape's own bytes: after the backslash, one byte, and four
		// more after a 'u'.
		g.escape = 4
	case g.escape == 5:
		g.escape = 0
	case g.escape > 0:
		g.escape--
	case c == '"':
		g.inString, g.dropping = false, false
		p[n], p[n+1] = c, ' '
		return n + 2
	default:
		if c == '\\' {
			g.escape = 5
		}
		// Cut only between escapes and UTF-8 sequences, so what is kept
		// stays valid.
		if !g.dropping && g.strLen >= g.max && c&0xc0 != 0x80 {
			g.dropping = true
			if g.cut < 0 {
				g.cut = g.out + int64(n)
			}
		}
	}
	if g.dropping {
		return n
	}
	g.strLen++
	p[n] = c
	return n + 1
}

// structByte copies byte c outside a string to p[n:], a space after a
// literal it ends, and returns the new n; a literal longer than any may
// be fails.
func (g *jsonGuard) structByte(p []byte, n int, c byte) (int, error) {
	endLiteral := func() {
		if g.literal > 0 {
			g.literal = 0
			p[n] = ' '
			n++
		}
	}
	switch c {
	case ' ', '\t', '\n', '\r':
		endLiteral()
		return n, nil
	case '"':
		g.inString, g.strLen = true, 0
	case '{', '}', '[', ']', ':', ',':
		endLiteral()
	default:
		if g.literal++; g.literal > maxLiteral {
			return n, errLongLiteral
		}
	}
	p[n] = c
	return n + 1, nil
}

// keeper keeps what it is given, in chunks (growing one buffer would
// copy it over and over), until told to stop.
type keeper struct {
	chunks [][]byte
	size   int
	stop   bool
}

// firstChunk and keepChunk are the sizes of the chunks a body is kept
// in: most calls are a few hundred bytes, so the first chunk is small and
// each next one twice the last, up to keepChunk (a 64 KiB chunk for every
// call cost serve a fifth of its CPU with 1,000 calls arriving at once).
const (
	firstChunk = 2 << 10
	keepChunk  = 64 << 10
)

func (k *keeper) Write(p []byte) (int, error) {
	if k.stop {
		return len(p), nil
	}
	k.size += len(p)
	for rest := p; len(rest) > 0; {
		if n := len(k.chunks); n == 0 || len(k.chunks[n-1]) == cap(k.chunks[n-1]) {
			size := firstChunk
			if n > 0 {
				size = min(2*cap(k.chunks[n-1]), keepChunk)
			}
			k.chunks = append(k.chunks, make([]byte, 0, size))
		}
		last := &k.chunks[len(k.chunks)-1]
		m := min(len(rest), cap(*last)-len(*last))
		*last = append(*last, rest[:m]...)
		rest = rest[m:]
	}
	return len(p), nil
}

// drop stops keeping and frees what was kept.
func (k *keeper) drop() {
	k.stop, k.chunks, k.size = true, nil, 0
}

// heldBody is a kept body handed to the SDK; it lets go of each chunk
// once it is read, since the request lives as long as the call waits.
type heldBody struct{ chunks [][]byte }

func (h *heldBody) Read(p []byte) (int, error) {
	for len(h.chunks) > 0 && len(h.chunks[0]) == 0 {
		h.chunks[0] = nil
		h.chunks = h.chunks[1:]
	}
	if len(h.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, h.chunks[0])
	h.chunks[0] = h.chunks[0][n:]
	return n, nil
}

func (h *heldBody) Close() error {
	h.chunks = nil
	return nil
}

// envelope is what reading a body learned: the JSON-RPC message's id
// (the first message's, in a batch) and method, whether it was a batch,
// and the first limit it broke.
type envelope struct {
	id      json.RawMessage
	method  string
	batch   bool
	problem *interaction.Error
}

// bodyWalker reads one JSON-RPC message (or batch) from dec.
type bodyWalker struct {
	dec   *json.Decoder
	guard *jsonGuard
	keep  *keeper
	env   envelope
	first bool // reading the first message of the body
}

// skipped is a value decoded only to move past it: encoding/json scans
// it and hands it over without copying.
type skipped struct{}

func (skipped) UnmarshalJSON([]byte) error { return nil }

// refuse notes the first limit the call breaks and stops keeping the body.
func (w *bodyWalker) refuse(format string, args ...any) {
	if w.env.problem == nil {
		w.env.problem = interaction.Errorf(interaction.CodeInvalidRequest, format, args...)
		w.keep.drop()
	}
}

// walk reads the body's one JSON value: a message, or a batch of them.
func (w *bodyWalker) walk() error {
	t, err := w.dec.Token()
	if err != nil {
		return err
	}
	switch t {
	case json.Delim('{'):
		w.first = true
		if err := w.message(); err != nil {
			return err
		}
	case json.Delim('['):
		w.env.batch = true
		for i := 0; w.dec.More(); i++ {
			if err := w.expect('{'); err != nil {
				return err
			}
			w.first = i == 0
			if err := w.message(); err != nil {
				return err
			}
		}
		if err := w.expect(']'); err != nil {
			return err
		}
	default:
		return errors.New("the body is not a JSON-RPC message (a JSON object)")
	}
	if _, err := w.dec.Token(); err != io.EOF {
		return errors.New("the body goes on after the JSON-RPC message")
	}
	return nil
}

// expect reads the delimiter d.
func (w *bodyWalker) expect(d json.Delim) error {
	t, err := w.dec.Token()
	if err != nil {
		return err
	}
	if t != d {
		return fmt.Errorf("expected %v, found %v", d, t)
	}
	return nil
}

// members calls f with each key of the object whose '{' was just read,
// with the decoder before its value, and reads the closing '}'.
func (w *bodyWalker) members(f func(key string) error) error {
	for w.dec.More() {
		t, err := w.dec.Token()
		if err != nil {
			return err
		}
		key, ok := t.(string)
		if !ok {
			return fmt.Errorf("expected an object key, found %v", t)
		}
		if err := f(key); err != nil {
			return err
		}
	}
	return w.expect('}')
}

// message reads a message after its '{'.
func (w *bodyWalker) message() error {
	return w.members(func(key string) error {
		switch key {
		case "id":
			return w.id()
		case "method":
			var method string
			if err := w.dec.Decode(&method); err != nil {
				return err
			}
			if w.first {
				w.env.method = method
			}
			return nil
		case "params":
			return w.object(func(key string) error {
				if strings.EqualFold(key, "arguments") {
					return w.object(func(key string) error {
						if strings.EqualFold(key, "questions") {
							return w.questions()
						}
						return w.skip()
					})
				}
				return w.skip()
			})
		}
		return w.skip()
	})
}

// id reads the message's id: a string, a number or null.
func (w *bodyWalker) id() error {
	t, err := w.dec.Token()
	if err != nil {
		return err
	}
	var raw json.RawMessage
	switch v := t.(type) {
	case string:
		raw, _ = json.Marshal(v)
	case json.Number:
		raw = json.RawMessage(v)
	case nil:
		raw = json.RawMessage("null")
	case json.Delim:
		// Not an id JSON-RPC allows; the SDK says so.
		return w.skipFrom(v)
	}
	if w.first {
		w.env.id = raw
	}
	return nil
}

// object reads an object with f, or skips any other value.
func (w *bodyWalker) object(f func(key string) error) error {
	t, err := w.dec.Token()
	if err != nil {
		return err
	}
	if t != json.Delim('{') {
		return w.skipFrom(t)
	}
	return w.members(f)
}

// questions reads the tool's questions, counting them and their options
// and looking for strings longer than any field may be.
func (w *bodyWalker) questions() error {
	t, err := w.dec.Token()
	if err != nil {
		return err
	}
	if t != json.Delim('[') {
		return w.skipFrom(t) // interaction.DecodeRequest says what is wrong
	}
	for i := 0; w.dec.More(); i++ {
		if i == interaction.MaxQuestions {
			w.refuse("the request has more than %d questions, the limit of one request; split them across several requests",
				interaction.MaxQuestions)
		}
		ref := fmt.Sprintf("question %d", i+1)
		err := w.object(func(key string) error {
			if strings.EqualFold(key, "options") {
				return w.options(ref)
			}
			return w.field(ref, key)
		})
		if err != nil {
			return err
		}
	}
	return w.expect(']')
}

// options reads a question's options, counting them.
func (w *bodyWalker) options(ref string) error {
	t, err := w.dec.Token()
	if err != nil {
		return err
	}
	if t != json.Delim('[') {
		return w.skipFrom(t)
	}
	for j := 0; w.dec.More(); j++ {
		if j == interaction.MaxOptions {
			w.refuse("%s: more than %d options exceed the limit of %d options per question; offer fewer choices, or ask without \"options\" for a free-text answer",
				ref, interaction.MaxOptions, interaction.MaxOptions)
		}
		start := w.dec.InputOffset()
		if err := w.dec.Decode(&skipped{}); err != nil {
			return err
		}
		if w.cutWithin(start) {
			w.refuse("%s: option %d has a string of more than %d bytes; an option's \"label\" may have %d bytes, its \"description\" %d and its \"preview\" %d",
				ref, j+1, maxString, interaction.MaxLabelLen, interaction.MaxDescriptionLen, interaction.MaxPreviewLen)
		}
	}
	return w.expect(']')
}

// fieldLimit is the longest a question's field may be.
func fieldLimit(key string) int {
	switch strings.ToLower(key) {
	case "id":
		return interaction.MaxIDLen
	case "header":
		return interaction.MaxHeaderLen
	case "detail":
		return interaction.MaxDetailLen
	}
	return interaction.MaxQuestionLen
}

// field reads a question's field other than its options: decoded whole
// (it is a string, or a number, almost always), so without copying it.
func (w *bodyWalker) field(ref, key string) error {
	start := w.dec.InputOffset()
	if err := w.dec.Decode(&skipped{}); err != nil {
		return err
	}
	if w.cutWithin(start) {
		limit := fieldLimit(key)
		w.refuse("%s: %q holds a string of more than %d bytes, over the limit of %d bytes; shorten it",
			ref, key, maxString, limit)
	}
	return nil
}

// cutWithin reports whether the guard cut a string in what the decoder
// read since start.
func (w *bodyWalker) cutWithin(start int64) bool {
	return w.guard.cut >= start && w.guard.cut < w.dec.InputOffset()
}

// skip reads the next value and forgets it, token by token: strings are
// already bounded by the guard, so this holds little at a time.
func (w *bodyWalker) skip() error {
	t, err := w.dec.Token()
	if err != nil {
		return err
	}
	return w.skipFrom(t)
}

// skipFrom skips the rest of the value that began with token t.
func (w *bodyWalker) skipFrom(t json.Token) error {
	depth := 0
	for {
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
		var err error
		if t, err = w.dec.Token(); err != nil {
			return err
		}
	}
}

// readMessage reads a POST body of at most limit bytes (reading up to
// oversizeScan times that to answer a longer one). It returns the body
// for the SDK, as the guard passed it on, or nil with what to answer:
// the envelope (with a problem, or without one for a body over the limit)
// or the error that made the body unreadable.
func readMessage(body io.Reader, limit int64) (kept *heldBody, size int, env envelope, oversize bool, err error) {
	g := newJSONGuard(io.LimitReader(body, oversizeScan*limit), maxString)
	k := &keeper{}
	over := &overWatch{keeper: k, guard: g, limit: limit}
	dec := json.NewDecoder(io.TeeReader(g, over))
	dec.UseNumber()
	w := &bodyWalker{dec: dec, guard: g, keep: k}
	err = w.walk()
	oversize = g.read > limit
	if err == nil && w.env.problem == nil && !oversize {
		return &heldBody{chunks: k.chunks}, k.size, w.env, false, nil
	}
	return nil, 0, w.env, oversize, err
}

// overWatch passes what the guard passed on to the keeper, and drops it
// all once the body is over the limit.
type overWatch struct {
	*keeper
	guard *jsonGuard
	limit int64
}

func (o *overWatch) Write(p []byte) (int, error) {
	if o.guard.read > o.limit && !o.stop {
		o.drop()
	}
	return o.keeper.Write(p)
}
