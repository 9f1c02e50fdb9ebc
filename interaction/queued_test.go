package interaction_test

import (
	"context"
	"testing"

	"github.com/asktui/asktui/interaction"
)

func TestQueued(t *testing.T) {
	interaction.Queued(context.Background()) // nothing to call: no panic
	n := 0
	ctx := interaction.WithQueued(context.Background(), func() { n++ })
	interaction.Queued(ctx)
	interaction.Queued(context.WithoutCancel(ctx)) // values pass through
	if n != 2 {
		t.Errorf("the function was called %d times, want 2", n)
	}
}
