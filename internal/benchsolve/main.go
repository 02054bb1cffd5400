// Command benchsolve times spots-solve on n-spot positions and prints a
// Markdown table: n, outcome, algorithm, seconds, iterations, iterations per
// second, peak RSS, and the speedup over the reference solver where its time
// on this machine class is known. Each run is a separate process, so peak
// RSS is that of one solve.
//
//	go run ./internal/benchsolve -bin bin/spots-solve -n 8,10,12,13,14 -alg dfpn,pns
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

// reference holds the wall seconds of the reference solver (SPOTS, C++,
// single thread, DFPN with a 10⁶-entry table, and PNS) on this machine
// class, from ../shared/testdata/REFERENCE-SPEED.md.
var reference = map[string]map[int]float64{
	"dfpn": {8: 3.0, 10: 2.2, 11: 1.8, 12: 19.1, 13: 21.1, 14: 118, 15: 167, 16: 26, 17: 9.8, 18: 241, 19: 201, 20: 238},
	"pns":  {8: 2.7, 10: 1.1, 11: 1.6, 12: 17.4, 13: 15.1, 14: 46, 15: 134, 16: 26, 17: 8.0, 18: 154, 19: 90, 20: 157},
}

func main() {
	bin := flag.String("bin", "bin/spots-solve", "the spots-solve binary")
	ns := flag.String("n", "8,10,12,13,14", "comma-separated numbers of spots")
	algs := flag.String("alg", "dfpn,pns", "comma-separated algorithms")
	extra := flag.String("args", "", "more arguments for spots-solve, space-separated")
	cert := flag.Bool("cert", false, "also write each certificate, verify it with spots-verify (next to -bin) and report its size and check time")
	threads := flag.String("threads", "", "comma-separated thread counts: compare pdfpn with each against sequential dfpn (search overhead, speedup)")
	flag.Parse()
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
		fmt.Println("| n | outcome | algorithm | seconds | iterations | iterations/s | peak RSS MiB | reference s | speedup |")
		fmt.Println("|---|---|---|---|---|---|---|---|---|")
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
	ref, speed := "", ""
	if s, ok := reference[alg][n]; ok {
		ref, speed = fmt.Sprintf("%.1f", s), fmt.Sprintf("%.1f×", s/r.Seconds)
	}
	return fmt.Sprintf("| %d | %s | %s | %.2f | %d | %.0f | %.0f | %s | %s |",
		n, r.Outcome, alg, r.Seconds, r.Iterations, float64(r.Iterations)/r.Seconds, rss, ref, speed), nil
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
