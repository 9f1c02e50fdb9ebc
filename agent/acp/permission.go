package acp

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff"
	sdk "github.com/coder/acp-go-sdk"
	"mvdan.cc/sh/v3/syntax"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/internal/markdown"
	"github.com/asktui/asktui/internal/sanitize"
)

// permissionID is the id of a permission request's one question.
const permissionID = "permission"

// RequestPermission asks the human whether the agent may make a tool call:
// a single-select question whose options are the agent's, those that
// decide this one call first (see [optionRank]). Anything but choosing
// one of them (declining, skipping, the turn being cancelled, asktui's own
// "None of these") answers "cancelled"; asktui never picks a reject option
// on the human's behalf. The question takes no text of the human's own
// (NoOther): the protocol has no place for it.
func (c *session) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	cancelled := sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}
	tool := c.mergeTool(p.ToolCall, true)
	if qs, submit := qwenQuestions(p); qs != nil { // Qwen Code's own question (qwen.go)
		if resp, ok := c.askQwen(ctx, qs, submit); ok {
			return resp, nil
		}
	}
	req, offered := permissionRequest(tool, p.Options)
	if req == nil {
		return cancelled, nil
	}
	req.Agent = c.agent()
	if rule := permissionRule(tool, offered, req.Questions[0].ID, c.opts.Cwd, req.Agent.ID); rule != nil {
		req.Permission = rule
		if req.Validate() != nil {
			req.Permission = nil // a call the rules cannot read is asked as ever
		}
	}
	ctx, done := c.askCtx(ctx)
	defer done()
	ans, err := c.opts.Asker.Ask(ctx, *req)
	if err != nil {
		return cancelled, nil
	}
	item, ok := ans.Get(permissionID)
	if !ok || item.Custom != "" || len(item.Selected) != 1 {
		return cancelled, nil
	}
	for _, o := range offered {
		if o.label == item.Selected[0] {
			return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(o.id)}, nil
		}
	}
	return cancelled, nil
}

// offeredOption is one of the agent's options as the question offers it.
type offeredOption struct {
	label string
	id    sdk.PermissionOptionId
	kind  sdk.PermissionOptionKind
}

// noneLabel is asktui's own option, first when none of the agent's
// options decides this one call only: it answers "cancelled".
const noneLabel = "None of these"

// optionRank orders a permission's options for the human. The question's
// cursor starts on its first option, so that Enter at once on a fresh
// question grants nothing beyond the call on screen: the option that
// allows this one call comes first, then the one that rejects it, then
// kinds asktui does not know, and last those that decide from now on.
// reject_always is among those: it widens nothing that is allowed, but
// it is a standing decision about calls not yet made (Qwen Code's, say:
// never run this tool), which a human makes on purpose or not at all.
// Among equals the agent's order stands.
func optionRank(k sdk.PermissionOptionKind) int {
	switch k {
	case sdk.PermissionOptionKindAllowOnce:
		return 0
	case sdk.PermissionOptionKindRejectOnce:
		return 1
	case sdk.PermissionOptionKindAllowAlways, sdk.PermissionOptionKindRejectAlways:
		return 3
	}
	return 2
}

// permissionRequest is the question for a permission request, and the
// agent's options in the question's order; nil when the agent offered
// no options. When none of them decides this one call only (allow_once,
// reject_once), asktui's own "None of these" comes first, so that the
// cursor never starts on an option that decides more.
func permissionRequest(tool conversation.ToolCall, opts []sdk.PermissionOption) (*interaction.Request, []offeredOption) {
	if len(opts) == 0 {
		return nil, nil
	}
	// ACP's answer to a permission request is one of its options: there
	// is no place for text of the human's own.
	q := interaction.Question{ID: permissionID, Header: "Permission", Detail: toolDetail(tool), NoOther: true}
	// The title names what is approved: shown exactly, whatever it
	// holds, made visible.
	title := sanitize.Visible(strings.TrimSpace(tool.Title))
	if title == "" {
		title = "a " + string(tool.Kind) + " tool call"
	}
	q.Question = "Allow " + title
	if !strings.HasSuffix(title, "?") {
		q.Question += "?"
	}
	q.Question = clip(q.Question, interaction.MaxQuestionLen)
	taken := make(map[string]bool, len(opts)+1)
	offered := make([]offeredOption, 0, len(opts))
	for i, o := range opts {
		label := strings.TrimSpace(clip(o.Name, interaction.MaxLabelLen-8))
		if label == "" {
			label = strings.TrimSpace(clip(string(o.OptionId), interaction.MaxLabelLen-8))
		}
		if label == "" {
			label = "Option " + strconv.Itoa(i+1)
		}
		base := label
		for n := 2; taken[label]; n++ {
			label = base + " (" + strconv.Itoa(n) + ")"
		}
		taken[label] = true
		offered = append(offered, offeredOption{label: label, id: o.OptionId, kind: o.Kind})
	}
	slices.SortStableFunc(offered, func(a, b offeredOption) int { return optionRank(a.kind) - optionRank(b.kind) })
	if optionRank(offered[0].kind) > 1 {
		none := noneLabel
		for n := 2; taken[none]; n++ {
			none = noneLabel + " (" + strconv.Itoa(n) + ")"
		}
		q.Options = append(q.Options, interaction.Option{Label: none, Description: "decide nothing: the agent is told the request was cancelled"})
	}
	for _, o := range offered {
		q.Options = append(q.Options, interaction.Option{Label: o.label, Description: kindWords(o.kind)})
	}
	return &interaction.Request{Questions: []interaction.Question{q}}, offered
}

// permissionRule describes an ACP tool call for the human's standing
// rules: its kind (ACP names no tools), the command of its input quoted
// back into one shell line, the files of its locations, the URL of its
// input, where it works, the conversation as its session, the question's
// id, and the labels of the agent's first allow-once and reject-once
// options (a rule never picks an "always" option). Nil when the agent
// offered neither.
func permissionRule(tool conversation.ToolCall, offered []offeredOption, question, cwd, session string) *interaction.Permission {
	p := &interaction.Permission{
		Client: interaction.ClientACP, Tool: string(tool.Kind), Kind: interaction.ToolKind(interaction.ClientACP, string(tool.Kind)),
		Cwd: cwd, Session: session, Question: question,
	}
	for _, o := range offered {
		switch {
		case o.kind == sdk.PermissionOptionKindAllowOnce && p.Allow == "":
			p.Allow = o.label
		case o.kind == sdk.PermissionOptionKindRejectOnce && p.Deny == "":
			p.Deny = o.label
		}
	}
	if p.Allow == "" && p.Deny == "" {
		return nil
	}
	switch p.Kind {
	case interaction.KindExecute:
		p.Command = shellLine(tool.Input)
	case interaction.KindEdit, interaction.KindRead:
		for _, l := range tool.Locations {
			p.Paths = append(p.Paths, l.Path)
		}
	case interaction.KindFetch:
		var in struct {
			URL string `json:"url"`
		}
		if json.Unmarshal([]byte(tool.Input), &in) == nil {
			p.URL = in.URL
		}
	case interaction.KindMCP, interaction.KindOther: // known by the kind alone
	}
	return p
}

// shellLine is the command of a tool call's input as one shell command
// line: a string as it is, an argument vector with each word quoted, so
// that the line runs exactly those words ("" when a word cannot be
// quoted, or there is no command: no rule allows it then).
func shellLine(input string) string {
	var in struct {
		Command json.RawMessage `json:"command"`
	}
	if json.Unmarshal([]byte(input), &in) != nil || in.Command == nil {
		return ""
	}
	var line string
	if json.Unmarshal(in.Command, &line) == nil {
		return line
	}
	var argv []string
	if json.Unmarshal(in.Command, &argv) != nil {
		return ""
	}
	words := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			return ""
		}
		words[i] = q
	}
	return strings.Join(words, " ")
}

// kindWords says what a permission option's kind means.
func kindWords(k sdk.PermissionOptionKind) string {
	switch k {
	case sdk.PermissionOptionKindAllowOnce:
		return "allow this once"
	case sdk.PermissionOptionKindAllowAlways:
		return "from now on: allows this call and later ones like it"
	case sdk.PermissionOptionKindRejectOnce:
		return "reject this once"
	case sdk.PermissionOptionKindRejectAlways:
		return "from now on: rejects this call and later ones like it"
	}
	return ""
}

// toolDetail is what a permission question shows of the tool call, as
// Markdown: where it works, its diffs, its command or input. Paths,
// diffs, commands and input are shown exactly, in code their own
// backticks cannot close, with every character that would act on the
// terminal or not show made visible ([sanitize.Visible]); only the
// agent's prose is left for the screen to neutralise.
func toolDetail(t conversation.ToolCall) string {
	v := sanitize.Visible
	var b strings.Builder
	for _, l := range t.Locations {
		b.WriteString("- " + markdown.Code(v(l.Path)))
		if l.Line > 0 {
			b.WriteString(":" + strconv.Itoa(l.Line))
		}
		b.WriteString("\n")
	}
	shown := false
	for _, tc := range t.Content {
		switch {
		case tc.Diff != nil:
			old := ""
			if tc.Diff.Old != nil {
				old = *tc.Diff.Old
			}
			b.WriteString("\n" + markdown.Fence("diff", v(udiff.Unified(tc.Diff.Path, tc.Diff.Path, old, tc.Diff.New))))
			shown = true
		case tc.Text != "":
			b.WriteString("\n" + tc.Text + "\n")
			shown = true
		}
	}
	if !shown && t.Input != "" {
		if cmd := commandOf(t.Input); cmd != "" {
			b.WriteString("\n" + markdown.Fence("sh", v(cmd)))
		} else {
			b.WriteString("\n" + markdown.Fence("json", v(t.Input)))
		}
	}
	return clip(strings.TrimSpace(b.String()), interaction.MaxDetailLen)
}

// commandOf is the command of a tool call's input, when it has one.
func commandOf(input string) string {
	var in struct {
		Command any `json:"command"`
	}
	if json.Unmarshal([]byte(input), &in) != nil {
		return ""
	}
	switch v := in.Command.(type) {
	case string:
		return v
	case []any:
		var parts []string
		for _, p := range v {
			if s, ok := p.(string); ok {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, " ")
	}
	return ""
}
