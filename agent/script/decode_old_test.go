// The decoder that walked goccy's syntax tree by hand, kept to test the
// new one against (FuzzDecodersAgree).

package script

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
)

// The scenario file is decoded by walking goccy's syntax tree rather than
// by unmarshalling into structs, so that every message can name the agent,
// step and oldField it is about and the line it is on.

// Keys allowed at each level, in the order messages list them.
var (
	oldTopKeys      = []string{"name", "title", "description", "agents"}
	oldAgentKeys    = []string{"id", "name", "steps"}
	oldActionKeys   = []string{"say", "think", "tool", "ask", "when", "withdraw", "wait"}
	oldThinkKeys    = []string{"for", "text"}
	oldToolKeys     = []string{"name", "args", "for", "result", "failed"}
	oldAskKeys      = []string{"questions", "keys"}
	oldQuestionKeys = []string{"id", "question", "header", "detail", "options", "multiSelect", "multi_select"}
	oldOptionKeys   = []string{"label", "description", "preview"}
	oldWhenKeys     = []string{"id", "label", "custom", "skipped", "declined", "withdrawn", "then", "else"}
	oldWithdrawKeys = []string{"after", "ask"}
)

// decoder walks one scenario file.
type oldDecoder struct {
	label   string
	anchors map[string]ast.Node
	aliases int
}

// parse decodes a scenario; named reports whether the file set a name.
func parseOld(label string, data []byte) (sc *Scenario, named bool, err error) {
	if err := checkBounds(label, data); err != nil {
		return nil, false, err
	}
	d := &oldDecoder{label: label}
	file, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, false, d.syntaxError(err)
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
	d.anchors = make(map[string]ast.Node)
	for _, n := range ast.Filter(ast.AnchorType, body) {
		a := n.(*ast.AnchorNode)
		if a.Name != nil {
			d.anchors[a.Name.GetToken().Value] = a.Value
		}
	}
	sc, named, err = d.scenario(body)
	if err != nil {
		return nil, false, err
	}
	return sc, named, nil
}

// syntaxError wraps a YAML syntax error with its position.
func (d *oldDecoder) syntaxError(err error) *ParseError {
	e := &ParseError{Scenario: d.label, Err: err}
	var ye yaml.Error
	if errors.As(err, &ye) {
		e.Msg = "invalid YAML: " + inert(ye.GetMessage())
		if tk := ye.GetToken(); tk != nil && tk.Position != nil {
			e.Line, e.Column = tk.Position.Line, tk.Position.Column
		}
		return e
	}
	e.Msg = "invalid YAML: " + inert(err.Error())
	return e
}

// fail returns a *ParseError at node n (which may be nil). where names the
// place, as in `agent "scaffold" step 3 (tool): "for"`.
func (d *oldDecoder) fail(n ast.Node, where, format string, args ...any) *ParseError {
	line, col := pos(n)
	msg := fmt.Sprintf(format, args...)
	if where != "" {
		msg = where + ": " + msg
	}
	return &ParseError{Scenario: d.label, Line: line, Column: col, Msg: msg}
}

// resolve follows anchors, aliases and tags to the node that holds the
// value.
func (d *oldDecoder) resolve(n ast.Node, where string) (ast.Node, error) {
	for range maxDepth {
		switch v := n.(type) {
		case *ast.AnchorNode:
			n = v.Value
		case *ast.TagNode:
			n = v.Value
		case *ast.AliasNode:
			d.aliases++
			if d.aliases > maxAliases {
				return nil, d.fail(n, where, "more than %d alias expansions; the file is too repetitive", maxAliases)
			}
			name := ""
			if v.Value != nil {
				name = v.Value.GetToken().Value
			}
			target, ok := d.anchors[name]
			if !ok {
				return nil, d.fail(n, where, "alias %q refers to no anchor %q", "*"+name, "&"+name)
			}
			n = target
		default:
			return n, nil
		}
	}
	return nil, d.fail(n, where, "anchors and aliases nest too deeply")
}

// oldField is one key of a mapping.
type oldField struct {
	key   string
	node  ast.Node // the key, for positions
	value ast.Node
}

// fields returns the keys of the mapping n, refusing keys outside allowed.
func (d *oldDecoder) fields(n ast.Node, where string, allowed []string) ([]oldField, error) {
	fs, err := d.mapping(n, where, allowed)
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if !slices.Contains(allowed, f.key) {
			return nil, d.unknownKey(f, where, allowed)
		}
	}
	return fs, nil
}

// unknownKey reports a key outside allowed, suggesting a near miss.
func (d *oldDecoder) unknownKey(f oldField, where string, allowed []string) *ParseError {
	msg := fmt.Sprintf("unknown key %q", f.key)
	if s := suggest(f.key, allowed); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return d.fail(f.node, where, "%s; the keys here are %s", msg, list(allowed))
}

// mapping returns the keys of the mapping n in file order. allowed only
// words the message when n is not a mapping.
func (d *oldDecoder) mapping(n ast.Node, where string, allowed []string) ([]oldField, error) {
	r, err := d.resolve(n, where)
	if err != nil {
		return nil, err
	}
	var values []*ast.MappingValueNode
	switch v := r.(type) {
	case *ast.MappingNode:
		values = v.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{v}
	default:
		if len(allowed) == 0 {
			return nil, d.fail(n, where, "must be a mapping, not %s", kind(r))
		}
		return nil, d.fail(n, where, "must be a mapping with the keys %s, not %s", list(allowed), kind(r))
	}
	out := make([]oldField, 0, len(values))
	for _, mv := range values {
		if mv.Key.IsMergeKey() {
			return nil, d.fail(mv.Key, where, "merge keys (<<) are not supported; write the keys out")
		}
		key, err := d.resolve(mv.Key, where)
		if err != nil {
			return nil, err
		}
		name, ok := scalarText(key)
		if !ok {
			return nil, d.fail(mv.Key, where, "keys must be text, not %s", kind(key))
		}
		out = append(out, oldField{key: name, node: mv.Key, value: mv.Value})
	}
	return out, nil
}

// text returns the scalar n as text. Numbers and booleans count as text,
// spelled as in the file, so `label: 2` or `label: true` mean what they
// say.
func (d *oldDecoder) text(n ast.Node, where string) (string, error) {
	r, err := d.resolve(n, where)
	if err != nil {
		return "", err
	}
	if s, ok := scalarText(r); ok {
		return s, nil
	}
	if _, null := r.(*ast.NullNode); null {
		return "", d.fail(n, where, "is empty; write some text")
	}
	return "", d.fail(n, where, "must be text, not %s", kind(r))
}

// boolean returns the boolean n.
func (d *oldDecoder) boolean(n ast.Node, where string) (bool, error) {
	r, err := d.resolve(n, where)
	if err != nil {
		return false, err
	}
	if b, ok := r.(*ast.BoolNode); ok {
		return b.Value, nil
	}
	return false, d.fail(n, where, "must be true or false, not %s", kind(r))
}

// duration returns the Go duration string n, which must not be negative.
func (d *oldDecoder) duration(n ast.Node, where string) (time.Duration, error) {
	r, err := d.resolve(n, where)
	if err != nil {
		return 0, err
	}
	s, ok := scalarText(r)
	if !ok {
		return 0, d.fail(n, where, "must be a duration such as \"1.5s\" or \"800ms\", not %s", kind(r))
	}
	dur, err := time.ParseDuration(s)
	if err != nil {
		hint := `use a Go duration such as "1.5s" or "800ms"`
		if _, num := r.(*ast.IntegerNode); num {
			hint = fmt.Sprintf("add a unit, as in \"%ss\"", s)
		} else if _, num := r.(*ast.FloatNode); num {
			hint = fmt.Sprintf("add a unit, as in \"%ss\"", s)
		}
		return 0, d.fail(n, where, "invalid duration %q; %s", s, hint)
	}
	if dur < 0 {
		return 0, d.fail(n, where, "duration %q is negative", s)
	}
	return dur, nil
}

// sequence returns the entries of the sequence n.
func (d *oldDecoder) sequence(n ast.Node, where, of string) ([]ast.Node, error) {
	r, err := d.resolve(n, where)
	if err != nil {
		return nil, err
	}
	switch v := r.(type) {
	case *ast.SequenceNode:
		return v.Values, nil
	case *ast.NullNode:
		return nil, nil
	}
	return nil, d.fail(n, where, "must be a list of %s, not %s", of, kind(r))
}

func (d *oldDecoder) scenario(body ast.Node) (*Scenario, bool, error) {
	fs, err := d.mapping(body, "the top level", oldTopKeys)
	if err != nil {
		return nil, false, err
	}
	// Keys starting with "x-" are free for the author, for example to
	// hold anchors that steps refer to.
	fs = slices.DeleteFunc(fs, func(f oldField) bool { return strings.HasPrefix(f.key, "x-") })
	for _, f := range fs {
		if !slices.Contains(oldTopKeys, f.key) {
			err := d.unknownKey(f, "the top level", oldTopKeys)
			err.Msg += ` (keys starting with "x-" are free for your own use, such as anchors)`
			return nil, false, err
		}
	}
	sc := &Scenario{Name: d.label}
	named := false
	var agents *oldField
	for i, f := range fs {
		where := strconv.Quote(f.key)
		switch f.key {
		case "name":
			if sc.Name, err = d.text(f.value, where); err != nil {
				return nil, false, err
			}
			if strings.TrimSpace(sc.Name) == "" || strings.ContainsAny(sc.Name, " \t\r\n") {
				return nil, false, d.fail(f.value, where, "%q is not a usable name; use one word such as \"setup\"", sc.Name)
			}
			named = true
		case "title":
			if sc.Title, err = d.text(f.value, where); err != nil {
				return nil, false, err
			}
		case "description":
			if sc.Description, err = d.text(f.value, where); err != nil {
				return nil, false, err
			}
		case "agents":
			agents = &fs[i]
		}
	}
	if agents == nil {
		return nil, false, d.fail(body, "", `no "agents"; a scenario needs at least one agent with "id" and "steps"`)
	}
	nodes, err := d.sequence(agents.value, `"agents"`, "agents")
	if err != nil {
		return nil, false, err
	}
	if len(nodes) == 0 {
		return nil, false, d.fail(agents.node, `"agents"`, `is empty; a scenario needs at least one agent with "id" and "steps"`)
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

func (d *oldDecoder) script(i int, n ast.Node) (Script, ast.Node, error) {
	place := fmt.Sprintf("agent %d", i+1)
	fs, err := d.fields(n, place, oldAgentKeys)
	if err != nil {
		return Script{}, nil, err
	}
	var s Script
	var idNode ast.Node
	var steps *oldField
	for k, f := range fs {
		switch f.key {
		case "id":
			idNode = f.value
			if s.Agent.ID, err = d.text(f.value, place+`: "id"`); err != nil {
				return Script{}, nil, err
			}
		case "name":
			if s.Agent.Name, err = d.text(f.value, place+`: "name"`); err != nil {
				return Script{}, nil, err
			}
		case "steps":
			steps = &fs[k]
		}
	}
	switch {
	case idNode == nil:
		return Script{}, nil, d.fail(n, place, `has no "id"; every agent needs a short unique "id" such as "scaffold"`)
	case strings.TrimSpace(s.Agent.ID) == "":
		return Script{}, nil, d.fail(idNode, place+`: "id"`, "is empty; every agent needs a short unique id")
	case len(s.Agent.ID) > interaction.MaxIDLen:
		return Script{}, nil, d.fail(idNode, place+`: "id"`, "is %d bytes, over the limit of %d", len(s.Agent.ID), interaction.MaxIDLen)
	case len(s.Agent.Name) > interaction.MaxIDLen:
		return Script{}, nil, d.fail(n, place+`: "name"`, "is %d bytes, over the limit of %d", len(s.Agent.Name), interaction.MaxIDLen)
	}
	if strings.TrimSpace(s.Agent.Name) == "" {
		s.Agent.Name = s.Agent.ID
	}
	place = fmt.Sprintf("agent %q", s.Agent.ID)
	if steps == nil {
		return Script{}, nil, d.fail(n, place, `has no "steps"; give it at least one step such as {say: "Hello"}`)
	}
	nodes, err := d.sequence(steps.value, place+`: "steps"`, "steps")
	if err != nil {
		return Script{}, nil, err
	}
	if len(nodes) == 0 {
		return Script{}, nil, d.fail(steps.node, place+`: "steps"`, `is empty; give the agent at least one step such as {say: "Hello"}`)
	}
	scope := &agentScope{asked: make(map[string][]string)}
	s.Steps, err = d.steps(nodes, place, s.Agent, scope, 0)
	if err != nil {
		return Script{}, nil, err
	}
	return s, idNode, nil
}

// steps decodes a list of steps. place names the list's owner, as in
// `agent "scaffold"` or `agent "scaffold" step 4 (when) then`.
func (d *oldDecoder) steps(nodes []ast.Node, place string, who interaction.Agent, scope *agentScope, depth int) ([]Step, error) {
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

func (d *oldDecoder) step(n ast.Node, place string, who interaction.Agent, scope *agentScope, depth int) (Step, error) {
	fs, err := d.fields(n, place, oldActionKeys)
	if err != nil {
		return Step{}, err
	}
	switch len(fs) {
	case 0:
		return Step{}, d.fail(n, place, "has no action; a step needs exactly one of %s", list(oldActionKeys))
	case 1:
	default:
		return Step{}, d.fail(fs[1].node, place, "has both %q and %q; a step has exactly one action, so put each in its own step",
			fs[0].key, fs[1].key)
	}
	f := fs[0]
	line, _ := pos(f.node)
	st := Step{Kind: StepKind(f.key), Line: line}
	place = fmt.Sprintf("%s (%s)", place, f.key)
	v := f.value

	switch st.Kind {
	case StepSay:
		if st.Text, err = d.text(v, place); err != nil {
			return Step{}, err
		}
		err = d.refs(v, place, st.Text, scope)
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
func (d *oldDecoder) think(st *Step, v ast.Node, place string, scope *agentScope) error {
	r, err := d.resolve(v, place)
	if err != nil {
		return err
	}
	if _, ok := scalarText(r); ok {
		st.For, err = d.duration(v, place)
		return err
	}
	fs, err := d.fields(v, place, oldThinkKeys)
	if err != nil {
		return err
	}
	hasFor := false
	for _, f := range fs {
		where := fmt.Sprintf("%s: %q", place, f.key)
		switch f.key {
		case "for":
			hasFor = true
			st.For, err = d.duration(f.value, where)
		case "text":
			if st.Text, err = d.text(f.value, where); err == nil {
				err = d.refs(f.value, where, st.Text, scope)
			}
		}
		if err != nil {
			return err
		}
	}
	if !hasFor {
		return d.fail(v, place, `has no "for"; say how long to think, as in {for: 2s, text: "Reading the code"}`)
	}
	return nil
}

func (d *oldDecoder) tool(st *Step, v ast.Node, place string, scope *agentScope) error {
	fs, err := d.fields(v, place, oldToolKeys)
	if err != nil {
		return err
	}
	for _, f := range fs {
		where := fmt.Sprintf("%s: %q", place, f.key)
		switch f.key {
		case "name":
			st.Tool, err = d.text(f.value, where)
			if err == nil && strings.TrimSpace(st.Tool) == "" {
				err = d.fail(f.value, where, "is empty; name the tool, as in \"grep\"")
			}
		case "args":
			var b bytes.Buffer
			if err = d.json(&b, f.value, where, 0); err == nil {
				st.Args = b.String()
				err = d.refs(f.value, where, st.Args, scope)
			}
		case "for":
			st.For, err = d.duration(f.value, where)
		case "result":
			if st.Result, err = d.text(f.value, where); err == nil {
				err = d.refs(f.value, where, st.Result, scope)
			}
		case "failed":
			st.Failed, err = d.boolean(f.value, where)
		}
		if err != nil {
			return err
		}
	}
	if st.Tool == "" {
		return d.fail(v, place, `has no "name"; name the tool, as in {name: grep, args: {pattern: "TODO"}}`)
	}
	return nil
}

// request decodes the body of an ask: its questions and autoplay keys.
func (d *oldDecoder) request(st *Step, v ast.Node, place string, who interaction.Agent, scope *agentScope) error {
	fs, err := d.fields(v, place, oldAskKeys)
	if err != nil {
		return err
	}
	var questions *oldField
	for k, f := range fs {
		where := fmt.Sprintf("%s: %q", place, f.key)
		switch f.key {
		case "questions":
			questions = &fs[k]
		case "keys":
			if st.Keys, err = d.oldKeys(f.value, where); err != nil {
				return err
			}
		}
	}
	if questions == nil {
		return d.fail(v, place, `has no "questions"; ask as in {questions: [{id: q1, question: "..."}]}`)
	}
	where := place + `: "questions"`
	nodes, err := d.sequence(questions.value, where, "questions")
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
		at := questions.value
		for i := range req.Questions {
			prefix := interaction.Request{Questions: req.Questions[:i+1], Agent: req.Agent}
			if prefix.Validate() != nil {
				at = nodes[i]
				break
			}
		}
		return d.fail(at, place, "%s", msg)
	}
	for _, q := range st.Request.Questions {
		scope.add(q)
	}
	return nil
}

func (d *oldDecoder) question(n ast.Node, place string) (interaction.Question, error) {
	fs, err := d.fields(n, place, oldQuestionKeys)
	if err != nil {
		return interaction.Question{}, err
	}
	var q interaction.Question
	for _, f := range fs {
		where := fmt.Sprintf("%s: %q", place, f.key)
		switch f.key {
		case "id":
			q.ID, err = d.text(f.value, where)
		case "question":
			q.Question, err = d.text(f.value, where)
		case "header":
			q.Header, err = d.text(f.value, where)
		case "detail":
			q.Detail, err = d.text(f.value, where)
		case "multiSelect", "multi_select":
			var b bool
			b, err = d.boolean(f.value, where)
			q.MultiSelect = q.MultiSelect || b
		case "options":
			var nodes []ast.Node
			if nodes, err = d.sequence(f.value, where, "options"); err != nil {
				break
			}
			for j, o := range nodes {
				var opt interaction.Option
				if opt, err = d.option(o, fmt.Sprintf("%s: option %d", where, j+1)); err != nil {
					break
				}
				q.Options = append(q.Options, opt)
			}
		}
		if err != nil {
			return interaction.Question{}, err
		}
	}
	return q, nil
}

// option decodes {label, description, preview}, or a bare label.
func (d *oldDecoder) option(n ast.Node, place string) (interaction.Option, error) {
	r, err := d.resolve(n, place)
	if err != nil {
		return interaction.Option{}, err
	}
	if s, ok := scalarText(r); ok {
		return interaction.Option{Label: s}, nil
	}
	fs, err := d.fields(n, place, oldOptionKeys)
	if err != nil {
		return interaction.Option{}, err
	}
	var o interaction.Option
	for _, f := range fs {
		where := fmt.Sprintf("%s: %q", place, f.key)
		switch f.key {
		case "label":
			o.Label, err = d.text(f.value, where)
		case "description":
			o.Description, err = d.text(f.value, where)
		case "preview":
			o.Preview, err = d.text(f.value, where)
		}
		if err != nil {
			return interaction.Option{}, err
		}
	}
	return o, nil
}

func (d *oldDecoder) withdraw(st *Step, v ast.Node, place string, who interaction.Agent, scope *agentScope) error {
	fs, err := d.fields(v, place, oldWithdrawKeys)
	if err != nil {
		return err
	}
	var hasAfter, hasAsk bool
	for _, f := range fs {
		where := fmt.Sprintf("%s: %q", place, f.key)
		switch f.key {
		case "after":
			hasAfter = true
			st.For, err = d.duration(f.value, where)
		case "ask":
			hasAsk = true
			err = d.request(st, f.value, where, who, scope)
		}
		if err != nil {
			return err
		}
	}
	switch {
	case !hasAsk:
		return d.fail(v, place, `has no "ask"; give the request to withdraw, as in {after: 4s, ask: {questions: [...]}}`)
	case !hasAfter:
		return d.fail(v, place, `has no "after"; say when to withdraw, as in {after: 4s, ask: {...}}`)
	}
	return nil
}

func (d *oldDecoder) when(st *Step, v ast.Node, place string, who interaction.Agent, scope *agentScope, depth int) error {
	fs, err := d.fields(v, place, oldWhenKeys)
	if err != nil {
		return err
	}
	var idField, cond *oldField
	var branches []oldField
	for k, f := range fs {
		switch f.key {
		case "id":
			idField = &fs[k]
		case "then", "else":
			branches = append(branches, f)
		default:
			if cond != nil {
				return d.fail(f.node, place, "has both %q and %q; test one thing per when step and nest another when for more",
					cond.key, f.key)
			}
			cond = &fs[k]
		}
	}
	if idField == nil {
		return d.fail(v, place, `has no "id"; name the question to test, as in {id: db, label: "PostgreSQL", then: [...]}`)
	}
	where := place + `: "id"`
	if st.When.ID, err = d.text(idField.value, where); err != nil {
		return err
	}
	labels, asked := scope.asked[st.When.ID]
	if !asked {
		return d.fail(idField.value, where, "no earlier ask of agent %q has a question with id %q; %s",
			who.ID, st.When.ID, scope.known())
	}
	if cond == nil {
		return d.fail(v, place, `has no condition; add one of "label", "custom", "skipped", "declined" or "withdrawn"`)
	}
	where = fmt.Sprintf("%s: %q", place, cond.key)
	st.When.Match = Match(cond.key)
	switch st.When.Match {
	case MatchLabel:
		if st.When.Value, err = d.text(cond.value, where); err != nil {
			return err
		}
		if !slices.Contains(labels, st.When.Value) {
			if len(labels) == 0 {
				return d.fail(cond.value, where, "question %q has no options; test its free text with \"custom\"", st.When.ID)
			}
			return d.fail(cond.value, where, "%q is not an option of question %q; its labels are %s",
				st.When.Value, st.When.ID, quoteAll(labels))
		}
	case MatchCustom:
		r, err := d.resolve(cond.value, where)
		if err != nil {
			return err
		}
		if b, ok := r.(*ast.BoolNode); ok {
			if !b.Value {
				return d.fail(cond.value, where, "custom: false matches nothing; use custom: true with \"else\"")
			}
			break
		}
		if st.When.Value, err = d.text(cond.value, where); err != nil {
			return err
		}
		if st.When.Value == "" {
			return d.fail(cond.value, where, "is empty; use custom: true to match any custom text")
		}
	default: // skipped, declined, withdrawn
		b, err := d.boolean(cond.value, where)
		if err != nil {
			return err
		}
		if !b {
			return d.fail(cond.value, where, "%s: false is not supported; use %s: true with \"else\"", cond.key, cond.key)
		}
	}
	if len(branches) == 0 {
		return d.fail(v, place, `has neither "then" nor "else"; give the steps to run`)
	}
	for _, b := range branches {
		sub := fmt.Sprintf("%s %s", place, b.key)
		nodes, err := d.sequence(b.value, fmt.Sprintf("%s: %q", place, b.key), "steps")
		if err != nil {
			return err
		}
		if len(nodes) == 0 {
			continue
		}
		steps, err := d.steps(nodes, sub, who, scope, depth+1)
		if err != nil {
			return err
		}
		if b.key == "then" {
			st.Then = steps
		} else {
			st.Else = steps
		}
	}
	return nil
}

// keys decodes autoplay keys.
func (d *oldDecoder) oldKeys(n ast.Node, where string) ([]string, error) {
	nodes, err := d.sequence(n, where, `keys such as ["down", "enter"]`)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(nodes))
	for i, k := range nodes {
		s, err := d.text(k, fmt.Sprintf("%s: key %d", where, i+1))
		if err != nil {
			return nil, err
		}
		if err := CheckKey(s); err != nil {
			return nil, d.fail(k, fmt.Sprintf("%s: key %d", where, i+1), "%v", err)
		}
		out = append(out, s)
	}
	return out, nil
}

// json writes the YAML value n as compact JSON, keeping the order of
// mapping keys.
func (d *oldDecoder) json(b *bytes.Buffer, n ast.Node, where string, depth int) error {
	if depth > maxDepth {
		return d.fail(n, where, "nests more than %d deep", maxDepth)
	}
	r, err := d.resolve(n, where)
	if err != nil {
		return err
	}
	switch v := r.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		fs, err := d.mapping(v, where, nil)
		if err != nil {
			return err
		}
		b.WriteByte('{')
		for i, f := range fs {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(jsonl.AppendString(b.AvailableBuffer(), f.key))
			b.WriteByte(':')
			if err := d.json(b, f.value, where+member(f.key), depth+1); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case *ast.SequenceNode:
		b.WriteByte('[')
		for i, e := range v.Values {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := d.json(b, e, fmt.Sprintf("%s[%d]", where, i), depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case *ast.NullNode:
		b.WriteString("null")
	case *ast.BoolNode:
		b.WriteString(strconv.FormatBool(v.Value))
	case *ast.IntegerNode:
		out, err := json.Marshal(v.Value)
		if err != nil {
			return d.fail(n, where, "cannot be written as JSON: %v", err)
		}
		b.Write(out)
	case *ast.FloatNode:
		if math.IsInf(v.Value, 0) || math.IsNaN(v.Value) {
			return d.fail(n, where, "%s cannot be written as JSON", v.GetToken().Value)
		}
		b.WriteString(strconv.FormatFloat(v.Value, 'g', -1, 64))
	case *ast.InfinityNode, *ast.NanNode:
		return d.fail(n, where, "%s cannot be written as JSON", r.GetToken().Value)
	default:
		s, ok := scalarText(r)
		if !ok {
			return d.fail(n, where, "%s cannot be written as JSON", kind(r))
		}
		b.Write(jsonl.AppendString(b.AvailableBuffer(), s))
	}
	return nil
}

func (d *oldDecoder) refs(n ast.Node, where, s string, scope *agentScope) error {
	for _, m := range answerRef.FindAllStringSubmatch(s, -1) {
		if _, ok := scope.asked[m[1]]; !ok {
			return d.fail(n, where, "%s refers to question %q, which no earlier ask of this agent has; %s",
				m[0], m[1], scope.known())
		}
	}
	return nil
}
