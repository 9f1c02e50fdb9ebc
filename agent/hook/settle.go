package hook

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"reflect"
	"time"
)

// transcriptTail is how much of the end of a transcript
// WatchClaudeTranscript reads first: the tool call a permission prompt is about was written
// just before the hook started.
const transcriptTail = 8 << 20

// maxTranscriptLine bounds one line of a transcript; longer lines (a huge
// tool result) are skipped.
const maxTranscriptLine = 16 << 20

// ErrNoTranscript is returned by WatchClaudeTranscript when the hook
// input names no transcript to watch.
var ErrNoTranscript = errors.New("the hook input names no transcript")

// ClaudeWatch follows Claude Code's transcript for the result of the tool
// call a PermissionRequest hook is about. Make it with
// WatchClaudeTranscript before asking, wait with Wait, and Close it.
//
// Claude Code shows its own permission dialog while the hook runs and
// takes the first answer, without telling the hook (2.1.332 sends no
// signal and keeps the hook's pipes open). Its transcript does tell: a
// denial writes the tool's error result at once, an approval the tool's
// result when it has run. The call is the tool_use block with
// in.ToolUseID, or, since PermissionRequest input has no tool_use_id, the
// latest one with no result yet whose tool name and input are in's.
type ClaudeWatch struct {
	path string
	f    *os.File
	r    *bufio.Reader
	w    *transcriptWatch
	done bool // the result was seen
}

// WatchClaudeTranscript starts following in.TranscriptPath: it reads what
// the transcript holds now (its last transcriptTail bytes), so that a
// result written from now on is told from those of earlier, identical
// calls. A transcript that does not exist yet is opened by Wait.
func WatchClaudeTranscript(in Input) (*ClaudeWatch, error) {
	if in.TranscriptPath == "" {
		return nil, ErrNoTranscript
	}
	var want any
	if err := json.Unmarshal(in.ToolInput, &want); err != nil {
		return nil, err
	}
	c := &ClaudeWatch{path: in.TranscriptPath, w: &transcriptWatch{id: in.ToolUseID, tool: in.ToolName, input: want, open: map[string]bool{}}}
	c.settled()
	return c, nil
}

// Wait polls the transcript every interval until it records the call's
// result, and returns nil then; it returns ctx's error when ctx ends
// first.
func (c *ClaudeWatch) Wait(ctx context.Context, every time.Duration) error {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if c.settled() {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// Close closes the transcript.
func (c *ClaudeWatch) Close() error {
	if c.f == nil {
		return nil
	}
	return c.f.Close()
}

// settled reads what was appended since the last call, opening the
// transcript when it is not open yet, and reports whether the call's
// result is among it.
func (c *ClaudeWatch) settled() bool {
	if c.done {
		return true
	}
	if c.f == nil {
		f, err := os.Open(c.path)
		if err != nil {
			c.w.caughtUp = true // nothing written before the hook started
			return false
		}
		c.f = f
		skipPartial := false
		if fi, err := f.Stat(); err == nil && fi.Size() > transcriptTail {
			_, _ = f.Seek(fi.Size()-transcriptTail, io.SeekStart)
			skipPartial = true
		}
		c.r = bufio.NewReaderSize(f, 64<<10)
		if skipPartial {
			_, _ = c.r.ReadSlice('\n')
		}
	}
	c.done = c.w.read(c.r)
	return c.done
}

// transcriptWatch follows a transcript for one tool call's result.
type transcriptWatch struct {
	id    string // the call's tool_use id, when known
	tool  string
	input any
	// open holds the matching calls seen without a result, when id is
	// not known.
	open    map[string]bool
	partial []byte // an unfinished last line
	tooLong bool   // the line being read is over maxTranscriptLine
	// caughtUp is set once the lines written before the hook started have
	// been read: a result among those ended an earlier, identical call.
	caughtUp bool
}

// read reads the lines appended since the last call and reports whether
// the call's result is among them.
func (w *transcriptWatch) read(r *bufio.Reader) bool {
	for {
		chunk, err := r.ReadSlice('\n')
		if len(w.partial)+len(chunk) > maxTranscriptLine {
			w.partial, w.tooLong = w.partial[:0], true
		} else if !w.tooLong {
			w.partial = append(w.partial, chunk...)
		}
		switch {
		case err == nil:
			line := w.partial
			w.partial = w.partial[:0]
			if w.tooLong {
				w.tooLong = false
				continue
			}
			if w.line(line) {
				return true
			}
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			w.caughtUp = true
			return false // the end for now; the partial line waits
		}
	}
}

// transcriptLine is what a transcript line holds that matters here.
type transcriptLine struct {
	Type    string `json:"type"`
	Message struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

type transcriptBlock struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
}

// line takes one line and reports whether it holds the call's result.
func (w *transcriptWatch) line(b []byte) bool {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return false
	}
	var l transcriptLine
	if json.Unmarshal(b, &l) != nil || (l.Type != "assistant" && l.Type != "user") {
		return false
	}
	var blocks []transcriptBlock
	if json.Unmarshal(l.Message.Content, &blocks) != nil {
		return false // plain text
	}
	for _, blk := range blocks {
		switch {
		case blk.Type == "tool_use" && w.id == "" && blk.Name == w.tool && blk.ID != "":
			var got any
			if json.Unmarshal(blk.Input, &got) == nil && reflect.DeepEqual(got, w.input) {
				w.open[blk.ID] = true
			}
		case blk.Type == "tool_result" && blk.ToolUseID == w.id && w.id != "":
			return true
		case blk.Type == "tool_result" && w.open[blk.ToolUseID]:
			if w.caughtUp {
				return true
			}
			delete(w.open, blk.ToolUseID)
		}
	}
	return false
}
