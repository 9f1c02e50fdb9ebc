package socket

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"sync"
	"testing"

	"github.com/asktui/asktui/interaction"
)

// fuzzLineLimit is the line limit under fuzzing, small so that the
// too-long path is reached.
const fuzzLineLimit = 512

// FuzzConnLines feeds a client's byte stream to one connection's read
// loop, with an asker that answers at once, and checks the protocol's
// promises: no panic; every reply is one JSON object with an "id" and
// exactly one of "answer" and "error", with a known code; every line gets
// exactly one reply except blank lines and cancel lines; every request that
// reaches the asker is valid and carries an agent; and every request the
// asker took gets its reply.
func FuzzConnLines(f *testing.F) {
	for _, s := range []string{
		`{"id": 1, "request": {"questions": [{"id": "db", "question": "Which database?", "options": [{"label": "Postgres"}, {"label": "SQLite"}]}]}}` + "\n",
		`{"id": "a", "request": {"questions": [{"id": "q", "question": "Why?"}], "agent": {"id": "me"}}}` + "\n" + `{"id": "a", "cancel": true}` + "\n",
		`{"id": 1, "request": {"questions": [{"id": "q", "question": "?"}, {"id": "r", "question": "?", "options": [{"label": "x"}], "multi_select": true}]}}` + "\n" + `{"id": 1, "request": {"questions": [{"id": "q", "question": "?"}]}}` + "\n",
		"\n   \n\t\r\n",
		"not json\n[1,2]\nnull\n{}\n",
		`{"id": null, "cancel": true}` + "\n" + `{"cancel": "yes"}` + "\n" + `{"id": 2, "cancel": false}` + "\n",
		`{"id": 3, "request": {"questions": []}}` + "\n" + `{"id": 4, "request": {"questions": [{"id": "", "question": ""}]}}` + "\n",
		`{"id": {"nested": [1, 2]}, "request": {"questions": [{"id": "q", "question": "?"}]}, "cancel": true}` + "\n",
		`{"id": 5, "request": "` + string(bytes.Repeat([]byte("x"), fuzzLineLimit)) + `"}` + "\n" + `{"id": 6}` + "\n",
		`{"id": 7, "request": {"questions": [{"id": "q", "question": "?"}]}}`, // no final newline: dropped
		"{\"id\": \"\xff\", \"request\": {\"questions\": [{\"id\": \"\xfe\", \"question\": \"\xc3\"}]}}\n",
	} {
		f.Add([]byte(s))
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		asker := &instantAsker{t: t}
		fc := &scriptConn{r: bytes.NewReader(data)}
		c := &conn{
			s:       &server{asker: asker, opts: Options{DefaultAgent: interaction.Agent{ID: "socket"}, maxLine: fuzzLineLimit}},
			nc:      fc,
			pending: make(map[string]context.CancelCauseFunc),
		}
		var wg sync.WaitGroup
		c.readLoop(context.Background(), &wg)
		wg.Wait()

		lines := bytes.Split(fc.out.Bytes(), []byte("\n"))
		if last := lines[len(lines)-1]; len(last) != 0 {
			t.Fatalf("the last reply does not end its line: %q", last)
		}
		lines = lines[:len(lines)-1]
		fromAsker := 0
		for _, line := range lines {
			var fields map[string]json.RawMessage
			if err := json.Unmarshal(line, &fields); err != nil {
				t.Fatalf("reply %q is not a JSON object: %v", line, err)
			}
			if _, ok := fields["id"]; !ok {
				t.Fatalf("reply %q has no id", line)
			}
			var r clientReply
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatalf("reply %q: %v", line, err)
			}
			switch {
			case (r.Answer == nil) == (r.Error == nil):
				t.Fatalf("reply %q: want exactly one of answer and error", line)
			case r.Answer != nil:
				fromAsker++
			default:
				switch r.Error.Code {
				case interaction.CodeInvalidRequest, interaction.CodeEmptyQuestions:
				case interaction.CodeDeclined, interaction.CodeAborted:
					fromAsker++
				default:
					t.Fatalf("reply %q: unexpected code %s", line, r.Error.Code)
				}
				if r.Error.Message == "" {
					t.Fatalf("reply %q: an error without a message", line)
				}
			}
		}
		if want := expectedReplies(data, fuzzLineLimit); len(lines) != want {
			t.Fatalf("%d replies, want %d:\n%s", len(lines), want, fc.out.Bytes())
		}
		if n := asker.count(); fromAsker != n {
			t.Fatalf("the asker took %d requests but %d replies came from it:\n%s", n, fromAsker, fc.out.Bytes())
		}
	})
}

// expectedReplies counts the replies the protocol promises for a stream:
// one per complete line, except blank lines and lines that cancel an id.
func expectedReplies(data []byte, limit int) int {
	lines := bytes.Split(data, []byte("\n"))
	lines = lines[:len(lines)-1] // a final line without "\n" is never read
	n := 0
	for _, line := range lines {
		if len(line) > limit {
			n++
			continue
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var fields map[string]json.RawMessage
		if json.Unmarshal(line, &fields) == nil && fields != nil {
			_, hasReq := fields["request"]
			id, hasID := fields["id"]
			var cancel bool
			if json.Unmarshal(fields["cancel"], &cancel) == nil && cancel && !hasReq && hasID && !bytes.Equal(id, []byte("null")) {
				continue
			}
		}
		n++
	}
	return n
}

// instantAsker answers every request at once: declines a request whose
// first question id is odd in length, answers the others with each
// question's first option or some text, and honours a withdrawal that came
// first.
type instantAsker struct {
	t  *testing.T
	mu sync.Mutex
	n  int
}

func (a *instantAsker) Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
	a.mu.Lock()
	a.n++
	a.mu.Unlock()
	if err := req.Validate(); err != nil {
		a.t.Errorf("an invalid request reached the asker: %v", err)
	}
	if req.Agent == nil {
		a.t.Errorf("a request reached the asker without an agent")
	}
	if err := ctx.Err(); err != nil {
		return interaction.Answer{}, interaction.ContextError(ctx)
	}
	if len(req.Questions[0].ID)%2 == 1 {
		return interaction.Answer{}, interaction.Errorf(interaction.CodeDeclined, "no")
	}
	var ans interaction.Answer
	for _, q := range req.Questions {
		item := interaction.AnswerItem{ID: q.ID, Custom: "typed"}
		if len(q.Options) > 0 {
			item = interaction.AnswerItem{ID: q.ID, Selected: []string{q.Options[0].Label}}
		}
		ans.Answers = append(ans.Answers, item)
	}
	return ans, nil
}

func (a *instantAsker) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n
}

// scriptConn is a connection that reads a fixed stream and records what
// is written. Only Read and Write are used by the read loop and send.
type scriptConn struct {
	net.Conn
	r   *bytes.Reader
	mu  sync.Mutex
	out bytes.Buffer
}

func (c *scriptConn) Read(p []byte) (int, error) { return c.r.Read(p) }

func (c *scriptConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.Write(p)
}
