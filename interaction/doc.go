// Package interaction is the provider-neutral vocabulary through which AI
// agents ask a human structured questions.
//
// It owns the wire shapes ([Request], [Question], [Option], [Answer],
// [AnswerItem]), the coded errors every caller can branch on ([Error],
// [Code]), the limits a request must respect and the validation that
// enforces them ([Request.Validate], [Answer.Check], [DecodeRequest]), the
// one-word [Outcome] of a request ([Classify]), and the [Service] that
// routes requests to the single active [Provider].
//
// The package knows nothing of terminals or protocols and imports only the
// standard library (and asktui's standard-library-only internal packages):
// user interfaces implement [Provider], agent-side adapters call
// [Service.Ask]. interactiontest has a fake Provider for their tests; the
// vocabulary of a conversation the human drives (asktui run) is in the
// conversation subpackage.
//
// # Wire format
//
// A request names one or more questions, each with a stable id that is
// echoed back in the answer:
//
//	{"questions": [
//	  {"id": "db", "question": "Which database?", "header": "Storage",
//	   "options": [{"label": "Postgres"}, {"label": "SQLite", "description": "file based"}]},
//	  {"id": "notes", "question": "Anything else?"}
//	]}
//
// The answer carries one item per question, in request order:
//
//	{"answers": [
//	  {"id": "db", "selected": ["SQLite"]},
//	  {"id": "notes", "selected": [], "custom": "keep it small"}
//	]}
//
// "selected" holds option labels and is always an array, never null. A
// non-empty "custom" is free "Other" text that overrides the choices, so
// "selected" is then empty. A skipped question is {"id": "...", "selected": []}.
//
// # Errors
//
// Every failure carries a [Code] such as ASK_ABORTED or INVALID_REQUEST and
// a message written for the caller to act on, which is often a language
// model: messages name the question by its 1-based position and id, the
// field, the limit, and what to send instead. On the wire an error is
// wrapped in an [ErrorEnvelope]: {"error": {"code": "...", "message": "..."}}.
//
// # Limits
//
// The limits are generous and exist so that a confused or hostile caller
// cannot exhaust the user interface:
//
//   - [MaxQuestions]: 100 questions per request
//   - [MaxOptions]: 100,000 options per question
//   - [MaxIDLen]: 256 bytes per question id (and per agent id or name)
//   - [MaxHeaderLen]: 256 bytes per header
//   - [MaxQuestionLen]: 65,536 bytes of question text
//   - [MaxLabelLen]: 4,096 bytes per option label
//   - [MaxDescriptionLen]: 16,384 bytes per option description
//   - [MaxCustomLen]: 65,536 bytes of free "Other" text in an answer
//   - [MaxRequestBytes]: 64 MiB for a whole encoded request
package interaction
