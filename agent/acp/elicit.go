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
// own. They drift between versions; each is read as the adapter sends it
// today, and the older spellings keep working.
const (
	// metaCustomAnswer marks the free-text companion of a question in
	// claude-agent-acp before 0.101 (and for JetBrains AIR since): a
	// question's name, {"questionId": name}, or true for the choice
	// before it.
	metaCustomAnswer = "_askUserQuestionCustomAnswer"
	// customSuffix names claude-agent-acp's companion since 0.101:
	// question_<n>_custom, titled "Other", without a marker.
	customSuffix = "_custom"
	// metaOption carries a claude-agent-acp option's preview.
	metaOption = "_claude/askUserQuestionOption"
	// codexNoteRole marks codex-acp's note field (_meta.codex.role),
	// <id>_note, which names its question in _meta.codex.questionId.
	codexNoteRole = "user_note"
	// codexOther is the option codex-acp adds to a question that takes
	// an answer of the human's own, written in the note field.
	codexOther = "None of the above"
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

// companionKind says what a choice's free-text companion carries.
type companionKind int

const (
	// compCustom (claude-agent-acp): the "Other" text, or a note beside a
	// choice (the adapter passes it on as the answer's notes).
	compCustom companionKind = iota + 1
	// compReplace (deepseek-harness, and any "custom answer" field): the
	// "Other" text only; text there replaces the choice.
	compReplace
	// compNote (codex-acp): a note beside a choice, or with the "None of
	// the above" option the human's own answer.
	compNote
)

// choice is one option of a choice field.
type choice struct {
	value   any // as the agent sent it
	label   string
	desc    string
	preview string
}

// field is one property of an elicitation's schema.
type field struct {
	key      string
	qid      string
	kind     fieldKind
	title    string
	desc     string
	choices  []choice
	required bool
	def      any // the default, when valid
	hasDef   bool
	meta     map[string]any

	minLen, maxLen     int // -1: none
	minimum, maximum   float64
	hasMin, hasMax     bool
	minItems, maxItems int // -1: none
	format             string

	companion *field        // where "Other" text goes
	compKind  companionKind // what the companion carries
	otherAt   int           // codex-acp: the index of "None of the above", or -1
}

// form is an elicitation's schema as asktui asks it.
type form struct {
	message string
	title   string   // the schema's title
	fields  []*field // the questions, in order
	note    *field   // where the human's notes go (older codex-acp)
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
	if s.Title != nil {
		f.title = strings.TrimSpace(*s.Title)
	}
	var all []*field
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
		all = append(all, fd)
	}
	attached := attachCompanions(all)
	for _, fd := range all {
		if attached[fd] {
			continue
		}
		if f.note == nil && isCodexNote(fd) && len(all)-len(attached) > 1 {
			f.note = fd
			continue
		}
		f.fields = append(f.fields, fd)
		f.byQID[fd.qid] = fd
	}
	return f, nil
}

// attachCompanions joins each free-text companion to its choice field,
// by the conventions above, and returns the companions attached. A
// companion that fits no choice is asked as a field of its own.
func attachCompanions(all []*field) map[*field]bool {
	c := companions{all: all, byKey: map[string]*field{}, attached: map[*field]bool{}}
	for _, fd := range all {
		c.byKey[fd.key] = fd
	}
	for i, fd := range all {
		if fd.kind != fieldText || fd.required {
			continue
		}
		if target, kind, ok := c.targetOf(i, fd); ok {
			c.attach(target, fd, kind)
		}
	}
	return c.attached
}

// companions is attachCompanions' work: a form's fields, by key too, and
// the companions attached so far.
type companions struct {
	all      []*field
	byKey    map[string]*field
	attached map[*field]bool
}

// targetOf returns the choice field that the optional text field fd, the
// i-th, is a companion of (nil when it names none there is), and what it
// carries; ok is false when fd is no companion.
func (c *companions) targetOf(i int, fd *field) (target *field, kind companionKind, ok bool) {
	switch {
	case markedCustom(fd) != nil:
		target = c.before(i)
		if name, ok := markedCustom(fd).(string); ok && name != "" {
			target = c.byKey[name]
		}
		return target, compCustom, true
	case isCodexNote(fd):
		cx, _ := fd.meta["codex"].(map[string]any)
		name, _ := cx["questionId"].(string)
		if name == "" {
			name = strings.TrimSuffix(fd.key, "_note")
		}
		return c.byKey[name], compNote, true
	}
	if t := c.bySuffix(fd.key, customSuffix); t != nil {
		return t, compCustom, true
	}
	if t := c.bySuffix(fd.key, "_other"); t != nil {
		return t, compReplace, true
	}
	if looksCustom(fd) {
		return c.before(i), compReplace, true
	}
	return nil, 0, false
}

// bySuffix returns the field whose key is key without suffix, if key has
// it.
func (c *companions) bySuffix(key, suffix string) *field {
	if !strings.HasSuffix(key, suffix) {
		return nil
	}
	return c.byKey[strings.TrimSuffix(key, suffix)]
}

// before returns the nearest choice field before the i-th without a
// companion.
func (c *companions) before(i int) *field {
	for j := i - 1; j >= 0; j-- {
		if t := c.all[j]; (t.kind == fieldEnum || t.kind == fieldMulti) && t.companion == nil && !c.attached[t] {
			return t
		}
	}
	return nil
}

// attach makes comp the companion of the choice field target, unless
// target is none, or has one.
func (c *companions) attach(target, comp *field, kind companionKind) {
	if target == nil || target == comp || c.attached[target] || target.companion != nil ||
		(target.kind != fieldEnum && target.kind != fieldMulti) {
		return
	}
	target.companion, target.compKind = comp, kind
	c.attached[comp] = true
	if kind != compNote {
		return
	}
	if last := len(target.choices) - 1; last >= 0 && valueText(target.choices[last].value) == codexOther {
		target.otherAt = last
	}
}

// markedCustom is the marker of an older claude-agent-acp companion (or
// JetBrains AIR's): the question it names, true, or nil when unmarked.
func markedCustom(fd *field) any {
	v, ok := fd.meta[metaCustomAnswer]
	if !ok {
		jb, _ := fd.meta["jetbrains"].(map[string]any)
		air, _ := jb["air"].(map[string]any)
		v, ok = air["customAnswer"]
	}
	if !ok || v == nil || v == false {
		return nil
	}
	if m, isObj := v.(map[string]any); isObj {
		if q, _ := m["questionId"].(string); q != "" {
			return q
		}
		return true
	}
	return v
}

// isCodexNote reports whether fd is a codex-acp note field.
func isCodexNote(fd *field) bool {
	cx, _ := fd.meta["codex"].(map[string]any)
	return fd.kind == fieldText && cx["role"] == codexNoteRole
}

// looksCustom reports whether an unmarked text field is a "custom
// answer" box for the choice before it, by its name or title (as
// deepseek-harness sends it: "custom", titled "Custom answer").
func looksCustom(fd *field) bool {
	if fd.format != "" || fd.minLen > 0 {
		return false
	}
	switch strings.ToLower(fd.key) {
	case "custom", "other", "custom_answer", "customanswer":
		return true
	}
	switch strings.ToLower(strings.TrimSpace(fd.title)) {
	case "other", "custom answer", "your own answer":
		return true
	}
	return false
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
	fd := &field{key: key, minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, otherAt: -1}
	fd.title, _ = raw["title"].(string)
	fd.desc, _ = raw["description"].(string)
	fd.format, _ = raw["format"].(string)
	fd.meta, _ = raw["_meta"].(map[string]any)
	typ, _ := raw["type"].(string)
	switch typ {
	case "string", "":
		if choices, ok := enumOf(raw); ok {
			if len(choices) == 0 {
				return nil, formError("field %q has an empty enum; give it at least one value", key)
			}
			fd.kind, fd.choices = fieldEnum, choices
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
		choices, ok := enumOf(items)
		if !ok {
			choices, ok = enumOf(raw) // anyOf/oneOf on the array itself
		}
		if !ok || len(choices) == 0 {
			return nil, formError("field %q is an array without enum items; an array field must list its choices in items.enum or items.anyOf", key)
		}
		fd.kind, fd.choices = fieldMulti, choices
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

// titleSeparators join a label and its description in one enum title, as
// in "PostgreSQL: managed" (deepseek-harness) or "PostgreSQL — managed".
var titleSeparators = []string{": ", " — ", " – ", " - "}

// enumOf reads a choice list: enum (with enumNames), or oneOf/anyOf of
// {const, title, description}. Labels are unique and never empty; a
// title that is the value followed by a description is split in two.
func enumOf(raw map[string]any) (choices []choice, ok bool) {
	if choices, ok = rawChoices(raw); !ok {
		return nil, false
	}
	if len(choices) > interaction.MaxOptions {
		choices = choices[:interaction.MaxOptions]
	}
	used := map[string]bool{}
	for i := range choices {
		c := &choices[i]
		label := choiceLabel(c)
		base := label
		for n := 2; used[label]; n++ {
			label = base + " (" + strconv.Itoa(n) + ")"
		}
		used[label] = true
		c.label = label
		c.desc = clip(strings.TrimSpace(c.desc), interaction.MaxDescriptionLen)
		c.preview = clip(c.preview, interaction.MaxPreviewLen)
	}
	return choices, true
}

// rawChoices returns the choices of a schema as sent: its "enum" (with
// "enumNames"), else the consts of its "oneOf" or "anyOf"; ok is false
// when it has none of them.
func rawChoices(raw map[string]any) (choices []choice, ok bool) {
	if e, isList := raw["enum"].([]any); isList {
		names, _ := raw["enumNames"].([]any)
		for i, v := range e {
			c := choice{value: v}
			if i < len(names) {
				c.label, _ = names[i].(string)
			}
			choices = append(choices, c)
		}
		return choices, true
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if list, isList := raw[k].([]any); isList {
			return constChoices(list), true
		}
	}
	return nil, false
}

// constChoices returns a choice for each schema of list with a "const".
func constChoices(list []any) (choices []choice) {
	for _, item := range list {
		m, _ := item.(map[string]any)
		v, has := m["const"]
		if !has {
			continue
		}
		c := choice{value: v}
		c.label, _ = m["title"].(string)
		c.desc, _ = m["description"].(string)
		meta, _ := m["_meta"].(map[string]any)
		opt, _ := meta[metaOption].(map[string]any)
		c.preview, _ = opt["preview"].(string)
		choices = append(choices, c)
	}
	return choices
}

// choiceLabel returns the label to show for c, within the limit: its
// title, or else its value. A title that is the value, a separator and
// more ("low - cheapest") shows the value, and the rest becomes the
// description when c has none.
func choiceLabel(c *choice) string {
	vt := valueText(c.value)
	label := strings.TrimSpace(c.label)
	if label == "" {
		label = vt
	}
	if vt != "" && label != vt {
		for _, sep := range titleSeparators {
			if rest, cut := strings.CutPrefix(label, vt+sep); cut && strings.TrimSpace(rest) != "" {
				label = vt
				if strings.TrimSpace(c.desc) == "" {
					c.desc = strings.TrimSpace(rest)
				}
				break
			}
		}
	}
	if label = strings.TrimSpace(clip(label, interaction.MaxLabelLen-12)); label == "" {
		return "(empty)"
	}
	return label
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
	for _, fd := range ask {
		header, question, detail := f.texts(fd)
		q := interaction.Question{ID: fd.qid, Header: header, Question: question}
		var lines []string
		if problem := problems[fd]; problem != "" {
			lines = append(lines, "⚠ "+problem)
		}
		lines = append(lines, detail...)
		if h := fd.hint(); h != "" {
			lines = append(lines, "*"+h+"*")
		}
		if fd == f.fields[0] && f.note != nil {
			lines = append(lines, "*A note on any answer goes to the agent as "+strconv.Quote(f.note.title0())+".*")
		}
		if fd.compKind == compReplace {
			lines = append(lines, "*A note cannot go with a choice here: to say more, answer with Other.*")
		}
		q.Detail = clip(strings.Join(lines, "\n\n"), interaction.MaxDetailLen)
		switch fd.kind {
		case fieldEnum, fieldMulti:
			for i, c := range fd.choices {
				if i == fd.otherAt {
					continue // the Other row stands in for it
				}
				q.Options = append(q.Options, interaction.Option{Label: c.label, Description: c.desc, Preview: c.preview})
			}
			q.MultiSelect = fd.kind == fieldMulti
			// The schema takes only the choices unless a companion
			// carries text.
			q.NoOther = fd.companion == nil
		case fieldBool:
			q.Options = []interaction.Option{{Label: "Yes"}, {Label: "No"}}
			q.NoOther = true
		default:
			// Text and numbers are typed: a free-text question.
		}
		req.Questions = append(req.Questions, q)
	}
	return req
}

// texts are a field's header, question and lines of detail, as the
// adapters' conventions put them: claude-agent-acp titles a field with
// the question's header and puts the question in the description (or, for
// one question, in the message); codex-acp puts the header in the
// description; deepseek-harness repeats the question in the message. The
// message goes with the first question, unless it repeats it.
func (f *form) texts(fd *field) (header, question string, detail []string) {
	title, desc := strings.TrimSpace(fd.title), strings.TrimSpace(fd.desc)
	if fd.companion != nil && strings.Contains(strings.ToLower(desc), "custom answer") {
		desc = "" // "Choose one option, or fill a custom answer below."
	}
	first := len(f.fields) > 0 && fd == f.fields[0]
	msg := ""
	if first {
		msg = f.message
	}
	_, codex := fd.meta["codex"]
	switch {
	case fd.compKind == compCustom:
		header = title
		switch {
		case desc != "":
			question, desc = desc, ""
		case msg != "" && len(f.fields) == 1:
			question, msg = msg, ""
		default:
			question, header = title, ""
		}
	case codex && title != "":
		question, header, desc = title, desc, ""
	case title == "" && desc == "" && msg != "" && len(f.fields) == 1:
		question, msg = msg, ""
	default:
		question = fd.questionText()
		if question == title && desc == title {
			desc = ""
		}
		if len(f.fields) == 1 && f.title != "" && f.title != question {
			header = f.title
		}
	}
	if question == "" {
		question = fd.questionText()
	}
	if msg != "" {
		if rest, ok := strings.CutPrefix(msg, question); ok {
			msg = strings.TrimSpace(rest)
		}
		if msg != "" {
			detail = append(detail, msg)
		}
	}
	if desc != "" && desc != question {
		detail = append(detail, desc)
	}
	if n := utf8.RuneCountInString(header); n > 64 || header == question {
		header = ""
	}
	return clip(header, interaction.MaxHeaderLen), clip(question, interaction.MaxQuestionLen), detail
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
	default:
		// A single choice or yes/no: its options say what it takes.
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
		if c, ok := fd.choiceOf(v); ok {
			return c, ""
		}
		return nil, "choose one of the options"
	case fieldMulti:
		return fd.checkMulti(v)
	case fieldBool:
		b, ok := v.(bool)
		if !ok {
			return nil, "answer yes or no"
		}
		return b, ""
	case fieldNumber, fieldInteger:
		return fd.checkNumber(v)
	default:
		return fd.checkText(v)
	}
}

// choiceOf returns the value of the choice that v is (as text).
func (fd *field) choiceOf(v any) (any, bool) {
	for _, c := range fd.choices {
		if valueText(c.value) == valueText(v) {
			return c.value, true
		}
	}
	return nil, false
}

// checkMulti is check for a multi-select field.
func (fd *field) checkMulti(v any) (any, string) {
	list, ok := v.([]any)
	if !ok {
		return nil, "choose from the options"
	}
	out := []any{}
	for _, x := range list {
		c, found := fd.choiceOf(x)
		if !found {
			return nil, "choose only from the options"
		}
		out = append(out, c)
	}
	if fd.minItems > 0 && len(out) < fd.minItems || fd.maxItems >= 0 && len(out) > fd.maxItems {
		return nil, "choose " + lengthWords(fd.minItems, fd.maxItems) + " options"
	}
	return out, ""
}

// checkNumber is check for a number or integer field.
func (fd *field) checkNumber(v any) (any, string) {
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
}

// checkText is check for a text field.
func (fd *field) checkText(v any) (any, string) {
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
		note := strings.TrimSpace(item.Note)
		v, set, problem := fd.value(item, content)
		if note != "" && (f.note != nil || !fd.takeNote(note, item, content)) {
			notes = append(notes, note)
		}
		switch {
		case problem != "":
			problems[fd] = problem
		case set:
			content[fd.key] = v
		case fd.hasDef:
			content[fd.key] = fd.def
		case fd.required && (fd.companion == nil || content[fd.companion.key] == nil):
			problems[fd] = "this one is required"
		}
	}
	if f.note != nil && len(notes) > 0 {
		content[f.note.key] = strings.Join(notes, "\n\n")
	}
	return content, problems
}

// takeNote puts the human's note where the field's companion takes one,
// and reports whether it did.
func (fd *field) takeNote(note string, item interaction.AnswerItem, content map[string]any) bool {
	if fd.companion == nil || fd.compKind == compReplace {
		return false
	}
	if strings.TrimSpace(item.Custom) != "" {
		// The companion carries the answer itself: the note follows it.
		content[fd.companion.key] = item.Custom + "\n\n" + note
	} else {
		content[fd.companion.key] = note
	}
	return true
}

// value reads the field's answer: the value, whether there is one, or a
// problem. "Other" text goes to the companion field when there is one.
func (fd *field) value(item interaction.AnswerItem, content map[string]any) (any, bool, string) {
	custom := strings.TrimSpace(item.Custom)
	switch fd.kind {
	case fieldEnum, fieldMulti:
		if custom != "" && fd.companion != nil {
			return fd.companionValue(item, content)
		}
		return fd.choiceValue(item, custom)
	case fieldBool:
		return boolValue(item, custom)
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

// companionValue is value for a choice whose "Other" text goes to its
// companion field.
func (fd *field) companionValue(item interaction.AnswerItem, content map[string]any) (any, bool, string) {
	content[fd.companion.key] = item.Custom
	if fd.otherAt < 0 {
		return nil, false, ""
	}
	// codex-acp reads the note field's text as the answer only beside
	// its "None of the above".
	v := fd.choices[fd.otherAt].value
	if fd.kind == fieldMulti {
		return []any{v}, true, ""
	}
	return v, true, ""
}

// choiceValue is value for a choice without a companion: the options
// selected, or those the "Other" text (custom) names.
func (fd *field) choiceValue(item interaction.AnswerItem, custom string) (any, bool, string) {
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
			if i := slices.IndexFunc(fd.choices, func(c choice) bool { return c.label == l }); i >= 0 {
				picked = append(picked, fd.choices[i].value)
			}
		}
	}
	switch {
	case len(picked) == 0:
		return nil, false, ""
	case fd.kind == fieldMulti:
		v, problem := fd.check(picked)
		return v, problem == "", problem
	case len(picked) > 1:
		return nil, false, "choose only one"
	default:
		return picked[0], true, ""
	}
}

// boolValue is value for a yes/no field: the option selected, or the
// "Other" text (custom).
func boolValue(item interaction.AnswerItem, custom string) (any, bool, string) {
	answer := custom
	if answer == "" && len(item.Selected) == 1 {
		answer = item.Selected[0]
	}
	switch strings.ToLower(answer) {
	case "":
		return nil, false, ""
	case "yes", "y", "true":
		return true, true, ""
	case "no", "n", "false":
		return false, true, ""
	default:
		return nil, false, "answer yes or no"
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
	for _, c := range fd.choices {
		if strings.EqualFold(c.label, text) || strings.EqualFold(valueText(c.value), text) {
			return c.value, true
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
