package cast

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// fakeClock is a clock that moves only when told.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newTestWriter(t *testing.T, buf io.Writer, opts ...Option) (*Writer, *fakeClock) {
	t.Helper()
	clock := newFakeClock()
	w, err := NewWriter(buf, Header{Width: 80, Height: 24}, append([]Option{WithClock(clock.Now)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return w, clock
}

func TestWriterRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	clock := newFakeClock()
	h := Header{Width: 100, Height: 30, Title: "demo <parallel> & co", Env: map[string]string{"TERM": "xterm-256color"}}
	w, err := NewWriter(&buf, h, WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	write := func(s string) {
		t.Helper()
		n, err := w.Write([]byte(s))
		if err != nil || n != len(s) {
			t.Fatalf("Write(%q) = %d, %v; want %d, nil", s, n, err, len(s))
		}
	}
	clock.Advance(250 * time.Millisecond)
	write("\x1b[?1049h\x1b[2Jhello")
	clock.Advance(1234567 * time.Microsecond)
	write("\r\n\"quoted\" <b>\tworld ✓\x00")
	w.Resize(120, 40)
	clock.Advance(time.Second)
	w.Mark("end")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	wantHeader := `{"version":2,"width":100,"height":30,"env":{"TERM":"xterm-256color"},"title":"demo <parallel> & co"}`
	if first, _, _ := strings.Cut(buf.String(), "\n"); first != wantHeader {
		t.Errorf("header line\n got %s\nwant %s", first, wantHeader)
	}
	if !strings.Contains(buf.String(), "\n[0.250000, \"o\", ") {
		t.Errorf("event lines are not in asciinema's form:\n%s", buf.String())
	}

	gotH, events, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	h.Version = 2
	if fmt.Sprint(gotH) != fmt.Sprint(h) {
		t.Errorf("header = %+v, want %+v", gotH, h)
	}
	want := []Event{
		{0.25, "o", "\x1b[?1049h\x1b[2Jhello"},
		{1.484567, "o", "\r\n\"quoted\" <b>\tworld ✓\x00"},
		{1.484567, "r", "120x40"},
		{2.484567, "m", "end"},
	}
	if !reflect.DeepEqual(events, want) {
		t.Errorf("events\n got %#v\nwant %#v", events, want)
	}
}

func TestWriterTimestampOmitted(t *testing.T) {
	var buf bytes.Buffer
	if _, err := NewWriter(&buf, Header{Width: 1, Height: 1}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "timestamp") {
		t.Errorf("a zero timestamp is written: %s", buf.String())
	}
	buf.Reset()
	if _, err := NewWriter(&buf, Header{Width: 1, Height: 1, Timestamp: 1700000000}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"timestamp":1700000000`) {
		t.Errorf("the timestamp is missing: %s", buf.String())
	}
}

func TestNewWriterRejectsBadHeaders(t *testing.T) {
	for _, h := range []Header{
		{Version: 3, Width: 80, Height: 24},
		{Width: 0, Height: 24},
		{Width: 80, Height: -1},
	} {
		if _, err := NewWriter(io.Discard, h); err == nil {
			t.Errorf("NewWriter(%+v) succeeded", h)
		}
	}
}

func TestWriterSplitUTF8(t *testing.T) {
	var buf bytes.Buffer
	w, _ := newTestWriter(t, &buf)
	// "é✓😀" cut after every byte, so each character arrives in pieces.
	text := "aé✓😀z"
	for i := range len(text) {
		if n, err := w.Write([]byte{text[i]}); n != 1 || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	// A sequence still cut at Close is written at Close, each byte as U+FFFD.
	if _, err := w.Write([]byte("!\xe2\x9c")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	_, events, err := Read(&buf)
	if err != nil {
		t.Fatalf("Read: %v\n%s", err, buf.String())
	}
	var got strings.Builder
	for _, ev := range events {
		if !utf8.ValidString(ev.Data) {
			t.Errorf("event %q is not valid UTF-8", ev.Data)
		}
		got.WriteString(ev.Data)
	}
	if want := text + "!\uFFFD\uFFFD"; got.String() != want {
		t.Errorf("recorded %q, want %q", got.String(), want)
	}
	if len(events) != 7 {
		t.Errorf("%d events, want one per whole character (5), \"!\" and one at Close: %#v", len(events), events)
	}
}

func TestWriterInvalidUTF8IsNotHeldBack(t *testing.T) {
	var buf bytes.Buffer
	w, _ := newTestWriter(t, &buf)
	if _, err := w.Write([]byte("a\xff")); err != nil {
		t.Fatal(err)
	}
	_, events, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 1 || events[0].Data != "a\uFFFD" {
		t.Errorf("events = %#v, want one with \"a\\uFFFD\"", events)
	}
}

func TestWriterConcurrent(t *testing.T) {
	var buf bytes.Buffer
	w, clock := newTestWriter(t, &buf)
	const writers, writes = 8, 200
	var wg sync.WaitGroup
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range writes {
				clock.Advance(time.Millisecond)
				if i%50 == 0 {
					w.Resize(80+g, 24)
				}
				if _, err := fmt.Fprintf(w, "g%d-%d ✓|", g, i); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	_, events, err := Read(&buf) // also checks times never decrease
	if err != nil {
		t.Fatal(err)
	}
	outputs := 0
	for _, ev := range events {
		if ev.Type == Output {
			outputs++
			if !strings.HasSuffix(ev.Data, "|") {
				t.Errorf("event %q mixes two writes", ev.Data)
			}
		}
	}
	if outputs != writers*writes {
		t.Errorf("%d output events, want %d", outputs, writers*writes)
	}
}

func TestWriterMaxIdle(t *testing.T) {
	var buf bytes.Buffer
	w, clock := newTestWriter(t, &buf, WithMaxIdle(2*time.Second))
	clock.Advance(time.Second)
	_, _ = w.Write([]byte("a"))
	clock.Advance(time.Minute)
	_, _ = w.Write([]byte("b"))
	clock.Advance(500 * time.Millisecond)
	_, _ = w.Write([]byte("c"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	_, events, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var times []float64
	for _, ev := range events {
		times = append(times, ev.Time)
	}
	if fmt.Sprint(times) != "[1 3 3.5]" {
		t.Errorf("times = %v, want [1 3 3.5]", times)
	}
}

// failAfter is a writer that fails once it has taken n writes.
type failAfter struct {
	n   int
	err error
}

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, f.err
	}
	f.n--
	return len(p), nil
}

func TestWriterKeepsErrors(t *testing.T) {
	diskFull := errors.New("disk full")
	if _, err := NewWriter(&failAfter{err: diskFull}, Header{Width: 1, Height: 1}); !errors.Is(err, diskFull) {
		t.Errorf("NewWriter with a failing header write: err = %v, want %v", err, diskFull)
	}

	out := &failAfter{n: 2, err: diskFull} // the header and one event
	w, err := NewWriter(out, Header{Width: 1, Height: 1})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := w.Write([]byte("ok")); n != 2 || err != nil {
		t.Fatalf("first Write = %d, %v", n, err)
	}
	if n, err := w.Write([]byte("lost")); n != 0 || !errors.Is(err, diskFull) {
		t.Errorf("failing Write = %d, %v; want 0, %v", n, err, diskFull)
	}
	w.Resize(2, 2)
	if _, err := w.Write([]byte("more")); !errors.Is(err, diskFull) {
		t.Errorf("Write after a failure: err = %v, want %v", err, diskFull)
	}
	if err := w.Close(); !errors.Is(err, diskFull) {
		t.Errorf("Close: err = %v, want %v", err, diskFull)
	}
	if err := w.Close(); !errors.Is(err, diskFull) {
		t.Errorf("second Close: err = %v, want %v", err, diskFull)
	}
}

func TestWriterAfterClose(t *testing.T) {
	w, _ := newTestWriter(t, io.Discard)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("x")); !errors.Is(err, ErrClosed) {
		t.Errorf("Write after Close: err = %v, want ErrClosed", err)
	}
}

func TestWriterMapNewline(t *testing.T) {
	for _, tc := range []struct {
		opts []Option
		want string
	}{
		{nil, "a\nb\r\nc"},
		{[]Option{WithMapNewline()}, "a\r\nb\r\r\nc"}, // as ONLCR does
	} {
		var buf bytes.Buffer
		w, _ := newTestWriter(t, &buf, tc.opts...)
		_, _ = w.Write([]byte("a\nb\r\nc"))
		_, events, err := Read(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if len(events) != 1 || events[0].Data != tc.want {
			t.Errorf("with %d options: events = %#v, want data %q", len(tc.opts), events, tc.want)
		}
	}
}
