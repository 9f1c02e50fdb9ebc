// Package cast records and replays terminal sessions in the asciinema v2
// format (https://docs.asciinema.org/manual/asciicast/v2/): one JSON header
// line, then one JSON array per event, [time, type, data].
//
// A [Writer] is the io.Writer a program's terminal output is teed into;
// give a bubbletea program a [Terminal] (the tty plus the Writer) as its
// output, not an io.MultiWriter, so that it still knows it draws on a
// terminal. [Read] parses and validates a recording; [Replay] and
// [ReplayAltScreen] feed one through a real terminal emulator
// (charmbracelet/x/vt) and return the screen it leaves as plain text, so
// tests can check that a recording shows what the program drew.
//
// Recordings are meant to be deterministic: the header's timestamp stays
// zero (and is then left out) unless the caller sets it, and the writer's
// clock can be replaced.
package cast

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/asktui/asktui/internal/jsonl"
)

// Version is the asciicast format version this package reads and writes.
const Version = 2

// Event types of asciicast v2.
const (
	Output = "o" // data the program wrote to the terminal
	Input  = "i" // data the user typed
	Resize = "r" // the terminal was resized; data is "WIDTHxHEIGHT"
	Marker = "m" // a marker (chapter) whose data is its label
)

// Header is the first line of a recording. Fields of other tools' headers
// (duration, command, theme, idle_time_limit) are ignored when reading.
type Header struct {
	// Version is always 2; NewWriter fills it in when zero.
	Version int `json:"version"`
	// Width and Height are the terminal's size in cells at the start.
	Width  int `json:"width"`
	Height int `json:"height"`
	// Timestamp is the Unix time the recording started. Left zero (and so
	// out of the file) by default: the same session records the same bytes.
	Timestamp int64 `json:"timestamp,omitempty"`
	// Env holds selected environment variables, such as TERM and SHELL.
	Env map[string]string `json:"env,omitempty"`
	// Title is shown by players.
	Title string `json:"title,omitempty"`
}

// Event is one line after the header: at Time seconds since the start, an
// event of Type ("o", "i", "r" or "m") carrying Data. It encodes as the JSON
// array [1.234567, "o", "data"], time with six decimals.
type Event struct {
	Time float64
	Type string
	Data string
}

// MarshalJSON encodes e as asciinema does: [time, "type", "data"].
func (e Event) MarshalJSON() ([]byte, error) {
	return appendEvent(nil, e)
}

// UnmarshalJSON decodes [time, "type", "data"].
func (e *Event) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("an event is a JSON array [time, type, data]: %w", err)
	}
	if len(raw) != 3 {
		return fmt.Errorf("an event is a JSON array [time, type, data]; this one has %d elements", len(raw))
	}
	var ev Event
	if err := json.Unmarshal(raw[0], &ev.Time); err != nil {
		return fmt.Errorf("event time %s is not a number", raw[0])
	}
	if err := json.Unmarshal(raw[1], &ev.Type); err != nil {
		return fmt.Errorf("event type %s is not a string", raw[1])
	}
	if err := json.Unmarshal(raw[2], &ev.Data); err != nil {
		return fmt.Errorf("event data %s is not a string", raw[2])
	}
	*e = ev
	return nil
}

// appendEvent appends e's JSON form to b. Its strings keep HTML characters
// as they are (terminal output is full of them), as jsonl writes them.
func appendEvent(b []byte, e Event) ([]byte, error) {
	if math.IsNaN(e.Time) || math.IsInf(e.Time, 0) {
		return b, fmt.Errorf("cast: event time %v is not a finite number", e.Time)
	}
	b = append(b, '[')
	b = strconv.AppendFloat(b, e.Time, 'f', 6, 64)
	b = append(b, ", "...)
	b = jsonl.AppendString(b, e.Type)
	b = append(b, ", "...)
	b = jsonl.AppendString(b, e.Data)
	return append(b, ']'), nil
}

// validateHeader checks what a player needs from a header.
func validateHeader(h Header) error {
	if h.Version != Version {
		return fmt.Errorf("version is %d; only asciicast version %d is supported", h.Version, Version)
	}
	if h.Width <= 0 || h.Height <= 0 {
		return fmt.Errorf("terminal size %dx%d: width and height must be positive", h.Width, h.Height)
	}
	return nil
}

// LineError is an error in one line of a recording; Line counts from 1
// (the header).
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("cast: line %d: %v", e.Line, e.Err) }

// Unwrap returns the underlying error.
func (e *LineError) Unwrap() error { return e.Err }

// Read parses a whole asciicast v2 recording and checks it: the header's
// version is 2 and its size positive, every event is a [time, type, data]
// array with a known type, times never go backwards, and resize events carry
// "WIDTHxHEIGHT". Blank lines are skipped. Errors are [*LineError]s naming
// the line.
func Read(r io.Reader) (Header, []Event, error) {
	br := bufio.NewReader(r)
	var (
		h      Header
		events []Event
		line   int
		sawHdr bool
		prev   float64
	)
	for {
		b, err := br.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return h, events, fmt.Errorf("cast: reading line %d: %w", line+1, err)
		}
		eof := err != nil
		if len(b) > 0 {
			line++
		}
		text := bytes.TrimSpace(b)
		switch {
		case len(text) == 0:
			// A blank line (or the end of the file after the last newline).
		case !sawHdr:
			if err := decodeHeader(text, &h); err != nil {
				return h, nil, &LineError{Line: line, Err: err}
			}
			sawHdr = true
		default:
			var ev Event
			if !json.Valid(text) {
				return h, events, &LineError{Line: line, Err: fmt.Errorf("not valid JSON; an event is a JSON array [time, type, data]: %q", clip(text))}
			}
			if err := json.Unmarshal(text, &ev); err != nil {
				return h, events, &LineError{Line: line, Err: err}
			}
			if err := validateEvent(ev, prev); err != nil {
				return h, events, &LineError{Line: line, Err: err}
			}
			prev = ev.Time
			events = append(events, ev)
		}
		if eof {
			break
		}
	}
	if !sawHdr {
		return h, nil, errors.New("cast: empty recording: the first line must be the header")
	}
	return h, events, nil
}

// decodeHeader parses and checks the header line.
func decodeHeader(b []byte, h *Header) error {
	if b[0] != '{' {
		return fmt.Errorf("header: want a JSON object, got %q", clip(b))
	}
	if err := json.Unmarshal(b, h); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	if err := validateHeader(*h); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	return nil
}

// validateEvent checks one event against the one before it.
func validateEvent(ev Event, prev float64) error {
	if math.IsNaN(ev.Time) || ev.Time < 0 {
		return fmt.Errorf("event time %v is negative", ev.Time)
	}
	if ev.Time < prev {
		return fmt.Errorf("event time %.6f is before the previous event's %.6f; times must not decrease", ev.Time, prev)
	}
	switch ev.Type {
	case Output, Input, Marker:
	case Resize:
		if _, _, err := parseSize(ev.Data); err != nil {
			return err
		}
	default:
		return fmt.Errorf("event type %q is unknown; want \"o\", \"i\", \"r\" or \"m\"", ev.Type)
	}
	return nil
}

// parseSize parses a resize event's "WIDTHxHEIGHT".
func parseSize(s string) (width, height int, err error) {
	ws, hs, ok := strings.Cut(s, "x")
	if ok {
		width, err = strconv.Atoi(ws)
		if err == nil {
			height, err = strconv.Atoi(hs)
		}
	}
	if !ok || err != nil || width <= 0 || height <= 0 {
		return 0, 0, fmt.Errorf("resize data %q is not WIDTHxHEIGHT with positive numbers, such as \"80x24\"", s)
	}
	return width, height, nil
}

// clip shortens b for an error message.
func clip(b []byte) string {
	const limit = 40
	if len(b) > limit {
		return string(b[:limit]) + "…"
	}
	return string(b)
}
