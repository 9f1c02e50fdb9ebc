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
	maxErrorShown    = 160
)

// Format writes recs for a human, one block per record separated by blank
// lines: a line with the local time the record was written, the agent, the
// outcome, and when the request was asked and how long it waited; then one line per question (its header, or else its text, cut to
// one line) with its answer (the selected labels, custom text in quotes, or
// "skipped"), or else what the draft of a request that ended without an
// answer held, marked "(draft)", or "-"; the rule that answered, if one
// did; and the error message.
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
	if r.Rule != nil {
		_, _ = w.WriteString("  by rule " + strconv.Itoa(r.Rule.Number) + ": " + clean(r.Rule.Rule, maxAnswerShown) + "\n")
	}
	if r.Error != nil {
		msg := r.Error.Message
		if msg == "" {
			msg = string(r.Error.Code)
		}
		_, _ = w.WriteString("  error: " + clean(msg, maxErrorShown) + "\n")
	}
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
