// Command benchsolve times spots-solve on n-spot positions and prints
// Markdown tables. Each run is a separate process, so peak RSS is that of
// one solve.
//
// With -compare it times, in the same run and in turn, this build, another
// build (-base, e.g. commit 0b97944) and the reference solver (-ref, a
// command template), and prints medians, iterations, peak RSS and ratios:
// spots against the reference directly, and chained through 0b97944's
// known same-run ratios (REFERENCE-SPEED.md of the shared test data):
//
//	go run ./lab/benchsolve -compare -bin bin/spots-solve -base /tmp/0b97944/spots-solve \
//		-ref '/tmp/ref/refsolve --algorithm {alg} {nimber} {pos}' -n 12,13,14,15 -alg dfpn,pns
//
// With -threads (and -workers) it prints a scaling table: sequential DFPN,
// as many copies of it at once as the machine has CPUs, plain spots-solve,
// PDFPN with each thread count and a one-machine swarm of each layout,
// -runs times each, interleaved, with wall time, speedup over DFPN,
// search overhead, CPU per iteration over DFPN's and utilisation (with
// -cert, each run's certificate verified), then which targets are met or
// by how much they are missed (see scaling.go):
//
//	go run ./lab/benchsolve -bin bin/spots-solve -n 18,19,20 -threads 2 -workers 2x1 -runs 3
//
// With -children FILE it times the children of every position of FILE,
// whole processes. Without either, it prints one table of this build.
//
// With -cpu the -compare and -children tables report each process's CPU
// seconds (user + system) instead of its wall seconds, for a machine
// shared with other work.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/spots-dev/spots/outcome"
)

func main() {
	bin := flag.String("bin", "bin/spots-solve", "the spots-solve binary")
	ns := flag.String("n", "8,10,12,13,14", "comma-separated numbers of spots")
	algs := flag.String("alg", "dfpn,pns", "comma-separated algorithms")
	extra := flag.String("args", "", "more arguments for spots-solve, space-separated")
	cert := flag.Bool("cert", false, "also write each certificate, verify it with spots-verify (next to -bin) and report its size and check time; with -threads: every run writes its certificate and has it verified again (the times then include certifying)")
	threads := flag.String("threads", "", "comma-separated thread counts: a scaling table of pdfpn with each (and -workers) against sequential dfpn, -runs times each, interleaved, and which targets are met")
	workers := flag.String("workers", "", "with -threads: comma-separated one-machine swarm layouts, WxG: W local workers of G solvers each")
	compare := flag.Bool("compare", false, "same-run table: -bin beside -base (another spots-solve) and -ref (the reference), medians of -runs, with ratios")
	base := flag.String("base", "", "with -compare: another spots-solve binary (e.g. built from commit 0b97944, whose ratios to the reference are known)")
	ref := flag.String("ref", "", "with -compare: the reference's command, with {alg}, {pos} and {nimber} filled in; it prints one JSON line with outcome (or nimber), seconds and iterations")
	nimber := flag.Bool("nimber", false, "with -compare: Grundy values (--nimber) instead of outcomes")
	runs := flag.Int("runs", 3, "with -compare, -children or -threads: runs of each program per row (the median is reported)")
	children := flag.String("children", "", "time the children of every position of `FILE`, whole processes: spots-position children (next to -bin and -base) and -ref-children")
	refChildren := flag.String("ref-children", "", "with -children: the reference's command, given FILE as its last argument")
	flag.BoolVar(&cpuTime, "cpu", false, "with -compare or -children: CPU seconds (user + system) of each process instead of wall seconds, for a machine shared with other work")
	reuse := flag.String("reuse", "", "a same-run table of each -n solved from nothing and drawing on the certificates of smaller n in the corpus `DIR` (spots-solve --reuse), with each -alg (swarm: with -swarm-workers local workers)")
	swarmWorkers := flag.Int("swarm-workers", 2, "with -reuse and -alg swarm: local workers")
	flag.Parse()
	if *reuse != "" {
		if err := reuseTable(*bin, *reuse, strings.Split(*ns, ","), strings.Split(*algs, ","), *swarmWorkers); err != nil {
			fmt.Fprintln(os.Stderr, "benchsolve:", err)
			os.Exit(1)
		}
		return
	}
	if *children != "" {
		if err := childrenTable(*bin, *base, *refChildren, *children, *runs); err != nil {
			fmt.Fprintln(os.Stderr, "benchsolve:", err)
			os.Exit(1)
		}
		return
	}
	if *compare {
		if err := compareTable(*bin, *base, *ref, strings.Split(*ns, ","), strings.Split(*algs, ","), *nimber, *runs); err != nil {
			fmt.Fprintln(os.Stderr, "benchsolve:", err)
			os.Exit(1)
		}
		return
	}
	if *threads != "" {
		if err := scalingTable(*bin, strings.Split(*ns, ","), strings.Split(*threads, ","), strings.Split(*workers, ","), *runs, *cert); err != nil {
			fmt.Fprintln(os.Stderr, "benchsolve:", err)
			os.Exit(1)
		}
		return
	}
	if *cert {
		dir, err := os.MkdirTemp("", "benchsolve")
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchsolve:", err)
			os.Exit(1)
		}
		defer os.RemoveAll(dir)
		certDir = dir
		fmt.Println("| n | outcome | algorithm | solve s | certificate entries | bytes | bytes/entry | verify s | µs/entry | verify/solve |")
		fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	} else {
		fmt.Println("| n | outcome | algorithm | seconds | iterations | iterations/s | peak RSS MiB |")
		fmt.Println("|---|---|---|---|---|---|---|")
	}
	for _, nStr := range strings.Split(*ns, ",") {
		n, err := strconv.Atoi(nStr)
		if err != nil {
			fmt.Fprintf(os.Stderr, "benchsolve: bad -n %q\n", nStr)
			os.Exit(2)
		}
		for _, alg := range strings.Split(*algs, ",") {
			row, err := runOne(*bin, alg, n, strings.Fields(*extra))
			if err != nil {
				fmt.Fprintf(os.Stderr, "benchsolve: 0*%d %s: %v\n", n, alg, err)
				os.Exit(1)
			}
			fmt.Println(row)
		}
	}
}

// certDir, when set, is where certificates are written (-cert).
var certDir string

func runOne(bin, alg string, n int, extra []string) (string, error) {
	args := append([]string{"--json", "--progress", "none", "--algorithm", alg}, extra...)
	if certDir != "" {
		args = append(args, "--cert", certDir)
	}
	cmd := exec.Command(bin, append(args, fmt.Sprintf("0*%d", n))...)
	defer freshCache(cmd)()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", err
	}
	var r struct {
		Outcome     outcome.Outcome `json:"outcome"`
		Seconds     float64         `json:"seconds"`
		Iterations  uint64          `json:"iterations"`
		Certificate string          `json:"path"`
		CertEntries int             `json:"entries"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		return "", fmt.Errorf("output %q: %v", out.String(), err)
	}
	if certDir != "" {
		return certRow(bin, alg, n, r.Outcome, r.Seconds, r.Certificate)
	}
	rss := 0.0
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	return fmt.Sprintf("| %d | %s | %s | %.2f | %d | %.0f | %.0f |",
		n, r.Outcome, alg, r.Seconds, r.Iterations, float64(r.Iterations)/r.Seconds, rss), nil
}

// certRow verifies a certificate with spots-verify and reports its size and
// the time the check took, against the time the solve took.
func certRow(bin, alg string, n int, result outcome.Outcome, solveSec float64, path string) (string, error) {
	verifier := filepath.Join(filepath.Dir(bin), "spots-verify")
	cmd := exec.Command(verifier, "--json", "--progress", "none", path)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %v", verifier, path, err)
	}
	var v struct {
		Valid   bool    `json:"valid"`
		Entries int     `json:"entries"`
		Seconds float64 `json:"seconds"`
	}
	if err := json.Unmarshal(out.Bytes(), &v); err != nil || !v.Valid {
		return "", fmt.Errorf("spots-verify %s: %s", path, out.String())
	}
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("| %d | %s | %s | %.2f | %d | %d | %.1f | %.3f | %.1f | %.1f%% |", n, result, alg, solveSec, v.Entries,
		st.Size(), float64(st.Size())/float64(v.Entries), v.Seconds, 1e6*v.Seconds/float64(v.Entries), 100*v.Seconds/solveSec), nil
}
