// Package question is the question panel: the request shown, one question
// at a time (its text, the call approved, its field and the preview of
// the option under the cursor), its review step or plan review, and the
// dialogs over it (confirmation, note, remember). The program owns the
// requests; the panel reads and answers them through its Host.
package question
