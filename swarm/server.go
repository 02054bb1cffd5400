package swarm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// serverConfig bounds what the master's HTTP server spends on its
// clients. Zero fields take the defaults of defaultServerConfig.
type serverConfig struct {
	ReadHeaderTimeout time.Duration // to read a request's headers
	ReadTimeout       time.Duration // to read a whole request, body included
	WriteTimeout      time.Duration // to write a reply
	IdleTimeout       time.Duration // a kept-alive connection with no request
	MaxHeaderBytes    int
	// MaxConns is the most connections open at once; more are closed as
	// soon as they are accepted. Every worker group keeps one open (and
	// one waiting for a job holds its request up to 2 s), so the master's
	// must exceed the groups of the largest swarm.
	MaxConns int
}

// defaultServerConfig is the master's: a few seconds for headers, a minute
// for a body of up to 64 MB, 4,096 connections (groups), each a goroutine
// and its buffers, some tens of kB.
func defaultServerConfig() serverConfig {
	return serverConfig{ReadHeaderTimeout: 5 * time.Second, ReadTimeout: time.Minute, WriteTimeout: time.Minute,
		IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10, MaxConns: 4096}
}

func (c serverConfig) withDefaults() serverConfig {
	d := defaultServerConfig()
	if c.ReadHeaderTimeout <= 0 {
		c.ReadHeaderTimeout = d.ReadHeaderTimeout
	}
	if c.ReadTimeout <= 0 {
		c.ReadTimeout = d.ReadTimeout
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = d.WriteTimeout
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = d.IdleTimeout
	}
	if c.MaxHeaderBytes <= 0 {
		c.MaxHeaderBytes = d.MaxHeaderBytes
	}
	if c.MaxConns <= 0 {
		c.MaxConns = d.MaxConns
	}
	return c
}

// serveMaster serves the master's HTTP side (newHandler) on ln, within
// the bounds of cfg, until ctx ends; then it closes the server and its
// connections and returns once the server has stopped.
func serveMaster(ctx context.Context, ln net.Listener, m *Master, key Key, cfg serverConfig) error {
	return serve(ctx, ln, newHandler(m, key), cfg)
}

// ServeHandler serves h on ln until ctx ends, keeping at most maxConns
// connections open at once (0: 4096) and bounding the time a request may
// take to arrive and its reply to go, so that slow or idle clients cannot
// hold the process's descriptors; then it closes the server and its
// connections and returns once the server has stopped.
func ServeHandler(ctx context.Context, ln net.Listener, h http.Handler, maxConns int) error {
	return serve(ctx, ln, h, serverConfig{MaxConns: maxConns})
}

func serve(ctx context.Context, ln net.Listener, h http.Handler, cfg serverConfig) error {
	cfg = cfg.withDefaults()
	srv := &http.Server{Handler: h, ReadHeaderTimeout: cfg.ReadHeaderTimeout, ReadTimeout: cfg.ReadTimeout,
		WriteTimeout: cfg.WriteTimeout, IdleTimeout: cfg.IdleTimeout, MaxHeaderBytes: cfg.MaxHeaderBytes,
		ConnState: connLimit(cfg.MaxConns)}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		srv.Close()
		if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

// connLimit returns a connection-state hook that keeps at most n of the
// connections a server accepted open at once: one beyond them is closed
// as soon as it is accepted (its client sees a reset and tries again
// later), so that slow or idle clients cannot hold more than n of the
// process's descriptors. The server calls the hook in the order it
// accepts connections, before it reads from them.
func connLimit(n int) func(net.Conn, http.ConnState) {
	var open atomic.Int64
	return func(c net.Conn, state http.ConnState) {
		switch state {
		case http.StateNew:
			if open.Add(1) > int64(n) {
				c.Close() // the server then reports it closed, which counts it out
			}
		case http.StateHijacked, http.StateClosed:
			open.Add(-1)
		}
	}
}

// newHandler serves the master's side of the exchange over HTTP: POST
// /v1/exchange, signed with the swarm key both ways, and GET /v1/status.
// A request is authenticated by its headers before any of its body is read;
// a signed request is accepted once (its nonce is remembered), and only by
// the master run it was signed for (Master.Run).
func newHandler(m *Master, key Key) http.Handler {
	return handler(m, key, newReplayGuard(maxNonces), time.Now, nil)
}

// HandlerWithStatus serves the master's side of the exchange (newHandler)
// and, when st is not nil, the status pages of st (GET /status,
// /status.json and /metrics) for clients that show the status token (the
// hexadecimal SHA-256 of "spots-swarm-status", a zero byte and the
// passphrase); others are refused (401) before anything is read from
// the master. The status pages answer GET and HEAD only (other methods:
// 405) and change nothing.
func HandlerWithStatus(m *Master, key Key, st *Status) http.Handler {
	return handler(m, key, newReplayGuard(maxNonces), time.Now, st)
}

func handler(m *Master, key Key, guard *replayGuard, now func() time.Time, st *Status) http.Handler {
	mux := http.NewServeMux()
	if st != nil {
		routeStatus(mux, st, func(h http.Handler) http.Handler { return requireToken(key, h) })
	}
	mux.HandleFunc("POST /v1/exchange", func(w http.ResponseWriter, r *http.Request) {
		body, nonce, ok := readSigned(w, r, key, guard, now, m.Run(), maxExchangeBody)
		if !ok {
			return
		}
		var req ExchangeRequest
		nimbers, err := decodeMessage(body, &req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		req.Nimbers = nimbers
		reply, err := m.exchangeWait(r.Context(), req, parkFor)
		if errors.Is(err, ErrBanned) {
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		out, err := encodeMessage(reply, reply.Delta)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeSigned(w, key, r.URL.Path, nonce, out)
	})
	mux.HandleFunc("GET /v1/status", func(w http.ResponseWriter, r *http.Request) {
		_, nonce, ok := readSigned(w, r, key, guard, now, m.Run(), 0)
		if !ok {
			return
		}
		out, _ := json.Marshal(m.Stats())
		writeSigned(w, key, r.URL.Path, nonce, out)
	})
	return mux
}

// refuse answers a request whose body is not to be read, and closes the
// connection so the server does not read (drain) the body either.
func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Connection", "close")
	http.Error(w, msg, status)
}

// readSigned authenticates a request by its headers, then reads its body:
// exactly the signed length, at most limit bytes, matching the signed
// digest. A request signed for another run than the master's is answered
// with the master's run (409, signed) and not read.
func readSigned(w http.ResponseWriter, r *http.Request, key Key, guard *replayGuard, now func() time.Time, run string, limit int64) ([]byte, string, bool) {
	t := now()
	n, err := key.checkRequest(r, t)
	if err != nil {
		refuse(w, http.StatusUnauthorized, "unauthorized: "+err.Error())
		return nil, "", false
	}
	nonce := r.Header.Get(hdrNonce)
	if err := guard.fresh(nonce, t); err != nil {
		status := http.StatusUnauthorized
		if errors.Is(err, errTooManyNonces) {
			status = http.StatusServiceUnavailable // the group retries later
		}
		refuse(w, status, "unauthorized: "+err.Error())
		return nil, "", false
	}
	if r.Header.Get(hdrRun) != run {
		// Signed for an earlier run (a capture replayed after a restart),
		// or by a group that does not know this one yet: nothing is done,
		// and the signed reply tells the group the run to sign for.
		w.Header().Set("Connection", "close")
		writeSignedStatus(w, key, r.URL.Path, nonce, http.StatusConflict, []byte(run))
		return nil, "", false
	}
	switch {
	case n > limit:
		refuse(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("%s %d: at most %d bytes for %s", hdrLength, n, limit, r.URL.Path))
		return nil, "", false
	case r.ContentLength != n:
		refuse(w, http.StatusBadRequest, fmt.Sprintf("Content-Length %d differs from %s %d", r.ContentLength, hdrLength, n))
		return nil, "", false
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r.Body, body); err != nil {
		refuse(w, http.StatusBadRequest, "reading the body: "+err.Error())
		return nil, "", false
	}
	sum := sha256.Sum256(body)
	if err := checkMAC(r.Header.Get(hdrDigest), hex.EncodeToString(sum[:])); err != nil {
		refuse(w, http.StatusUnauthorized, "unauthorized: the body does not match its signed digest")
		return nil, "", false
	}
	return body, nonce, true
}

func writeSigned(w http.ResponseWriter, key Key, path, nonce string, body []byte) {
	writeSignedStatus(w, key, path, nonce, http.StatusOK, body)
}

// writeSignedStatus writes a reply with the given status whose body is
// signed for the request with the given nonce.
func writeSignedStatus(w http.ResponseWriter, key Key, path, nonce string, status int, body []byte) {
	stamp := strconv.FormatInt(time.Now().Unix(), 10)
	w.Header().Set(hdrTime, stamp)
	w.Header().Set(hdrAuth, key.signResponse(path, stamp, nonce, body))
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}
