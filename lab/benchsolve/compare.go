package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spots-dev/spots/outcome"
)

// chain holds the same-run speed ratios (reference seconds over spots
// seconds, whole processes, one at a time) of commit 0b97944 on one quiet
// 2-core AMD EPYC machine, from ../shared/testdata/REFERENCE-SPEED.md. A
// run that times 0b97944 (-base) beside a new build gets the new build's
// ratio to the reference as chain × time(0b97944) / time(new).
var chain = map[string]map[int]float64{
	"dfpn": {10: 1.10 / 0.44, 12: 14.57 / 7.45, 13: 16.68 / 5.35, 14: 78.9 / 34.7, 15: 158.2 / 70.8},
	"pns":  {12: 12.3 / 9.8, 13: 13.2 / 11.2, 14: 41.1 / 31.0},
	// spots-position children on bench_positions.txt: 0.41-0.48 s against
	// 0.72-0.89 s.
	"children": {0: 0.805 / 0.445},
}

// contender is one program timed in a comparison.
type contender struct {
	name string
	argv func(alg, pos string, nimber bool) []string
}

// sample is one timed run.
type sample struct {
	seconds    float64 // wall time of the whole process
	iterations uint64
	rssMiB     float64
	outcome    string // W or L, or the Grundy value of a --nimber run; "" where the run did not say
}

// compareTable times spots (-bin), optionally another spots build (-base)
// and the reference (-ref, a command template), on each position and
// algorithm, runs times each in turn, and prints medians and ratios.
func compareTable(bin, base, ref string, ns, algs []string, nimber bool, runs int) error {
	cs := []contender{{"spots", spotsArgv(bin)}}
	if base != "" {
		cs = append(cs, contender{"base", spotsArgv(base)})
	}
	if ref != "" {
		cs = append(cs, contender{"reference", refArgv(ref)})
	}
	header := "| position | algorithm |"
	sep := "|---|---|"
	for _, c := range cs {
		header += fmt.Sprintf(" %s s | %s it | %s MiB |", c.name, c.name, c.name)
		sep += "---|---|---|"
	}
	if ref != "" {
		header += " spots/reference |"
		sep += "---|"
	}
	if base != "" {
		header += " spots/base | chained ratio |"
		sep += "---|---|"
	}
	fmt.Println(header)
	fmt.Println(sep)
	logs := map[string][]float64{}
	for _, alg := range algs {
		for _, n := range ns {
			pos := "0*" + n
			// Runs alternate between the programs, so that a machine that
			// slows down or speeds up during the table affects all alike.
			all := make([][]sample, len(cs))
			for range runs {
				for i, c := range cs {
					s, err := timeRun(c.argv(alg, pos, nimber))
					if err != nil {
						return fmt.Errorf("%s %s %s: %w", c.name, alg, pos, err)
					}
					all[i] = append(all[i], s)
				}
			}
			med := make([]sample, len(cs))
			for i := range cs {
				med[i] = median(all[i])
			}
			row := fmt.Sprintf("| %s | %s |", pos, alg)
			for _, m := range med {
				row += fmt.Sprintf(" %.2f | %d | %.0f |", m.seconds, m.iterations, m.rssMiB)
			}
			for _, m := range med[1:] {
				if m.outcome != "" && med[0].outcome != "" && m.outcome != med[0].outcome {
					return fmt.Errorf("%s %s: outcomes differ (%s and %s)", alg, pos, med[0].outcome, m.outcome)
				}
			}
			if ref != "" {
				r := med[len(med)-1].seconds / med[0].seconds
				logs[alg+" ref"] = append(logs[alg+" ref"], math.Log(r))
				row += fmt.Sprintf(" %.2f× |", r)
			}
			if base != "" {
				r := med[1].seconds / med[0].seconds
				row += fmt.Sprintf(" %.2f× |", r)
				var k int
				fmt.Sscan(n, &k)
				if c, ok := chain[alg][k]; ok && !nimber {
					logs[alg+" chain"] = append(logs[alg+" chain"], math.Log(c*r))
					row += fmt.Sprintf(" %.1f× |", c*r)
				} else {
					row += " |"
				}
			}
			fmt.Println(row)
		}
	}
	keys := make([]string, 0, len(logs))
	for k := range logs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Printf("\ngeometric mean (%s): %.2f×\n", k, math.Exp(mean(logs[k])))
	}
	return nil
}

func spotsArgv(bin string) func(alg, pos string, nimber bool) []string {
	return func(alg, pos string, nimber bool) []string {
		a := []string{bin, "--json", "--progress", "none", "--algorithm", alg}
		if nimber {
			a = append(a, "--nimber")
		}
		return append(a, pos)
	}
}

// refArgv fills the template: {alg} the algorithm, {pos} the position,
// {nimber} "--nimber" or nothing.
func refArgv(tmpl string) func(alg, pos string, nimber bool) []string {
	return func(alg, pos string, nimber bool) []string {
		var out []string
		for _, f := range strings.Fields(tmpl) {
			switch f {
			case "{alg}":
				out = append(out, alg)
			case "{pos}":
				out = append(out, pos)
			case "{nimber}":
				if nimber {
					out = append(out, "--nimber")
				}
			default:
				out = append(out, f)
			}
		}
		return out
	}
}

// timeRun runs argv and reads its JSON line: outcome (or nimber) and
// iterations, where it reports them.
func timeRun(argv []string) (sample, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	defer freshCache(cmd)()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return sample{}, fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
	}
	s := sample{seconds: time.Since(start).Seconds()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.rssMiB = float64(ru.Maxrss) / 1024
	}
	if cpuTime {
		s.seconds = processCPU(cmd)
	}
	var r struct {
		Outcome    outcome.Outcome `json:"outcome"`
		Nimber     *uint32         `json:"grundy"`
		OldNimber  *uint32         `json:"nimber"` // the key of builds before docs/json.md's vocabulary, such as -base 0b97944
		Iterations *uint64         `json:"iterations"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &r); err != nil {
		return s, fmt.Errorf("%s: output %q: %v", strings.Join(argv, " "), out.String(), err)
	}
	if r.Outcome.Known() {
		s.outcome = r.Outcome.String()
	}
	if r.Nimber == nil {
		r.Nimber = r.OldNimber
	}
	if r.Nimber != nil {
		s.outcome = fmt.Sprint(*r.Nimber)
	}
	if r.Iterations != nil {
		s.iterations = *r.Iterations
	}
	return s, nil
}

// childrenTable times the children of every position of file, whole
// processes: spots-position (next to -bin, and to -base) and the
// reference's command (-ref-children, given the file as its argument).
func childrenTable(bin, base, refCmd, file string, runs int) error {
	type prog struct {
		name string
		argv []string
	}
	position := func(solveBin string) []string {
		return []string{strings.TrimSuffix(solveBin, "spots-solve") + "spots-position", "children"}
	}
	ps := []prog{{"spots", position(bin)}}
	if base != "" {
		ps = append(ps, prog{"base", position(base)})
	}
	if refCmd != "" {
		ps = append(ps, prog{"reference", append(strings.Fields(refCmd), file)})
	}
	fmt.Println("| program | median s | min s | max s |")
	fmt.Println("|---|---|---|---|")
	med := map[string]float64{}
	for _, p := range ps {
		var ts []float64
		for range runs {
			t, err := timeChildren(p.argv, file, p.name != "reference")
			if err != nil {
				return err
			}
			ts = append(ts, t)
		}
		slices.Sort(ts)
		med[p.name] = ts[len(ts)/2]
		fmt.Printf("| %s | %.3f | %.3f | %.3f |\n", p.name, ts[len(ts)/2], ts[0], ts[len(ts)-1])
	}
	if r, ok := med["reference"]; ok {
		fmt.Printf("\nspots/reference: %.2f×\n", r/med["spots"])
	}
	if b, ok := med["base"]; ok {
		fmt.Printf("spots/base: %.2f×, chained through base: %.1f×\n", b/med["spots"], chain["children"][0]*b/med["spots"])
	}
	return nil
}

// timeChildren runs argv once, with file on its standard input when stdin
// is set, and returns its wall time.
func timeChildren(argv []string, file string, stdin bool) (float64, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	defer freshCache(cmd)()
	if stdin {
		in, err := os.Open(file)
		if err != nil {
			return 0, err
		}
		defer in.Close()
		cmd.Stdin = in
	}
	cmd.Stdout, cmd.Stderr = nil, os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
	}
	if cpuTime {
		return processCPU(cmd), nil
	}
	return time.Since(start).Seconds(), nil
}

// cpuTime makes the tables report CPU seconds (user + system) instead of
// wall seconds: on a machine shared with other work, the time a process
// waited for a core is not its own.
var cpuTime bool

// processCPU returns the user and system CPU seconds of a finished command.
func processCPU(cmd *exec.Cmd) float64 {
	st := cmd.ProcessState
	return (st.UserTime() + st.SystemTime()).Seconds()
}

func median(ss []sample) sample {
	slices.SortFunc(ss, func(a, b sample) int { return cmp.Compare(a.seconds, b.seconds) })
	return ss[len(ss)/2]
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
