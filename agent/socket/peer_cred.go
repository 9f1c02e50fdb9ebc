//go:build linux || darwin || freebsd

package socket

import "net"

// peerUID returns the uid of the process at the other end of nc, from the
// credentials the kernel kept of the server when it listened
// (fdPeerUID: SO_PEERCRED or LOCAL_PEERCRED).
func peerUID(nc net.Conn) (uid int, ok bool, err error) {
	uc, isUnix := nc.(*net.UnixConn)
	if !isUnix {
		return 0, false, nil
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0, false, err
	}
	var cerr error
	if err := raw.Control(func(fd uintptr) { uid, cerr = fdPeerUID(int(fd)) }); err != nil {
		return 0, false, err
	}
	if cerr != nil {
		return 0, false, cerr
	}
	return uid, true, nil
}
