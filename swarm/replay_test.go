package swarm

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// capturing is an http.RoundTripper that keeps a copy of the last request
// the master accepted (200), headers and body, as an eavesdropper would.
type capturing struct {
	req  *http.Request
	body []byte
}

func (c *capturing) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusOK {
		c.req, c.body = r, body
	}
	return resp, err
}

// TestReplayAfterRestart (issue 43, F8): a signed request captured on its
// way to a master is replayed to the master that takes over from its saved
// values, as spots-solve --resume does. The nonces the first master saw
// are gone with it; the capture is refused because it is signed for the
// first master's run, and the new master does nothing with it. The group
// that sent it goes on with the new master.
func TestReplayAfterRestart(t *testing.T) {
	key, _ := NewKey("the right key")
	root := sprouts.MustParse("0*8")
	first, err := NewMaster(root, DefaultParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(newHandler(first, key))
	url := srv.URL
	wire := &capturing{}
	link := &HTTPLink{Key: key, Client: &http.Client{Transport: wire}, Resolve: func(context.Context) (string, error) { return url, nil }}
	values := trueValues(t, "0*4")
	if _, err := link.Exchange(context.Background(), ExchangeRequest{Group: "g", Slots: 1, Nimbers: values}); err != nil {
		t.Fatal(err)
	}
	if wire.req == nil {
		t.Fatal("nothing captured")
	}
	srv.Close()

	// The restart: a new master with the first one's values.
	saved := solve.NewNimberDB()
	first.DB().Range(func(k string, g uint32) bool { saved.Put(k, g); return true })
	second, err := NewMaster(root, DefaultParams(), saved)
	if err != nil {
		t.Fatal(err)
	}
	srv2 := httptest.NewServer(newHandler(second, key))
	defer srv2.Close()
	replay, _ := http.NewRequest(wire.req.Method, srv2.URL+wire.req.URL.Path, bytes.NewReader(wire.body))
	replay.Header = wire.req.Header.Clone()
	resp, err := http.DefaultClient.Do(replay)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK || second.Stats().Exchanges != 0 {
		t.Fatalf("the replayed capture: %s, and the new master made %d exchanges", resp.Status, second.Stats().Exchanges)
	}
	url, link.base = srv2.URL, "" // as the link finds the master again after a failed exchange
	reply, err := link.Exchange(context.Background(), ExchangeRequest{Group: "g", Slots: 1})
	if err != nil || reply.Master != second.Run() || second.Stats().Exchanges != 1 {
		t.Errorf("the group with the new master: %v, master %q, %d exchanges", err, reply.Master, second.Stats().Exchanges)
	}
}
