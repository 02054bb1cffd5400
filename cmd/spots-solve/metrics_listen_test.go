package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/spots-dev/spots/internal/cmdtest"
)

// TestMetricsListenBadAddress: --metrics-listen takes host:port; anything
// else is a usage error naming the flag, before anything starts.
func TestMetricsListenBadAddress(t *testing.T) {
	for _, addr := range []string{"7403", "localhost", "a:b:c"} {
		status, _, stderr := cmdtest.Run(t, func(args []string, stdout, stderr io.Writer) int {
			return run(context.Background(), args, stdout, stderr)
		}, "--algorithm", "swarm", "--key", "x12345678", "--metrics-listen", addr, "0*8")
		if status != 2 || !strings.Contains(stderr, "--metrics-listen") {
			t.Errorf("--metrics-listen %q: exit %d, %s", addr, status, stderr)
		}
	}
}
