package swarm

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"
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

// TestJoinNobody: a join that nothing answers for all of JoinWait fails
// with an error wrapping ErrNoMaster, which spots-solve worker tells
// apart (exit 1, "no master") from a wrong key.
func TestJoinNobody(t *testing.T) {
	key, err := NewKey("join-nobody")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	nobody := ln.Addr().String()
	ln.Close()
	m, err := StartMember(context.Background(), MemberConfig{Name: "w", Bind: "127.0.0.1:0", Key: key, Join: []string{nobody}, JoinWait: 300 * time.Millisecond})
	if err == nil {
		m.Leave()
		t.Fatalf("joined at %s, where nothing listens", nobody)
	}
	if !errors.Is(err, ErrNoMaster) {
		t.Errorf("%v: does not wrap ErrNoMaster", err)
	}
}
