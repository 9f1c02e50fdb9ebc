package cell

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The words every pane writes alike.

// Age formats how long a request has waited: "now", "45s", "3m", "2h".
func Age(d time.Duration) string {
	switch {
	case d < 5*time.Second:
		return "now"
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	default:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
}

// Plural formats "1 more line" or "3 more lines".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// FirstLine is s up to its first line break.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Duration formats a time left on a clock: "0:42", "1:05:00".
func Duration(d time.Duration) string {
	s := max(int(d.Round(time.Second)/time.Second), 0)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
