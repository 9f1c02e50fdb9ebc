package script

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
	"github.com/asktui/asktui/internal/sanitize"
)

// A scenario file is decoded in two passes. goccy/go-yaml parses it and
// decodes it into the structs below, resolving anchors and aliases: obj
// checks each mapping's keys against its struct's yaml tags (in file
// order, so the first unknown key is the one reported), list checks each
// list, and the leaves stay syntax nodes. The semantic pass then reads
// each leaf in the forms it allows and checks what refers to what. Every
// error holds a node, and place names where it is in the scenario.

// Bounds on what the file's aliases may expand to, on top of MaxNesting.
const (
	maxDepth   = 64     // nesting of when steps (half this) and of tool arguments
	maxAliases = 10_000 // alias expansions per file
)

// The shape of a scenario file. A key tagged null:"ok" may be null (for
// a list, an empty one); any other key needs a value.
type (
	fileDoc struct {
		Name        ast.Node             `yaml:"name"`
		Title       ast.Node             `yaml:"title"`
		Description ast.Node             `yaml:"description"`
		Agents      *list[obj[agentDoc]] `yaml:"agents" null:"ok"`
	}
	agentDoc struct {
		ID    ast.Node            `yaml:"id"`
		Name  ast.Node            `yaml:"name"`
		Steps *list[obj[stepDoc]] `yaml:"steps" null:"ok"`
	}
	// stepDoc's actions may be null here: the semantic pass says what
	// each one needs.
	stepDoc struct {
		Say      ast.Node          `yaml:"say" null:"ok"`
		Think    *orObj[thinkDoc]  `yaml:"think" null:"ok"`
		Tool     *obj[toolDoc]     `yaml:"tool" null:"ok"`
		Ask      *obj[askDoc]      `yaml:"ask" null:"ok"`
		When     *obj[whenDoc]     `yaml:"when" null:"ok"`
		Withdraw *obj[withdrawDoc] `yaml:"withdraw" null:"ok"`
		Wait     ast.Node          `yaml:"wait" null:"ok"`
	}
	thinkDoc struct {
		For  ast.Node `yaml:"for"`
		Text ast.Node `yaml:"text"`
	}
	toolDoc struct {
		Name   ast.Node `yaml:"name"`
		Args   ast.Node `yaml:"args" null:"ok"`
		For    ast.Node `yaml:"for"`
		Result ast.Node `yaml:"result"`
		Failed ast.Node `yaml:"failed"`
	}
	askDoc struct {
		Questions *list[obj[questionDoc]] `yaml:"questions" null:"ok"`
		Keys      *list[ast.Node]         `yaml:"keys" null:"ok"`
	}
	questionDoc struct {
		ID               ast.Node                `yaml:"id"`
		Question         ast.Node                `yaml:"question"`
		Header           ast.Node                `yaml:"header"`
		Detail           ast.Node                `yaml:"detail"`
		Options          *list[orObj[optionDoc]] `yaml:"options" null:"ok"`
		MultiSelect      ast.Node                `yaml:"multiSelect"`
		MultiSelectSnake ast.Node                `yaml:"multi_select"`
	}
	optionDoc struct {
		Label       ast.Node `yaml:"label"`
		Description ast.Node `yaml:"description"`
		Preview     ast.Node `yaml:"preview"`
	}
	// whenDoc's tests may be null here, for the same reason as stepDoc's
	// actions.
	whenDoc struct {
		ID        ast.Node            `yaml:"id"`
		Label     ast.Node            `yaml:"label" null:"ok"`
		Custom    ast.Node            `yaml:"custom" null:"ok"`
		Skipped   ast.Node            `yaml:"skipped" null:"ok"`
		Declined  ast.Node            `yaml:"declined" null:"ok"`
		Withdrawn ast.Node            `yaml:"withdrawn" null:"ok"`
		Then      *list[obj[stepDoc]] `yaml:"then" null:"ok"`
		Else      *list[obj[stepDoc]] `yaml:"else" null:"ok"`
	}
	withdrawDoc struct {
		After ast.Node     `yaml:"after"`
		Ask   *obj[askDoc] `yaml:"ask"`
	}
)

// obj is a mapping decoded into T, with the mapping as written.
type obj[T any] struct {
	node ast.Node
	v    T
}

// UnmarshalYAML checks the mapping's keys, then decodes it into T.
func (o *obj[T]) UnmarshalYAML(ctx context.Context, unmarshal func(any) error) error {
	if err := unmarshal(&o.node); err != nil {
		return err
	}
	if err := ctx.Value(decoderKey{}).(*decoder).checkKeys(o.node, reflect.TypeFor[T]()); err != nil {
		return err
	}
	return unmarshal(&o.v)
}

// orObj is a scalar (a shorthand, such as a bare option label) or a
// mapping decoded into T.
type orObj[T any] struct {
	node ast.Node
	obj  *obj[T] // nil for a scalar
}

// UnmarshalYAML keeps a scalar as it is and decodes anything else as an
// obj.
func (o *orObj[T]) UnmarshalYAML(ctx context.Context, unmarshal func(any) error) error {
	if err := unmarshal(&o.node); err != nil {
		return err
	}
	if _, ok := scalarText(ctx.Value(decoderKey{}).(*decoder).resolve(o.node)); ok {
		return nil
	}
	o.obj = new(obj[T])
	return unmarshal(o.obj)
}

// list is a list of T, with the list as written.
type list[T any] struct {
	node  ast.Node
	items []T
}

// UnmarshalYAML checks that the node is a list, then decodes its items.
func (l *list[T]) UnmarshalYAML(ctx context.Context, unmarshal func(any) error) error {
	if err := unmarshal(&l.node); err != nil {
		return err
	}
	d := ctx.Value(decoderKey{}).(*decoder)
	seq, ok := d.resolve(l.node).(*ast.SequenceNode)
	if !ok {
		return d.failAt(l.node, "must be a list of %s, not %s", nouns[reflect.TypeFor[T]()], kind(d.resolve(l.node)))
	}
	if err := unmarshal(&l.items); err != nil {
		return err
	}
	// A null entry decodes to nothing: keep it as a node, or say what
	// the mapping needs.
	for i, e := range seq.Values {
		if !isNull(d.resolve(e)) || i >= len(l.items) {
			continue
		}
		if n, ok := any(&l.items[i]).(*ast.Node); ok {
			*n = e
			continue
		}
		return d.failAt(e, "must be a mapping with the keys %s, not nothing",
			orList(keysOf(any(l.items[i]).(interface{ shape() reflect.Type }).shape())))
	}
	return nil
}

func (obj[T]) shape() reflect.Type   { return reflect.TypeFor[T]() }
func (orObj[T]) shape() reflect.Type { return reflect.TypeFor[T]() }

// nouns name what each kind of list holds, for messages.
var nouns = map[reflect.Type]string{
	reflect.TypeFor[obj[agentDoc]]():    "agents",
	reflect.TypeFor[obj[stepDoc]]():     "steps",
	reflect.TypeFor[obj[questionDoc]](): "questions",
	reflect.TypeFor[orObj[optionDoc]](): "options",
	reflect.TypeFor[ast.Node]():         `keys such as ["down", "enter"]`,
}

// decoderKey carries the *decoder in the context of a decoding.
type decoderKey struct{}

// The keys of a step that name its action, and of a when step that name
// its test, in the order messages list them.
var (
	actionKeys = keysOf(reflect.TypeFor[stepDoc]())
	testKeys   = []string{"label", "custom", "skipped", "declined", "withdrawn"}
)

// shapes are the mappings of the actions that have one.
var shapes = map[StepKind]reflect.Type{
	StepThink: reflect.TypeFor[thinkDoc](), StepTool: reflect.TypeFor[toolDoc](), StepAsk: reflect.TypeFor[askDoc](),
	StepWhen: reflect.TypeFor[whenDoc](), StepWithdraw: reflect.TypeFor[withdrawDoc](),
}

// answerRef matches a reference to a remembered answer in text.
var answerRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\{\{\s*answer\.([^{}\s]+)\s*\}\}`)
})

// decoder decodes one scenario file.
type decoder struct {
	label   string
	body    ast.Node            // the document
	anchors map[string]ast.Node // by name; a later anchor of a name wins
	ordered *yaml.Decoder       // tool arguments, keeping key order
}

// parse decodes a scenario; named reports whether the file set a name.
func parse(label string, data []byte) (sc *Scenario, named bool, err error) {
	if err := checkBounds(label, data); err != nil {
		return nil, false, err
	}
	d := &decoder{label: label, anchors: map[string]ast.Node{}}
	file, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, false, d.yamlError(err)
	}
	var docs []*ast.DocumentNode
	for _, doc := range file.Docs {
		if doc.Body != nil {
			docs = append(docs, doc)
		}
	}
	switch len(docs) {
	case 0:
		return nil, false, &ParseError{Scenario: label, Msg: "the file is empty; a scenario needs at least \"agents\" with one agent and its \"steps\""}
	case 1:
	default:
		line, _ := pos(docs[1].Body)
		return nil, false, &ParseError{Scenario: label, Line: line,
			Msg: fmt.Sprintf("the file holds %d YAML documents; put one scenario in each file", len(docs))}
	}
	d.body = docs[0].Body
	for _, n := range ast.Filter(ast.AnchorType, d.body) {
		if a := n.(*ast.AnchorNode); a.Name != nil {
			d.anchors[a.Name.GetToken().Value] = a.Value
		}
	}
	if err := d.checkAliases(d.body); err != nil {
		return nil, false, err
	}
	for _, n := range ast.Filter(ast.MappingValueType, d.body) {
		if k := n.(*ast.MappingValueNode).Key; k.IsMergeKey() {
			return nil, false, d.failAt(k, "merge keys (<<) are not supported; write the keys out")
		}
	}
	var doc obj[fileDoc]
	ctx := context.WithValue(context.Background(), decoderKey{}, d)
	if err := yaml.NewDecoder(bytes.NewReader(nil)).DecodeFromNodeContext(ctx, d.body, &doc); err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			return nil, false, pe
		}
		return nil, false, d.yamlError(err)
	}
	return d.scenario(&doc)
}

// checkAliases refuses an alias to an anchor it is inside of, and a file
// whose aliases expand to more than maxAliases nodes all told.
func (d *decoder) checkAliases(body ast.Node) error {
	const busy = -1
	memo := map[ast.Node]int{} // expansions inside an anchor's value
	var count func(n ast.Node) (int, error)
	count = func(n ast.Node) (int, error) {
		total := 0
		for _, a := range ast.Filter(ast.AliasType, n) {
			name := a.(*ast.AliasNode).Value.GetToken().Value
			target, ok := d.anchors[name]
			if !ok {
				return 0, d.failAt(a, "alias %q refers to no anchor %q", "*"+name, "&"+name)
			}
			inner, seen := memo[target]
			switch {
			case seen && inner == busy:
				return 0, d.failAt(a, "alias %q is inside the anchor %q it refers to", "*"+name, "&"+name)
			case !seen:
				memo[target] = busy
				c, err := count(target)
				if err != nil {
					return 0, err
				}
				memo[target], inner = c, c
			}
			if total += 1 + inner; total > maxAliases {
				return 0, d.failAt(a, "more than %d alias expansions; the file is too repetitive", maxAliases)
			}
		}
		return total, nil
	}
	_, err := count(body)
	return err
}

// yamlError turns an error of the YAML library into a *ParseError at its
// position.
func (d *decoder) yamlError(err error) *ParseError {
	e := &ParseError{Scenario: d.label, Err: err, Msg: "invalid YAML: " + inert(err.Error())}
	var ye yaml.Error
	if errors.As(err, &ye) {
		e.Msg = "invalid YAML: " + inert(ye.GetMessage())
		if tk := ye.GetToken(); tk != nil && tk.Position != nil {
			e.Line, e.Column = tk.Position.Line, tk.Position.Column
			if where := d.placeAt(nil, e.Line, e.Column); where != "" {
				e.Msg = where + ": " + e.Msg
			}
		}
	}
	return e
}

// fail returns a *ParseError at node n (which may be nil). where names the
// place, as in `agent "scaffold" step 3 (tool): "for"`.
func (d *decoder) fail(n ast.Node, where, format string, args ...any) *ParseError {
	line, col := pos(n)
	msg := fmt.Sprintf(format, args...)
	if where != "" {
		msg = where + ": " + msg
	}
	return &ParseError{Scenario: d.label, Line: line, Column: col, Msg: msg}
}

// failAt returns a *ParseError at node n, naming its place.
func (d *decoder) failAt(n ast.Node, format string, args ...any) *ParseError {
	return d.fail(n, d.place(n), format, args...)
}

// place names where node n is in the scenario, as messages do: "agent 1:
// \"id\"", `agent "a" step 2 (when) then step 1 (tool): "for"`, `agent
// "a" step 1 (ask): question 2: "options": option 1: "label"`.
func (d *decoder) place(n ast.Node) string {
	line, col := pos(n)
	return d.placeAt(n, line, col)
}

// placeAt names the place of the node target, or of the position when
// target is nil or is not found there. It walks down from the top along
// the scenario's shape, into the entry that starts last at or before the
// position, until it meets target.
func (d *decoder) placeAt(target ast.Node, line, col int) string {
	w := placeWalk{d: d, target: target, line: line, col: col}
	switch {
	case d.body == nil || line == 0:
		return ""
	case w.is(d.body):
		return "the top level"
	}
	key, agents := w.field(d.body)
	switch {
	case key == "":
		return "the top level"
	case key != "agents":
		return strconv.Quote(key)
	case w.is(agents):
		return `"agents"`
	}
	i, agent := w.entry(agents)
	where := fmt.Sprintf("agent %d", i+1)
	if agent == nil || w.is(agent) {
		return where
	}
	key, steps := w.field(agent)
	if key != "steps" {
		return subPlace(where, key)
	}
	if id, ok := scalarText(d.resolve(d.value(agent, "id"))); ok {
		where = fmt.Sprintf("agent %q", id)
	}
	if w.is(steps) {
		return subPlace(where, "steps")
	}
	return w.steps(where, steps)
}

// placeWalk is placeAt's walk down the scenario to its target node, or
// to the position line:col.
type placeWalk struct {
	d         *decoder
	target    ast.Node
	line, col int
}

// is reports whether n is the target (or an alias of it).
func (w placeWalk) is(n ast.Node) bool {
	return w.target != nil && n != nil &&
		(n == w.target || w.d.resolve(n) == w.target || w.d.resolve(n) == w.d.resolve(w.target))
}

// before reports whether n starts at or before the position.
func (w placeWalk) before(n ast.Node) bool {
	l, c := pos(n)
	return l > 0 && (l < w.line || l == w.line && c <= w.col)
}

// entry returns the last entry of the list n that starts at or before
// the position, and its index.
func (w placeWalk) entry(n ast.Node) (i int, v ast.Node) {
	if seq, ok := w.d.resolve(n).(*ast.SequenceNode); ok {
		for j, e := range seq.Values {
			if w.before(e) {
				i, v = j, e
			}
		}
	}
	return i, v
}

// field returns the last key of the mapping n that starts at or before
// the position, and its value.
func (w placeWalk) field(n ast.Node) (key string, v ast.Node) {
	for _, p := range pairs(w.d.resolve(n)) {
		if w.before(p.Key) {
			key, _ = scalarText(w.d.resolve(p.Key))
			v = p.Value
		}
	}
	return key, v
}

// subPlace names the key of the place where, if any.
func subPlace(where, key string) string {
	if key == "" {
		return where
	}
	return where + ": " + strconv.Quote(key)
}

// steps goes on from placeAt inside a list of steps, and into the then
// and else steps of a when.
func (w placeWalk) steps(where string, steps ast.Node) string {
	for {
		j, step := w.entry(steps)
		where += fmt.Sprintf(" step %d", j+1)
		kind, v := w.field(step)
		if step == nil || w.is(step) || !slices.Contains(actionKeys, kind) {
			return where
		}
		where += " (" + kind + ")"
		if w.is(v) {
			return where
		}
		key, inner := w.field(v)
		switch {
		case key == "":
			return where
		case kind == "when" && (key == "then" || key == "else"):
			if w.is(inner) {
				return subPlace(where, key)
			}
			where, steps = where+" "+key, inner
			continue
		case kind == "withdraw" && key == "ask":
			if w.is(inner) {
				return subPlace(where, key)
			}
			where, v = subPlace(where, key), inner
			if key, inner = w.field(v); key == "" {
				return where
			}
		}
		if kind != "ask" && kind != "withdraw" || w.is(inner) {
			return subPlace(where, key)
		}
		return w.ask(subPlace(where, key), key, inner)
	}
}

// ask goes on from steps inside the "questions" or "keys" of an ask.
func (w placeWalk) ask(where, key string, v ast.Node) string {
	i, e := w.entry(v)
	switch {
	case e == nil:
		return where
	case key == "keys":
		return fmt.Sprintf("%s: key %d", where, i+1)
	case key != "questions":
		return where
	}
	where = fmt.Sprintf("%s: question %d", where[:len(where)-len(`: "questions"`)], i+1)
	if w.is(e) {
		return where
	}
	key, v = w.field(e)
	if key == "" {
		return where
	}
	where = where + ": " + strconv.Quote(key)
	if i, e = w.entry(v); key != "options" || w.is(v) || e == nil {
		return where
	}
	where = fmt.Sprintf("%s: option %d", where, i+1)
	if key, _ = w.field(e); key == "" || w.is(e) {
		return where
	}
	return where + ": " + strconv.Quote(key)
}

// checkKeys checks the keys of the mapping n against the yaml keys of the
// struct type t: each is text and a key of t (at the top level, keys
// starting with "x-" are free), and only keys tagged null:"ok" are null.
// It reports the first problem in file order.
func (d *decoder) checkKeys(n ast.Node, t reflect.Type) error {
	allowed := keysOf(t)
	r := d.resolve(n)
	if r.Type() != ast.MappingType && r.Type() != ast.MappingValueType {
		return d.failAt(n, "must be a mapping with the keys %s, not %s", orList(allowed), kind(r))
	}
	top := t == reflect.TypeFor[fileDoc]()
	for _, p := range pairs(r) {
		key, ok := scalarText(d.resolve(p.Key))
		switch {
		case !ok:
			return d.fail(p.Key, d.place(n), "keys must be text, not %s", kind(d.resolve(p.Key)))
		case top && strings.HasPrefix(key, "x-"):
		case !slices.Contains(allowed, key):
			msg := fmt.Sprintf("unknown key %q", key)
			if s := suggest(key, allowed); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			msg += "; the keys here are " + orList(allowed)
			if top {
				msg += ` (keys starting with "x-" are free for your own use, such as anchors)`
			}
			return d.fail(p.Key, d.place(n), "%s", msg)
		}
	}
	for _, p := range pairs(r) {
		key, _ := scalarText(d.resolve(p.Key))
		if f, ok := fieldOf(t, key); ok && f.Tag.Get("null") != "ok" && isNull(d.resolve(p.Value)) {
			return d.failAt(p.Value, "is empty; give it a value or leave the key out")
		}
	}
	return nil
}

// keysOf returns the yaml keys of the struct type t, in field order.
func keysOf(t reflect.Type) []string {
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i] = t.Field(i).Tag.Get("yaml")
	}
	return keys
}

// fieldOf returns the field of the struct type t with the yaml key key.
func fieldOf(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		if t.Field(i).Tag.Get("yaml") == key {
			return t.Field(i), true
		}
	}
	return reflect.StructField{}, false
}

// present returns the keys of the mapping n, in file order, that are
// among names, with their key nodes.
func (d *decoder) present(n ast.Node, names []string) (keys []string, at []ast.Node) {
	for _, p := range pairs(d.resolve(n)) {
		if key, ok := scalarText(d.resolve(p.Key)); ok && slices.Contains(names, key) {
			keys, at = append(keys, key), append(at, p.Key)
		}
	}
	return keys, at
}

// value returns the value node of key in the mapping n, null included, or
// nil.
func (d *decoder) value(n ast.Node, key string) ast.Node {
	for _, p := range pairs(d.resolve(n)) {
		if k, ok := scalarText(d.resolve(p.Key)); ok && k == key {
			return p.Value
		}
	}
	return nil
}

// pos returns the line and column where n starts, or zeros.
func pos(n ast.Node) (line, col int) {
	if n == nil {
		return 0, 0
	}
	switch v := n.(type) {
	case *ast.MappingNode:
		if len(v.Values) > 0 && !v.IsFlowStyle {
			return pos(v.Values[0].Key)
		}
	case *ast.MappingValueNode:
		return pos(v.Key)
	}
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return 0, 0
	}
	return tk.Position.Line, tk.Position.Column
}

// resolve follows anchors, aliases and tags to the node that holds the
// value. An alias that leads back to itself (as in "&a *a", which
// checkAliases refuses and names the place of) resolves to nil.
func (d *decoder) resolve(n ast.Node) ast.Node {
	for hops := 0; ; {
		switch v := n.(type) {
		case *ast.AnchorNode:
			n = v.Value
		case *ast.TagNode:
			n = v.Value
		case *ast.AliasNode:
			if hops++; hops > len(d.anchors) {
				return nil
			}
			n = d.anchors[v.Value.GetToken().Value]
		default:
			return n
		}
	}
}

// pairs returns the key-value pairs of a resolved mapping node.
func pairs(n ast.Node) []*ast.MappingValueNode {
	switch m := n.(type) {
	case *ast.MappingNode:
		return m.Values
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{m}
	}
	return nil
}

func isNull(n ast.Node) bool { _, null := n.(*ast.NullNode); return null }

// text returns the scalar n as text. Numbers and booleans count as text,
// spelled as in the file, so `label: 2` or `label: true` mean what they
// say.
func (d *decoder) text(n ast.Node) (string, error) {
	r := d.resolve(n)
	if s, ok := scalarText(r); ok {
		return s, nil
	}
	if isNull(r) {
		return "", d.failAt(n, "is empty; write some text")
	}
	return "", d.failAt(n, "must be text, not %s", kind(r))
}

// optText is text for an optional field: "" when n is absent.
func (d *decoder) optText(n ast.Node, err *error) string {
	if n == nil || *err != nil {
		return ""
	}
	s, e := d.text(n)
	*err = e
	return s
}

// scalarText returns the text of a scalar node other than null.
func scalarText(n ast.Node) (string, bool) {
	switch v := n.(type) {
	case *ast.StringNode:
		return v.Value, true
	case *ast.LiteralNode:
		if v.Value == nil {
			return "", true
		}
		return v.Value.Value, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return n.GetToken().Value, true
	}
	return "", false
}

// boolean returns the boolean n.
func (d *decoder) boolean(n ast.Node) (bool, error) {
	if b, ok := d.resolve(n).(*ast.BoolNode); ok {
		return b.Value, nil
	}
	return false, d.failAt(n, "must be true or false, not %s", kind(d.resolve(n)))
}

// duration returns the Go duration string n, which must not be negative.
func (d *decoder) duration(n ast.Node) (time.Duration, error) {
	r := d.resolve(n)
	s, ok := scalarText(r)
	if !ok {
		return 0, d.failAt(n, "must be a duration such as \"1.5s\" or \"800ms\", not %s", kind(r))
	}
	dur, err := time.ParseDuration(s)
	if err != nil {
		hint := `use a Go duration such as "1.5s" or "800ms"`
		switch r.(type) {
		case *ast.IntegerNode, *ast.FloatNode:
			hint = fmt.Sprintf("add a unit, as in \"%ss\"", s)
		}
		return 0, d.failAt(n, "invalid duration %q; %s", s, hint)
	}
	if dur < 0 {
		return 0, d.failAt(n, "duration %q is negative", s)
	}
	return dur, nil
}

// kind names the type of a resolved node for messages.
func kind(n ast.Node) string {
	switch n.(type) {
	case nil:
		return "nothing"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.NullNode:
		return "nothing"
	case *ast.BoolNode:
		return "a boolean"
	case *ast.IntegerNode, *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "a number"
	case *ast.StringNode, *ast.LiteralNode:
		return "text"
	}
	return "a " + strings.ToLower(n.Type().String())
}

func (d *decoder) scenario(doc *obj[fileDoc]) (*Scenario, bool, error) {
	f := &doc.v
	var err error
	sc := &Scenario{Name: d.label}
	named := f.Name != nil
	if named {
		if sc.Name, err = d.text(f.Name); err != nil {
			return nil, false, err
		}
		if strings.TrimSpace(sc.Name) == "" || strings.ContainsAny(sc.Name, " \t\r\n") {
			return nil, false, d.failAt(f.Name, "%q is not a usable name; use one word such as \"setup\"", sc.Name)
		}
	}
	sc.Title = d.optText(f.Title, &err)
	sc.Description = d.optText(f.Description, &err)
	if err != nil {
		return nil, false, err
	}
	_, at := d.present(doc.node, []string{"agents"})
	switch {
	case len(at) == 0:
		return nil, false, d.fail(doc.node, "", `no "agents"; a scenario needs at least one agent with "id" and "steps"`)
	case f.Agents == nil || len(f.Agents.items) == 0:
		return nil, false, d.fail(at[0], `"agents"`, `is empty; a scenario needs at least one agent with "id" and "steps"`)
	}
	seen := make(map[string]int, len(f.Agents.items))
	for i, a := range f.Agents.items {
		s, err := d.script(&a)
		if err != nil {
			return nil, false, err
		}
		if first, dup := seen[s.Agent.ID]; dup {
			return nil, false, d.fail(a.v.ID, fmt.Sprintf("agent %d (id %q)", i+1, s.Agent.ID),
				"agent %d already has this id; agent ids must be unique within a scenario", first+1)
		}
		seen[s.Agent.ID] = i
		sc.Agents = append(sc.Agents, s)
	}
	return sc, named, nil
}

func (d *decoder) script(a *obj[agentDoc]) (Script, error) {
	var s Script
	var err error
	if a.v.ID == nil {
		return Script{}, d.failAt(a.node, `has no "id"; every agent needs a short unique "id" such as "scaffold"`)
	}
	if s.Agent.ID, err = d.text(a.v.ID); err != nil {
		return Script{}, err
	}
	if s.Agent.Name = d.optText(a.v.Name, &err); err != nil {
		return Script{}, err
	}
	switch {
	case strings.TrimSpace(s.Agent.ID) == "":
		return Script{}, d.failAt(a.v.ID, "is empty; every agent needs a short unique id")
	case len(s.Agent.ID) > interaction.MaxIDLen:
		return Script{}, d.failAt(a.v.ID, "is %d bytes, over the limit of %d", len(s.Agent.ID), interaction.MaxIDLen)
	case len(s.Agent.Name) > interaction.MaxIDLen:
		return Script{}, d.failAt(a.v.Name, "is %d bytes, over the limit of %d", len(s.Agent.Name), interaction.MaxIDLen)
	}
	if strings.TrimSpace(s.Agent.Name) == "" {
		s.Agent.Name = s.Agent.ID
	}
	place := fmt.Sprintf("agent %q", s.Agent.ID)
	_, at := d.present(a.node, []string{"steps"})
	switch {
	case len(at) == 0:
		return Script{}, d.fail(a.node, place, `has no "steps"; give it at least one step such as {say: "Hello"}`)
	case a.v.Steps == nil || len(a.v.Steps.items) == 0:
		return Script{}, d.fail(at[0], place+`: "steps"`, `is empty; give the agent at least one step such as {say: "Hello"}`)
	}
	scope := &agentScope{asked: make(map[string][]string)}
	s.Steps, err = d.steps(a.v.Steps.items, s.Agent, scope, 0)
	return s, err
}

// steps decodes a list of steps, nested depth when steps deep.
func (d *decoder) steps(list []obj[stepDoc], who interaction.Agent, scope *agentScope, depth int) ([]Step, error) {
	if depth > maxDepth/2 {
		return nil, d.failAt(list[0].node, "when steps nest more than %d deep", maxDepth/2)
	}
	out := make([]Step, 0, len(list))
	for _, s := range list {
		st, err := d.step(&s, who, scope, depth)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

func (d *decoder) step(s *obj[stepDoc], who interaction.Agent, scope *agentScope, depth int) (Step, error) {
	keys, at := d.present(s.node, actionKeys)
	switch len(keys) {
	case 0:
		return Step{}, d.failAt(s.node, "has no action; a step needs exactly one of %s", orList(actionKeys))
	case 1:
	default:
		return Step{}, d.fail(at[1], d.place(s.node), "has both %q and %q; a step has exactly one action, so put each in its own step",
			keys[0], keys[1])
	}
	line, _ := pos(at[0])
	st := Step{Kind: StepKind(keys[0]), Line: line}
	v := d.value(s.node, keys[0]) // null too, for its message
	if shape, ok := shapes[st.Kind]; ok && isNull(d.resolve(v)) {
		return Step{}, d.failAt(v, "must be a mapping with the keys %s, not nothing", orList(keysOf(shape)))
	}
	var err error
	switch st.Kind {
	case StepSay:
		if st.Text, err = d.text(v); err == nil {
			err = d.refs(v, st.Text, scope)
		}
	case StepWait:
		st.For, err = d.duration(v)
	case StepThink:
		err = d.think(&st, s.v.Think, v, scope)
	case StepTool:
		err = d.tool(&st, s.v.Tool, scope)
	case StepAsk:
		err = d.request(&st, s.v.Ask, who, scope)
	case StepWithdraw:
		w := &s.v.Withdraw.v
		switch {
		case w.Ask == nil:
			err = d.failAt(s.v.Withdraw.node, `has no "ask"; give the request to withdraw, as in {after: 4s, ask: {questions: [...]}}`)
		case w.After == nil:
			err = d.failAt(s.v.Withdraw.node, `has no "after"; say when to withdraw, as in {after: 4s, ask: {...}}`)
		default:
			if st.For, err = d.duration(w.After); err == nil {
				err = d.request(&st, w.Ask, who, scope)
			}
		}
	case StepWhen:
		err = d.when(&st, s.v.When, who, scope, depth)
	}
	return st, err
}

// think decodes `think: 2s` or `think: {for: 2s, text: "..."}`.
func (d *decoder) think(st *Step, t *orObj[thinkDoc], v ast.Node, scope *agentScope) error {
	var err error
	if t == nil || t.obj == nil {
		st.For, err = d.duration(v)
		return err
	}
	doc := &t.obj.v
	if doc.For == nil {
		return d.failAt(t.node, `has no "for"; say how long to think, as in {for: 2s, text: "Reading the code"}`)
	}
	if st.For, err = d.duration(doc.For); err != nil {
		return err
	}
	if st.Text = d.optText(doc.Text, &err); err != nil {
		return err
	}
	return d.refs(doc.Text, st.Text, scope)
}

func (d *decoder) tool(st *Step, t *obj[toolDoc], scope *agentScope) error {
	doc := &t.v
	var err error
	if doc.Name == nil {
		return d.failAt(t.node, `has no "name"; name the tool, as in {name: grep, args: {pattern: "TODO"}}`)
	}
	if st.Tool, err = d.text(doc.Name); err != nil {
		return err
	}
	if strings.TrimSpace(st.Tool) == "" {
		return d.failAt(doc.Name, "is empty; name the tool, as in \"grep\"")
	}
	if args := d.value(t.node, "args"); args != nil {
		if st.Args, err = d.args(args); err != nil {
			return err
		}
		if err := d.refs(args, st.Args, scope); err != nil {
			return err
		}
	}
	if doc.For != nil {
		if st.For, err = d.duration(doc.For); err != nil {
			return err
		}
	}
	if st.Result = d.optText(doc.Result, &err); err != nil {
		return err
	}
	if err := d.refs(doc.Result, st.Result, scope); err != nil {
		return err
	}
	if doc.Failed != nil {
		st.Failed, err = d.boolean(doc.Failed)
	}
	return err
}

// args returns tool arguments of any shape as compact JSON, keeping the
// order of mapping keys, as goccy's YAMLToJSON converts them.
func (d *decoder) args(n ast.Node) (string, error) {
	if d.ordered == nil {
		d.ordered = yaml.NewDecoder(bytes.NewReader(nil), yaml.UseOrderedMap())
		var all any // registers the file's anchors with this decoder
		if err := d.ordered.DecodeFromNode(d.body, &all); err != nil {
			return "", d.yamlError(err)
		}
	}
	var v any
	if err := d.ordered.DecodeFromNode(n, &v); err != nil {
		return "", d.yamlError(err)
	}
	b, err := appendJSON(nil, v, "", 0)
	var je *jsonError
	if errors.As(err, &je) {
		return "", d.fail(n, d.place(n)+je.path, "%s", je.msg)
	}
	return string(b), nil
}

// jsonError is a value of the tool arguments that JSON cannot hold; path
// says where it is in them, as in .key[2].
type jsonError struct{ path, msg string }

func (e *jsonError) Error() string { return e.path + ": " + e.msg }

// appendJSON appends v, a value decoded with ordered maps, as JSON.
func appendJSON(b []byte, v any, path string, depth int) ([]byte, error) {
	switch {
	case depth > maxDepth:
		return nil, &jsonError{path, fmt.Sprintf("nests more than %d deep", maxDepth)}
	case len(b) > MaxFileBytes:
		return nil, &jsonError{"", fmt.Sprintf("are over %d bytes once aliases are expanded", MaxFileBytes)}
	}
	var err error
	switch v := v.(type) {
	case yaml.MapSlice:
		b = append(b, '{')
		for i, item := range v {
			if i > 0 {
				b = append(b, ',')
			}
			key := fmt.Sprint(item.Key) // goccy gives every key as text
			b = append(jsonl.AppendString(b, key), ':')
			if b, err = appendJSON(b, item.Value, path+member(key), depth+1); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendJSON(b, e, fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case string:
		return jsonl.AppendString(b, v), nil
	case float64:
		switch {
		case math.IsNaN(v):
			return nil, &jsonError{path, ".nan cannot be written as JSON"}
		case math.IsInf(v, 1):
			return nil, &jsonError{path, ".inf cannot be written as JSON"}
		case math.IsInf(v, -1):
			return nil, &jsonError{path, "-.inf cannot be written as JSON"}
		}
		return strconv.AppendFloat(b, v, 'g', -1, 64), nil
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, &jsonError{path, fmt.Sprintf("%T cannot be written as JSON", v)}
	}
	return append(b, out...), nil
}

// request decodes an ask: its questions and autoplay keys.
func (d *decoder) request(st *Step, a *obj[askDoc], who interaction.Agent, scope *agentScope) error {
	_, at := d.present(a.node, []string{"questions"})
	if len(at) == 0 {
		return d.failAt(a.node, `has no "questions"; ask as in {questions: [{id: q1, question: "..."}]}`)
	}
	var err error
	if st.Keys, err = d.keys(a.v.Keys); err != nil {
		return err
	}
	var nodes []ast.Node
	if a.v.Questions != nil {
		for _, q := range a.v.Questions.items {
			question, err := d.question(&q)
			if err != nil {
				return err
			}
			st.Request.Questions = append(st.Request.Questions, question)
			nodes = append(nodes, q.node)
		}
	}
	req := st.Request
	req.Agent = &who
	if err := req.Validate(); err != nil {
		msg := err.Error()
		var ie *interaction.Error
		if errors.As(err, &ie) {
			msg = ie.Message
		}
		// Point at the first question that makes the request invalid.
		blame := d.value(a.node, "questions")
		for i := range req.Questions {
			prefix := interaction.Request{Questions: req.Questions[:i+1], Agent: req.Agent}
			if prefix.Validate() != nil {
				blame = nodes[i]
				break
			}
		}
		if isNull(d.resolve(blame)) {
			blame = at[0]
		}
		return d.fail(blame, d.place(a.node), "%s", msg)
	}
	for _, q := range st.Request.Questions {
		scope.add(q)
	}
	return nil
}

func (d *decoder) question(q *obj[questionDoc]) (interaction.Question, error) {
	doc := &q.v
	var out interaction.Question
	var err error
	out.ID = d.optText(doc.ID, &err)
	out.Question = d.optText(doc.Question, &err)
	out.Header = d.optText(doc.Header, &err)
	out.Detail = d.optText(doc.Detail, &err)
	for _, n := range []ast.Node{doc.MultiSelect, doc.MultiSelectSnake} {
		if n != nil && err == nil {
			var multi bool
			multi, err = d.boolean(n)
			out.MultiSelect = out.MultiSelect || multi
		}
	}
	if err != nil || doc.Options == nil {
		return out, err
	}
	for _, o := range doc.Options.items {
		if o.obj == nil { // a bare label
			label, _ := scalarText(d.resolve(o.node))
			out.Options = append(out.Options, interaction.Option{Label: label})
			continue
		}
		opt := &o.obj.v
		out.Options = append(out.Options, interaction.Option{
			Label: d.optText(opt.Label, &err), Description: d.optText(opt.Description, &err), Preview: d.optText(opt.Preview, &err),
		})
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

func (d *decoder) when(st *Step, w *obj[whenDoc], who interaction.Agent, scope *agentScope, depth int) error {
	tests, at := d.present(w.node, testKeys)
	if len(tests) > 1 {
		return d.fail(at[1], d.place(w.node), "has both %q and %q; test one thing per when step and nest another when for more",
			tests[0], tests[1])
	}
	if w.v.ID == nil {
		return d.failAt(w.node, `has no "id"; name the question to test, as in {id: db, label: "PostgreSQL", then: [...]}`)
	}
	var err error
	if st.When.ID, err = d.text(w.v.ID); err != nil {
		return err
	}
	labels, asked := scope.asked[st.When.ID]
	if !asked {
		return d.failAt(w.v.ID, "no earlier ask of agent %q has a question with id %q; %s", who.ID, st.When.ID, scope.known())
	}
	if len(tests) == 0 {
		return d.failAt(w.node, `has no condition; add one of "label", "custom", "skipped", "declined" or "withdrawn"`)
	}
	st.When.Match = Match(tests[0])
	if err := d.whenTest(&st.When, d.value(w.node, tests[0]), labels); err != nil {
		return err
	}
	if branches, _ := d.present(w.node, []string{"then", "else"}); len(branches) == 0 {
		return d.failAt(w.node, `has neither "then" nor "else"; give the steps to run`)
	}
	for _, b := range []struct {
		l    *list[obj[stepDoc]]
		into *[]Step
	}{{w.v.Then, &st.Then}, {w.v.Else, &st.Else}} {
		if b.l != nil && len(b.l.items) > 0 {
			if *b.into, err = d.steps(b.l.items, who, scope, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// whenTest decodes the test of a when step, c.Match, whose value is
// test, against the labels of the question's options.
func (d *decoder) whenTest(c *Condition, test ast.Node, labels []string) error {
	var err error
	switch c.Match {
	case MatchLabel:
		if c.Value, err = d.text(test); err != nil {
			return err
		}
		if !slices.Contains(labels, c.Value) {
			if len(labels) == 0 {
				return d.failAt(test, "question %q has no options; test its free text with \"custom\"", c.ID)
			}
			return d.failAt(test, "%q is not an option of question %q; its labels are %s",
				c.Value, c.ID, quoteAll(labels))
		}
	case MatchCustom:
		if b, ok := d.resolve(test).(*ast.BoolNode); ok {
			if !b.Value {
				return d.failAt(test, "custom: false matches nothing; use custom: true with \"else\"")
			}
			break
		}
		if c.Value, err = d.text(test); err != nil {
			return err
		}
		if c.Value == "" {
			return d.failAt(test, "is empty; use custom: true to match any custom text")
		}
	default: // skipped, declined, withdrawn
		b, err := d.boolean(test)
		if err != nil {
			return err
		}
		if !b {
			return d.failAt(test, "%s: false is not supported; use %s: true with \"else\"", c.Match, c.Match)
		}
	}
	return nil
}

// agentScope is what a when step may refer to: the questions the agent
// asked earlier in the file, by id, with the labels of their options.
type agentScope struct {
	asked map[string][]string
	order []string
}

func (s *agentScope) add(q interaction.Question) {
	if _, seen := s.asked[q.ID]; !seen {
		s.order = append(s.order, q.ID)
	}
	labels := s.asked[q.ID]
	for _, o := range q.Options {
		if !slices.Contains(labels, o.Label) {
			labels = append(labels, o.Label)
		}
	}
	s.asked[q.ID] = labels
}

// known lists the ids asked so far for a message.
func (s *agentScope) known() string {
	if len(s.order) == 0 {
		return "it has asked nothing before this step"
	}
	return "ids asked before this step: " + quoteAll(s.order)
}

// refs checks that every {{answer.ID}} in the text s of node n refers to
// a question asked earlier.
func (d *decoder) refs(n ast.Node, s string, scope *agentScope) error {
	for _, m := range answerRef().FindAllStringSubmatch(s, -1) {
		if _, ok := scope.asked[m[1]]; !ok {
			return d.failAt(n, "%s refers to question %q, which no earlier ask of this agent has; %s",
				m[0], m[1], scope.known())
		}
	}
	return nil
}

// keys checks autoplay keys.
func (d *decoder) keys(l *list[ast.Node]) ([]string, error) {
	if l == nil {
		return nil, nil
	}
	out := make([]string, 0, len(l.items))
	for _, k := range l.items {
		s, err := d.text(k)
		if err != nil {
			return nil, err
		}
		if err := CheckKey(s); err != nil {
			return nil, d.failAt(k, "%v", err)
		}
		out = append(out, s)
	}
	return out, nil
}

// orList formats allowed keys for a message: "say", "think" or "wait".
func orList(keys []string) string {
	q := quoteAll(keys)
	if i := strings.LastIndex(q, ", "); i >= 0 {
		return q[:i] + " or " + q[i+2:]
	}
	return q
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// inert escapes the control and bidirectional formatting characters in a
// message from the YAML parser, as %q would, so that no message replays
// what a file holds on the terminal that shows it.
func inert(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unsafeRune(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unsafeRune reports whether r must not reach a terminal as it is.
func unsafeRune(r rune) bool { return sanitize.IsControl(r) || sanitize.IsBidiControl(r) }

// member formats a key of tool arguments for a path in a message: .key
// for a plain word, else ["key"] quoted like every untrusted string.
func member(key string) string {
	if key != "" && strings.Trim(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == "" {
		return "." + key
	}
	return fmt.Sprintf("[%q]", key)
}

// suggest returns the candidate closest to s within two edits, or "".
func suggest(s string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		if dist := editDistance(strings.ToLower(s), strings.ToLower(c)); dist < bestDist {
			best, bestDist = c, dist
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
