// Package tui is asktui's terminal front end: one bubbletea program that
// shows the questions agents ask and collects the human's answers.
//
// [Ask] is the one call a Go program needs: it opens the controlling
// terminal, shows the questions, restores the terminal and returns the
// answer or a coded error. [AskCmd] does the same from a bubbletea program
// of your own, handing its screen over as tea.Exec does.
//
// A [Program] is the UI for many requests at once. Requests reach it only
// as messages: its [Program.Provider] implements interaction.Provider, and
// each Ask waits for the first of the human's answer, the end of the
// request's context (the question is withdrawn) and the end of the program
// (PROVIDER_CLOSED). Any number of Asks may wait at once; the program shows
// them in arrival order and says how many wait and from which agents. The
// provider refuses a request that interaction.Service would refuse, with
// the same coded error, so it may be asked directly.
//
// A Program is one of three views. With Options.Launcher it is the
// conversation view of `asktui run`: the agents' transcripts, a prompt
// editor, the agent picker, and their questions in an inbox. Else, with
// Options.Session, it is the session view of `serve`, `demo` and SSH: the
// inbox of waiting requests (answered in any order, drafts kept), the
// activity pane fed by interaction.Activity reports (the Provider is an
// interaction.ActivitySink), and the question panel. Without either, only
// the question panel is shown, as the one-shot `asktui ask` wants.
//
// A question's options are a [field.Choice], a huh.Field that draws only
// the rows on screen, so lists of 100,000 options stay fluid; a question
// without options is a text box. The panel drives them itself; in
// accessible mode each question is a huh form, which huh draws and drives.
// Agent-supplied text is passed through [Sanitize] before it is drawn, and
// drawn as Markdown (internal/markdown) wherever an agent wrote it.
package tui
