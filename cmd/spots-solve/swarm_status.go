package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/swarm"
)

// serveMaster serves the master's HTTP side on ln (jobs, and the status
// pages behind the status token), samples the master for its status
// pages, and serves those pages without a key on --status-listen (a
// loopback address) when it is set. A status listener that cannot be
// opened is reported and left out: the solve goes on without it. The
// returned function stops all of it and returns once every goroutine
// started here has ended.
func serveMaster(sf swarmFlags, ln net.Listener, m *swarm.Master, key swarm.Key, st *swarm.Status, stderr io.Writer) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	run := func(name string, f func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(); err != nil {
				fmt.Fprintf(stderr, "spots-solve: %s: %v\n", name, err)
			}
		}()
	}
	run("--listen", func() error {
		return swarm.ServeHandler(ctx, ln, swarm.HandlerWithStatus(m, key, st), 0)
	})
	run("status sampler", func() error { st.Run(ctx); return nil })
	if sf.statusListen != "" {
		if sl, err := net.Listen("tcp", sf.statusListen); err != nil {
			fmt.Fprintf(stderr, "spots-solve: --status-listen %s: %v; no status page on this machine (it is still on --listen with the status token)\n", sf.statusListen, err)
		} else {
			fmt.Fprintf(stderr, "spots-solve: status page at http://%s/ (this machine only; also /status.json and /metrics)\n", sl.Addr())
			run("--status-listen", func() error {
				return swarm.ServeHandler(ctx, sl, swarm.LoopbackStatusHandler(st), maxStatusConns)
			})
		}
	}
	if sf.metricsListen != "" {
		if ml, err := net.Listen("tcp", sf.metricsListen); err != nil {
			fmt.Fprintf(stderr, "spots-solve: --metrics-listen %s: %v; no metrics without the token (they are still on --listen with it)\n", sf.metricsListen, err)
		} else {
			fmt.Fprintf(stderr, "spots-solve: metrics at http://%s/metrics (no key needed)\n", ml.Addr())
			run("--metrics-listen", func() error {
				return swarm.ServeHandler(ctx, ml, metricsOnly(st), maxStatusConns)
			})
		}
	}
	return func() {
		cancel()
		wg.Wait()
	}
}

// maxStatusConns bounds the connections of the listeners of the status
// pages and the metrics, which one person or one scraper reads.
const maxStatusConns = 32

// metricsOnly serves GET (and HEAD) /metrics of st and nothing else: the
// metrics are counts, which a scraper may read without the status token;
// the status pages, which name positions and workers, stay behind it.
func metricsOnly(st *swarm.Status) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", st.MetricsHandler())
	return mux
}

// checkStatusListen refuses a --status-listen address that is not on
// loopback: the pages it serves need no key.
func checkStatusListen(addr string) error {
	if addr == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--status-listen %q: %w", addr, err)
	}
	if !swarm.IsLoopback(host) {
		return fmt.Errorf("--status-listen %q: not a loopback address (the status pages there need no key); read them remotely on --listen with the status token, or through ssh -L / kubectl port-forward", addr)
	}
	return nil
}

// maxKeyFile bounds the size of a --key-file.
const maxKeyFile = 4096

// readKeyFile returns the key in path: its first line, without the line
// end and without surrounding spaces.
func readKeyFile(path string) (string, error) {
	f, err := format.OpenInput(path)
	if err != nil {
		return "", fmt.Errorf("--key-file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	if err != nil {
		return "", fmt.Errorf("--key-file %s: %w", path, err)
	}
	if len(data) > maxKeyFile {
		return "", fmt.Errorf("--key-file %s: longer than %d bytes; is it the key?", path, maxKeyFile)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	key := strings.TrimSpace(line)
	if key == "" {
		return "", fmt.Errorf("--key-file %s: the first line is empty", path)
	}
	return key, nil
}

// nothingSaved reports whether the master is asked to resume from the
// directory it saves into (--state DIR --resume DIR, as a service that may
// restart runs it) and nothing was saved there yet: the first start of
// such a service starts afresh.
func nothingSaved(sf swarmFlags) bool {
	if sf.stateDir == "" || filepath.Clean(sf.stateDir) != filepath.Clean(sf.resumeDir) {
		return false
	}
	_, err := os.Stat(filepath.Join(sf.resumeDir, "state.json"))
	return errors.Is(err, os.ErrNotExist)
}
