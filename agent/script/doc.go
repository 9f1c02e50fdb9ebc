// Package script is asktui's scripted demo agent: it plays scenarios in
// which one or more pretend agents work, report what they do and ask the
// human questions, and it can play the human's side too.
//
// A scripted agent reaches the screen only the way a real agent can: it
// asks through an [Asker] and reports activity through a [Reporter], both
// of which *interaction.Service implements. The package never imports the
// user interface; the interface drives autoplay by implementing
// [Keyboard].
//
// # Scenarios
//
// A scenario is a YAML file (JSON works too, being YAML):
//
//	name: setup                     # short name for the command line
//	title: "Scaffold a service"     # optional
//	description: "..."              # optional
//	agents:                         # one or more; they run concurrently
//	  - id: scaffold                # unique within the scenario
//	    name: "Project scaffolder"  # shown to the human; defaults to id
//	    steps:
//	      - say: "I'll set up the **billing** service."   # Markdown allowed
//	      - think: {for: 2s, text: "Reading the repository"}
//	      - think: 1.5s                                   # without a note
//	      - tool: {name: grep, args: {pattern: "TODO"}, for: 1s, result: "3 matches", failed: false}
//	      - ask:
//	          questions:
//	            - id: db
//	              header: "Storage"
//	              question: "Which database?"
//	              detail: "The **plan**: one table per tenant."  # Markdown
//	              options:
//	                - {label: "PostgreSQL (Recommended)", description: "Managed"}
//	                - {label: "MySQL", preview: "```sql\nCREATE TABLE …\n```"}
//	                - SQLite                              # a bare label
//	              multiSelect: false                      # or multi_select
//	          keys: ["down", "enter"]                     # autoplay only
//	      - when: {id: db, label: "SQLite", then: [{say: "A file it is."}], else: [{say: "Postgres."}]}
//	      - withdraw: {after: 4s, ask: {questions: [{id: q, question: "Still needed?"}]}}
//	      - wait: 1s
//
// Each step has exactly one action:
//
//   - say: a message.
//   - think: a spinner for a duration, with an optional note; the agent
//     reports thinking, then idle.
//   - tool: a tool call (name, optional args of any shape, reported as
//     compact JSON) that lasts "for" (default 0) and then reports its
//     result, failed or not.
//   - ask: a request in the shape of [interaction.Request] (a question's
//     optional Markdown "detail", an option's optional "preview"), checked
//     with [interaction.Request.Validate]; the agent waits for the answer
//     and remembers it by question id (a later ask of the same id
//     overrides). "keys" are the human's keystrokes for autoplay (see
//     [CheckKey]); answers are never scripted otherwise, so a note on an
//     answer is typed too ("n", the text, "enter").
//   - when: a branch on the latest outcome for question "id", which an
//     earlier ask of the same agent must have asked. Exactly one test:
//     label: L (L is selected), custom: true (any custom text), custom: T
//     (exactly T), skipped: true, declined: true (the human declined) or
//     withdrawn: true. Then "then" runs if it holds, else "else". A
//     question asked only in a branch that did not run has no outcome,
//     and no test holds for it.
//   - withdraw: asks, and withdraws the request "after" the delay unless
//     the human answered first; the outcome (answered or withdrawn) is
//     remembered as for ask.
//   - wait: a pause.
//
// Durations are Go duration strings such as "1.5s" or "800ms". Text in
// say, think notes, tool args and results may quote a remembered answer as
// {{answer.ID}}: the custom text, or the selected labels joined by ", ".
//
// Every mistake is a *[ParseError] that names the place and, when known,
// the line, with every name from the file quoted:
//
//	scenario "setup": line 12: agent "scaffold" step 3 (tool): "for": invalid duration "2x"; use a Go duration such as "1.5s" or "800ms"
//
// A file over [MaxFileBytes] or nested deeper than [MaxNesting] is refused
// before the YAML parser sees it ([ErrTooLarge], [ErrTooDeep]).
//
// goccy/go-yaml parses the file and decodes it, anchors resolved, into
// structs whose yaml tags are the keys each mapping may have; a semantic
// pass then reads each value in the forms it allows and checks what
// refers to what (when ids, {{answer.ID}}). Every message names the place
// of the node at fault, found by walking the file along the scenario's
// shape.
//
// The embedded scenarios ([Builtin]) are examples to copy; SCENARIOS.md
// next to this package is the reference for users.
//
// # Running
//
// A [Runner] runs every agent of a scenario concurrently against an Asker,
// and a [Player] presses each ask's keys, in the order the asks were sent,
// at a human pace. Both take a speed factor and an injectable clock.
package script
