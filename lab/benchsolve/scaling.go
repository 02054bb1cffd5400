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
	"sync"
	"time"

	"github.com/spots-dev/spots/outcome"
)

// A scaling table sets every way of using the machine's cores beside
// sequential DFPN on the same position, in the same run:
//
//   - dfpn: one sequential search alone, the baseline of every ratio;
//   - dfpn ×C: C copies of it at once, one a core: what a core does when
//     every core is busy (shared caches, memory bandwidth, clock). No
//     parallel search can do an iteration for less CPU than this, so CPU
//     per iteration is given over it as well as over dfpn alone;
//   - default: plain spots-solve POS, whatever it picks for this machine;
//   - pdfpn T: --algorithm pdfpn --threads T;
//   - swarm W×G: --algorithm swarm --workers-local W --grouping G (a
//     master and W worker processes of G sequential solvers each).
//
// Runs are interleaved (every cell once, then again), so that a machine
// whose load drifts affects every row alike.

// scaleCell is one row of the table and its runs.
type scaleCell struct {
	name    string   // as printed
	args    []string // spots-solve arguments before the position; nil for dfpn ×C
	cores   int      // the cores it can keep busy: utilisation is CPU / (wall × cores)
	copies  int      // dfpn ×C: processes at once
	noCert  bool     // run as given even with certificates: plain spots-solve certifies with dfpn
	threads int      // pdfpn threads, for the targets
	swarm   bool
	runs    []scaleRun
}

// scaleRun is one run of a cell.
type scaleRun struct {
	seconds     float64 // solve time spots-solve reports (the slowest copy's for dfpn ×C)
	wall        float64 // wall time of the whole process (processes)
	cpu         float64 // user + system CPU of the process and the children it waited for
	iterations  uint64  // all threads, workers or copies
	outcome     outcome.Outcome
	threads     int    // what spots-solve reports it ran (default)
	algorithm   string // what spots-solve reports it ran (default)
	certFailure string // with certificates: why it did not verify, or ""
}

// cpuPerIteration is the run's CPU time per iteration, in µs.
func (r scaleRun) cpuPerIteration() float64 { return 1e6 * r.cpu / float64(r.iterations) }

// scalingTable times the cells on each position, runs times each, and
// prints the table, then the targets of the machine's size.
func scalingTable(bin string, ns, threadList, workerList []string, runs int, cert bool) error {
	if runs < 1 {
		return errors.New("-runs must be at least 1")
	}
	cpus := runtime.NumCPU()
	cells := []scaleCell{
		{name: "dfpn", args: []string{"--algorithm", "dfpn"}, cores: 1},
		{name: fmt.Sprintf("dfpn ×%d", cpus), copies: cpus, cores: cpus},
		{name: "default", args: []string{}, cores: cpus, noCert: true},
	}
	for _, t := range threadList {
		if t = strings.TrimSpace(t); t == "" {
			continue
		}
		k, err := strconv.Atoi(t)
		if err != nil || k < 1 {
			return fmt.Errorf("bad -threads %q", t)
		}
		cells = append(cells, scaleCell{name: "pdfpn " + t, args: []string{"--algorithm", "pdfpn", "--threads", t},
			cores: min(k, cpus), threads: k})
	}
	for _, w := range workerList {
		if w = strings.TrimSpace(w); w == "" {
			continue
		}
		ws, gs, ok := strings.Cut(w, "x")
		wk, err1 := strconv.Atoi(ws)
		gk, err2 := strconv.Atoi(gs)
		if !ok || err1 != nil || err2 != nil || wk < 1 || gk < 1 {
			return fmt.Errorf("bad -workers %q (want W x G, e.g. 2x1)", w)
		}
		cells = append(cells, scaleCell{name: fmt.Sprintf("swarm %d×%d", wk, gk), swarm: true, cores: min(wk*gk, cpus),
			args: []string{"--algorithm", "swarm", "--workers-local", ws, "--grouping", gs,
				"--listen", "127.0.0.1:0", "--gossip", "127.0.0.1:0", "--status-listen", ""}})
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

	fmt.Printf("Medians of %d runs and (min–max) over the runs, interleaved; ratios are of the medians.", runs)
	if cert {
		fmt.Println(" Every run but dfpn ×C and default (plain spots-solve POS, which certifies with dfpn when asked) wrote its certificate, verified by spots-solve and again by spots-verify in a separate process.")
	} else {
		fmt.Println(" No certificates (-cert adds them): the times are those of the searches, whole processes.")
	}
	fmt.Println()
	fmt.Println("| position | mode | cores | wall s | speedup | iterations | search overhead | CPU µs/it | over dfpn | over dfpn ×C | utilisation | certificates |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|")
	all := map[string][]scaleCell{}
	failures := 0
	for _, n := range ns {
		pos := "0*" + strings.TrimSpace(n)
		row := slices.Clone(cells)
		for i := range runs {
			for c := range row {
				dir := ""
				if cert && row[c].copies == 0 && !row[c].noCert {
					dir = filepath.Join(certRoot, fmt.Sprintf("%s-%d-%d", n, c, i))
				}
				label := fmt.Sprintf("%s %s run %d/%d", pos, row[c].name, i+1, runs)
				var r scaleRun
				var err error
				if row[c].copies > 0 {
					r, err = copiesRun(bin, pos, row[c].copies)
				} else {
					r, err = scaleOne(bin, verifier, row[c].args, pos, dir)
				}
				if err != nil {
					return fmt.Errorf("%s: %w", label, err)
				}
				if len(row[0].runs) > 0 && r.outcome != row[0].runs[0].outcome {
					return fmt.Errorf("%s: outcome %s, dfpn's %s", label, r.outcome, row[0].runs[0].outcome)
				}
				if r.certFailure != "" {
					failures++
					fmt.Fprintf(os.Stderr, "benchsolve: %s: certificate: %s\n", label, r.certFailure)
				}
				fmt.Fprintf(os.Stderr, "benchsolve: %s: %.2f s, %d iterations, %.1f µs CPU an iteration\n",
					label, r.wall, r.iterations, r.cpuPerIteration())
				row[c].runs = append(row[c].runs, r)
			}
		}
		for _, c := range row {
			fmt.Println(scaleRow(pos, c, row[0], row[1], cert))
		}
		all[n] = row
	}
	scaleVerdict(ns, all, cert, load)
	if failures > 0 {
		return fmt.Errorf("%d certificates did not verify", failures)
	}
	return nil
}

// scaleRow formats one row; seq is dfpn's row and busy dfpn ×C's.
func scaleRow(pos string, c, seq, busy scaleCell, cert bool) string {
	med := func(c scaleCell, f func(scaleRun) float64) float64 {
		xs := make([]float64, len(c.runs))
		for i, r := range c.runs {
			xs[i] = f(r)
		}
		return medianOf(xs)
	}
	all := func(c scaleCell, f func(scaleRun) float64) []float64 {
		xs := make([]float64, len(c.runs))
		for i, r := range c.runs {
			xs[i] = f(r)
		}
		return xs
	}
	wall := func(r scaleRun) float64 { return r.wall }
	its := func(r scaleRun) float64 { return float64(r.iterations) }
	name := c.name
	if c.name == "default" && len(c.runs) > 0 {
		r := c.runs[0]
		name = fmt.Sprintf("default (%s", r.algorithm)
		if r.threads > 1 {
			name += fmt.Sprintf(", %d threads", r.threads)
		}
		name += ")"
	}
	speedup, overhead := "", ""
	if c.copies == 0 {
		speedup = fmt.Sprintf("%.2f×", med(seq, wall)/med(c, wall))
		overhead = fmt.Sprintf("%.2f", med(c, its)/med(seq, its))
	}
	cpuIt := med(c, scaleRun.cpuPerIteration)
	util := med(c, func(r scaleRun) float64 { return r.cpu / (r.wall * float64(c.cores)) })
	certs := "off"
	switch {
	case c.copies > 0, c.noCert:
		certs = "—"
	case cert:
		ok := 0
		for _, r := range c.runs {
			if r.certFailure == "" {
				ok++
			}
		}
		certs = fmt.Sprintf("%d/%d verified", ok, len(c.runs))
	}
	return fmt.Sprintf("| %s | %s | %d | %s | %s | %s | %s | %.1f | %.2f | %.2f | %.3f | %s |", pos, name, c.cores,
		spread(all(c, wall), "%.2f"), speedup, spread(all(c, its), "%.0f"), overhead,
		cpuIt, cpuIt/med(seq, scaleRun.cpuPerIteration), cpuIt/med(busy, scaleRun.cpuPerIteration), util, certs)
}

// scaleOne runs spots-solve once with args and the position (with --cert
// certDir unless certDir is empty) and, with a certificate, checks it with
// spots-verify in a separate process.
func scaleOne(bin, verifier string, args []string, pos, certDir string) (scaleRun, error) {
	args = append([]string{"--json", "--progress", "none"}, args...)
	if certDir != "" {
		if err := os.MkdirAll(certDir, 0o755); err != nil {
			return scaleRun{}, err
		}
		defer os.RemoveAll(certDir)
		args = append(args, "--cert", certDir)
	}
	cmd := exec.Command(bin, append(args, pos)...)
	defer freshCache(cmd)()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	runErr := cmd.Run()
	run := scaleRun{wall: time.Since(start).Seconds()}
	if cmd.ProcessState != nil {
		// The rusage of a waited process includes the children it
		// waited for: a swarm's local workers.
		run.cpu = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	}
	forwardStderr(errOut.Bytes())
	var r struct {
		Outcome     outcome.Outcome `json:"outcome"`
		Seconds     float64         `json:"seconds"`
		Iterations  uint64          `json:"iterations"`
		Algorithm   string          `json:"algorithm"`
		Threads     int             `json:"threads"`
		Claim       string          `json:"claim"`
		Address     string          `json:"address"`
		Certificate string          `json:"certificate"`
	}
	if err := json.Unmarshal(firstLine(out.Bytes()), &r); err != nil {
		if runErr != nil {
			return run, runErr
		}
		return run, fmt.Errorf("output %q: %v", out.String(), err)
	}
	if !r.Outcome.Known() {
		return run, fmt.Errorf("outcome %s (%v)", r.Outcome, runErr)
	}
	run.seconds, run.iterations, run.outcome = r.Seconds, r.Iterations, r.Outcome
	run.algorithm, run.threads = r.Algorithm, max(r.Threads, 1)
	switch {
	case certDir == "":
	case runErr != nil || r.Address == "" || r.Certificate == "":
		run.certFailure = fmt.Sprintf("spots-solve wrote or verified none (%v)", runErr)
	default:
		run.certFailure = verifyCertificate(verifier, r.Certificate, r.Claim, r.Address)
	}
	return run, nil
}

// copiesRun runs k sequential DFPN searches of pos at once, one process
// each, and sums them: iterations and CPU over all, wall time of the
// slowest.
func copiesRun(bin, pos string, k int) (scaleRun, error) {
	runs := make([]scaleRun, k)
	errs := make([]error, k)
	var wg sync.WaitGroup
	for i := range k {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i], errs[i] = scaleOne(bin, "", []string{"--algorithm", "dfpn"}, pos, "")
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return scaleRun{}, err
	}
	sum := scaleRun{outcome: runs[0].outcome, algorithm: "dfpn", threads: 1}
	for _, r := range runs {
		sum.iterations += r.iterations
		sum.cpu += r.cpu
		sum.wall = max(sum.wall, r.wall)
		sum.seconds = max(sum.seconds, r.seconds)
	}
	return sum, nil
}

// firstLine is the first line of b: spots-solve prints one JSON object per
// position.
func firstLine(b []byte) []byte {
	line, _, _ := bytes.Cut(bytes.TrimSpace(b), []byte("\n"))
	return line
}

// The targets of the issue on every core of one machine. Those of 2 cores
// are checked on any machine that ran their cells; those of 16 cores on a
// machine of 16 CPUs or more.
type scaleTarget struct {
	name    string
	pos     string
	mode    func(c scaleCell) bool
	limit   float64
	atLeast bool // the value must be ≥ limit, else ≤ limit
	value   func(c, seq scaleCell) float64
	cpus    int // the fewest CPUs the target needs
}

func medianRun(c scaleCell, f func(scaleRun) float64) float64 {
	xs := make([]float64, len(c.runs))
	for i, r := range c.runs {
		xs[i] = f(r)
	}
	return medianOf(xs)
}

func speedupOf(c, seq scaleCell) float64 {
	w := func(r scaleRun) float64 { return r.wall }
	return medianRun(seq, w) / medianRun(c, w)
}

func overheadOf(c, seq scaleCell) float64 {
	it := func(r scaleRun) float64 { return float64(r.iterations) }
	return medianRun(c, it) / medianRun(seq, it)
}

func cpuRatioOf(c, seq scaleCell) float64 {
	return medianRun(c, scaleRun.cpuPerIteration) / medianRun(seq, scaleRun.cpuPerIteration)
}

func utilisationOf(c, _ scaleCell) float64 {
	return medianRun(c, func(r scaleRun) float64 { return r.cpu / (r.wall * float64(c.cores)) })
}

var scaleTargets = func() []scaleTarget {
	pdfpn2 := func(c scaleCell) bool { return c.threads == 2 }
	swarm2 := func(c scaleCell) bool { return c.name == "swarm 2×1" }
	def := func(c scaleCell) bool { return c.name == "default" }
	var ts []scaleTarget
	for _, pos := range []string{"0*18", "0*20"} {
		ts = append(ts,
			scaleTarget{"pdfpn 2 threads: CPU per iteration ≤ 1.05× dfpn's", pos, pdfpn2, 1.05, false, cpuRatioOf, 2},
			scaleTarget{"pdfpn 2 threads: speedup ≥ 1.8×", pos, pdfpn2, 1.8, true, speedupOf, 2})
	}
	ts = append(ts,
		scaleTarget{"--workers-local 2: utilisation ≥ 0.95", "0*19", swarm2, 0.95, true, utilisationOf, 2},
		scaleTarget{"default: CPU per iteration ≤ 1.15× dfpn's", "0*21", def, 1.15, false, cpuRatioOf, 16},
		scaleTarget{"default: utilisation ≥ 0.95", "0*21", def, 0.95, true, utilisationOf, 16},
		scaleTarget{"default: search overhead ≤ 1.3", "0*21", def, 1.3, false, overheadOf, 16},
		scaleTarget{"default: speedup ≥ 12×", "0*21", def, 12, true, speedupOf, 16},
		scaleTarget{"default: speedup ≥ 8×", "0*20", def, 8, true, speedupOf, 16})
	return ts
}()

// scaleVerdict prints whether each target whose cells ran is met, or by
// how much it is missed, then the machine.
func scaleVerdict(ns []string, all map[string][]scaleCell, cert bool, load string) {
	cpus := runtime.NumCPU()
	fmt.Println()
	fmt.Println("| target | position | value | verdict |")
	fmt.Println("|---|---|---|---|")
	for _, t := range scaleTargets {
		row, ok := all[strings.TrimPrefix(t.pos, "0*")]
		if !ok {
			continue
		}
		i := slices.IndexFunc(row, t.mode)
		if i < 0 {
			continue
		}
		if cpus < t.cpus {
			fmt.Printf("| %s | %s | | not measurable here (%d CPUs, the target is for %d) |\n", t.name, t.pos, cpus, t.cpus)
			continue
		}
		v := t.value(row[i], row[0])
		met, by := v <= t.limit, v/t.limit
		if t.atLeast {
			met, by = v >= t.limit, t.limit/v
		}
		verdict := "met"
		if !met {
			verdict = fmt.Sprintf("**missed by %.2f×**", by)
		}
		fmt.Printf("| %s | %s | %.2f | %s |\n", t.name, t.pos, v, verdict)
	}
	if cert {
		ok, total := 0, 0
		for _, row := range all {
			for _, c := range row {
				for _, r := range c.runs {
					if c.copies == 0 && !c.noCert {
						total++
						if r.certFailure == "" {
							ok++
						}
					}
				}
			}
		}
		fmt.Printf("| every certificate verified | all | %d/%d | %s |\n", ok, total, map[bool]string{true: "met", false: "**missed**"}[ok == total])
	}
	fmt.Println()
	gomax := fmt.Sprintf("GOMAXPROCS %d", runtime.GOMAXPROCS(0))
	if env := os.Getenv("GOMAXPROCS"); env != "" {
		gomax += " (GOMAXPROCS=" + env + " in the environment, which spots-solve inherits)"
	}
	fmt.Printf("- Machine: %d CPUs%s, %s; load average before the table %s, after %s.\n", cpus, cpuModel(), gomax, load, loadAverage())
	if l, err := strconv.ParseFloat(strings.Fields(load + " x")[0], 64); err == nil && l >= 0.5 {
		fmt.Println("- The machine was not idle before the table (load average ≥ 0.5): other processes competed for the cores.")
	}
	fmt.Println("- speedup = dfpn's wall time / the mode's (whole processes, same run); search overhead = iterations (all threads, workers) / dfpn's;",
		"CPU µs/it = user + system CPU of the process and the workers it waited for, per iteration; utilisation = CPU / (wall × cores).")
	fmt.Println("- dfpn ×C runs C sequential searches at once, one a core: its CPU per iteration is what a core costs when all are busy,",
		"the floor for any mode that keeps every core busy.")
}

// forwardStderr copies what spots-solve wrote on standard error, except
// its notes and the progress of a swarm's workers.
func forwardStderr(b []byte) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "spots-solve: note:") || strings.HasPrefix(line, "spots-solve worker:") || strings.HasPrefix(line, "swarm: {") {
			continue
		}
		fmt.Fprintln(os.Stderr, line)
	}
}
