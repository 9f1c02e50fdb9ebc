package configfile

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// TOML is a TOML document being edited, such as Codex's config.toml. It
// is edited as text: a table is added, replaced or removed with its
// header and its lines, and every other line, comments included, stays as
// it was. Each edit is checked by parsing the result: the table holds
// what it should, and everything else decodes as before.
type TOML struct {
	file string
	src  []byte
}

// ParseTOML parses src, the content of file (named in errors).
func ParseTOML(file string, src []byte) (*TOML, error) {
	if _, err := decodeTOML(file, src); err != nil {
		return nil, err
	}
	return &TOML{file: file, src: slices.Clone(src)}, nil
}

func decodeTOML(file string, src []byte) (map[string]any, error) {
	m := map[string]any{}
	if err := toml.Unmarshal(src, &m); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, &ParseError{File: file, Line: line, Column: col, Problem: "not valid TOML: " + strings.TrimPrefix(de.Error(), "toml: ")}
		}
		return nil, &ParseError{File: file, Problem: "not valid TOML: " + err.Error()}
	}
	return m, nil
}

// Bytes is the document as it stands.
func (d *TOML) Bytes() []byte { return slices.Clone(d.src) }

// Get returns the value at key, decoded, and whether it is there.
func (d *TOML) Get(key ...string) (any, bool) {
	m, err := decodeTOML(d.file, d.src)
	if err != nil {
		return nil, false
	}
	return lookupKey(m, key)
}

func lookupKey(m map[string]any, key []string) (any, bool) {
	var v any = m
	for _, k := range key {
		t, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = t[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

// deleteKey removes key from m, when it is there, and then each table on
// the way that it leaves empty.
func deleteKey(m map[string]any, key []string) {
	if len(key) == 0 {
		return
	}
	t, ok := m[key[0]]
	if len(key) == 1 || !ok {
		delete(m, key[0])
		return
	}
	if sub, ok := t.(map[string]any); ok {
		deleteKey(sub, key[1:])
		if len(sub) == 0 {
			delete(m, key[0])
		}
	}
}

// SetTable makes the table at key (such as mcp_servers.asktui) hold what
// table says: TOML text holding that table, header first ("[mcp_servers.
// asktui]\n…"), perhaps with comments. It reports whether the document
// changed: a table that already holds the same values, however written,
// is left alone. An existing table is replaced where it stands, with its
// subtables; a new one goes after the last table beside it (another
// [mcp_servers.*]), else at the end. A table defined another way (with
// dotted keys, or inline) is refused, with its line.
func (d *TOML) SetTable(table string, key ...string) (bool, error) {
	tm, err := decodeTOML("the new table", []byte(table))
	if err != nil {
		return false, err
	}
	want, ok := lookupKey(tm, key)
	if !ok {
		return false, fmt.Errorf("the new table does not hold %s", strings.Join(key, "."))
	}
	if have, ok := d.Get(key...); ok && reflect.DeepEqual(have, want) {
		return false, nil
	}
	l, err := d.layout(key)
	if err != nil {
		return false, err
	}
	if l.inline != "" {
		return false, errors.New(l.inline)
	}
	if !strings.HasSuffix(table, "\n") {
		table += "\n"
	}
	src := d.src
	if len(l.ours) > 0 {
		for _, s := range slices.Backward(l.ours[1:]) {
			src = cut(src, s)
		}
		s := l.ours[0]
		src = slices.Concat(src[:s.start], []byte(table), src[s.end:])
	} else {
		at := len(src)
		if l.after >= 0 {
			at = l.after
		}
		var add []byte
		if at > 0 && src[at-1] != '\n' {
			add = append(add, '\n')
		}
		if at > 0 {
			add = append(add, '\n')
		}
		add = append(add, table...)
		src = slices.Concat(src[:at], add, src[at:])
	}
	if err := d.commit(src, key, want, true); err != nil {
		return false, err
	}
	return true, nil
}

// DeleteTable removes the table at key with its subtables, and reports
// whether the document changed. A table defined another way (with dotted
// keys, or inline) is refused, with its line.
func (d *TOML) DeleteTable(key ...string) (bool, error) {
	if _, ok := d.Get(key...); !ok {
		return false, nil
	}
	l, err := d.layout(key)
	if err != nil {
		return false, err
	}
	if l.inline != "" {
		return false, errors.New(l.inline)
	}
	src := d.src
	for _, s := range slices.Backward(l.ours) {
		src = cut(src, s)
	}
	if err := d.commit(src, key, nil, false); err != nil {
		return false, err
	}
	return true, nil
}

// commit checks src, the edited document, against the current one and
// takes it: key holds want (or is gone when !present) and every other
// value is as it was.
func (d *TOML) commit(src []byte, key []string, want any, present bool) error {
	before, err := decodeTOML(d.file, d.src)
	if err != nil {
		return err
	}
	after, err := decodeTOML(d.file, src)
	if err != nil {
		return fmt.Errorf("%s: the edit broke the TOML (a bug in asktui): %w", d.file, err)
	}
	got, ok := lookupKey(after, key)
	deleteKey(before, key)
	deleteKey(after, key)
	if ok != present || present && !reflect.DeepEqual(got, want) || !reflect.DeepEqual(before, after) {
		return fmt.Errorf("%s: cannot change [%s] without changing the rest of the file; edit it by hand", d.file, strings.Join(key, "."))
	}
	d.src = src
	return nil
}

// span is a range of whole lines of the document.
type span struct{ start, end int }

// cut removes s from src, with the blank line before it, when there is
// one: a table added after a blank line leaves no trace when removed.
func cut(src []byte, s span) []byte {
	start := s.start
	if start >= 2 && src[start-1] == '\n' && src[start-2] == '\n' {
		start--
	}
	return slices.Concat(src[:start], src[s.end:])
}

// tomlLayout is where a table and its neighbours are in the document.
type tomlLayout struct {
	ours   []span // the table's header and lines, and its subtables'
	after  int    // the end of the last table beside it, or -1
	inline string // why the table cannot be edited as text, or ""
}

// layout finds the lines of the table at key and its subtables, and
// those of the tables beside it (under the same parent key).
func (d *TOML) layout(key []string) (tomlLayout, error) {
	l := tomlLayout{after: -1}
	var p unstable.Parser
	p.Reset(d.src)
	var table []string  // the current table's key
	var open *span      // the region being read
	var openIsOurs bool // it is ours (else a neighbour's)
	closeRegion := func() {
		if open == nil {
			return
		}
		if openIsOurs {
			l.ours = append(l.ours, *open)
		} else {
			l.after = open.end
		}
		open = nil
	}
	for p.NextExpression() {
		e := p.Expression()
		k, first, last := keyOf(e)
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			closeRegion()
			table = k
			s := span{start: lineStart(d.src, first), end: lineEnd(d.src, last)}
			switch {
			case hasPrefix(k, key):
				open, openIsOurs = &s, true
			case hasPrefix(k, key[:len(key)-1]):
				open, openIsOurs = &s, false
			}
		case unstable.KeyValue:
			full := slices.Concat(table, k)
			raw := e.Raw
			end := lineEnd(d.src, int(raw.Offset+raw.Length))
			switch {
			case hasPrefix(full, key) && !hasPrefix(table, key):
				line, _ := lineColumn(d.src, first)
				how := "a dotted key"
				if len(full) == len(key) {
					how = "an inline table"
				}
				l.inline = fmt.Sprintf("%s line %d defines %s as %s: asktui setup edits only a [%s] table; "+
					"rewrite it as one, or remove it, and run asktui setup again",
					d.file, line, strings.Join(full, "."), how, strings.Join(key, "."))
			case len(full) < len(key) && hasPrefix(key, full):
				line, _ := lineColumn(d.src, first)
				l.inline = fmt.Sprintf("%s line %d defines %s as an inline table, which a [%s] table cannot extend: "+
					"rewrite it as tables ([%s.NAME]) and run asktui setup again",
					d.file, line, strings.Join(full, "."), strings.Join(key, "."), strings.Join(full, "."))
			}
			if open != nil {
				open.end = end
			}
		default:
			// Comments and whitespace between expressions are kept as
			// they are; values belong to their key/value.
		}
	}
	if err := p.Error(); err != nil {
		return l, &ParseError{File: d.file, Problem: "not valid TOML: " + err.Error()}
	}
	closeRegion()
	return l, nil
}

// keyOf returns the key of a table header or key/value expression, and
// the offsets of the start of its first part and the end of its last.
func keyOf(e *unstable.Node) (key []string, first, last int) {
	first = -1
	it := e.Key()
	for it.Next() {
		n := it.Node()
		key = append(key, string(n.Data))
		if first < 0 {
			first = int(n.Raw.Offset)
		}
		last = int(n.Raw.Offset + n.Raw.Length)
	}
	return key, first, last
}

func hasPrefix(k, prefix []string) bool {
	return len(k) >= len(prefix) && slices.Equal(k[:len(prefix)], prefix)
}

// lineStart is the offset of the start of the line holding offset.
func lineStart(b []byte, offset int) int {
	return bytes.LastIndexByte(b[:offset], '\n') + 1
}

// lineEnd is the offset just after the newline that ends the line holding
// offset, or the end of b.
func lineEnd(b []byte, offset int) int {
	if i := bytes.IndexByte(b[offset:], '\n'); i >= 0 {
		return offset + i + 1
	}
	return len(b)
}
