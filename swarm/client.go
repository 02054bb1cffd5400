package swarm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// HTTPLink is a group's link to a master over HTTP. Resolve returns the
// master's base URL (e.g. http://127.0.0.1:7000); it is asked again after a
// failure, so a restarted master is found again.
type HTTPLink struct {
	Key     Key
	Resolve func(ctx context.Context) (string, error)
	Client  *http.Client
	base    string
	run     string // the master's run its requests are signed for
}

// Exchange posts the request and checks the signed reply.
func (l *HTTPLink) Exchange(ctx context.Context, req ExchangeRequest) (ExchangeReply, error) {
	var reply ExchangeReply
	if l.base == "" {
		base, err := l.Resolve(ctx)
		if err != nil {
			return reply, err
		}
		l.base = base
	}
	body, err := encodeMessage(req, req.Nimbers)
	if err != nil {
		return reply, err
	}
	out, err := l.post(ctx, "/v1/exchange", body)
	if err != nil {
		l.base = "" // find the master again next time
		return reply, err
	}
	delta, err := decodeMessage(out, &reply)
	if err != nil {
		return reply, err
	}
	reply.Delta = delta
	return reply, nil
}

func (l *HTTPLink) post(ctx context.Context, path string, body []byte) ([]byte, error) {
	out, status, err := l.postOnce(ctx, path, body)
	if err == nil && status == http.StatusConflict {
		// The master runs another run than the one this link knew (it
		// restarted, or this is the first request): sign for its run.
		l.run = string(out)
		out, status, err = l.postOnce(ctx, path, body)
	}
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("master: %s: the run changed again", http.StatusText(status))
	}
	return out, err
}

// maxRunID bounds the run a master names (a UUID has 36 characters).
const maxRunID = 64

// postOnce posts a request signed for the link's run and returns the
// signed reply: its body and status, 200 or 409 (the master's run is
// another one: the body names it).
func (l *HTTPLink) postOnce(ctx context.Context, path string, body []byte) ([]byte, int, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, l.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	nonce := l.Key.setRequestHeaders(hr, body, l.run, time.Now())
	client := l.Client
	if client == nil {
		client = &http.Client{Timeout: 60 * time.Second}
	}
	resp, err := client.Do(hr)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, maxExchangeBody+1))
	if err != nil {
		return nil, 0, err
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized:
		return nil, 0, fmt.Errorf("%w: %s", ErrUnauthorized, bytes.TrimSpace(out))
	case resp.StatusCode == http.StatusForbidden:
		return nil, 0, fmt.Errorf("%w: %s", ErrBanned, bytes.TrimSpace(out))
	case resp.StatusCode == http.StatusConflict && len(out) > maxRunID:
		return nil, 0, errors.New("master: 409 Conflict with an over-long run")
	case resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusConflict:
		return nil, 0, fmt.Errorf("master: %s: %s", resp.Status, bytes.TrimSpace(out))
	case len(out) > maxExchangeBody:
		return nil, 0, errors.New("master: reply too large")
	}
	stamp := resp.Header.Get(hdrTime)
	err = checkStamp(stamp, time.Now())
	if err == nil {
		err = checkMAC(resp.Header.Get(hdrAuth), l.Key.signResponse(path, stamp, nonce, out))
	}
	if err != nil {
		return nil, 0, fmt.Errorf("%w: the reply is not signed with the swarm key: %v", ErrUnauthorized, err)
	}
	return out, resp.StatusCode, nil
}
