package socket

import (
	"fmt"
	"net"

	"github.com/asktui/asktui/interaction"
)

// untrusted is the UNTRUSTED error a client gives before it sends anything
// to a socket it cannot show to be the current user's.
func untrusted(path, format string, args ...any) error {
	return interaction.Errorf(interaction.CodeUntrusted,
		"refusing the socket %s: %s; nothing was sent to it", path, fmt.Sprintf(format, args...))
}

// verifyPeer checks that the process at the other end of nc runs as uid,
// when the platform can tell (see peerUID); elsewhere the checks of the
// socket's file and directory (verifyPath) are all there is.
func verifyPeer(nc net.Conn, path string, uid int) error {
	got, ok, err := peerUID(nc)
	switch {
	case err != nil:
		return untrusted(path, "cannot learn which user serves it (%v)", err)
	case !ok || uid < 0:
		return nil
	case got != uid:
		return untrusted(path, "it is served by another user (uid %d, you are uid %d), who would read your questions and could forge the answers; stop that process or choose another socket path", got, uid)
	}
	return nil
}
