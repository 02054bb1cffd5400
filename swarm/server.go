package swarm

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// ServerConfig bounds what the master's HTTP server spends on its
// clients. Zero fields take the defaults of DefaultServerConfig.
type ServerConfig struct {
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

// DefaultServerConfig is the master's: a few seconds for headers, a minute
// for a body of up to 64 MB, 4,096 connections (groups), each a goroutine
// and its buffers, some tens of kB.
func DefaultServerConfig() ServerConfig {
	return ServerConfig{ReadHeaderTimeout: 5 * time.Second, ReadTimeout: time.Minute, WriteTimeout: time.Minute,
		IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10, MaxConns: 4096}
}

func (c ServerConfig) withDefaults() ServerConfig {
	d := DefaultServerConfig()
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

// Serve serves the master's HTTP side (Handler) on ln, within the bounds
// of cfg, until ctx ends; then it closes the server and its connections
// and returns once the server has stopped.
func Serve(ctx context.Context, ln net.Listener, m *Master, key Key, cfg ServerConfig) error {
	return serve(ctx, ln, Handler(m, key), cfg)
}

// ServeHandler serves h on ln within the bounds of cfg until ctx ends, as
// Serve does (for the status pages on a listener of their own).
func ServeHandler(ctx context.Context, ln net.Listener, h http.Handler, cfg ServerConfig) error {
	return serve(ctx, ln, h, cfg)
}

func serve(ctx context.Context, ln net.Listener, h http.Handler, cfg ServerConfig) error {
	cfg = cfg.withDefaults()
	srv := &http.Server{Handler: h, ReadHeaderTimeout: cfg.ReadHeaderTimeout, ReadTimeout: cfg.ReadTimeout,
		WriteTimeout: cfg.WriteTimeout, IdleTimeout: cfg.IdleTimeout, MaxHeaderBytes: cfg.MaxHeaderBytes}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(LimitListener(ln, cfg.MaxConns)) }()
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

// LimitListener returns a listener that keeps at most n of the connections
// it accepted open at once: a connection beyond them is closed at once
// (its client sees a reset and tries again later), so that slow or idle
// clients cannot hold more than n of the process's descriptors.
func LimitListener(ln net.Listener, n int) net.Listener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n)}
}

type limitListener struct {
	net.Listener
	slots   chan struct{}
	refused atomic.Int64
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.slots <- struct{}{}:
			return &limitConn{Conn: c, release: func() { <-l.slots }}, nil
		default:
			l.refused.Add(1)
			c.Close()
		}
	}
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
