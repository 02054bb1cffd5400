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
//	go run ./internal/benchsolve -compare -bin bin/spots-solve -base /tmp/0b97944/spots-solve \
//		-ref '/tmp/ref/refsolve --algorithm {alg} {nimber} {pos}' -n 12,13,14,15 -alg dfpn,pns
//
// With -children FILE it times the children of every position of FILE,
// whole processes. Without either, it prints one table of this build.
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
)

func main() {
	bin := flag.String("bin", "bin/spots-solve", "the spots-solve binary")
	ns := flag.String("n", "8,10,12,13,14", "comma-separated numbers of spots")
	algs := flag.String("alg", "dfpn,pns", "comma-separated algorithms")
	extra := flag.String("args", "", "more arguments for spots-solve, space-separated")
	cert := flag.Bool("cert", false, "also write each certificate, verify it with spots-verify (next to -bin) and report its size and check time")
	threads := flag.String("threads", "", "comma-separated thread counts: compare pdfpn with each against sequential dfpn (search overhead, speedup)")
	compare := flag.Bool("compare", false, "same-run table: -bin beside -base (another spots-solve) and -ref (the reference), medians of -runs, with ratios")
	base := flag.String("base", "", "with -compare: another spots-solve binary (e.g. built from commit 0b97944, whose ratios to the reference are known)")
	ref := flag.String("ref", "", "with -compare: the reference's command, with {alg}, {pos} and {nimber} filled in; it prints one JSON line with outcome (or nimber), seconds and iterations")
	nimber := flag.Bool("nimber", false, "with -compare: Grundy values (--nimber) instead of outcomes")
	runs := flag.Int("runs", 3, "with -compare or -children: runs of each program per row (the median is reported)")
	children := flag.String("children", "", "time the children of every position of `FILE`, whole processes: spots-position children (next to -bin and -base) and -ref-children")
	refChildren := flag.String("ref-children", "", "with -children: the reference's command, given FILE as its last argument")
	flag.Parse()
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
		parallelTable(*bin, strings.Split(*ns, ","), strings.Split(*threads, ","))
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
	args := append([]string{"--json", "--no-progress", "--algorithm", alg}, extra...)
	if certDir != "" {
		args = append(args, "--cert", certDir)
	}
	cmd := exec.Command(bin, append(args, fmt.Sprintf("0*%d", n))...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", err
	}
	var r struct {
		Outcome     string  `json:"outcome"`
		Seconds     float64 `json:"seconds"`
		Iterations  uint64  `json:"iterations"`
		Certificate string  `json:"certificate"`
		CertEntries int     `json:"certificate_entries"`
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
func certRow(bin, alg string, n int, outcome string, solveSec float64, path string) (string, error) {
	verifier := filepath.Join(filepath.Dir(bin), "spots-verify")
	cmd := exec.Command(verifier, "--json", "--no-progress", path)
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
	return fmt.Sprintf("| %d | %s | %s | %.2f | %d | %d | %.1f | %.3f | %.1f | %.1f%% |", n, outcome, alg, solveSec, v.Entries,
		st.Size(), float64(st.Size())/float64(v.Entries), v.Seconds, 1e6*v.Seconds/float64(v.Entries), 100*v.Seconds/solveSec), nil
}

// parallelTable runs sequential DFPN and PDFPN with each thread count on
// each position, and prints wall time, search overhead (iterations over
// those of sequential DFPN) and speedup.
func parallelTable(bin string, ns, threads []string) {
	fmt.Println("| n | algorithm | threads | seconds | iterations | per thread | search overhead | speedup | lock waits | wait s | TT hit rate |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	for _, nStr := range ns {
		seq, err := solveJSON(bin, []string{"--algorithm", "dfpn", "0*" + nStr})
		if err != nil {
			fmt.Fprintf(os.Stderr, "benchsolve: 0*%s dfpn: %v\n", nStr, err)
			os.Exit(1)
		}
		fmt.Printf("| %s | dfpn | 1 | %.2f | %d | | 1.00 | 1.00× | | | |\n", nStr, seq.Seconds, seq.Iterations)
		for _, t := range threads {
			r, err := solveJSON(bin, []string{"--algorithm", "pdfpn", "--threads", t, "0*" + nStr})
			if err != nil {
				fmt.Fprintf(os.Stderr, "benchsolve: 0*%s pdfpn %s: %v\n", nStr, t, err)
				os.Exit(1)
			}
			per := make([]string, len(r.PerThread))
			for i, x := range r.PerThread {
				per[i] = strconv.FormatUint(x, 10)
			}
			fmt.Printf("| %s | pdfpn | %s | %.2f | %d | %s | %.2f | %.2f× | %d | %.3f | %.2f |\n", nStr, t, r.Seconds, r.Iterations,
				strings.Join(per, " / "), float64(r.Iterations)/float64(seq.Iterations), seq.Seconds/r.Seconds, r.LockWaits, r.LockWaitSeconds, r.TTHitRate)
		}
	}
}

type solveResult struct {
	Outcome         string   `json:"outcome"`
	Seconds         float64  `json:"seconds"`
	Iterations      uint64   `json:"iterations"`
	PerThread       []uint64 `json:"per_thread_iterations"`
	LockWaits       int64    `json:"lock_waits"`
	LockWaitSeconds float64  `json:"lock_wait_seconds"`
	TTHitRate       float64  `json:"tt_hit_rate"`
}

func solveJSON(bin string, args []string) (solveResult, error) {
	cmd := exec.Command(bin, append([]string{"--json", "--no-progress"}, args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	var r solveResult
	if err := cmd.Run(); err != nil {
		return r, err
	}
	err := json.Unmarshal(out.Bytes(), &r)
	return r, err
}
