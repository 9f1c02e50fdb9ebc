package interaction

import "context"

// queuedKey is the context key of the function WithQueued carries.
type queuedKey struct{}

// WithQueued returns a copy of ctx that carries f, for a caller that must
// know when a request it asks with the copy has taken its place in line:
// the provider calls [Queued] once a request asked after this one would be
// shown after it. The socket server uses it to hand a connection's
// requests to the inbox in the order they were sent without waiting for
// their answers. f must not block; it may be called more than once.
func WithQueued(ctx context.Context, f func()) context.Context {
	return context.WithValue(ctx, queuedKey{}, f)
}

// Queued tells the caller of Ask that the request asked with ctx has taken
// its place in line (see [WithQueued]). A provider that queues requests
// calls it once the request is queued; it does nothing when ctx carries no
// such function.
func Queued(ctx context.Context) {
	if f, ok := ctx.Value(queuedKey{}).(func()); ok && f != nil {
		f()
	}
}
