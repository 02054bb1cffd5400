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
	"time"

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
			kept := "they end with the solve: --status-file FILE.html keeps the page"
			if sf.statusFile != "" {
				kept = "kept in " + sf.statusFile + " after the solve"
			}
			fmt.Fprintf(stderr, "spots-solve: status page at http://%s/ (this machine only; also /status.json and /metrics; %s)\n", sl.Addr(), kept)
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

// statusEvery is how often the master writes --status-file while it
// solves.
const statusEvery = 5 * time.Second

// statusKeeper writes the master's status into --status-file: at once,
// every statusEvery while the swarm solves (a goroutine), and once more
// when the solve is over (final), so that a run can be looked at after
// its status pages are gone, however short it was.
type statusKeeper struct {
	path   string
	pages  *swarm.Status
	stderr io.Writer
	stop   chan struct{}
	done   chan struct{}
	failed bool // a write failed and was reported: later failures are not
}

// keepStatus starts keeping the status of pages in path; with no path it
// returns a keeper that does nothing.
func keepStatus(path string, pages *swarm.Status, stderr io.Writer) *statusKeeper {
	k := &statusKeeper{path: path, pages: pages, stderr: stderr, stop: make(chan struct{}), done: make(chan struct{})}
	if path == "" {
		close(k.done)
		return k
	}
	k.write()
	go func() {
		defer close(k.done)
		t := time.NewTicker(statusEvery)
		defer t.Stop()
		for {
			select {
			case <-k.stop:
				return
			case <-t.C:
				k.write()
			}
		}
	}()
	return k
}

// write writes the status into the file (the status page for a .html or
// .htm name, the JSON of /status.json otherwise) through a temporary file,
// so that a reader never sees half of one. It reports the first failure.
func (k *statusKeeper) write() error {
	ext := strings.ToLower(filepath.Ext(k.path))
	err := format.WriteFileAtomic(k.path, func(w io.Writer) error {
		return k.pages.WriteSnapshot(w, ext == ".html" || ext == ".htm")
	})
	if err != nil && !k.failed {
		k.failed = true
		fmt.Fprintf(k.stderr, "spots-solve: --status-file %s: %v\n", k.path, err)
	}
	return err
}

// final stops the writes of the goroutine, writes the status as the solve
// left it and says where it is. It returns the exit status the run must
// at least have: 0, or 2 when the final status could not be written.
func (k *statusKeeper) final() int {
	if k.path == "" {
		return 0
	}
	close(k.stop)
	<-k.done
	k.failed = false // the last write's failure is reported whatever came before
	if err := k.write(); err != nil {
		return 2
	}
	fmt.Fprintf(k.stderr, "spots-solve: the status as the solve left it is in %s (--status-file)\n", k.path)
	return 0
}
