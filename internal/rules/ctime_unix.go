//go:build unix && !darwin && !freebsd && !netbsd

package rules

import (
	"syscall"
	"time"
)

// ctime is st's change time, which these systems call Ctim.
func ctime(st *syscall.Stat_t) time.Time {
	return time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec)) //nolint:unconvert // int32 on some architectures
}
