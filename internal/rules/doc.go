// Package rules keeps the human's standing answers to permission
// requests: rules in Claude Code's permission-rule syntax (Bash(go
// test:*), Edit(src/**), WebFetch(domain:go.dev), mcp__github), each
// allowing or denying in one project directory, for any agent or for one
// agent's session, kept in a file the human can read and edit.
//
// A [Store] reads the rules file (refusing one that others can write or
// replace), notices at once when it changes, and decides a request's
// [interaction.Permission]: deny wins, an allow must cover every part of
// the call (every simple command of a compound shell command, parsed with
// mvdan.cc/sh and read as an allow-list of what the reader understands;
// every path, resolved; every file a redirection writes, as an edit), and
// anything it cannot read fails closed, to the human. [Wrap] puts a Store in front of a provider: a
// permission a rule decides is answered with the option the human would
// have chosen, reported as activity and recorded by the history with
// the rule; every other request goes to the human.
//
// docs/rules.md documents the syntax, the file and the threat model.
package rules
