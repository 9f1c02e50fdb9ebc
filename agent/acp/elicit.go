package acp

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/asktui/asktui/interaction"
)

// maxRounds is how many times a form is put to the human before asktui
// gives up on answers that do not fit the schema and declines.
const maxRounds = 5

// The adapters' conventions for fields that are not questions of their
// own.
const (
	// metaCustomAnswer marks claude-agent-acp's free-text companion of a
	// question: the human's "Other" text goes there.
	metaCustomAnswer = "_askUserQuestionCustomAnswer"
	// codexNoteRole marks codex-acp's note field (_meta.codex.role).
	codexNoteRole = "user_note"
)

// fieldKind says how a form field is asked.
type fieldKind int

const (
	fieldText fieldKind = iota
	fieldEnum
	fieldMulti
	fieldBool
	fieldNumber
	fieldInteger
)

// field is one property of an elicitation's schema.
type field struct {
	key      string
	qid      string
	kind     fieldKind
	title    string
	desc     string
	values   []any    // enum values, as the agent sent them
	labels   []string // their labels, unique
	required bool
	def      any // the default, when valid
	hasDef   bool

	minLen, maxLen     int // -1: none
	minimum, maximum   float64
	hasMin, hasMax     bool
	minItems, maxItems int // -1: none
	format             string

	companion *field // where "Other" text goes (claude-agent-acp)
}

// form is an elicitation's schema as asktui asks it.
type form struct {
	message string
	fields  []*field // the questions, in order
	note    *field   // where the human's notes go (codex-acp)
	byQID   map[string]*field
}

// formError is the error for a schema asktui cannot ask.
func formError(format string, args ...any) error {
	return interaction.Errorf(interaction.CodeInvalidRequest, "the elicitation's schema cannot be asked: "+format, args...)
}

// buildForm reads a form elicitation's schema. order puts the property
// names in the order the agent sent them. The error is INVALID_REQUEST
// and says what is wrong.
func buildForm(message string, s sdk.UnstableElicitationSchema, order func([]string) []string) (*form, error) {
	keys := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		keys = append(keys, k)
	}
	if order != nil {
		keys = dedupe(order(keys), s.Properties)
	} else {
		slices.Sort(keys)
	}
	if len(keys) == 0 {
		return nil, formError("it has no properties; a form needs at least one field")
	}
	if len(keys) > interaction.MaxQuestions {
		return nil, formError("it has %d fields, over the limit of %d", len(keys), interaction.MaxQuestions)
	}
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	f := &form{message: strings.TrimSpace(message), byQID: map[string]*field{}}
	var all []*field
	companions := map[*field]any{}
	var notes []*field
	usedIDs := map[string]bool{}
	for i, key := range keys {
		raw, ok := s.Properties[key].(map[string]any)
		if !ok {
			return nil, formError("field %q is not a schema object", key)
		}
		fd, err := parseField(key, raw)
		if err != nil {
			return nil, err
		}
		fd.required = required[key]
		fd.qid = clip(strings.TrimSpace(key), interaction.MaxIDLen)
		if fd.qid == "" || usedIDs[fd.qid] {
			fd.qid = "field-" + strconv.Itoa(i+1)
		}
		usedIDs[fd.qid] = true
		meta, _ := raw["_meta"].(map[string]any)
		if v, ok := meta[metaCustomAnswer]; ok && fd.kind == fieldText {
			companions[fd] = v
		}
		if cx, ok := meta["codex"].(map[string]any); ok && cx["role"] == codexNoteRole && fd.kind == fieldText {
			notes = append(notes, fd)
		}
		all = append(all, fd)
	}
	// Companions attach to the question they name, or the choice before
	// them; one that fits nowhere is asked as a field of its own.
	attached := map[*field]bool{}
	for i, fd := range all {
		v, ok := companions[fd]
		if !ok {
			continue
		}
		var target *field
		if name, ok := v.(string); ok && name != "" {
			for _, t := range all {
				if t.key == name {
					target = t
				}
			}
		} else {
			for j := i - 1; j >= 0; j-- {
				if _, isComp := companions[all[j]]; !isComp {
					target = all[j]
					break
				}
			}
		}
		if target != nil && (target.kind == fieldEnum || target.kind == fieldMulti) && target.companion == nil {
			target.companion = fd
			attached[fd] = true
		}
	}
	for _, fd := range all {
		if attached[fd] {
			continue
		}
		if f.note == nil && slices.Contains(notes, fd) && len(all)-len(attached) > 1 {
			f.note = fd
			continue
		}
		f.fields = append(f.fields, fd)
		f.byQID[fd.qid] = fd
	}
	return f, nil
}

// dedupe keeps the first of each name that props has.
func dedupe(keys []string, props map[string]any) []string {
	seen := map[string]bool{}
	out := keys[:0:0]
	for _, k := range keys {
		if _, ok := props[k]; ok && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// parseField reads one property's schema.
func parseField(key string, raw map[string]any) (*field, error) {
	fd := &field{key: key, minLen: -1, maxLen: -1, minItems: -1, maxItems: -1}
	fd.title, _ = raw["title"].(string)
	fd.desc, _ = raw["description"].(string)
	fd.format, _ = raw["format"].(string)
	typ, _ := raw["type"].(string)
	switch typ {
	case "string", "":
		if vals, labels, ok := enumOf(raw); ok {
			if len(vals) == 0 {
				return nil, formError("field %q has an empty enum; give it at least one value", key)
			}
			fd.kind, fd.values, fd.labels = fieldEnum, vals, labels
		} else if typ == "" {
			return nil, formError("field %q has no type; use string, number, integer, boolean or array", key)
		}
		fd.minLen, fd.maxLen = intOf(raw["minLength"]), intOf(raw["maxLength"])
	case "boolean":
		fd.kind = fieldBool
	case "number", "integer":
		fd.kind = fieldNumber
		if typ == "integer" {
			fd.kind = fieldInteger
		}
		fd.minimum, fd.hasMin = floatOf(raw["minimum"])
		fd.maximum, fd.hasMax = floatOf(raw["maximum"])
	case "array":
		items, _ := raw["items"].(map[string]any)
		vals, labels, ok := enumOf(items)
		if !ok {
			vals, labels, ok = enumOf(raw) // anyOf/oneOf on the array itself
		}
		if !ok || len(vals) == 0 {
			return nil, formError("field %q is an array without enum items; an array field must list its choices in items.enum or items.anyOf", key)
		}
		fd.kind, fd.values, fd.labels = fieldMulti, vals, labels
		fd.minItems, fd.maxItems = intOf(raw["minItems"]), intOf(raw["maxItems"])
	default:
		return nil, formError("field %q has type %q; a form field is a string, number, integer, boolean, or an array of choices", key, typ)
	}
	if d, ok := raw["default"]; ok && d != nil {
		if v, problem := fd.check(d); problem == "" {
			fd.def, fd.hasDef = v, true
		}
	}
	return fd, nil
}

// enumOf reads a choice list: enum (with enumNames), or oneOf/anyOf of
// {const, title}. Labels are unique and never empty.
func enumOf(raw map[string]any) (values []any, labels []string, ok bool) {
	if raw == nil {
		return nil, nil, false
	}
	var titles []string
	if e, isList := raw["enum"].([]any); isList {
		values = e
		if names, isNames := raw["enumNames"].([]any); isNames {
			for _, n := range names {
				s, _ := n.(string)
				titles = append(titles, s)
			}
		}
		ok = true
	} else {
		for _, k := range []string{"oneOf", "anyOf"} {
			list, isList := raw[k].([]any)
			if !isList {
				continue
			}
			ok = true
			for _, item := range list {
				m, _ := item.(map[string]any)
				v, has := m["const"]
				if !has {
					continue
				}
				t, _ := m["title"].(string)
				values = append(values, v)
				titles = append(titles, t)
			}
			break
		}
	}
	if !ok {
		return nil, nil, false
	}
	if len(values) > interaction.MaxOptions {
		values = values[:interaction.MaxOptions]
	}
	used := map[string]bool{}
	for i, v := range values {
		label := ""
		if i < len(titles) {
			label = titles[i]
		}
		if strings.TrimSpace(label) == "" {
			label = valueText(v)
		}
		label = strings.TrimSpace(clip(label, interaction.MaxLabelLen-12))
		if label == "" {
			label = "(empty)"
		}
		base := label
		for n := 2; used[label]; n++ {
			label = base + " (" + strconv.Itoa(n) + ")"
		}
		used[label] = true
		labels = append(labels, label)
	}
	return values, labels, true
}

// valueText is an enum value as text.
func valueText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "null"
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

func intOf(v any) int {
	if f, ok := v.(float64); ok && f >= 0 && f <= math.MaxInt32 {
		return int(f)
	}
	return -1
}

func floatOf(v any) (float64, bool) {
	f, ok := v.(float64)
	return f, ok
}

// request is the form as a request; only the questions in ask (all when
// nil), each with its problem from the last round.
func (f *form) request(ask []*field, problems map[*field]string) interaction.Request {
	if ask == nil {
		ask = f.fields
	}
	var req interaction.Request
	for i, fd := range ask {
		q := interaction.Question{ID: fd.qid, Question: fd.questionText()}
		var detail []string
		if problem := problems[fd]; problem != "" {
			detail = append(detail, "⚠ "+problem)
		}
		if i == 0 && f.message != "" {
			detail = append(detail, f.message)
		}
		if fd.desc != "" && fd.desc != q.Question {
			detail = append(detail, fd.desc)
		}
		if h := fd.hint(); h != "" {
			detail = append(detail, "*"+h+"*")
		}
		if fd == f.fields[0] && f.note != nil {
			detail = append(detail, "*A note on any answer goes to the agent as "+strconv.Quote(f.note.title0())+".*")
		}
		q.Detail = clip(strings.Join(detail, "\n\n"), interaction.MaxDetailLen)
		switch fd.kind {
		case fieldEnum, fieldMulti:
			for j, l := range fd.labels {
				o := interaction.Option{Label: l}
				if vt := valueText(fd.values[j]); vt != l {
					o.Description = clip(vt, interaction.MaxDescriptionLen)
				}
				q.Options = append(q.Options, o)
			}
			q.MultiSelect = fd.kind == fieldMulti
		case fieldBool:
			q.Options = []interaction.Option{{Label: "Yes"}, {Label: "No"}}
		}
		req.Questions = append(req.Questions, q)
	}
	return req
}

func (fd *field) title0() string {
	if t := strings.TrimSpace(fd.title); t != "" {
		return t
	}
	return fd.key
}

// questionText is what the question asks.
func (fd *field) questionText() string {
	s := strings.TrimSpace(fd.title)
	if s == "" {
		s = strings.TrimSpace(fd.desc)
	}
	if s == "" {
		s = strings.TrimSpace(fd.key)
	}
	if s == "" {
		s = "Value"
	}
	return clip(s, interaction.MaxQuestionLen)
}

// hint says what the field takes.
func (fd *field) hint() string {
	var parts []string
	if fd.required {
		parts = append(parts, "Required.")
	}
	switch fd.kind {
	case fieldNumber, fieldInteger:
		what := "A number"
		if fd.kind == fieldInteger {
			what = "A whole number"
		}
		parts = append(parts, what+fd.rangeText()+".")
	case fieldText:
		switch fd.format {
		case "email":
			parts = append(parts, "An email address.")
		case "uri":
			parts = append(parts, "A URL.")
		case "date":
			parts = append(parts, "A date, YYYY-MM-DD.")
		case "date-time":
			parts = append(parts, "A date and time, such as 2026-07-01T09:30:00Z.")
		}
		if fd.minLen > 0 || fd.maxLen >= 0 {
			parts = append(parts, fmt.Sprintf("%s characters.", lengthWords(fd.minLen, fd.maxLen)))
		}
	case fieldMulti:
		if fd.minItems > 0 || fd.maxItems >= 0 {
			parts = append(parts, fmt.Sprintf("Choose %s.", lengthWords(fd.minItems, fd.maxItems)))
		}
	}
	if fd.hasDef {
		parts = append(parts, "Skip for the default, "+clip(defaultText(fd.def), 200)+".")
	}
	return strings.Join(parts, " ")
}

// rangeText is a number field's bounds, as " from 1 to 10".
func (fd *field) rangeText() string {
	switch {
	case fd.hasMin && fd.hasMax:
		return fmt.Sprintf(" from %g to %g", fd.minimum, fd.maximum)
	case fd.hasMin:
		return fmt.Sprintf(" of at least %g", fd.minimum)
	case fd.hasMax:
		return fmt.Sprintf(" of at most %g", fd.maximum)
	}
	return ""
}

func lengthWords(lo, hi int) string {
	switch {
	case lo > 0 && hi >= 0:
		return fmt.Sprintf("%d to %d", lo, hi)
	case lo > 0:
		return fmt.Sprintf("at least %d", lo)
	default:
		return fmt.Sprintf("at most %d", hi)
	}
}

func defaultText(v any) string {
	switch x := v.(type) {
	case bool:
		if x {
			return "yes"
		}
		return "no"
	case []any:
		var s []string
		for _, e := range x {
			s = append(s, valueText(e))
		}
		return strings.Join(s, ", ")
	}
	return valueText(v)
}

// check validates a value for the field (a default, or an answer turned
// into a value) and returns it normalised, or a problem.
func (fd *field) check(v any) (any, string) {
	switch fd.kind {
	case fieldEnum:
		for _, e := range fd.values {
			if valueText(e) == valueText(v) {
				return e, ""
			}
		}
		return nil, "choose one of the options"
	case fieldMulti:
		list, ok := v.([]any)
		if !ok {
			return nil, "choose from the options"
		}
		out := []any{}
		for _, x := range list {
			found := false
			for _, e := range fd.values {
				if valueText(e) == valueText(x) {
					out = append(out, e)
					found = true
					break
				}
			}
			if !found {
				return nil, "choose only from the options"
			}
		}
		if fd.minItems > 0 && len(out) < fd.minItems || fd.maxItems >= 0 && len(out) > fd.maxItems {
			return nil, "choose " + lengthWords(fd.minItems, fd.maxItems) + " options"
		}
		return out, ""
	case fieldBool:
		b, ok := v.(bool)
		if !ok {
			return nil, "answer yes or no"
		}
		return b, ""
	case fieldNumber, fieldInteger:
		n, ok := v.(float64)
		if !ok || math.IsNaN(n) || math.IsInf(n, 0) {
			return nil, "write a number"
		}
		if fd.kind == fieldInteger && n != math.Trunc(n) {
			return nil, "write a whole number"
		}
		if fd.hasMin && n < fd.minimum || fd.hasMax && n > fd.maximum {
			return nil, "write a number" + fd.rangeText()
		}
		if fd.kind == fieldInteger {
			return int64(n), ""
		}
		return n, ""
	default:
		s, ok := v.(string)
		if !ok {
			return nil, "write text"
		}
		n := utf8.RuneCountInString(s)
		if fd.minLen > 0 && n < fd.minLen || fd.maxLen >= 0 && n > fd.maxLen {
			return nil, fmt.Sprintf("write %s characters (this is %d)", lengthWords(fd.minLen, fd.maxLen), n)
		}
		if p := formatProblem(fd.format, s); p != "" {
			return nil, p
		}
		return s, ""
	}
}

// formatProblem checks text against a string format.
func formatProblem(format, s string) string {
	switch format {
	case "email":
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
			return "write an email address, such as name@example.com"
		}
	case "uri":
		if u, err := url.Parse(s); err != nil || u.Scheme == "" {
			return "write a full URL, such as https://example.com"
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return "write a date as YYYY-MM-DD"
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return "write a date and time such as 2026-07-01T09:30:00Z"
		}
	}
	return ""
}

// content turns the answers (by question id) into the elicitation's
// content, and lists the fields whose answers do not fit.
func (f *form) content(answers map[string]interaction.AnswerItem) (map[string]any, map[*field]string) {
	content := map[string]any{}
	problems := map[*field]string{}
	var notes []string
	for _, fd := range f.fields {
		item := answers[fd.qid]
		if n := strings.TrimSpace(item.Note); n != "" {
			notes = append(notes, n)
		}
		v, set, problem := fd.value(item, content)
		switch {
		case problem != "":
			problems[fd] = problem
		case set:
			content[fd.key] = v
		case fd.hasDef:
			content[fd.key] = fd.def
		case fd.required:
			problems[fd] = "this one is required"
		}
	}
	if f.note != nil && len(notes) > 0 {
		content[f.note.key] = strings.Join(notes, "\n\n")
	}
	return content, problems
}

// value reads the field's answer: the value, whether there is one, or a
// problem. "Other" text goes to the companion field when there is one.
func (fd *field) value(item interaction.AnswerItem, content map[string]any) (any, bool, string) {
	custom := strings.TrimSpace(item.Custom)
	switch fd.kind {
	case fieldEnum, fieldMulti:
		if custom != "" && fd.companion != nil {
			content[fd.companion.key] = item.Custom
			return nil, false, ""
		}
		var picked []any
		if custom != "" {
			for _, part := range splitChoices(custom, fd.kind == fieldMulti) {
				v, ok := fd.match(part)
				if !ok {
					return nil, false, fmt.Sprintf("%q is not one of the options; choose from them", clip(part, 80))
				}
				picked = append(picked, v)
			}
		} else {
			for _, l := range item.Selected {
				if i := slices.Index(fd.labels, l); i >= 0 {
					picked = append(picked, fd.values[i])
				}
			}
		}
		if len(picked) == 0 {
			return nil, false, ""
		}
		if fd.kind == fieldEnum {
			if len(picked) > 1 {
				return nil, false, "choose only one"
			}
			return picked[0], true, ""
		}
		v, problem := fd.check(picked)
		return v, problem == "", problem
	case fieldBool:
		answer := custom
		if answer == "" && len(item.Selected) == 1 {
			answer = item.Selected[0]
		}
		if answer == "" {
			return nil, false, ""
		}
		switch strings.ToLower(answer) {
		case "yes", "y", "true":
			return true, true, ""
		case "no", "n", "false":
			return false, true, ""
		}
		return nil, false, "answer yes or no"
	case fieldNumber, fieldInteger:
		if custom == "" {
			return nil, false, ""
		}
		n, err := strconv.ParseFloat(custom, 64)
		if err != nil {
			if fd.kind == fieldInteger {
				return nil, false, "write a whole number"
			}
			return nil, false, "write a number"
		}
		v, problem := fd.check(n)
		return v, problem == "", problem
	default:
		if custom == "" {
			return nil, false, ""
		}
		v, problem := fd.check(item.Custom)
		return v, problem == "", problem
	}
}

// splitChoices splits "Other" text into the choices it names.
func splitChoices(s string, multi bool) []string {
	if !multi {
		return []string{s}
	}
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// match finds the choice text names, by label or value, ignoring case.
func (fd *field) match(text string) (any, bool) {
	for i, l := range fd.labels {
		if strings.EqualFold(l, text) || strings.EqualFold(valueText(fd.values[i]), text) {
			return fd.values[i], true
		}
	}
	return nil, false
}

// UnstableCreateElicitation asks the human for what the agent wants:
// a form (one request, asked again only where answers do not fit), or a
// URL to visit (shown, never opened).
func (c *session) UnstableCreateElicitation(ctx context.Context, p sdk.UnstableCreateElicitationRequest) (sdk.UnstableCreateElicitationResponse, error) {
	switch {
	case p.Form != nil:
		return c.elicitForm(ctx, p.Form)
	case p.Url != nil:
		return c.elicitURL(ctx, p.Url)
	}
	return sdk.UnstableCreateElicitationResponse{}, sdk.NewInvalidParams(map[string]any{"error": "an elicitation needs a mode: form or url"})
}

// elicitForm asks a form, up to maxRounds times.
func (c *session) elicitForm(ctx context.Context, p *sdk.UnstableCreateElicitationForm) (sdk.UnstableCreateElicitationResponse, error) {
	f, err := buildForm(p.Message, p.RequestedSchema, c.guard.order)
	if err != nil {
		return sdk.UnstableCreateElicitationResponse{}, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	ctx, done := c.askCtx(ctx)
	defer done()
	answers := map[string]interaction.AnswerItem{}
	var ask []*field
	var problems map[*field]string
	for range maxRounds {
		req := f.request(ask, problems)
		req.Agent = c.agent()
		ans, err := c.opts.Asker.Ask(ctx, req)
		if err != nil {
			return elicitOutcome(err), nil
		}
		for _, item := range ans.Answers {
			answers[item.ID] = item
		}
		var content map[string]any
		content, problems = f.content(answers)
		if len(problems) == 0 {
			return sdk.UnstableCreateElicitationResponse{Accept: &sdk.UnstableCreateElicitationAccept{Action: "accept", Content: content}}, nil
		}
		ask = ask[:0:0]
		for _, fd := range f.fields {
			if problems[fd] != "" {
				ask = append(ask, fd)
			}
		}
	}
	c.opts.Logger.Info("elicitation declined: the answers still did not fit after several rounds", "agent", c.name)
	return sdk.NewUnstableCreateElicitationResponseDecline(), nil
}

// elicitOutcome is the response for a request that was not answered:
// decline when the human declined, cancel otherwise.
func elicitOutcome(err error) sdk.UnstableCreateElicitationResponse {
	if interaction.CodeOf(err) == interaction.CodeDeclined {
		return sdk.NewUnstableCreateElicitationResponseDecline()
	}
	return sdk.NewUnstableCreateElicitationResponseCancel()
}

// The URL question's options.
const (
	urlDone    = "Done"
	urlDecline = "Decline"
)

// elicitURL shows the URL with what is suspicious about it, and asks
// whether the human went there.
func (c *session) elicitURL(ctx context.Context, p *sdk.UnstableCreateElicitationUrl) (sdk.UnstableCreateElicitationResponse, error) {
	ctx, done := c.askCtx(ctx)
	defer done()
	ctx, withdraw := context.WithCancel(ctx)
	defer withdraw()
	id := string(p.ElicitationId)
	c.mu.Lock()
	c.urls[id] = withdraw
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.urls, id)
		c.mu.Unlock()
	}()
	msg := strings.TrimSpace(p.Message)
	if msg == "" {
		msg = "The agent asks you to open a link."
	}
	detail := "<" + p.Url + ">\n\n`" + strings.ReplaceAll(p.Url, "`", "%60") + "`"
	if w := urlWarnings(p.Url); len(w) > 0 {
		detail += "\n\n⚠ " + strings.Join(w, "\n\n⚠ ")
	}
	detail += "\n\n*asktui does not open links itself: copy it to your browser, then choose Done.*"
	req := interaction.Request{Agent: c.agent(), Questions: []interaction.Question{{
		ID: "url", Header: "Open a link", Question: clip(msg, interaction.MaxQuestionLen),
		Detail: clip(detail, interaction.MaxDetailLen),
		Options: []interaction.Option{
			{Label: urlDone, Description: "I opened the link and finished there"},
			{Label: urlDecline, Description: "I will not open it"},
		},
	}}}
	ans, err := c.opts.Asker.Ask(ctx, req)
	if err != nil {
		return elicitOutcome(err), nil
	}
	item, _ := ans.Get("url")
	switch {
	case item.Custom == "" && slices.Equal(item.Selected, []string{urlDone}):
		return sdk.NewUnstableCreateElicitationResponseAccept(), nil
	case item.Custom == "" && slices.Equal(item.Selected, []string{urlDecline}):
		return sdk.NewUnstableCreateElicitationResponseDecline(), nil
	}
	return sdk.NewUnstableCreateElicitationResponseCancel(), nil
}

// UnstableCompleteElicitation withdraws the question of a URL elicitation
// the agent says is complete.
func (c *session) UnstableCompleteElicitation(_ context.Context, p sdk.UnstableCompleteElicitationNotification) error {
	c.mu.Lock()
	withdraw := c.urls[string(p.ElicitationId)]
	c.mu.Unlock()
	if withdraw != nil {
		withdraw()
	}
	return nil
}

// urlWarnings says what about a URL deserves a second look.
func urlWarnings(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return []string{"This is not a valid web address."}
	}
	var w []string
	switch u.Scheme {
	case "https":
	case "http":
		w = append(w, "The link is not encrypted (http, not https).")
	default:
		w = append(w, "The link is not a web page ("+u.Scheme+":).")
	}
	if u.User != nil {
		w = append(w, "The link carries a user name before the host (user@host), a way to disguise where it goes: the host is "+u.Hostname()+".")
	}
	host := u.Hostname()
	if net.ParseIP(host) != nil {
		w = append(w, "The host is a bare IP address, not a name.")
	}
	for _, label := range strings.Split(strings.ToLower(host), ".") {
		if strings.HasPrefix(label, "xn--") {
			w = append(w, "The host name is punycode ("+host+"): it may imitate another name.")
			break
		}
	}
	for _, r := range host {
		if r > utf8.RuneSelf {
			w = append(w, "The host name has non-ASCII letters: it may imitate another name.")
			break
		}
	}
	return w
}
