package history

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/asktui/asktui/interaction"
)

// Asked is the outcome of a record written when a request arrives, before
// it has an outcome: the record of its outcome follows with the same
// [Record.ID], and readers then drop the Asked one (see [Read]). An Asked
// record with no outcome after it is a request that was still waiting when
// asktui stopped (or is waiting still).
const Asked interaction.Outcome = "asked"

// Record is one request and how it ended: one line of the log.
type Record struct {
	// ID ties the record of a request's outcome to the [Asked] record
	// written when it arrived. It is unique within a history; records
	// written before asktui kept Asked records have none.
	ID string `json:"id,omitempty"`
	// Time is when the request arrived.
	Time time.Time `json:"time"`
	// Agent is who asked, when known.
	Agent *interaction.Agent `json:"agent,omitempty"`
	// Outcome says how the request ended (see [interaction.Classify]), or
	// is [Asked].
	Outcome interaction.Outcome `json:"outcome"`
	// Waited is how long the request waited for its outcome.
	Waited Duration `json:"waited"`
	// Error is the failure, for every outcome but answered and skipped.
	Error *interaction.Error `json:"error,omitempty"`
	// Answer is the human's answer, for the outcomes answered and skipped.
	Answer *interaction.Answer `json:"answer,omitempty"`
	// Draft is what the human had typed or selected when the request ended
	// without an answer, when the user interface knows it (see
	// [DraftError]).
	Draft *interaction.Answer `json:"draft,omitempty"`
	// By names the view that answered or declined, when the request was
	// shown on several (asktui serve's terminal and SSH sessions).
	By string `json:"by,omitempty"`
	// Drafts are what the other views had drafted when the request ended,
	// by view name: nothing typed on a view that lost the race is lost.
	Drafts map[string]interaction.Answer `json:"drafts,omitempty"`
	// Rule is the human's standing rule that answered the request in
	// their stead, when one did (see [Ruler]); the answer is then the
	// option the human would have chosen, and By is empty. When
	// Rule.Saved is set it is instead the rule the human saved from this
	// request while it waited (asktui serve's remember dialog, which then
	// answers it): the answer is the human's, given on the view By names.
	Rule *Ruling `json:"rule,omitempty"`
	// Permission is the tool call a permission request was about, when
	// the request came from asktui's hooks or asktui run (see
	// [interaction.Permission]; the request's own JSON leaves it out).
	Permission *interaction.Permission `json:"permission,omitempty"`
	// Truncated is set when the request was too large to log whole and
	// Request keeps only each question's id, header and the start of its
	// text (see [MaxLineBytes]).
	Truncated bool `json:"truncated,omitempty"`
	// Request is the request as the provider received it.
	Request interaction.Request `json:"request"`
}

// Ruling says which of the human's standing rules answered a request.
type Ruling struct {
	// Number is the rule's place among the rules of the rules file, from 1,
	// when the request was answered ("rule 3"); it changes as rules are
	// added and removed, Rule does not.
	Number int `json:"number"`
	// Rule is the rule as the rules file has it, such as
	// "allow ~/src/app Bash(go test:*)". When several rules together
	// allowed a compound command, they are joined by "; ".
	Rule string `json:"rule"`
	// Saved says the human saved the rule from this request while it
	// waited (the remember dialog), rather than the rule answering it:
	// the answer is the human's. When several were saved, Number is the
	// last one's and Rule joins them by "; ".
	Saved bool `json:"saved,omitempty"`
}

// Duration is a time.Duration that encodes in JSON as a Go duration string
// such as "12.5s". It decodes from such a string or from a number of
// milliseconds.
type Duration time.Duration

// String returns the duration as time.Duration formats it.
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalJSON encodes the duration as a string such as "12.5s".
func (d Duration) MarshalJSON() ([]byte, error) {
	return []byte(strconv.Quote(d.String())), nil
}

// UnmarshalJSON decodes a Go duration string or a number of milliseconds.
func (d *Duration) UnmarshalJSON(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	switch v := v.(type) {
	case string:
		p, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("history: \"waited\" must be a duration such as \"12.5s\": %w", err)
		}
		*d = Duration(p)
	case float64:
		*d = Duration(v * float64(time.Millisecond))
	case nil:
		// null leaves d unchanged, as encoding/json does.
	default:
		return fmt.Errorf("history: \"waited\" must be a duration string such as \"12.5s\" or a number of milliseconds")
	}
	return nil
}

// DraftError is implemented by errors that carry what the human had typed
// or selected when the request ended without an answer. A provider that
// knows drafts returns an error implementing it (found with errors.As, so
// it may be wrapped) from Ask, and the record keeps the draft.
type DraftError interface {
	Draft() *interaction.Answer
}
