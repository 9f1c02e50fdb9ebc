package tui

import "github.com/asktui/asktui/tui/internal/cell"

// Sanitize makes agent-supplied text inert for the terminal: escape
// sequences go and leave a mark (␛), controls and bidirectional controls
// become visible stand-ins, and tabs become spaces to the next multiple
// of 4 cells. It is internal/sanitize's Strip with cells measured as
// the screen measures them (ansi.StringWidth).
func Sanitize(s string) string { return cell.Sanitize(s) }

// SanitizeLine is [Sanitize] for one-line places such as tab titles and
// inbox rows: newlines become spaces as well.
func SanitizeLine(s string) string { return cell.SanitizeLine(s) }
