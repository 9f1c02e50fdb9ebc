//go:build darwin || freebsd || netbsd

package rules

import (
	"syscall"
	"time"
)

// ctime is st's change time, which these systems call Ctimespec.
func ctime(st *syscall.Stat_t) time.Time {
	return time.Unix(int64(st.Ctimespec.Sec), int64(st.Ctimespec.Nsec)) //nolint:unconvert // int32 on some architectures
}
