package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The targets of the parallel table: PDFPN with 2 threads against
// sequential DFPN on 2 cores, and search overhead at 8 threads.
const (
	targetSpeedup    = 1.8  // DFPN seconds / PDFPN seconds, 2 threads
	targetOverhead2  = 1.15 // PDFPN iterations / DFPN iterations, 2 threads
	targetOverhead8  = 1.3  // the same, 8 threads
	targetThroughput = 1.9  // PDFPN iterations/s / DFPN iterations/s, 2 threads
)

// parRun is one spots-solve process of the parallel table.
type parRun struct {
	seconds     float64 // solve time spots-solve reports
	wall        float64 // wall time of the whole process
	cpu         float64 // user + system CPU time of the process
	iterations  uint64
	lockWaits   int64
	lockWaitSec float64
	outcome     string
	certFailure string // with -cert: why the certificate did not verify, or ""
}

// itPerSec is the run's iterations per second of solve time.
func (r parRun) itPerSec() float64 { return float64(r.iterations) / r.seconds }

// cores is the number of cores the process kept busy on average.
func (r parRun) cores() float64 { return r.cpu / r.wall }

// parCell is one row of the table: an algorithm with a thread count, on
// one position, and its runs.
type parCell struct {
	alg     string // dfpn or pdfpn
	threads int
	runs    []parRun
}

// parallelTable runs sequential DFPN and PDFPN with each thread count on
// each position, runs times each, interleaved (DFPN, PDFPN with each
// thread count, then again), so that a machine whose load drifts during
// the table affects every row alike. It prints a Markdown table of medians
// and spreads (wall time, iterations, search overhead, speedup,
// throughput, lock waits, CPU time and cores used), then whether each
// target is met. With cert, every run writes its certificate, which
// spots-solve verifies itself and spots-verify (next to bin) again in a
// separate process. It fails when a certificate does not verify.
func parallelTable(bin string, ns, threadList []string, runs int, cert bool) error {
	if runs < 1 {
		return errors.New("-runs must be at least 1")
	}
	var threads []int
	for _, t := range threadList {
		k, err := strconv.Atoi(strings.TrimSpace(t))
		if err != nil || k < 1 {
			return fmt.Errorf("bad -threads %q", t)
		}
		threads = append(threads, k)
	}
	var certRoot string
	if cert {
		dir, err := os.MkdirTemp("", "benchsolve")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		certRoot = dir
	}
	verifier := filepath.Join(filepath.Dir(bin), "spots-verify")
	load := loadAverage()

	fmt.Printf("Medians of %d runs and (min–max) over the runs, interleaved: DFPN, PDFPN with %s threads, then again.",
		runs, strings.Join(threadList, ", "))
	fmt.Println(" Ratios are of the medians, with the range of the per-run ratios (run i against DFPN's run i).")
	if cert {
		fmt.Println("Every run wrote its certificate: spots-solve verified it, and spots-verify again in a separate process.")
	} else {
		fmt.Println("**Certificates off (-cert=false): no run wrote or verified a certificate.**")
	}
	fmt.Println()
	fmt.Println("| position | algorithm | threads | solve s | iterations | search overhead | speedup | throughput | lock waits (s) | CPU s | cores used | certificates |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|")

	all := map[string][]parCell{} // by n
	failures := 0
	for _, n := range ns {
		pos := "0*" + strings.TrimSpace(n)
		cells := []parCell{{alg: "dfpn", threads: 1}}
		for _, t := range threads {
			cells = append(cells, parCell{alg: "pdfpn", threads: t})
		}
		for i := range runs {
			for c := range cells {
				dir := ""
				if cert {
					dir = filepath.Join(certRoot, fmt.Sprintf("%s-%s-%d-%d", n, cells[c].alg, cells[c].threads, i))
				}
				label := fmt.Sprintf("%s %s (%d threads) run %d/%d", pos, cells[c].alg, cells[c].threads, i+1, runs)
				r, err := parallelRun(bin, verifier, cells[c].alg, cells[c].threads, pos, dir)
				if err != nil {
					return fmt.Errorf("%s: %w", label, err)
				}
				if len(cells[0].runs) > 0 && r.outcome != cells[0].runs[0].outcome {
					return fmt.Errorf("%s: outcome %s, dfpn's %s", label, r.outcome, cells[0].runs[0].outcome)
				}
				if r.certFailure != "" {
					failures++
					fmt.Fprintf(os.Stderr, "benchsolve: %s: certificate: %s\n", label, r.certFailure)
				}
				fmt.Fprintf(os.Stderr, "benchsolve: %s: %.2f s, %d iterations\n", label, r.seconds, r.iterations)
				cells[c].runs = append(cells[c].runs, r)
			}
		}
		for _, c := range cells {
			fmt.Println(cellRow(pos, c, cells[0], cert))
		}
		all[n] = cells
	}
	printVerdict(ns, all, threads, cert, load)
	if failures > 0 {
		return fmt.Errorf("%d certificates did not verify", failures)
	}
	return nil
}

// cellRow formats one row of the table; seq is the DFPN row of the same
// position.
func cellRow(pos string, c, seq parCell, cert bool) string {
	get := func(c parCell, f func(parRun) float64) []float64 {
		xs := make([]float64, len(c.runs))
		for i, r := range c.runs {
			xs[i] = f(r)
		}
		return xs
	}
	seconds := func(r parRun) float64 { return r.seconds }
	iterations := func(r parRun) float64 { return float64(r.iterations) }
	// ratio is the ratio of the medians of f (c's over seq's, or seq's over
	// c's when inverse) and the spread of the per-run ratios.
	ratio := func(f func(parRun) float64, inverse bool, unit string) string {
		a, b := get(c, f), get(seq, f)
		if inverse {
			a, b = b, a
		}
		per := make([]float64, len(a))
		for i := range a {
			per[i] = a[i] / b[i]
		}
		lo, hi := minMax(per)
		return fmt.Sprintf("%.2f%s (%.2f–%.2f)", medianOf(a)/medianOf(b), unit, lo, hi)
	}
	speed := "1.00×"
	overhead, speedup, throughput, waits := "1.00", speed, speed, ""
	if c.alg != "dfpn" {
		overhead = ratio(iterations, false, "")
		speedup = ratio(seconds, true, "×")
		throughput = ratio(parRun.itPerSec, false, "×")
		if c.threads > runtime.NumCPU() {
			speedup, throughput = "† "+speedup, "† "+throughput
		}
		waits = fmt.Sprintf("%.0f (%.3f)", medianOf(get(c, func(r parRun) float64 { return float64(r.lockWaits) })),
			medianOf(get(c, func(r parRun) float64 { return r.lockWaitSec })))
	}
	certs := "off"
	if cert {
		ok := 0
		for _, r := range c.runs {
			if r.certFailure == "" {
				ok++
			}
		}
		certs = fmt.Sprintf("%d/%d verified", ok, len(c.runs))
	}
	return fmt.Sprintf("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |", pos, c.alg, c.threads,
		spread(get(c, seconds), "%.2f"), spread(get(c, iterations), "%.0f"), overhead, speedup, throughput, waits,
		spread(get(c, func(r parRun) float64 { return r.cpu }), "%.2f"), spread(get(c, parRun.cores), "%.2f"), certs)
}

// printVerdict prints, for each target and position, whether the target is
// met or by how much it is missed, then the machine.
func printVerdict(ns []string, all map[string][]parCell, threads []int, cert bool, load string) {
	cpus := runtime.NumCPU()
	// cellOf is the PDFPN row with t threads, and the DFPN row.
	cellOf := func(n string, t int) (parCell, parCell, bool) {
		for _, c := range all[n][1:] {
			if c.threads == t {
				return c, all[n][0], true
			}
		}
		return parCell{}, parCell{}, false
	}
	medianRatio := func(c, seq parCell, f func(parRun) float64) float64 {
		a, b := make([]float64, len(c.runs)), make([]float64, len(seq.runs))
		for i, r := range c.runs {
			a[i] = f(r)
		}
		for i, r := range seq.runs {
			b[i] = f(r)
		}
		return medianOf(a) / medianOf(b)
	}
	type target struct {
		name    string
		unit    string // of the value: "×" for speeds
		threads int
		limit   float64
		atLeast bool // the value must be ≥ limit, else ≤ limit
		speed   bool // meaningless with more threads than CPUs
		value   func(c, seq parCell) float64
	}
	targets := []target{
		{"speedup ≥ 1.8× at 2 threads", "×", 2, targetSpeedup, true, true,
			func(c, seq parCell) float64 {
				return 1 / medianRatio(c, seq, func(r parRun) float64 { return r.seconds })
			}},
		{"search overhead ≤ 1.15 at 2 threads", "", 2, targetOverhead2, false, false,
			func(c, seq parCell) float64 {
				return medianRatio(c, seq, func(r parRun) float64 { return float64(r.iterations) })
			}},
		{"search overhead ≤ 1.3 at 8 threads", "", 8, targetOverhead8, false, false,
			func(c, seq parCell) float64 {
				return medianRatio(c, seq, func(r parRun) float64 { return float64(r.iterations) })
			}},
		{"throughput ≥ 1.9× at 2 threads", "×", 2, targetThroughput, true, true,
			func(c, seq parCell) float64 { return medianRatio(c, seq, parRun.itPerSec) }},
	}

	fmt.Println()
	header, sep := "| target |", "|---|"
	for _, n := range ns {
		header += " 0*" + strings.TrimSpace(n) + " |"
		sep += "---|"
	}
	fmt.Println(header)
	fmt.Println(sep)
	for _, tg := range targets {
		row := "| " + tg.name + " |"
		for _, n := range ns {
			c, seq, ok := cellOf(n, tg.threads)
			switch {
			case !ok:
				row += fmt.Sprintf(" not measured (no %d in -threads) |", tg.threads)
			case tg.speed && tg.threads > cpus:
				row += fmt.Sprintf(" not measurable (%d threads > %d CPUs) |", tg.threads, cpus)
			default:
				v := tg.value(c, seq)
				met, by := v <= tg.limit, v/tg.limit
				if tg.atLeast {
					met, by = v >= tg.limit, tg.limit/v
				}
				if met {
					row += fmt.Sprintf(" met (%.2f%s) |", v, tg.unit)
				} else {
					row += fmt.Sprintf(" **missed by %.2f×** (%.2f%s) |", by, v, tg.unit)
				}
			}
		}
		fmt.Println(row)
	}
	if cert {
		row := "| every certificate verified |"
		for _, n := range ns {
			ok, total := 0, 0
			for _, c := range all[n] {
				for _, r := range c.runs {
					total++
					if r.certFailure == "" {
						ok++
					}
				}
			}
			if ok == total {
				row += fmt.Sprintf(" met (%d/%d) |", ok, total)
			} else {
				row += fmt.Sprintf(" **missed** (%d/%d) |", ok, total)
			}
		}
		fmt.Println(row)
	} else {
		fmt.Println("| every certificate verified | not measured: -cert=false |")
	}

	fmt.Println()
	gomax := fmt.Sprintf("GOMAXPROCS %d", runtime.GOMAXPROCS(0))
	if env := os.Getenv("GOMAXPROCS"); env != "" {
		gomax += " (GOMAXPROCS=" + env + " in the environment, which spots-solve inherits)"
	}
	fmt.Printf("- Machine: %d CPUs%s, %s; load average before the table %s, after %s.\n",
		cpus, cpuModel(), gomax, load, loadAverage())
	if over := slices.DeleteFunc(slices.Clone(threads), func(t int) bool { return t <= cpus }); len(over) > 0 {
		fmt.Printf("- † %s threads > %d CPUs: speedup and throughput mean nothing there (threads take turns on the cores); only search overhead counts, which does not depend on the cores.\n",
			joinInts(over), cpus)
	}
	if l, err := strconv.ParseFloat(strings.Fields(load + " x")[0], 64); err == nil && l >= 0.5 {
		fmt.Println("- The machine was not idle before the table (load average ≥ 0.5): other processes competed for the cores, so the speed columns understate what the cores can do.")
	}
	fmt.Println("- Search overhead = PDFPN iterations (all threads) / DFPN iterations; speedup = DFPN seconds / PDFPN seconds",
		"(solve time as spots-solve reports it); throughput = PDFPN iterations/s / DFPN iterations/s.")
	fmt.Println("- CPU s = user + system time of the process; cores used = CPU s / the process's wall time, which includes starting up",
		"and, with certificates, writing and checking the certificate on one thread.")
}

// parallelRun runs spots-solve once (with --cert certDir unless certDir is
// empty) and, with a certificate, checks it with spots-verify in a
// separate process. A certificate that fails is reported in certFailure;
// a solve that fails or finds no outcome is an error.
func parallelRun(bin, verifier, alg string, threads int, pos, certDir string) (parRun, error) {
	args := []string{"--json", "--no-progress", "--algorithm", alg}
	if alg == "pdfpn" {
		args = append(args, "--threads", strconv.Itoa(threads))
	}
	if certDir != "" {
		if err := os.MkdirAll(certDir, 0o755); err != nil {
			return parRun{}, err
		}
		defer os.RemoveAll(certDir)
		args = append(args, "--cert", certDir)
	}
	cmd := exec.Command(bin, append(args, pos)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	runErr := cmd.Run()
	run := parRun{wall: time.Since(start).Seconds()}
	if cmd.ProcessState != nil {
		run.cpu = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	}
	forwardStderr(errOut.Bytes())
	var r struct {
		Outcome         string  `json:"outcome"`
		Seconds         float64 `json:"seconds"`
		Iterations      uint64  `json:"iterations"`
		Claim           string  `json:"claim"`
		Address         string  `json:"address"`
		Certificate     string  `json:"certificate"`
		LockWaits       int64   `json:"lock_waits"`
		LockWaitSeconds float64 `json:"lock_wait_seconds"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &r); err != nil {
		if runErr != nil {
			return run, runErr
		}
		return run, fmt.Errorf("output %q: %v", out.String(), err)
	}
	if r.Outcome != "W" && r.Outcome != "L" {
		return run, fmt.Errorf("outcome %q (%v)", r.Outcome, runErr)
	}
	run.seconds, run.iterations, run.outcome = r.Seconds, r.Iterations, r.Outcome
	run.lockWaits, run.lockWaitSec = r.LockWaits, r.LockWaitSeconds
	switch {
	case certDir == "":
	case runErr != nil || r.Address == "" || r.Certificate == "":
		run.certFailure = fmt.Sprintf("spots-solve wrote or verified none (%v)", runErr)
	default:
		run.certFailure = verifyCertificate(verifier, r.Certificate, r.Claim, r.Address)
	}
	return run, nil
}

// verifyCertificate checks the certificate at path with spots-verify and
// returns why it failed, or "" when it proves claim and has the address
// spots-solve reported.
func verifyCertificate(verifier, path, claim, address string) string {
	cmd := exec.Command(verifier, "--json", "--no-progress", path)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return fmt.Sprintf("spots-verify: %v: %s", err, strings.TrimSpace(errOut.String()))
	}
	var v struct {
		Valid   bool   `json:"valid"`
		Claim   string `json:"claim"`
		Address string `json:"address"`
	}
	switch err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &v); {
	case err != nil:
		return fmt.Sprintf("spots-verify: output %q: %v", out.String(), err)
	case !v.Valid:
		return "spots-verify: not valid"
	case v.Claim != claim || v.Address != address:
		return fmt.Sprintf("spots-verify: claim %s at %s, spots-solve said %s at %s", v.Claim, v.Address, claim, address)
	}
	return ""
}

// forwardStderr copies what spots-solve wrote on standard error, except
// its notes (pdfpn's note that its certificates differ from run to run).
func forwardStderr(b []byte) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if line := sc.Text(); !strings.HasPrefix(line, "spots-solve: note:") {
			fmt.Fprintln(os.Stderr, line)
		}
	}
}

// medianOf is the median of xs (the mean of the middle two for an even
// count); xs is left as it was.
func medianOf(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func minMax(xs []float64) (float64, float64) {
	return slices.Min(xs), slices.Max(xs)
}

// spread formats the median of xs and its range, each with format.
func spread(xs []float64, format string) string {
	lo, hi := minMax(xs)
	return fmt.Sprintf(format+" ("+format+"–"+format+")", medianOf(xs), lo, hi)
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// loadAverage is the one-minute load average (Linux), or "unknown".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "unknown"
}

// cpuModel is " (model name)" from /proc/cpuinfo (Linux), or "".
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return " (" + strings.TrimSpace(v) + ")"
		}
	}
	return ""
}
