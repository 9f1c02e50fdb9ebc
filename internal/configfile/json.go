package configfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"
)

// JSON is a JSON document being edited: standard JSON, or JSON with
// comments and trailing commas (JWCC, as Gemini CLI's settings.json and
// VS Code's files allow). Every edit changes only the subtree it names:
// what it adds is indented as the members around it are, and all else
// stays byte for byte, comments included.
type JSON struct {
	file string
	src  []byte       // the document as it stands
	root hujson.Value // src, parsed
	unit string       // one level of indentation, as the file has it
	// compact is set for a document on one line (minified): what is
	// added stays on it.
	compact bool
}

// ParseJSON parses src, the content of file (named in errors). Empty
// content is an empty object. The document must be an object.
func ParseJSON(file string, src []byte) (*JSON, error) {
	d := &JSON{file: file}
	if len(bytes.TrimSpace(src)) == 0 {
		src = []byte("{}\n")
	}
	v, err := hujson.Parse(src)
	if err != nil {
		return nil, jsonParseError(file, err)
	}
	if v.Value.Kind() != '{' {
		return nil, &ParseError{File: file, Line: 1, Column: 1, Problem: "the file holds " + kindName(v.Value.Kind()) + ", where an object belongs"}
	}
	d.src, d.root = src, v
	d.unit = "  "
	members := v.Value.(*hujson.Object).Members
	d.compact = len(members) > 0 && !bytes.Contains(bytes.TrimSpace(src), []byte("\n"))
	for _, m := range members {
		if ind, ok := leadIndent(m.Name.BeforeExtra); ok && ind != "" {
			d.unit = ind
			break
		}
	}
	return d, nil
}

// jsonParseError turns hujson's "hujson: line L, column C: problem" into
// a ParseError.
func jsonParseError(file string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "hujson: ")
	var line, col int
	if n, _ := fmt.Sscanf(msg, "line %d, column %d:", &line, &col); n == 2 {
		_, msg, _ = strings.Cut(msg, ": ")
	}
	return &ParseError{File: file, Line: line, Column: col, Problem: "not valid JSON: " + msg}
}

// Bytes is the document as it stands.
func (d *JSON) Bytes() []byte { return slices.Clone(d.src) }

// Get returns the value at path, decoded as encoding/json decodes into
// an any, and whether it is there.
func (d *JSON) Get(path ...string) (any, bool) {
	v, err := d.lookup(path)
	if err != nil || v == nil {
		return nil, false
	}
	return decode(*v), true
}

// Set makes the member at path hold value, creating the objects on the
// way, and reports whether the document changed: a member that already
// holds an equal value (however it is formatted) is left as it is.
func (d *JSON) Set(value any, path ...string) (bool, error) {
	if len(path) == 0 {
		return false, fmt.Errorf("%s: no member to set", d.file)
	}
	want, err := normalize(value)
	if err != nil {
		return false, err
	}
	parent := &d.root
	for i, key := range path {
		obj, err := d.object(parent, path[:i])
		if err != nil {
			return false, err
		}
		m, err := d.member(obj, key, path[:i+1])
		if err != nil {
			return false, err
		}
		if m < 0 {
			// Nest what is left of the path into one new member.
			for j := len(path) - 1; j > i; j-- {
				want = map[string]any{path[j]: want}
			}
			d.insertMember(parent, key, want)
			return true, d.reload()
		}
		parent = &obj.Members[m].Value
	}
	if reflect.DeepEqual(decode(*parent), want) {
		return false, nil
	}
	d.replace(parent, want)
	return true, d.reload()
}

// Delete removes the member at path, and then each object on the path
// that it leaves empty, and reports whether the document changed.
func (d *JSON) Delete(path ...string) (bool, error) {
	if len(path) == 0 {
		return false, nil
	}
	v, err := d.lookup(path)
	if err != nil || v == nil {
		return false, err
	}
	if err := d.remove(path); err != nil {
		return false, err
	}
	return true, d.prune(path[:len(path)-1])
}

// prune removes the object at path when it is empty, and so on upwards.
func (d *JSON) prune(path []string) error {
	for ; len(path) > 0; path = path[:len(path)-1] {
		v, _ := d.lookup(path)
		if v == nil {
			return nil
		}
		switch c := v.Value.(type) {
		case *hujson.Object:
			if len(c.Members) > 0 {
				return nil
			}
		case *hujson.Array:
			if len(c.Elements) > 0 {
				return nil
			}
		default:
			return nil
		}
		if err := d.remove(path); err != nil {
			return err
		}
	}
	return nil
}

// lookup finds the value at path: nil when a member on the way is
// missing, an error when a value on the way is not an object.
func (d *JSON) lookup(path []string) (*hujson.Value, error) {
	v := &d.root
	for i, key := range path {
		switch c := v.Value.(type) {
		case *hujson.Object:
			m, err := d.member(c, key, path[:i+1])
			if err != nil || m < 0 {
				return nil, err
			}
			v = &c.Members[m].Value
		case *hujson.Array:
			n, err := strconv.Atoi(key)
			if err != nil || n < 0 || n >= len(c.Elements) {
				return nil, nil
			}
			v = &c.Elements[n]
		default:
			return nil, d.notObject(v, path[:i])
		}
	}
	return v, nil
}

// object returns v's object, or says that the value at path is not one.
func (d *JSON) object(v *hujson.Value, path []string) (*hujson.Object, error) {
	if obj, ok := v.Value.(*hujson.Object); ok {
		return obj, nil
	}
	return nil, d.notObject(v, path)
}

func (d *JSON) notObject(v *hujson.Value, path []string) error {
	line, col := lineColumn(d.src, v.StartOffset)
	return &ParseError{File: d.file, Line: line, Column: col,
		Problem: fmt.Sprintf("%s is %s, where an object belongs", dotted(path), kindName(v.Value.Kind()))}
}

// array returns v's array, or says that the value at path is not one.
func (d *JSON) array(v *hujson.Value, path []string) (*hujson.Array, error) {
	if arr, ok := v.Value.(*hujson.Array); ok {
		return arr, nil
	}
	line, col := lineColumn(d.src, v.StartOffset)
	return nil, &ParseError{File: d.file, Line: line, Column: col,
		Problem: fmt.Sprintf("%s is %s, where an array belongs", dotted(path), kindName(v.Value.Kind()))}
}

// reload packs the edited tree and parses it again, so that every offset
// in it is right for the next edit.
func (d *JSON) reload() error {
	src := d.root.Pack()
	v, err := hujson.Parse(src)
	if err != nil {
		return fmt.Errorf("%s: the edit broke the JSON (a bug in asktui): %w", d.file, err)
	}
	d.src, d.root = src, v
	return nil
}

// insertMember appends the member key: value to the object v, laid out as
// the object's other members are: on a line of its own, at their
// indentation, or on the same line when they are.
func (d *JSON) insertMember(v *hujson.Value, key string, value any) {
	obj := v.Value.(*hujson.Object)
	m := hujson.ObjectMember{Name: hujson.Value{Value: hujson.String(key)}}
	colon := hujson.Extra(" ")
	if d.compact {
		colon = nil
	}
	if n := len(obj.Members); n > 0 {
		if b := obj.Members[n-1].Value.BeforeExtra; !hasComment(b) {
			colon = slices.Clone(b)
		}
	}
	m.Value.BeforeExtra = colon
	lead, indent, inline := d.placeNew(v, len(obj.Members) > 0, func(i int) hujson.Extra { return obj.Members[i].Name.BeforeExtra }, len(obj.Members), &obj.AfterExtra)
	m.Name.BeforeExtra = lead
	m.Value.Value = d.format(value, indent, inline)
	if n := len(obj.Members); n > 0 && obj.Members[n-1].Value.AfterExtra != nil {
		m.Value.AfterExtra = hujson.Extra{} // keep the trailing comma
	}
	obj.Members = append(obj.Members, m)
}

// appendElement appends value to the array v, laid out as insertMember
// lays out a member.
func (d *JSON) appendElement(v *hujson.Value, value any) {
	arr := v.Value.(*hujson.Array)
	lead, indent, inline := d.placeNew(v, len(arr.Elements) > 0, func(i int) hujson.Extra { return arr.Elements[i].BeforeExtra }, len(arr.Elements), &arr.AfterExtra)
	e := hujson.Value{BeforeExtra: lead, Value: d.format(value, indent, inline)}
	if n := len(arr.Elements); n > 0 && arr.Elements[n-1].AfterExtra != nil {
		e.AfterExtra = hujson.Extra{}
	}
	arr.Elements = append(arr.Elements, e)
}

// placeNew decides where a new last item of the composite v goes: the
// whitespace (and comments) before it, the indentation of its line, and
// whether v is laid out on one line. It moves a comment that ends the
// line of the last item (`"a": 1 // why`) from the closing extra, closing,
// to before the new item, so that it stays on its own item's line.
func (d *JSON) placeNew(v *hujson.Value, some bool, before func(int) hujson.Extra, n int, closing *hujson.Extra) (lead hujson.Extra, indent string, inline bool) {
	outer := d.lineIndent(v.StartOffset)
	indent = outer + d.unit
	if d.compact && !some {
		return nil, "", true
	}
	if some {
		ind, ok := leadIndent(before(n - 1))
		if !ok {
			// One line: the new item follows as the last one does.
			b := before(n - 1)
			if hasComment(b) {
				b = hujson.Extra(" ")
			}
			return slices.Clone(b), "", true
		}
		indent = ind
	}
	// The closing extra: what ends the last item's line, then the rest.
	rest := slices.Clone(*closing)
	var sameLine hujson.Extra
	if i := bytes.IndexByte(rest, '\n'); i >= 0 && !hasNewlineInBlock(rest[:i]) {
		sameLine, rest = rest[:i], rest[i:]
	} else if i < 0 && !some {
		// `{}` or `{ /* c */ }` on one line: open it up.
		sameLine, rest = rest, nil
	}
	if !hasComment(sameLine) {
		sameLine = nil
	}
	if len(rest) == 0 {
		rest = hujson.Extra("\n" + outer)
	}
	*closing = rest
	lead = append(sameLine, "\n"+indent...)
	return lead, indent, false
}

// replace makes v hold value, keeping the whitespace and comments around
// it; the value is laid out at the indentation of the line it starts on.
func (d *JSON) replace(v *hujson.Value, value any) {
	inline := false
	if c, ok := v.Value.(*hujson.Object); ok && len(c.Members) > 0 {
		_, nl := leadIndent(c.Members[0].Name.BeforeExtra)
		inline = !nl
	}
	v.Value = d.format(value, d.lineIndent(v.StartOffset), inline)
}

// format encodes value as JSON laid out for a line indented by indent
// (the first line follows what is before it), or on one line.
func (d *JSON) format(value any, indent string, inline bool) hujson.ValueTrimmed {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if !inline {
		enc.SetIndent(indent, d.unit)
	}
	if err := enc.Encode(value); err != nil {
		panic(err) // value came through normalize
	}
	v, err := hujson.Parse(bytes.TrimRight(b.Bytes(), "\n"))
	if err != nil {
		panic(err)
	}
	return v.Value
}

// remove deletes the member or element at path, keeping the comments that
// belong to its neighbours, and the absence of a trailing comma.
func (d *JSON) remove(path []string) error {
	parent, err := d.lookup(path[:len(path)-1])
	if err != nil || parent == nil {
		return err
	}
	last := func() *hujson.Value {
		switch c := parent.Value.(type) {
		case *hujson.Object:
			if n := len(c.Members); n > 0 {
				return &c.Members[n-1].Value
			}
		case *hujson.Array:
			if n := len(c.Elements); n > 0 {
				return &c.Elements[n-1]
			}
		}
		return nil
	}
	var closing *hujson.Extra
	wasLast := false
	switch c := parent.Value.(type) {
	case *hujson.Object:
		closing = &c.AfterExtra
		wasLast = findMember(c, path[len(path)-1]) == len(c.Members)-1
	case *hujson.Array:
		closing = &c.AfterExtra
		wasLast = path[len(path)-1] == strconv.Itoa(len(c.Elements)-1)
	}
	closeIndent, _ := indentOf(*closing)
	trailingComma := last() != nil && last().AfterExtra != nil
	op, _ := json.Marshal([]map[string]string{{"op": "remove", "path": pointer(path)}})
	if err := d.root.Patch(op); err != nil {
		return fmt.Errorf("%s: %w", d.file, err)
	}
	if i := bytes.LastIndexByte(*closing, '\n'); wasLast && i >= 0 {
		// The closing bracket keeps its indentation, not the removed
		// item's.
		if _, ok := indentOf(*closing); ok {
			*closing = append((*closing)[:i+1:i+1], closeIndent...)
		}
	}
	switch l := last(); {
	case l == nil:
	case !trailingComma && l.AfterExtra != nil:
		*closing = append(l.AfterExtra, *closing...)
		l.AfterExtra = nil
	case trailingComma && l.AfterExtra == nil:
		l.AfterExtra = hujson.Extra{} // the user's trailing comma stays
	}
	if last() == nil && !hasComment(*closing) {
		*closing = nil // {} rather than an empty object over several lines
	}
	return d.reload()
}

// lineIndent is the whitespace that starts the line holding offset.
func (d *JSON) lineIndent(offset int) string {
	start := bytes.LastIndexByte(d.src[:offset], '\n') + 1
	end := start
	for end < len(d.src) && (d.src[end] == ' ' || d.src[end] == '\t') {
		end++
	}
	return string(d.src[start:end])
}

// indentOf returns the indentation that b, the extra before an item,
// gives it: what follows its last newline, when that is whitespace.
// leadIndent is indentOf for the extra before an item, which may end in
// block comments after the indentation (`  /* why */ "key": …`): the item's
// line is indented by the whitespace that starts it.
func leadIndent(b hujson.Extra) (string, bool) {
	i := bytes.LastIndexByte(b, '\n')
	if i < 0 {
		return "", false
	}
	line := b[i+1:]
	ind := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
	for rest := bytes.TrimLeft(line, " \t"); len(rest) > 0; rest = bytes.TrimLeft(rest, " \t") {
		if !bytes.HasPrefix(rest, []byte("/*")) {
			return "", false
		}
		end := bytes.Index(rest, []byte("*/"))
		if end < 0 {
			return "", false
		}
		rest = rest[end+2:]
	}
	return string(ind), true
}

func indentOf(b hujson.Extra) (string, bool) {
	i := bytes.LastIndexByte(b, '\n')
	if i < 0 {
		return "", false
	}
	ind := string(b[i+1:])
	if strings.Trim(ind, " \t") != "" {
		return "", false
	}
	return ind, true
}

// hasComment reports whether b holds a comment, not only whitespace.
func hasComment(b []byte) bool { return len(bytes.TrimSpace(b)) > 0 }

// hasNewlineInBlock reports whether b opens a block comment it does not
// close on this line: then the line does not end at the first newline.
func hasNewlineInBlock(b []byte) bool {
	return bytes.Count(b, []byte("/*")) > bytes.Count(b, []byte("*/"))
}

// member is the index of obj's member key (-1 when it has none), whose
// path is path. A key that appears twice is refused: programs differ on
// which one counts (JavaScript's JSON.parse takes the last).
func (d *JSON) member(obj *hujson.Object, key string, path []string) (int, error) {
	i := findMember(obj, key)
	if i < 0 {
		return i, nil
	}
	for j := i + 1; j < len(obj.Members); j++ {
		if lit, ok := obj.Members[j].Name.Value.(hujson.Literal); ok && lit.String() == key {
			l1, _ := lineColumn(d.src, obj.Members[i].Name.StartOffset)
			l2, c2 := lineColumn(d.src, obj.Members[j].Name.StartOffset)
			return -1, &ParseError{File: d.file, Line: l2, Column: c2,
				Problem: fmt.Sprintf("%s appears twice (lines %d and %d): keep one", dotted(path), l1, l2)}
		}
	}
	return i, nil
}

func findMember(obj *hujson.Object, key string) int {
	for i, m := range obj.Members {
		if lit, ok := m.Name.Value.(hujson.Literal); ok && lit.String() == key {
			return i
		}
	}
	return -1
}

// decode returns v as encoding/json decodes it into an any.
func decode(v hujson.Value) any {
	v = v.Clone()
	v.Standardize()
	var x any
	if err := json.Unmarshal(v.Pack(), &x); err != nil {
		return nil
	}
	return x
}

// normalize returns value as decode would return its JSON.
func normalize(value any) (any, error) {
	b, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	var x any
	err = json.Unmarshal(b, &x)
	return x, err
}

// pointer is the JSON pointer (RFC 6901) of path.
func pointer(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
	}
	return b.String()
}

// dotted names path for a person: mcpServers.asktui, or "the file".
func dotted(path []string) string {
	if len(path) == 0 {
		return "the file"
	}
	return strconv.Quote(strings.Join(path, "."))
}

// kindName names a kind of JSON value, with its article.
func kindName(k hujson.Kind) string {
	switch k {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 'n':
		return "null"
	}
	return "a boolean"
}

// lineColumn is the 1-based line and column of offset in b.
func lineColumn(b []byte, offset int) (int, int) {
	offset = min(offset, len(b))
	line := 1 + bytes.Count(b[:offset], []byte("\n"))
	col := offset - bytes.LastIndexByte(b[:offset], '\n')
	return line, col
}
