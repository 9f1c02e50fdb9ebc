package script

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
	"github.com/asktui/asktui/internal/sanitize"
)

// A scenario file is decoded in two passes. goccy/go-yaml parses it and
// decodes each mapping into one of the structs below, refusing unknown
// keys (DisallowUnknownField) and resolving anchors and aliases; the
// fields stay syntax nodes, so that the semantic pass can read each value
// in the form it allows and name the agent, step, field and line of every
// mistake.

// Bounds on what the file's aliases may expand to, on top of MaxNesting.
const (
	maxDepth   = 64     // nesting of when steps (half this) and of tool arguments
	maxAliases = 10_000 // alias expansions per file
)

// The shape of each mapping in a scenario file. A null value counts as
// absent unless the key is listed as nullable where the mapping is
// decoded.
type (
	fileDoc struct {
		Name        ast.Node `yaml:"name"`
		Title       ast.Node `yaml:"title"`
		Description ast.Node `yaml:"description"`
		Agents      ast.Node `yaml:"agents"`
	}
	agentDoc struct {
		ID    ast.Node `yaml:"id"`
		Name  ast.Node `yaml:"name"`
		Steps ast.Node `yaml:"steps"`
	}
	stepDoc struct {
		Say      ast.Node `yaml:"say"`
		Think    ast.Node `yaml:"think"`
		Tool     ast.Node `yaml:"tool"`
		Ask      ast.Node `yaml:"ask"`
		When     ast.Node `yaml:"when"`
		Withdraw ast.Node `yaml:"withdraw"`
		Wait     ast.Node `yaml:"wait"`
	}
	thinkDoc struct {
		For  ast.Node `yaml:"for"`
		Text ast.Node `yaml:"text"`
	}
	toolDoc struct {
		Name   ast.Node `yaml:"name"`
		Args   ast.Node `yaml:"args"`
		For    ast.Node `yaml:"for"`
		Result ast.Node `yaml:"result"`
		Failed ast.Node `yaml:"failed"`
	}
	askDoc struct {
		Questions ast.Node `yaml:"questions"`
		Keys      ast.Node `yaml:"keys"`
	}
	questionDoc struct {
		ID               ast.Node `yaml:"id"`
		Question         ast.Node `yaml:"question"`
		Header           ast.Node `yaml:"header"`
		Detail           ast.Node `yaml:"detail"`
		Options          ast.Node `yaml:"options"`
		MultiSelect      ast.Node `yaml:"multiSelect"`
		MultiSelectSnake ast.Node `yaml:"multi_select"`
	}
	optionDoc struct {
		Label       ast.Node `yaml:"label"`
		Description ast.Node `yaml:"description"`
		Preview     ast.Node `yaml:"preview"`
	}
	whenDoc struct {
		ID        ast.Node `yaml:"id"`
		Label     ast.Node `yaml:"label"`
		Custom    ast.Node `yaml:"custom"`
		Skipped   ast.Node `yaml:"skipped"`
		Declined  ast.Node `yaml:"declined"`
		Withdrawn ast.Node `yaml:"withdrawn"`
		Then      ast.Node `yaml:"then"`
		Else      ast.Node `yaml:"else"`
	}
	withdrawDoc struct {
		After ast.Node `yaml:"after"`
		Ask   ast.Node `yaml:"ask"`
	}
)

// The keys of a step that name its action, and of a when step that name
// its test, in the order messages list them.
var (
	actionKeys = keysOf(stepDoc{})
	testKeys   = []string{"label", "custom", "skipped", "declined", "withdrawn"}
)

// answerRef matches a reference to a remembered answer in text.
var answerRef = regexp.MustCompile(`\{\{\s*answer\.([^{}\s]+)\s*\}\}`)

// decoder decodes one scenario file.
type decoder struct {
	label   string
	anchors map[string]ast.Node // by name; a later anchor of a name wins
	body    ast.Node            // the document, the scope of its anchors
	strict  *yaml.Decoder       // into the structs, refusing unknown keys
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
	body := docs[0].Body
	d.body = body
	for _, n := range ast.Filter(ast.AnchorType, body) {
		if a := n.(*ast.AnchorNode); a.Name != nil {
			d.anchors[a.Name.GetToken().Value] = a.Value
		}
	}
	if err := d.checkAliases(body); err != nil {
		return nil, false, err
	}
	for _, n := range ast.Filter(ast.MappingValueType, body) {
		if k := n.(*ast.MappingValueNode).Key; k.IsMergeKey() {
			return nil, false, d.failAt(k, "merge keys (<<) are not supported; write the keys out")
		}
	}
	d.strict = yaml.NewDecoder(bytes.NewReader(nil), yaml.DisallowUnknownField())
	var all any // registers every anchor with the decoder, and checks tags
	if err := d.strict.DecodeFromNode(body, &all); err != nil {
		return nil, false, d.yamlError(err)
	}
	return d.scenario(body)
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
// position, naming the place there.
func (d *decoder) yamlError(err error) *ParseError {
	e := &ParseError{Scenario: d.label, Err: err, Msg: "invalid YAML: " + inert(err.Error())}
	var ye yaml.Error
	if errors.As(err, &ye) {
		e.Msg = "invalid YAML: " + inert(ye.GetMessage())
		if tk := ye.GetToken(); tk != nil && tk.Position != nil {
			e.Line, e.Column = tk.Position.Line, tk.Position.Column
			if where := d.placeAt(e.Line, e.Column); where != "" {
				e.Msg = where + ": " + e.Msg
			}
		}
	}
	return e
}

// failAt is fail for the checks of the whole file, which know a node but
// not its place: placeAt finds it.
func (d *decoder) failAt(n ast.Node, format string, args ...any) *ParseError {
	return d.fail(n, d.placeAt(pos(n)), format, args...)
}

// placeAt names the place in the scenario at a position, as the semantic
// pass names it, down to the key of a step's action: "agent 1", or
// `agent "a" step 2 (when) then step 1 (tool): "args"`.
func (d *decoder) placeAt(line, col int) string {
	if d.body == nil || line == 0 {
		return ""
	}
	// child returns the entry of the mapping or list n that starts last
	// at or before the position, with its key or index.
	child := func(n ast.Node) (key string, index int, v ast.Node) {
		before := func(n ast.Node) bool { l, c := pos(n); return l > 0 && (l < line || l == line && c <= col) }
		for n != nil && (n.Type() == ast.AnchorType || n.Type() == ast.TagType) {
			n = d.resolve(n)
		}
		if seq, ok := n.(*ast.SequenceNode); ok {
			for i, e := range seq.Values {
				if before(e) {
					index, v = i, e
				}
			}
			return "", index, v
		}
		for _, p := range pairs(n) {
			if before(p.Key) {
				key, _ = scalarText(d.resolve(p.Key))
				v = p.Value
			}
		}
		return key, 0, v
	}
	field := func(where, key string) string {
		if key == "" {
			return where
		}
		return where + ": " + strconv.Quote(key)
	}
	key, _, agents := child(d.body)
	if key != "agents" {
		return field("", key)[min(2, len(field("", key))):]
	}
	_, i, agent := child(agents)
	if agent == nil {
		return `"agents"`
	}
	where := fmt.Sprintf("agent %d", i+1)
	key, _, steps := child(agent)
	if key != "steps" {
		return field(where, key)
	}
	for _, p := range pairs(d.resolve(agent)) {
		if k, _ := scalarText(d.resolve(p.Key)); k == "id" {
			if id, ok := scalarText(d.resolve(p.Value)); ok {
				where = fmt.Sprintf("agent %q", id)
			}
		}
	}
	for {
		_, j, step := child(steps)
		if step == nil {
			return where
		}
		kind, _, body := child(step)
		where += fmt.Sprintf(" step %d", j+1)
		if kind == "" {
			return where
		}
		where += " (" + kind + ")"
		key, _, branch := child(body)
		if kind != "when" || key != "then" && key != "else" {
			return field(where, key)
		}
		where, steps = where+" "+key, branch
	}
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
// value. checkAliases has made sure every alias leads somewhere.
func (d *decoder) resolve(n ast.Node) ast.Node {
	for {
		switch v := n.(type) {
		case *ast.AnchorNode:
			n = v.Value
		case *ast.TagNode:
			n = v.Value
		case *ast.AliasNode:
			n = d.anchors[v.Value.GetToken().Value]
		default:
			return n
		}
	}
}

// decode decodes the mapping n into the struct *v. where names the place;
// the keys listed as nullable may be null, and any other key must have a
// value. Every key must be text and a field of v, and merge keys (<<) are
// refused.
func (d *decoder) decode(n ast.Node, where string, v any, nullable ...string) error {
	allowed := keysOf(v)
	m := d.resolve(n)
	if !isMapping(m) {
		return d.fail(n, where, "must be a mapping with the keys %s, not %s", list(allowed), kind(m))
	}
	for _, p := range pairs(m) {
		key, ok := scalarText(d.resolve(p.Key))
		switch {
		case !ok:
			return d.fail(p.Key, where, "keys must be text, not %s", kind(d.resolve(p.Key)))
		case !slices.Contains(allowed, key):
			return d.unknownKey(p.Key, key, where, allowed)
		}
	}
	if err := d.strict.DecodeFromNode(n, v); err != nil {
		return d.yamlError(err)
	}
	for _, p := range pairs(m) {
		if key, _ := scalarText(d.resolve(p.Key)); !slices.Contains(nullable, key) && isNull(d.resolve(p.Value)) {
			return d.fail(p.Value, fmt.Sprintf("%s: %q", where, key), "is empty; give it a value or leave the key out")
		}
	}
	return nil
}

// unknownKey reports a key outside allowed, suggesting a near miss.
func (d *decoder) unknownKey(n ast.Node, key, where string, allowed []string) *ParseError {
	msg := fmt.Sprintf("unknown key %q", key)
	if s := suggest(key, allowed); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return d.fail(n, where, "%s; the keys here are %s", msg, list(allowed))
}

// keysOf returns the yaml keys of the struct *v or v, in field order.
func keysOf(v any) []string {
	t := reflect.TypeOf(v)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i] = t.Field(i).Tag.Get("yaml")
	}
	return keys
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

// keyNode returns the key node of key in the mapping n, or n.
func (d *decoder) keyNode(n ast.Node, key string) ast.Node {
	if _, at := d.present(n, []string{key}); len(at) > 0 {
		return at[0]
	}
	return n
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

func isMapping(n ast.Node) bool {
	_, m := n.(*ast.MappingNode)
	_, mv := n.(*ast.MappingValueNode)
	return m || mv
}

func isNull(n ast.Node) bool { _, null := n.(*ast.NullNode); return null }

// text returns the scalar n as text. Numbers and booleans count as text,
// spelled as in the file, so `label: 2` or `label: true` mean what they
// say.
func (d *decoder) text(n ast.Node, where string) (string, error) {
	r := d.resolve(n)
	if s, ok := scalarText(r); ok {
		return s, nil
	}
	if isNull(r) {
		return "", d.fail(n, where, "is empty; write some text")
	}
	return "", d.fail(n, where, "must be text, not %s", kind(r))
}

// optText is text for an optional field: "" when n is absent.
func (d *decoder) optText(n ast.Node, where string, err *error) string {
	if n == nil || *err != nil {
		return ""
	}
	s, e := d.text(n, where)
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
func (d *decoder) boolean(n ast.Node, where string) (bool, error) {
	if b, ok := d.resolve(n).(*ast.BoolNode); ok {
		return b.Value, nil
	}
	return false, d.fail(n, where, "must be true or false, not %s", kind(d.resolve(n)))
}

// duration returns the Go duration string n, which must not be negative.
func (d *decoder) duration(n ast.Node, where string) (time.Duration, error) {
	r := d.resolve(n)
	s, ok := scalarText(r)
	if !ok {
		return 0, d.fail(n, where, "must be a duration such as \"1.5s\" or \"800ms\", not %s", kind(r))
	}
	dur, err := time.ParseDuration(s)
	if err != nil {
		hint := `use a Go duration such as "1.5s" or "800ms"`
		switch r.(type) {
		case *ast.IntegerNode, *ast.FloatNode:
			hint = fmt.Sprintf("add a unit, as in \"%ss\"", s)
		}
		return 0, d.fail(n, where, "invalid duration %q; %s", s, hint)
	}
	if dur < 0 {
		return 0, d.fail(n, where, "duration %q is negative", s)
	}
	return dur, nil
}

// sequence returns the entries of the list n; null is an empty list.
func (d *decoder) sequence(n ast.Node, where, of string) ([]ast.Node, error) {
	switch v := d.resolve(n).(type) {
	case *ast.SequenceNode:
		return v.Values, nil
	case *ast.NullNode, nil:
		return nil, nil
	}
	return nil, d.fail(n, where, "must be a list of %s, not %s", of, kind(d.resolve(n)))
}

// kind names the type of a resolved node for messages.
func kind(n ast.Node) string {
	switch n.(type) {
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

func (d *decoder) scenario(body ast.Node) (*Scenario, bool, error) {
	var doc fileDoc
	if err := d.decodeTop(body, &doc); err != nil {
		return nil, false, err
	}
	var err error
	sc := &Scenario{Name: d.label}
	named := doc.Name != nil
	if named {
		if sc.Name, err = d.text(doc.Name, `"name"`); err != nil {
			return nil, false, err
		}
		if strings.TrimSpace(sc.Name) == "" || strings.ContainsAny(sc.Name, " \t\r\n") {
			return nil, false, d.fail(doc.Name, `"name"`, "%q is not a usable name; use one word such as \"setup\"", sc.Name)
		}
	}
	sc.Title = d.optText(doc.Title, `"title"`, &err)
	sc.Description = d.optText(doc.Description, `"description"`, &err)
	if err != nil {
		return nil, false, err
	}
	if _, at := d.present(body, []string{"agents"}); len(at) == 0 {
		return nil, false, d.fail(body, "", `no "agents"; a scenario needs at least one agent with "id" and "steps"`)
	}
	nodes, err := d.sequence(doc.Agents, `"agents"`, "agents")
	if err != nil {
		return nil, false, err
	}
	if len(nodes) == 0 {
		return nil, false, d.fail(d.keyNode(body, "agents"), `"agents"`, `is empty; a scenario needs at least one agent with "id" and "steps"`)
	}
	seen := make(map[string]int, len(nodes))
	for i, n := range nodes {
		s, idNode, err := d.script(i, n)
		if err != nil {
			return nil, false, err
		}
		if first, dup := seen[s.Agent.ID]; dup {
			return nil, false, d.fail(idNode, fmt.Sprintf("agent %d (id %q)", i+1, s.Agent.ID),
				"agent %d already has this id; agent ids must be unique within a scenario", first+1)
		}
		seen[s.Agent.ID] = i
		sc.Agents = append(sc.Agents, s)
	}
	return sc, named, nil
}

// decodeTop decodes the top level, where keys starting with "x-" are free
// for the author (to hold anchors that steps refer to, say).
func (d *decoder) decodeTop(body ast.Node, doc *fileDoc) error {
	m, ok := d.resolve(body).(*ast.MappingNode)
	if !ok {
		return d.decode(body, "the top level", doc, "agents")
	}
	own := *m
	own.Values = slices.DeleteFunc(slices.Clone(m.Values), func(p *ast.MappingValueNode) bool {
		key, ok := scalarText(d.resolve(p.Key))
		return ok && strings.HasPrefix(key, "x-")
	})
	err := d.decode(&own, "the top level", doc, "agents")
	if pe, ok := err.(*ParseError); ok && strings.Contains(pe.Msg, "unknown key") {
		pe.Msg += ` (keys starting with "x-" are free for your own use, such as anchors)`
	}
	return err
}

func (d *decoder) script(i int, n ast.Node) (Script, ast.Node, error) {
	place := fmt.Sprintf("agent %d", i+1)
	var doc agentDoc
	if err := d.decode(n, place, &doc, "steps"); err != nil {
		return Script{}, nil, err
	}
	var s Script
	var err error
	if doc.ID == nil {
		return Script{}, nil, d.fail(n, place, `has no "id"; every agent needs a short unique "id" such as "scaffold"`)
	}
	if s.Agent.ID, err = d.text(doc.ID, place+`: "id"`); err != nil {
		return Script{}, nil, err
	}
	if s.Agent.Name = d.optText(doc.Name, place+`: "name"`, &err); err != nil {
		return Script{}, nil, err
	}
	switch {
	case strings.TrimSpace(s.Agent.ID) == "":
		return Script{}, nil, d.fail(doc.ID, place+`: "id"`, "is empty; every agent needs a short unique id")
	case len(s.Agent.ID) > interaction.MaxIDLen:
		return Script{}, nil, d.fail(doc.ID, place+`: "id"`, "is %d bytes, over the limit of %d", len(s.Agent.ID), interaction.MaxIDLen)
	case len(s.Agent.Name) > interaction.MaxIDLen:
		return Script{}, nil, d.fail(n, place+`: "name"`, "is %d bytes, over the limit of %d", len(s.Agent.Name), interaction.MaxIDLen)
	}
	if strings.TrimSpace(s.Agent.Name) == "" {
		s.Agent.Name = s.Agent.ID
	}
	place = fmt.Sprintf("agent %q", s.Agent.ID)
	if _, at := d.present(n, []string{"steps"}); len(at) == 0 {
		return Script{}, nil, d.fail(n, place, `has no "steps"; give it at least one step such as {say: "Hello"}`)
	}
	nodes, err := d.sequence(doc.Steps, place+`: "steps"`, "steps")
	if err != nil {
		return Script{}, nil, err
	}
	if len(nodes) == 0 {
		return Script{}, nil, d.fail(d.keyNode(n, "steps"), place+`: "steps"`, `is empty; give the agent at least one step such as {say: "Hello"}`)
	}
	scope := &agentScope{asked: make(map[string][]string)}
	s.Steps, err = d.steps(nodes, place, s.Agent, scope, 0)
	if err != nil {
		return Script{}, nil, err
	}
	return s, doc.ID, nil
}

// steps decodes a list of steps. place names the list's owner, as in
// `agent "scaffold"` or `agent "scaffold" step 4 (when) then`.
func (d *decoder) steps(nodes []ast.Node, place string, who interaction.Agent, scope *agentScope, depth int) ([]Step, error) {
	if depth > maxDepth/2 {
		return nil, d.fail(nodes[0], place, "when steps nest more than %d deep", maxDepth/2)
	}
	out := make([]Step, 0, len(nodes))
	for i, n := range nodes {
		st, err := d.step(n, fmt.Sprintf("%s step %d", place, i+1), who, scope, depth)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

func (d *decoder) step(n ast.Node, place string, who interaction.Agent, scope *agentScope, depth int) (Step, error) {
	if err := d.decode(n, place, &stepDoc{}, actionKeys...); err != nil {
		return Step{}, err
	}
	keys, at := d.present(n, actionKeys)
	switch len(keys) {
	case 0:
		return Step{}, d.fail(n, place, "has no action; a step needs exactly one of %s", list(actionKeys))
	case 1:
	default:
		return Step{}, d.fail(at[1], place, "has both %q and %q; a step has exactly one action, so put each in its own step",
			keys[0], keys[1])
	}
	line, _ := pos(at[0])
	st := Step{Kind: StepKind(keys[0]), Line: line}
	place = fmt.Sprintf("%s (%s)", place, keys[0])
	v := d.value(n, keys[0]) // null too, for its message
	var err error
	switch st.Kind {
	case StepSay:
		if st.Text, err = d.text(v, place); err == nil {
			err = d.refs(v, place, st.Text, scope)
		}
	case StepWait:
		st.For, err = d.duration(v, place)
	case StepThink:
		err = d.think(&st, v, place, scope)
	case StepTool:
		err = d.tool(&st, v, place, scope)
	case StepAsk:
		err = d.request(&st, v, place, who, scope)
	case StepWithdraw:
		err = d.withdraw(&st, v, place, who, scope)
	case StepWhen:
		err = d.when(&st, v, place, who, scope, depth)
	}
	if err != nil {
		return Step{}, err
	}
	return st, nil
}

// think decodes `think: 2s` or `think: {for: 2s, text: "..."}`.
func (d *decoder) think(st *Step, v ast.Node, place string, scope *agentScope) error {
	var err error
	if _, ok := scalarText(d.resolve(v)); ok {
		st.For, err = d.duration(v, place)
		return err
	}
	var doc thinkDoc
	if err := d.decode(v, place, &doc); err != nil {
		return err
	}
	if doc.For == nil {
		return d.fail(v, place, `has no "for"; say how long to think, as in {for: 2s, text: "Reading the code"}`)
	}
	if st.For, err = d.duration(doc.For, place+`: "for"`); err != nil {
		return err
	}
	if st.Text = d.optText(doc.Text, place+`: "text"`, &err); err != nil {
		return err
	}
	return d.refs(doc.Text, place+`: "text"`, st.Text, scope)
}

func (d *decoder) tool(st *Step, v ast.Node, place string, scope *agentScope) error {
	var doc toolDoc
	if err := d.decode(v, place, &doc, "args"); err != nil {
		return err
	}
	var err error
	if doc.Name == nil {
		return d.fail(v, place, `has no "name"; name the tool, as in {name: grep, args: {pattern: "TODO"}}`)
	}
	if st.Tool, err = d.text(doc.Name, place+`: "name"`); err != nil {
		return err
	}
	if strings.TrimSpace(st.Tool) == "" {
		return d.fail(doc.Name, place+`: "name"`, "is empty; name the tool, as in \"grep\"")
	}
	if _, at := d.present(v, []string{"args"}); len(at) > 0 {
		if st.Args, err = d.args(doc.Args, place+`: "args"`); err != nil {
			return err
		}
		if err := d.refs(doc.Args, place+`: "args"`, st.Args, scope); err != nil {
			return err
		}
	}
	if doc.For != nil {
		if st.For, err = d.duration(doc.For, place+`: "for"`); err != nil {
			return err
		}
	}
	if st.Result = d.optText(doc.Result, place+`: "result"`, &err); err != nil {
		return err
	}
	if err := d.refs(doc.Result, place+`: "result"`, st.Result, scope); err != nil {
		return err
	}
	if doc.Failed != nil {
		st.Failed, err = d.boolean(doc.Failed, place+`: "failed"`)
	}
	return err
}

// args returns tool arguments of any shape as compact JSON, keeping the
// order of mapping keys. Null is JSON null.
func (d *decoder) args(n ast.Node, where string) (string, error) {
	if n == nil {
		return "null", nil
	}
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
		return "", d.fail(n, where+je.path, "%s", je.msg)
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

// request decodes the body of an ask: its questions and autoplay keys.
func (d *decoder) request(st *Step, v ast.Node, place string, who interaction.Agent, scope *agentScope) error {
	var doc askDoc
	if err := d.decode(v, place, &doc, "questions", "keys"); err != nil {
		return err
	}
	if _, at := d.present(v, []string{"questions"}); len(at) == 0 {
		return d.fail(v, place, `has no "questions"; ask as in {questions: [{id: q1, question: "..."}]}`)
	}
	var err error
	if doc.Keys != nil {
		if st.Keys, err = d.keys(doc.Keys, place+`: "keys"`); err != nil {
			return err
		}
	}
	nodes, err := d.sequence(doc.Questions, place+`: "questions"`, "questions")
	if err != nil {
		return err
	}
	for i, n := range nodes {
		q, err := d.question(n, fmt.Sprintf("%s: question %d", place, i+1))
		if err != nil {
			return err
		}
		st.Request.Questions = append(st.Request.Questions, q)
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
		at := doc.Questions
		for i := range req.Questions {
			prefix := interaction.Request{Questions: req.Questions[:i+1], Agent: req.Agent}
			if prefix.Validate() != nil {
				at = nodes[i]
				break
			}
		}
		if at == nil {
			at = d.keyNode(v, "questions")
		}
		return d.fail(at, place, "%s", msg)
	}
	for _, q := range st.Request.Questions {
		scope.add(q)
	}
	return nil
}

func (d *decoder) question(n ast.Node, place string) (interaction.Question, error) {
	var doc questionDoc
	if err := d.decode(n, place, &doc, "options"); err != nil {
		return interaction.Question{}, err
	}
	var q interaction.Question
	var err error
	q.ID = d.optText(doc.ID, place+`: "id"`, &err)
	q.Question = d.optText(doc.Question, place+`: "question"`, &err)
	q.Header = d.optText(doc.Header, place+`: "header"`, &err)
	q.Detail = d.optText(doc.Detail, place+`: "detail"`, &err)
	for i, b := range []ast.Node{doc.MultiSelect, doc.MultiSelectSnake} {
		if b != nil && err == nil {
			var multi bool
			multi, err = d.boolean(b, fmt.Sprintf("%s: %q", place, []string{"multiSelect", "multi_select"}[i]))
			q.MultiSelect = q.MultiSelect || multi
		}
	}
	if err != nil {
		return interaction.Question{}, err
	}
	where := place + `: "options"`
	nodes, err := d.sequence(doc.Options, where, "options")
	if err != nil {
		return interaction.Question{}, err
	}
	for j, o := range nodes {
		opt, err := d.option(o, fmt.Sprintf("%s: option %d", where, j+1))
		if err != nil {
			return interaction.Question{}, err
		}
		q.Options = append(q.Options, opt)
	}
	return q, nil
}

// option decodes {label, description, preview}, or a bare label.
func (d *decoder) option(n ast.Node, place string) (interaction.Option, error) {
	if s, ok := scalarText(d.resolve(n)); ok {
		return interaction.Option{Label: s}, nil
	}
	var doc optionDoc
	if err := d.decode(n, place, &doc); err != nil {
		return interaction.Option{}, err
	}
	var o interaction.Option
	var err error
	o.Label = d.optText(doc.Label, place+`: "label"`, &err)
	o.Description = d.optText(doc.Description, place+`: "description"`, &err)
	o.Preview = d.optText(doc.Preview, place+`: "preview"`, &err)
	return o, err
}

func (d *decoder) withdraw(st *Step, v ast.Node, place string, who interaction.Agent, scope *agentScope) error {
	var doc withdrawDoc
	if err := d.decode(v, place, &doc); err != nil {
		return err
	}
	switch {
	case doc.Ask == nil:
		return d.fail(v, place, `has no "ask"; give the request to withdraw, as in {after: 4s, ask: {questions: [...]}}`)
	case doc.After == nil:
		return d.fail(v, place, `has no "after"; say when to withdraw, as in {after: 4s, ask: {...}}`)
	}
	var err error
	if st.For, err = d.duration(doc.After, place+`: "after"`); err != nil {
		return err
	}
	return d.request(st, doc.Ask, place+`: "ask"`, who, scope)
}

func (d *decoder) when(st *Step, v ast.Node, place string, who interaction.Agent, scope *agentScope, depth int) error {
	var doc whenDoc
	if err := d.decode(v, place, &doc, append([]string{"then", "else"}, testKeys...)...); err != nil {
		return err
	}
	tests, at := d.present(v, testKeys)
	if len(tests) > 1 {
		return d.fail(at[1], place, "has both %q and %q; test one thing per when step and nest another when for more",
			tests[0], tests[1])
	}
	if doc.ID == nil {
		return d.fail(v, place, `has no "id"; name the question to test, as in {id: db, label: "PostgreSQL", then: [...]}`)
	}
	where := place + `: "id"`
	var err error
	if st.When.ID, err = d.text(doc.ID, where); err != nil {
		return err
	}
	labels, asked := scope.asked[st.When.ID]
	if !asked {
		return d.fail(doc.ID, where, "no earlier ask of agent %q has a question with id %q; %s",
			who.ID, st.When.ID, scope.known())
	}
	if len(tests) == 0 {
		return d.fail(v, place, `has no condition; add one of "label", "custom", "skipped", "declined" or "withdrawn"`)
	}
	where = fmt.Sprintf("%s: %q", place, tests[0])
	st.When.Match = Match(tests[0])
	test := d.value(v, tests[0])
	switch st.When.Match {
	case MatchLabel:
		if st.When.Value, err = d.text(test, where); err != nil {
			return err
		}
		if !slices.Contains(labels, st.When.Value) {
			if len(labels) == 0 {
				return d.fail(test, where, "question %q has no options; test its free text with \"custom\"", st.When.ID)
			}
			return d.fail(test, where, "%q is not an option of question %q; its labels are %s",
				st.When.Value, st.When.ID, quoteAll(labels))
		}
	case MatchCustom:
		if b, ok := d.resolve(test).(*ast.BoolNode); ok {
			if !b.Value {
				return d.fail(test, where, "custom: false matches nothing; use custom: true with \"else\"")
			}
			break
		}
		if st.When.Value, err = d.text(test, where); err != nil {
			return err
		}
		if st.When.Value == "" {
			return d.fail(test, where, "is empty; use custom: true to match any custom text")
		}
	default: // skipped, declined, withdrawn
		b, err := d.boolean(test, where)
		if err != nil {
			return err
		}
		if !b {
			return d.fail(test, where, "%s: false is not supported; use %s: true with \"else\"", tests[0], tests[0])
		}
	}
	branches, _ := d.present(v, []string{"then", "else"})
	if len(branches) == 0 {
		return d.fail(v, place, `has neither "then" nor "else"; give the steps to run`)
	}
	for _, b := range branches {
		n, into := doc.Then, &st.Then
		if b == "else" {
			n, into = doc.Else, &st.Else
		}
		nodes, err := d.sequence(n, fmt.Sprintf("%s: %q", place, b), "steps")
		if err != nil || len(nodes) == 0 {
			if err != nil {
				return err
			}
			continue
		}
		if *into, err = d.steps(nodes, place+" "+b, who, scope, depth+1); err != nil {
			return err
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

// refs checks that every {{answer.ID}} in s refers to a question asked
// earlier.
func (d *decoder) refs(n ast.Node, where, s string, scope *agentScope) error {
	for _, m := range answerRef.FindAllStringSubmatch(s, -1) {
		if _, ok := scope.asked[m[1]]; !ok {
			return d.fail(n, where, "%s refers to question %q, which no earlier ask of this agent has; %s",
				m[0], m[1], scope.known())
		}
	}
	return nil
}

// keys decodes autoplay keys.
func (d *decoder) keys(n ast.Node, where string) ([]string, error) {
	nodes, err := d.sequence(n, where, `keys such as ["down", "enter"]`)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(nodes))
	for i, k := range nodes {
		at := fmt.Sprintf("%s: key %d", where, i+1)
		s, err := d.text(k, at)
		if err != nil {
			return nil, err
		}
		if err := CheckKey(s); err != nil {
			return nil, d.fail(k, at, "%v", err)
		}
		out = append(out, s)
	}
	return out, nil
}

// list formats allowed keys for a message: "say", "think" or "wait".
func list(keys []string) string {
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
