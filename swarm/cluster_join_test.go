package swarm

import (
	"errors"
	"testing"
)

// TestUnreachable: a join is retried while nothing answers at the address
// or its name does not resolve yet (a Kubernetes headless Service before
// the master's pod exists), and not after any other failure (a wrong key).
func TestUnreachable(t *testing.T) {
	tests := []struct {
		err  string
		want bool
	}{
		{"1 error occurred: dial tcp 127.0.0.1:7401: connect: connection refused", true},
		{"dial tcp: lookup spots-gossip on 10.96.0.10:53: no such host", true},
		{"dial tcp 10.0.0.1:7401: i/o timeout", true},
		{"dial tcp 10.0.0.1:7401: connect: no route to host", true},
		{"lookup spots-gossip: server misbehaving", true},
		{"No installed keys could decrypt the message", false},
		{"Remote state is encrypted and encryption is not configured", false},
		{"EOF", false},
	}
	for _, tt := range tests {
		if got := unreachable(errors.New(tt.err)); got != tt.want {
			t.Errorf("unreachable(%q) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
