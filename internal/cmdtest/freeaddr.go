package cmdtest

import (
	"errors"
	"math/rand/v2"
	"net"
	"strconv"
	"sync"
)

// Ports for tests are taken below Linux's ephemeral range (32768–60999
// by default). A port the kernel handed out for ":0" lies inside that
// range, so once the test closes its listener any outgoing connection of
// a test running beside it may be given the same port before the
// command under test binds it ("address already in use"); a port below
// the range is only ever taken by a process that asks for it by number.
const (
	portLow  = 20000
	portHigh = 32000
)

var (
	portMu   sync.Mutex
	portNext = portLow + rand.IntN(portHigh-portLow) // a random start: test processes beside each other start apart
)

// FreeAddr returns an address 127.0.0.1:PORT whose port is free now for
// both TCP and UDP (memberlist gossips over both on one port), and that
// no earlier call of this process returned.
func FreeAddr() (string, error) {
	portMu.Lock()
	defer portMu.Unlock()
	for range portHigh - portLow {
		port := portNext
		if portNext++; portNext >= portHigh {
			portNext = portLow
		}
		addr := "127.0.0.1:" + strconv.Itoa(port)
		if free(addr) {
			return addr, nil
		}
	}
	return "", errors.New("no free port on 127.0.0.1 between 20000 and 32000")
}

// free reports whether addr can be bound for TCP and UDP at once.
func free(addr string) bool {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return false
	}
	defer l.Close()
	u, err := net.ListenPacket("udp", addr)
	if err != nil {
		return false
	}
	u.Close()
	return true
}
