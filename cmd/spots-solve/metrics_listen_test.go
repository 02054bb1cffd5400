package main

import (
	"strings"
	"testing"
)

// TestMetricsListenBadAddress: --metrics-listen takes host:port; anything
// else is a usage error naming the flag, before anything starts.
func TestMetricsListenBadAddress(t *testing.T) {
	for _, addr := range []string{"7403", "localhost", "a:b:c"} {
		status, _, stderr := runCmd(t, "--algorithm", "swarm", "--key", "x12345678", "--metrics-listen", addr, "0*8")
		if status != 2 || !strings.Contains(stderr, "--metrics-listen") {
			t.Errorf("--metrics-listen %q: exit %d, %s", addr, status, stderr)
		}
	}
}
