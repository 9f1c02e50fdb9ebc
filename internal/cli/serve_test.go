package cli

import (
	"testing"
	"time"
)

func TestProgressIntervalZeroIsOff(t *testing.T) {
	for _, tt := range []struct {
		flag    time.Duration
		want    time.Duration
		wantErr bool
	}{
		{flag: 0, want: -1}, // mcp.Options: negative sends none, zero the default
		{flag: 15 * time.Second, want: 15 * time.Second},
		{flag: -time.Second, wantErr: true},
	} {
		got, err := progressInterval(tt.flag)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("progressInterval(%v) = %v, %v; want %v (error %v)", tt.flag, got, err, tt.want, tt.wantErr)
		}
	}
}
