//go:build darwin || freebsd

package socket

import "golang.org/x/sys/unix"

// fdPeerUID reads the peer's uid from LOCAL_PEERCRED.
func fdPeerUID(fd int) (int, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}
