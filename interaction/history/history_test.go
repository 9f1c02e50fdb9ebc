package history

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
)

var (
	agent = &interaction.Agent{ID: "s1", Name: "claude"}
	req   = interaction.Request{
		Agent: agent,
		Questions: []interaction.Question{
			{ID: "db", Header: "Storage", Question: "Which database?", Options: []interaction.Option{{Label: "Postgres"}, {Label: "SQLite"}}},
			{ID: "notes", Question: "Anything else?"},
		},
	}
	t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
)

// clock returns a clock that starts at t0 and advances by step on every
// reading.
func clock(step time.Duration) func() time.Time {
	var mu sync.Mutex
	t := t0.Add(-step)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(step)
		return t
	}
}

// draftErr is an ASK_ABORTED error that carries a draft, as the UI sends.
type draftErr struct {
	err   *interaction.Error
	draft *interaction.Answer
}

func (e draftErr) Error() string              { return e.err.Error() }
func (e draftErr) Draft() *interaction.Answer { return e.draft }
func (e draftErr) Unwrap() error              { return e.err }

func openLog(t *testing.T) (*Log, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state", "asktui", "history.jsonl")
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() }) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	return l, path
}

func readAll(t *testing.T, path string, n int) ([]Record, int) {
	t.Helper()
	recs, skipped, err := ReadFile(path, n)
	if err != nil {
		t.Fatal(err)
	}
	return recs, skipped
}

func TestWrapRecordsEveryOutcome(t *testing.T) {
	answer := interaction.Answer{Answers: []interaction.AnswerItem{
		{ID: "db", Selected: []string{"SQLite"}},
		{ID: "notes", Selected: []string{}, Custom: "keep it <small>"},
	}}
	skipped := interaction.Answer{Answers: []interaction.AnswerItem{interaction.Skip("db"), interaction.Skip("notes")}}
	draft := &interaction.Answer{Answers: []interaction.AnswerItem{{ID: "notes", Selected: []string{}, Custom: "half a thou"}}}
	aborted := interaction.Errorf(interaction.CodeAborted, "the request was withdrawn by its caller")

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()

	cases := []struct {
		name    string
		ctx     context.Context
		ans     interaction.Answer
		err     error
		outcome interaction.Outcome
		code    interaction.Code
		draft   *interaction.Answer
	}{
		{name: "answered", ans: answer, outcome: interaction.OutcomeAnswered},
		{name: "skipped", ans: skipped, outcome: interaction.OutcomeSkipped},
		{name: "no items", ans: interaction.Answer{}, outcome: interaction.OutcomeSkipped},
		{name: "declined", err: interaction.Errorf(interaction.CodeDeclined, "the human declined"), outcome: interaction.OutcomeDeclined, code: interaction.CodeDeclined},
		{name: "withdrawn", err: aborted, outcome: interaction.OutcomeWithdrawn, code: interaction.CodeAborted},
		{name: "timeout", err: interaction.Errorf(interaction.CodeTimeout, "no answer within 5m"), outcome: interaction.OutcomeTimeout, code: interaction.CodeTimeout},
		{name: "closed", err: interaction.Errorf(interaction.CodeProviderClosed, "the UI went away"), outcome: interaction.OutcomeClosed, code: interaction.CodeProviderClosed},
		{name: "other", err: errors.New("boom"), outcome: interaction.OutcomeFailed, code: interaction.CodeInternal},
		{name: "invalid", err: interaction.Errorf(interaction.CodeInvalidAnswer, "bad"), outcome: interaction.OutcomeFailed, code: interaction.CodeInvalidAnswer},
		{name: "bare cancel", ctx: cancelled, err: context.Canceled, outcome: interaction.OutcomeWithdrawn, code: interaction.CodeAborted},
		{name: "draft", err: fmt.Errorf("ui: %w", draftErr{aborted, draft}), outcome: interaction.OutcomeWithdrawn, code: interaction.CodeAborted, draft: draft},
	}

	l, path := openLog(t)
	for _, c := range cases {
		p := interaction.ProviderFunc(func(context.Context, interaction.Request) (interaction.Answer, error) {
			return c.ans, c.err
		})
		w := Wrap(p, l, clock(1500*time.Millisecond), func(err error) { t.Errorf("%s: OnError: %v", c.name, err) })
		ctx := c.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		ans, err := w.Ask(ctx, req)
		if err != c.err || !reflect.DeepEqual(ans, c.ans) { //nolint:errorlint // the provider's very error, passed through unwrapped
			t.Errorf("%s: Ask returned (%v, %v), want what the provider returned (%v, %v)", c.name, ans, err, c.ans, c.err)
		}
	}

	recs, skippedLines := readAll(t, path, 0)
	if skippedLines != 0 || len(recs) != len(cases) {
		t.Fatalf("read %d records, skipped %d lines; want %d records", len(recs), skippedLines, len(cases))
	}
	for i, c := range cases {
		r := recs[i]
		if r.Outcome != c.outcome {
			t.Errorf("%s: outcome %q, want %q", c.name, r.Outcome, c.outcome)
		}
		if !r.Time.Equal(t0) || r.Waited != Duration(1500*time.Millisecond) {
			t.Errorf("%s: time %v waited %v, want %v and 1.5s", c.name, r.Time, r.Waited, t0)
		}
		if !reflect.DeepEqual(r.Agent, agent) || !reflect.DeepEqual(r.Request, req) {
			t.Errorf("%s: agent %+v request %+v, want %+v %+v", c.name, r.Agent, r.Request, agent, req)
		}
		if c.err == nil {
			want := c.ans
			if want.Answers == nil {
				want.Answers = []interaction.AnswerItem{}
			}
			if r.Answer == nil || !reflect.DeepEqual(*r.Answer, want) || r.Error != nil {
				t.Errorf("%s: answer %+v error %v, want %+v and no error", c.name, r.Answer, r.Error, want)
			}
			continue
		}
		if r.Answer != nil || r.Error == nil || r.Error.Code != c.code || r.Error.Message == "" {
			t.Errorf("%s: answer %+v error %+v, want no answer and code %s with a message", c.name, r.Answer, r.Error, c.code)
		}
		if !reflect.DeepEqual(r.Draft, c.draft) {
			t.Errorf("%s: draft %+v, want %+v", c.name, r.Draft, c.draft)
		}
	}
}

func TestRecordLine(t *testing.T) {
	l, path := openLog(t)
	p := interaction.ProviderFunc(func(context.Context, interaction.Request) (interaction.Answer, error) {
		return interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"SQLite"}}}}, nil
	})
	l.prefix = "p"
	r := interaction.Request{Agent: agent, Questions: req.Questions[:1]}
	if _, err := Wrap(p, l, clock(12500*time.Millisecond), nil).Ask(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path) //nolint:gosec // a path the test made, or its testdata
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"p-1","time":"2025-06-01T12:00:00Z","agent":{"id":"s1","name":"claude"},"outcome":"asked","waited":"0s","request":{"questions":[{"id":"db","question":"Which database?","header":"Storage","options":[{"label":"Postgres"},{"label":"SQLite"}]}],"agent":{"id":"s1","name":"claude"}}}` + "\n" +
		`{"id":"p-1","time":"2025-06-01T12:00:00Z","agent":{"id":"s1","name":"claude"},"outcome":"answered","waited":"12.5s","answer":{"answers":[{"id":"db","selected":["SQLite"]}]},"request":{"questions":[{"id":"db","question":"Which database?","header":"Storage","options":[{"label":"Postgres"},{"label":"SQLite"}]}],"agent":{"id":"s1","name":"claude"}}}` + "\n"
	if string(data) != want {
		t.Errorf("the log holds\n%s\nwant\n%s", data, want)
	}
}

func TestThroughService(t *testing.T) {
	l, path := openLog(t)
	svc := interaction.NewService()
	p := interaction.ProviderFunc(func(context.Context, interaction.Request) (interaction.Answer, error) {
		return interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"Postgres"}}}}, nil
	})
	unregister, err := svc.Register(Wrap(p, l, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()
	ans, err := svc.Ask(context.Background(), req)
	if err != nil || len(ans.Answers) != 2 {
		t.Fatalf("Ask = %+v, %v", ans, err)
	}
	recs, _ := readAll(t, path, 0)
	if len(recs) != 1 || recs[0].Outcome != interaction.OutcomeAnswered || recs[0].Time.IsZero() {
		t.Fatalf("records %+v", recs)
	}
}

func TestOpenModes(t *testing.T) {
	_, path := openLog(t)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if m := fi.Mode().Perm(); m != 0o600 {
		t.Errorf("file mode %v, want 0600", m)
	}
	di, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if m := di.Mode().Perm(); m != 0o700 {
		t.Errorf("directory mode %v, want 0700", m)
	}

	// An existing file that others can read is made private.
	loose := filepath.Join(t.TempDir(), "h.jsonl")
	if err := os.WriteFile(loose, nil, 0o644); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
		t.Fatal(err)
	}
	if err := os.Chmod(loose, 0o644); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
		t.Fatal(err)
	}
	l, err := Open(loose)
	if err != nil {
		t.Fatal(err)
	}
	l.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	if fi, err := os.Stat(loose); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("existing file mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}

	if _, err := Open(""); err == nil {
		t.Error("Open(\"\") succeeded")
	}
}

func TestConcurrentAppends(t *testing.T) {
	l, path := openLog(t)
	const n = 20
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := Record{Time: t0, Outcome: interaction.OutcomeAnswered, Request: interaction.Request{Questions: []interaction.Question{
				{ID: fmt.Sprintf("q%d", i), Question: strings.Repeat("x", 10000)},
			}}}
			if err := l.Append(r); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()

	f, err := os.Open(path) //nolint:gosec // a path the test made, or its testdata
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	seen := map[string]bool{}
	for sc.Scan() {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d: %v", len(seen)+1, err)
		}
		seen[r.Request.Questions[0].ID] = true
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(seen) != n {
		t.Errorf("%d distinct valid lines, want %d", len(seen), n)
	}
}

func TestTornTail(t *testing.T) {
	l, path := openLog(t)
	for i := range 3 {
		if err := l.Append(Record{Time: t0, Outcome: interaction.OutcomeAnswered, Waited: Duration(i)}); err != nil {
			t.Fatal(err)
		}
	}
	l.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it

	// A crash mid-write leaves half a line.
	line, err := jsonl.MarshalLine(Record{Time: t0, Outcome: interaction.OutcomeDeclined})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0) //nolint:gosec // a path the test made, or its testdata
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(line[:len(line)/2]); err != nil {
		t.Fatal(err)
	}
	f.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it

	recs, skipped := readAll(t, path, 0)
	if len(recs) != 3 || skipped != 1 {
		t.Fatalf("after a torn write: %d records, %d skipped; want 3 and 1", len(recs), skipped)
	}

	l, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for range 2 {
		if err := l.Append(Record{Time: t0, Outcome: interaction.OutcomeWithdrawn}); err != nil {
			t.Fatal(err)
		}
	}
	recs, skipped = readAll(t, path, 0)
	if len(recs) != 5 || skipped != 1 {
		t.Fatalf("after reopening: %d records, %d skipped; want 5 and 1", len(recs), skipped)
	}
	if recs[3].Outcome != interaction.OutcomeWithdrawn || recs[4].Outcome != interaction.OutcomeWithdrawn {
		t.Errorf("new records %+v %+v", recs[3], recs[4])
	}
	data, _ := os.ReadFile(path) //nolint:gosec // a path the test made, or its testdata
	if lines := bytes.Count(data, []byte("\n")); lines != 6 {
		t.Errorf("the file has %d lines, want 6:\n%s", lines, data)
	}
}

func TestAnswerSurvivesLogFailure(t *testing.T) {
	l, _ := openLog(t)
	l.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	want := interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"SQLite"}}}}
	p := interaction.ProviderFunc(func(context.Context, interaction.Request) (interaction.Answer, error) {
		return want, nil
	})
	var got []error
	ans, err := Wrap(p, l, nil, func(err error) { got = append(got, err) }).Ask(context.Background(), req)
	if err != nil || !reflect.DeepEqual(ans, want) {
		t.Fatalf("Ask = %+v, %v; want the answer", ans, err)
	}
	if len(got) != 2 || !errors.Is(got[0], os.ErrClosed) || !errors.Is(got[1], os.ErrClosed) {
		t.Errorf("OnError got %v, want two errors (the asked record and the outcome) wrapping os.ErrClosed", got)
	}

	// Without OnError the failure is dropped, never the answer.
	if ans, err := Wrap(p, l, nil, nil).Ask(context.Background(), req); err != nil || !reflect.DeepEqual(ans, want) {
		t.Fatalf("Ask = %+v, %v; want the answer", ans, err)
	}
}

func TestUnwritableDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root can write anywhere")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o500); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o700) }) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	if _, err := Open(filepath.Join(dir, "sub", "h.jsonl")); err == nil {
		t.Error("Open in an unwritable directory succeeded")
	}
}

// sinkProvider is a provider that shows activity.
type sinkProvider struct {
	interaction.ProviderFunc
	got chan interaction.Activity
}

func (s sinkProvider) Report(a interaction.Activity) { s.got <- a }

func TestActivitySink(t *testing.T) {
	l, _ := openLog(t)
	sp := sinkProvider{got: make(chan interaction.Activity, 1)}
	w := Wrap(sp, l, nil, nil)
	sink, ok := w.(interaction.ActivitySink)
	if !ok {
		t.Fatal("the wrapper of an ActivitySink is not one")
	}
	a := interaction.Activity{Agent: *agent, Kind: interaction.ActivityMessage, Text: "hi"}
	sink.Report(a)
	if got := <-sp.got; !reflect.DeepEqual(got, a) {
		t.Errorf("forwarded %+v, want %+v", got, a)
	}

	plain := interaction.ProviderFunc(func(context.Context, interaction.Request) (interaction.Answer, error) {
		return interaction.Answer{}, nil
	})
	if _, ok := Wrap(plain, l, nil, nil).(interaction.ActivitySink); ok {
		t.Error("the wrapper of a provider without activity claims to show activity")
	}
	if Wrap(plain, nil, nil, nil) == nil {
		t.Error("Wrap with no log returned nil")
	}
}

func TestReadFileLimit(t *testing.T) {
	l, path := openLog(t)
	for i := range 10 {
		if err := l.Append(Record{Time: t0, Outcome: interaction.OutcomeAnswered, Waited: Duration(i)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ n, want int }{{0, 10}, {-1, 10}, {1, 1}, {3, 3}, {6, 6}, {10, 10}, {20, 10}} {
		recs, _ := readAll(t, path, c.n)
		if len(recs) != c.want {
			t.Errorf("ReadFile(n=%d): %d records, want %d", c.n, len(recs), c.want)
			continue
		}
		for i, r := range recs {
			if want := Duration(10 - c.want + i); r.Waited != want {
				t.Errorf("ReadFile(n=%d): record %d has waited %d, want %d (the last records, oldest first)", c.n, i, r.Waited, want)
			}
		}
	}
	if _, _, err := ReadFile(filepath.Join(t.TempDir(), "none"), 0); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
}

func TestReadSkipsBadLines(t *testing.T) {
	good, _ := jsonl.MarshalLine(Record{Time: t0, Outcome: interaction.OutcomeAnswered})
	long := `{"outcome":"answered","pad":"` + strings.Repeat("x", 200<<10) + `"}` + "\n"
	in := "\n" + string(good) + "not json\n  \n" + long + string(good) + `{"outcome":` // torn tail
	recs, skipped, err := read(strings.NewReader(in), 0, 100<<10)
	if err != nil || len(recs) != 2 || skipped != 3 {
		t.Errorf("read: %d records, %d skipped, %v; want 2, 3 (bad, long, torn), nil", len(recs), skipped, err)
	}
	// The same long line within the limit is read.
	recs, skipped, err = read(strings.NewReader(long+string(good)), 0, 300<<10)
	if err != nil || len(recs) != 2 || skipped != 0 {
		t.Errorf("read: %d records, %d skipped, %v; want 2, 0, nil", len(recs), skipped, err)
	}
	recs, skipped, err = Read(strings.NewReader(""))
	if err != nil || len(recs) != 0 || skipped != 0 {
		t.Errorf("Read(empty) = %v, %d, %v", recs, skipped, err)
	}
}

func TestDuration(t *testing.T) {
	b, err := json.Marshal(Duration(12500 * time.Millisecond))
	if err != nil || string(b) != `"12.5s"` {
		t.Errorf("Marshal = %s, %v", b, err)
	}
	for _, in := range []string{`"12.5s"`, `12500`} {
		var d Duration
		if err := json.Unmarshal([]byte(in), &d); err != nil || d != Duration(12500*time.Millisecond) {
			t.Errorf("Unmarshal(%s) = %v, %v", in, d, err)
		}
	}
	for _, in := range []string{`"soon"`, `true`, `{}`} {
		var d Duration
		if err := json.Unmarshal([]byte(in), &d); err == nil {
			t.Errorf("Unmarshal(%s) succeeded", in)
		}
	}
}

func TestDefaultPath(t *testing.T) {
	env := map[string]string{"HOME": "/home/h", "XDG_STATE_HOME": "/state"}
	getenv := func(key string) string { return env[key] }
	if got := DefaultPath(getenv); got != "/state/asktui/history.jsonl" {
		t.Errorf("DefaultPath() = %q", got)
	}
	for _, v := range []string{"", "relative/state"} {
		env["XDG_STATE_HOME"] = v
		if got := DefaultPath(getenv); got != "/home/h/.local/state/asktui/history.jsonl" {
			t.Errorf("XDG_STATE_HOME=%q: DefaultPath() = %q", v, got)
		}
	}
	env["HOME"] = ""
	if got := DefaultPath(getenv); got != "" {
		t.Errorf("without XDG_STATE_HOME and HOME: DefaultPath() = %q, want \"\"", got)
	}
}

func TestAppendShortensHugeRecords(t *testing.T) {
	l, path := openLog(t)
	l.maxLine = 4 << 10
	big := interaction.Request{Agent: agent, Questions: []interaction.Question{
		{ID: "q", Question: strings.Repeat("x", 3000), Options: []interaction.Option{{Label: strings.Repeat("o", 3000)}}},
	}}
	ans := &interaction.Answer{Answers: []interaction.AnswerItem{{ID: "q", Selected: []string{}, Custom: "kept"}}}
	if err := l.Append(Record{Time: t0, Outcome: interaction.OutcomeAnswered, Request: big, Answer: ans}); err != nil {
		t.Fatal(err)
	}
	recs, _ := readAll(t, path, 0)
	if len(recs) != 1 || !recs[0].Truncated || len(recs[0].Request.Questions[0].Question) != 1024 ||
		recs[0].Request.Questions[0].Options != nil || !reflect.DeepEqual(recs[0].Answer, ans) {
		t.Errorf("records %+v", recs)
	}
}

func TestShorten(t *testing.T) {
	q := interaction.Question{ID: "q", Question: strings.Repeat("é", 1000), Options: []interaction.Option{{Label: "a"}}, MultiSelect: true}
	got := shorten(interaction.Request{Agent: agent, Questions: []interaction.Question{q}})
	if s := got.Questions[0].Question; len(s) != 1024 || strings.ToValidUTF8(s, "") != s {
		t.Errorf("shortened text is %d bytes (valid: %v)", len(s), strings.ToValidUTF8(s, "") == s)
	}
	if got.Questions[0].Options != nil || !got.Questions[0].MultiSelect || got.Agent != agent {
		t.Errorf("shortened request %+v", got)
	}
}

func TestFormat(t *testing.T) {
	hostile := &interaction.Agent{ID: "x", Name: "evil\x1b]0;x\x07bot"}
	recs := []Record{
		{
			Time: t0, Agent: agent, Outcome: interaction.OutcomeAnswered, Waited: Duration(12530 * time.Millisecond),
			Request: req,
			Answer: &interaction.Answer{Answers: []interaction.AnswerItem{
				{ID: "db", Selected: []string{"SQLite"}},
				{ID: "notes", Selected: []string{}, Custom: "keep it\nsmall"},
			}},
		},
		{
			Time: t0.Add(time.Minute), Agent: hostile, Outcome: interaction.OutcomeWithdrawn, Waited: Duration(250 * time.Millisecond),
			Request: interaction.Request{Questions: []interaction.Question{
				{ID: "q1", Question: "Pick\x1b[31m red\u009b2J\u202e" + strings.Repeat("long ", 20), Options: []interaction.Option{{Label: "a"}, {Label: "b"}}, MultiSelect: true},
				{ID: "q2", Question: "Skip me?"},
			}},
			Error: interaction.Errorf(interaction.CodeAborted, "the request was withdrawn by its caller"),
			Draft: &interaction.Answer{Answers: []interaction.AnswerItem{{ID: "q1", Selected: []string{"a", "b"}}}},
		},
		{
			Time: t0.Add(2 * time.Minute), Outcome: interaction.OutcomeDeclined, Waited: Duration(3 * time.Second),
			Request: interaction.Request{Questions: []interaction.Question{{ID: "ok", Question: "Proceed?"}}},
			Error:   interaction.Errorf(interaction.CodeDeclined, "the human declined"),
		},
		{
			ID: "k-1", Time: t0.Add(3 * time.Minute), Agent: agent, Outcome: Asked,
			Request: interaction.Request{Questions: []interaction.Question{{ID: "wait", Question: "Still there?"}}},
		},
		// Asked the evening before, answered after all of the above.
		{
			Time: t0.Add(-18 * time.Hour), Agent: agent, Outcome: interaction.OutcomeSkipped, Waited: Duration(18*time.Hour + 5*time.Minute),
			Request: interaction.Request{Questions: []interaction.Question{{ID: "late", Question: "Overnight?"}}},
			Answer:  &interaction.Answer{Answers: []interaction.AnswerItem{{ID: "late", Selected: []string{}}}},
		},
	}
	var b strings.Builder
	if err := format(&b, recs, time.UTC); err != nil {
		t.Fatal(err)
	}
	// Each record is stamped with the time of its line: when the request
	// ended, or for one still waiting when it arrived (issue 18: the
	// records came in the order they ended, stamped with their arrival).
	want := `2025-06-01 12:00:12  claude  answered  asked 12:00:00, waited 12.5s
  Storage: SQLite
  Anything else?: "keep it small"

2025-06-01 12:01:00  evil�]0;x�bot  withdrawn  asked 12:01:00, waited 250ms
  Pick�[31m red�2J�long long long long long long long long lon…: a, b (draft)
  Skip me?: -
  withdrawn by its caller

2025-06-01 12:02:03  (no agent)  declined  asked 12:02:00, waited 3s
  Proceed?: -
  declined by the human

2025-06-01 12:03:00  claude  asked  no outcome recorded: still waiting, or asktui stopped first
  Still there?: -

2025-06-01 12:05:00  claude  skipped  asked 2025-05-31 18:00:00, waited 18h5m0s
  Overnight?: skipped
`
	if got := b.String(); got != want {
		t.Errorf("Format:\n%s\nwant:\n%s", got, want)
	}
	if strings.ContainsAny(b.String(), "\x1b\x07\u009b\u202e") {
		t.Error("Format printed a control character")
	}
	// Format in local time works too.
	if err := Format(&strings.Builder{}, recs); err != nil {
		t.Fatal(err)
	}
}
