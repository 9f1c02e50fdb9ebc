// Package history keeps a log of every request put to the human and how it
// ended, so that nothing the human answered is ever lost: an agent's client
// may time out or go away, but the answer can still be found afterwards.
//
// The log is a JSONL file (one [Record] per line, see [DefaultPath]) written
// by [Log]: each record is one write of a whole line followed by an fsync,
// so a crash can tear at most the last line, and [Read] skips torn lines
// instead of failing. [Wrap] puts a [Log] in front of an
// [interaction.Provider] so that every Ask is recorded twice: as [Asked]
// when it arrives (a process killed while questions wait leaves a trace of
// each), and with its [interaction.Outcome] when it ends; readers drop an
// Asked record once its outcome follows. [Format] prints records for a
// human, with every control character shown as U+FFFD (internal/sanitize's
// Replace).
//
// Nothing is lost silently: a record that cannot be written is handed to
// Wrap's onError, and a file renamed or deleted under the log (rotation)
// is opened afresh. The log is only ever a regular file of the current
// user's, opened without following symbolic links; [Open] refuses anything
// else ([ErrRefused]).
//
// # Format
//
// Each line is one JSON object. Small fields come first so that a line can
// be read at a glance; the request, which may be large, comes last:
//
//	{"id":"3f9c1a-7","time":"2025-06-01T14:03:07.25+02:00","agent":{"id":"s1","name":"claude"},"outcome":"answered","waited":"12.5s","answer":{"answers":[{"id":"db","selected":["SQLite"]}]},"request":{"questions":[{"id":"db","question":"Which database?","options":[{"label":"Postgres"},{"label":"SQLite"}]}],"agent":{"id":"s1","name":"claude"}}}
//
// "id" ties an outcome to its "asked" record. "waited" is a Go duration
// string (see [Duration]). "answer" is present
// for the outcomes answered and skipped, "error" ({"code","message"}) for
// the others, and "draft" when a withdrawn request had a partial answer.
// "by" names the view that answered or declined, "permission" is the tool
// call of a permission request, and "rule" the standing rule that answered
// it ({"number","rule"}), or with "saved": true the rule the human saved
// from it while it waited. Readers must ignore fields they do not know.
package history
