package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Read decodes every record of a history from r. Lines that are not a
// record (a line torn by a crash, or one longer than [MaxLineBytes]) are
// skipped and counted in skipped rather than failing the read; blank lines
// are ignored. An [Asked] record is left out once the record of its
// outcome has been read: what remains of them are the requests that never
// got one. err reports only a failure to read r.
func Read(r io.Reader) (recs []Record, skipped int, err error) {
	return read(r, 0, MaxLineBytes)
}

// ReadFile reads the history file at path and returns its last n records,
// or all of them when n <= 0, as [Read] does: in the order of their lines,
// so a request comes where it ended (where it arrived, when no outcome
// followed), and the newest last. skipped counts
// the lines of the whole file that were not records. A missing file is an
// error satisfying errors.Is(err, fs.ErrNotExist).
func ReadFile(path string, n int) (recs []Record, skipped int, err error) {
	// Opening a FIFO would wait for a writer; a directory cannot be read.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, 0, refusal{fmt.Sprintf("history: %s is not a regular file (mode %v); give --history the history file", path, fi.Mode())}
	}
	f, err := os.Open(path) //nolint:gosec // the history file the user named
	if err != nil {
		return nil, 0, fmt.Errorf("history: %w", err)
	}
	defer func() { _ = f.Close() }() // read only: nothing was written to lose
	return read(f, n, MaxLineBytes)
}

// read decodes the records of r, keeping only the last keep when keep > 0,
// and skipping lines longer than maxLine bytes without holding them in
// memory.
func read(r io.Reader, keep, maxLine int) (recs []Record, skipped int, err error) {
	var k keeper
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, tooLong, rerr := readLine(br, maxLine)
		if tooLong {
			skipped++
		} else if line = bytes.TrimSpace(line); len(line) > 0 {
			var rec Record
			if json.Unmarshal(line, &rec) != nil {
				skipped++
			} else {
				k.add(rec)
				if keep > 0 && len(k.recs) >= 2*keep {
					k.compact(keep)
				}
			}
		}
		if rerr != nil {
			if errors.Is(rerr, io.EOF) {
				break
			}
			return nil, skipped, fmt.Errorf("history: %w", rerr)
		}
	}
	k.compact(keep)
	return k.recs, skipped, nil
}

// keeper collects records, leaving out an Asked record once its outcome
// arrives.
type keeper struct {
	recs    []Record
	gone    []bool         // by index in recs: an Asked record with an outcome since
	askedAt map[string]int // index in recs of the Asked record of each ID
}

func (k *keeper) add(rec Record) {
	if rec.ID != "" {
		if i, ok := k.askedAt[rec.ID]; ok {
			k.gone[i] = true
			delete(k.askedAt, rec.ID)
		}
		if rec.Outcome == Asked {
			if k.askedAt == nil {
				k.askedAt = map[string]int{}
			}
			k.askedAt[rec.ID] = len(k.recs)
		}
	}
	k.recs = append(k.recs, rec)
	k.gone = append(k.gone, false)
}

// compact drops the records that are gone and keeps the last keep of the
// others (all of them when keep <= 0).
func (k *keeper) compact(keep int) {
	out := k.recs[:0]
	for i, rec := range k.recs {
		if !k.gone[i] {
			out = append(out, rec)
		}
	}
	if keep > 0 && len(out) > keep {
		out = append(out[:0], out[len(out)-keep:]...)
	}
	clear(k.recs[len(out):]) // let the dropped records go
	k.recs = out
	k.gone = k.gone[:len(out)]
	clear(k.gone)
	clear(k.askedAt)
	for i, rec := range out {
		if rec.ID != "" && rec.Outcome == Asked {
			k.askedAt[rec.ID] = i
		}
	}
}

// readLine reads one line, newline included. A line of more than maxLine
// bytes before its newline is read to its end but not kept: tooLong is
// set. err is what ended the line when it is not a newline (io.EOF at the
// end of the input).
func readLine(br *bufio.Reader, maxLine int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case tooLong:
		case len(line)+len(chunk) > maxLine+1: // +1: the newline
			tooLong, line = true, nil
		case errors.Is(err, bufio.ErrBufferFull) || line != nil:
			line = append(line, chunk...)
		default:
			line = chunk // valid until the next read, after the caller is done
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, tooLong, err
		}
	}
}
