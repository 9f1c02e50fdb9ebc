package history

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/sanitize"
)

// Limits on what one line of [Format] shows, in characters.
const (
	maxQuestionShown = 60
	maxAnswerShown   = 120
	maxCallShown     = 120
	maxErrorShown    = 160
)

// Format writes recs for a human, one block per record separated by blank
// lines:
//
//   - a line with the local time the record was written, the agent, the
//     outcome, and when the request was asked and how long it waited;
//   - for a permission request, the call it is about (the tool, and the
//     command's first line, the files, the URL or the MCP tool: see
//     [interaction.Permission.Summary]) and a line with the answer; for
//     any other request one line per question (its header, or else its
//     text, cut to one line) with its answer. An answer is the selected
//     labels, custom text in quotes, or "skipped"; for a request that
//     ended without one, what its draft held, marked "(draft)", or "-";
//   - a line saying what settled it, in words for a person: "answered by
//     the human on this terminal", "answered by rule 3: allow …" (one of
//     the human's standing rules answered), "…, saving rule 4: allow …"
//     (the human saved a rule from it, through the remember dialog),
//     "declined by the human", "timed out: no answer within 1s",
//     "withdrawn: …", "settled elsewhere: …", "closed: …", or for any other
//     failure "failed: CODE: message". The message of a decline is not
//     shown: it was written for the agent.
//
// Agent-supplied text is printed inert: control characters, escape
// sequences and bidirectional overrides become U+FFFD.
//
// The time that leads a block is when the request ended (arrival plus the
// time waited), or for an [Asked] record when it arrived: the time of the
// record's line, so the records of a history, in the order [Read] returns
// them, are in the order of their times.
func Format(w io.Writer, recs []Record) error {
	return format(w, recs, time.Local)
}

// format is Format in the time zone loc.
func format(w io.Writer, recs []Record, loc *time.Location) error {
	bw := bufio.NewWriter(w)
	for i, r := range recs {
		if i > 0 {
			_ = bw.WriteByte('\n')
		}
		formatRecord(bw, r, loc)
	}
	return bw.Flush()
}

func formatRecord(w *bufio.Writer, r Record, loc *time.Location) {
	agent := "(no agent)"
	if r.Agent != nil {
		agent = clean(r.Agent.DisplayName(), maxQuestionShown)
	}
	outcome := string(r.Outcome)
	if outcome == "" {
		outcome = "unknown"
	}
	asked := r.Time.In(loc)
	stamp, waited := asked, "  no outcome recorded: still waiting, or asktui stopped first"
	if r.Outcome != Asked {
		stamp = r.Time.Add(time.Duration(r.Waited)).In(loc)
		when := asked.Format(time.TimeOnly)
		if asked.YearDay() != stamp.YearDay() || asked.Year() != stamp.Year() {
			when = asked.Format(time.DateTime)
		}
		waited = "  asked " + when + ", waited " + roundWait(time.Duration(r.Waited)).String()
	}
	_, _ = w.WriteString(stamp.Format(time.DateTime) + "  " + agent + "  " +
		clean(outcome, maxQuestionShown) + waited)
	if r.Truncated {
		_, _ = w.WriteString("  (request shortened)")
	}
	_ = w.WriteByte('\n')

	ans, draft := r.Answer, false
	if ans == nil && r.Draft != nil {
		ans, draft = r.Draft, true
	}
	if call := callText(r.Permission); call != "" {
		_, _ = w.WriteString("  " + call + "\n")
		if a := itemText(ans, r.Permission.Question, draft); a != "-" {
			_, _ = w.WriteString("  answer: " + a + "\n")
		}
	} else {
		for _, q := range r.Request.Questions {
			title := q.Header
			if strings.TrimSpace(title) == "" {
				title = q.Question
			}
			if strings.TrimSpace(title) == "" {
				title = q.ID
			}
			_, _ = w.WriteString("  " + clean(title, maxQuestionShown) + ": " + itemText(ans, q.ID, draft) + "\n")
		}
	}
	if s := settled(r); s != "" {
		_, _ = w.WriteString("  " + s + "\n")
	}
}

// callText names the call a permission request was about, "Bash: go test
// ./...", or is "" when p names nothing a person could tell it by (the
// question then names it).
func callText(p *interaction.Permission) string {
	sum := p.Summary(maxCallShown)
	if sum == "" {
		return ""
	}
	if strings.TrimSpace(p.Tool) == "" {
		return sum
	}
	return clean(p.Tool, maxQuestionShown) + ": " + sum
}

// settled says what settled the request, for a person: who answered or
// declined it and where (the human on a view, or one of their standing
// rules), or why it ended without an answer; "" when the record does not
// tell (an answer recorded without its view) or the request still waits.
func settled(r Record) string {
	on := ""
	if r.By != "" {
		on = " on " + clean(r.By, maxQuestionShown)
	}
	rule, byRule := "", r.Rule != nil && !r.Rule.Saved
	if r.Rule != nil {
		rule = "rule " + strconv.Itoa(r.Rule.Number) + ": " + clean(r.Rule.Rule, maxAnswerShown)
	}
	msg := ""
	if r.Error != nil {
		msg = r.Error.Message
	}
	var what string
	switch r.Outcome {
	case Asked:
		return ""
	case interaction.OutcomeAnswered, interaction.OutcomeSkipped, interaction.OutcomeDeclined:
		verb := string(r.Outcome)
		switch {
		case byRule:
			return verb + " by " + rule
		case r.Rule != nil:
			return verb + " by the human" + on + ", saving " + rule
		case r.By != "" || r.Outcome == interaction.OutcomeDeclined:
			// The decline's message was the agent's to read.
			return verb + " by the human" + on
		}
		return ""
	case interaction.OutcomeWithdrawn:
		if rest, ok := strings.CutPrefix(msg, "the request was withdrawn"); ok {
			// ASK_ABORTED's own words: "withdrawn by its caller: …".
			return clean("withdrawn"+rest, maxErrorShown)
		}
		what = "withdrawn"
	case interaction.OutcomeElsewhere:
		what = "settled elsewhere"
	case interaction.OutcomeTimeout:
		what = "timed out"
	case interaction.OutcomeClosed:
		what = "closed"
	case interaction.OutcomeFailed:
		if r.Error == nil {
			return "failed"
		}
		what, msg = "failed", r.Error.Error()
	default:
		if r.Error == nil {
			return ""
		}
		what, msg = "failed", r.Error.Error()
	}
	if strings.TrimSpace(msg) == "" {
		return what
	}
	return what + ": " + clean(msg, maxErrorShown)
}

// itemText shows the answer to question id: "-" with no answer or nothing
// in the draft for it, else the item's text, marked when from a draft.
func itemText(ans *interaction.Answer, id string, draft bool) string {
	if ans == nil {
		return "-"
	}
	item, ok := ans.Get(id)
	switch {
	case !draft:
		return answerText(item) // a missing item is a skipped question
	case !ok || item.Skipped():
		return "-"
	default:
		return answerText(item) + " (draft)"
	}
}

// answerText shows one answer item: custom text in quotes, the selected
// labels separated by commas, or "skipped".
func answerText(item interaction.AnswerItem) string {
	switch {
	case item.Custom != "":
		return `"` + clean(item.Custom, maxAnswerShown) + `"`
	case len(item.Selected) == 0:
		return "skipped"
	default:
		return clean(strings.Join(item.Selected, ", "), maxAnswerShown)
	}
}

// roundWait rounds d for display: to the millisecond under a second, to a
// tenth of a second above.
func roundWait(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(100 * time.Millisecond)
}

// clean makes untrusted text safe and short for one line of a terminal:
// history's output policy is [sanitize.Replace], which shows every control
// as U+FFFD rather than hiding it.
func clean(s string, limit int) string { return sanitize.Replace(s, limit) }
