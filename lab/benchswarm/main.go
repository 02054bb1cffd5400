// Command benchswarm measures the swarm in simulation (swarmlab.Simulate):
// for each number of virtual workers it solves one position and prints the
// paper's statistics as a Markdown table, then draws speedup and search
// overhead against the number of workers as an SVG.
//
//	go run ./lab/benchswarm -pos 0*13 -n 1,2,4,8 -svg docs/swarm-scaling.svg
//
// A long sweep may be run in parts; -plot joins the tables they printed
// into one curve without simulating again:
//
//	go run ./lab/benchswarm -pos 0*14 -plot tables.md -svg docs/swarm-scaling.svg
//	go run ./lab/benchswarm -pos 0*14 -plot 'groups of 32=a.md,one solver per group=b.md' -svg docs/swarm-scaling.svg
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/cpuprofile"
	"github.com/spots-dev/spots/lab/swarmlab"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/swarm"
)

func main() {
	def := swarm.DefaultParams()
	pos := flag.String("pos", "0*14", "the position to solve")
	ns := flag.String("n", "1,2,4,8,16,32,64,128,256,512,1024", "numbers of virtual cores: solvers times threads per solver")
	grouping := flag.Int("grouping", def.Grouping, "solvers per worker group (one machine, one nimber database, one exchange per cycle); n solvers form n/min(n, grouping) groups")
	capacity := flag.Int("capacity", 8192, "table entries per virtual worker")
	iterations := flag.Uint64("iterations", def.Iterations, "iterations per job, each PDFPN thread's")
	updates := flag.Uint64("updates", def.Updates, "iterations per report, each PDFPN thread's")
	dc := swarmlab.DefaultCosts()
	var costs swarmlab.MasterCosts
	flag.Float64Var(&costs.Exchange, "master-cost", dc.Exchange, "the master's CPU time of one exchange under its lock, in µs")
	flag.Float64Var(&costs.Report, "report-cost", dc.Report, "the master's CPU time of each report an exchange carries, in µs")
	iterUS := flag.Float64("iteration-us", 0, "the CPU time of one iteration of a real solver on -pos, in µs, which converts the master's costs into iterations (default: measured by the sequential baseline; needed with -seq)")
	threads := flag.Int("threads", def.Threads, "PDFPN threads per solver (0: sequential DFPN; the threads of a simulated solver take turns, an iteration each, as on cores of their own)")
	procs := flag.Int("procs", 0, "how many groups' cycles to compute at once (0: one per CPU); changes how long a simulation takes, never its figures")
	spread := flag.Uint64("spread", solve.DefaultSpread, "with -threads: how far a solver's PDFPN threads keep apart (solve.Options.Spread)")
	gather := flag.Float64("gather", def.Pace.Gather, "the share of a cycle a loaded master asks groups of several solvers to wait, once one of their solvers has ended a cycle, for the others before they report (Params.Pace.Gather; 0 to 1)")
	large := flag.Int("large-swarm", def.LargeSwarm, "cores (solvers × threads) from which jobs last at most -large-iterations and follow (Params.LargeSwarm; 0: never)")
	largeIt := flag.Uint64("large-iterations", def.LargeIterations, "a large swarm's iterations per job, each PDFPN thread's")
	seed := flag.Uint64("seed", def.Seed, "break ties between equal children at random with this seed, in the master and the solvers, and in the sequential baseline (Params.Seed; 0: in heuristic order)")
	stopAfter := flag.Duration("stop-after", 0, "stop each simulation after this much real time and print what it had reached, as lower bounds marked >, in its row (0: run until the root is solved)")
	seqIt := flag.Uint64("seq", 0, "the sequential baseline's iterations, if known from an earlier run of this command (skips solving it again; the outcome is then taken from the first simulation)")
	svg := flag.String("svg", "", "write the scaling curve to this SVG file")
	profPath := flag.String("cpuprofile", "", "write a CPU profile of the simulations to this file")
	from := flag.String("plot", "", "draw -svg from the Markdown tables this command printed before instead of simulating: FILE (one sweep, perhaps run in parts and joined) or LABEL=FILE,LABEL=FILE,… (sweeps drawn together)")
	flag.Parse()
	if *from != "" {
		if *svg == "" {
			fail(fmt.Errorf("-plot %s: say where to draw with -svg FILE", *from))
		}
		sweeps, err := readSweeps(*from)
		if err == nil {
			err = draw(*svg, *pos, sweeps)
		}
		if err != nil {
			fail(err)
		}
		return
	}
	root, err := sprouts.Parse(*pos)
	if err != nil {
		fail(err)
	}
	prof, err := cpuprofile.Start(*profPath, format.CreateAtomic)
	if err != nil {
		fail(err)
	}
	defer func() {
		if err := prof.Stop(); err != nil {
			fail(err)
		}
	}()
	params := swarm.DefaultParams()
	params.Capacity, params.Iterations, params.Updates, params.Threads = *capacity, *iterations, *updates, *threads
	params.Spread, params.Pace.Gather = *spread, *gather
	params.LargeSwarm, params.LargeIterations, params.Seed = *large, *largeIt, *seed
	ctx := context.Background()
	start := time.Now()
	seq, how := *seqIt, "given with -seq"
	var want solve.Outcome  // the sequential baseline's, or the first simulation's with -seq
	var iterSeconds float64 // CPU time of one iteration of a real solver on this machine
	if seq == 0 {
		var cpu time.Duration
		seq, want, cpu = swarmlab.SequentialBaseline(ctx, root, params)
		how = fmt.Sprintf("%.1f s, %.1f s of CPU, %.1f µs of CPU an iteration", time.Since(start).Seconds(), cpu.Seconds(), 1e6*cpu.Seconds()/float64(seq))
		iterSeconds = cpu.Seconds() / float64(seq)
	}
	if *iterUS > 0 {
		iterSeconds = *iterUS / 1e6
	}
	if iterSeconds <= 0 {
		fail(fmt.Errorf("-seq %d: give -iteration-us too (the CPU time of one iteration on %s, which the baseline's run printed)", seq, *pos))
	}
	fmt.Printf("Position %s; sequential DFPN with %d table entries: %d iterations (%s). Master costs: %g µs an exchange and %g µs a report, against %.1f µs an iteration; jobs of %d iterations, reports every %d; %d threads per solver (spread %d); up to %d solvers per group, asked to gather %g of a cycle when the master is loaded; from %d cores jobs of %d that follow.\n\n",
		*pos, *capacity, seq, how, costs.Exchange, costs.Report, 1e6*iterSeconds, *iterations, *updates, *threads, *spread, *grouping, *gather, *large, *largeIt)
	fmt.Println("| workers | M-Nodes | W-Nodes | T-GN | T-It | Util | Time | Speedup | search overhead | master busy | real s | groups × solvers × threads | outcome | exchange CPU µs | lock µs | reports an exchange | waiting for a leaf | report every | iterating | on the proof |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	var speed, over plotter.XYs
	for _, s := range strings.Split(*ns, ",") {
		n, err := strconv.Atoi(s)
		if err != nil {
			fail(fmt.Errorf("-n %q: %v", s, err))
		}
		// n counts cores, as the paper's tables do: solvers of
		// max(threads, 1) threads each.
		th := max(*threads, 1)
		if n < th || n%th != 0 {
			fail(fmt.Errorf("-n %d, -threads %d: the cores must split into solvers of equal threads", n, *threads))
		}
		solvers := n / th
		if *grouping < 1 || solvers%min(solvers, *grouping) != 0 {
			fail(fmt.Errorf("-n %d, -grouping %d: the solvers must split into equal groups", n, *grouping))
		}
		params.Grouping = min(solvers, *grouping)
		groups := solvers / params.Grouping
		simCtx, cancel := ctx, context.CancelFunc(func() {})
		if *stopAfter > 0 {
			simCtx, cancel = context.WithTimeout(ctx, *stopAfter)
		}
		r, err := swarmlab.Simulate(simCtx, root, params, swarmlab.SimConfig{Workers: groups, Costs: costs, Iteration: 1e6 * iterSeconds, Procs: *procs,
			Progress: func(now uint64, st swarm.MasterStats) {
				fmt.Fprintf(os.Stderr, "benchswarm: %s, %d cores: virtual time %d, T-It %d, %d jobs out, root pn/dn %d/%d, master load %.0f%% (%.0f%% at cycles' ends), reports every %d, gather %g, %.0f s\n",
					*pos, n, now, st.Iterations, st.Open, st.RootPN, st.RootDN, 100*st.Load, 100*st.PacedLoad, st.ReportEvery, st.Gather, time.Since(start).Seconds())
			}})
		cancel()
		if err != nil && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			// Stopped by -stop-after: what it reached bounds the run.
			fmt.Printf("| %d | > %d | | > %d | > %d | | > %d | < %.1f× | > %.2f | | %.0f | %d × %d × %d | stopped after %s | | | | | | | |\n", n, r.MNodes, r.TGN, r.TIt,
				r.Time, float64(seq)/float64(max(r.Time, 1)), float64(r.TIt)/float64(seq), r.Seconds, groups, params.Grouping, th, *stopAfter)
			continue
		}
		if err != nil {
			fail(err)
		}
		if want == solve.Unknown {
			want = r.Outcome
		}
		if r.Outcome != want {
			fail(fmt.Errorf("%d workers: %s, sequential (or the first simulation) %s", n, r.Outcome, want))
		}
		sp, ov := float64(seq)/float64(r.Time), float64(r.TIt)/float64(seq)
		fmt.Printf("| %d | %d | %.0f | %d | %d | %.1f%% | %d | %.1f× | %.2f | %.1f%% | %.0f | %d × %d × %d | %s | %.1f | %.1f | %.1f | %.1f%% | %d | %.1f%% | %.1f%% |\n", n, r.MNodes, r.WNodes, r.TGN, r.TIt,
			100*r.Util, r.Time, sp, ov, 100*float64(r.MasterBusy)/float64(r.Time), r.Seconds, groups, params.Grouping, th,
			r.Outcome, 1e6*r.ExchangeSeconds, 1e6*r.ExchangeLockSeconds, r.ReportsPerExchange, 100*r.Waited, r.Master.ReportEvery, 100*r.Iterating, 100*share(r.ProofWork.OnProof, r.ProofWork.Total()))
		printProofWork(n, r.ProofWork)
		speed = append(speed, plotter.XY{X: float64(n), Y: sp})
		over = append(over, plotter.XY{X: float64(n), Y: ov})
	}
	if *svg != "" {
		if err := draw(*svg, *pos, []series{{"", speed, over}}); err != nil {
			fail(err)
		}
	}
}

// series is one sweep: speedup and search overhead against workers.
type series struct {
	label       string // "" when there is only one
	speed, over plotter.XYs
}

// draw plots speedup and search overhead against workers for each sweep,
// both axes logarithmic, with the ideal speedup for reference.
func draw(path, pos string, sweeps []series) error {
	p := plot.New()
	p.Title.Text = "Simulated swarm on " + pos
	p.X.Label.Text = "virtual workers"
	p.Y.Label.Text = "speedup, search overhead"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	var ideal plotter.XYs
	for _, sw := range sweeps {
		for _, s := range sw.speed {
			if len(ideal) == 0 || s.X > ideal[len(ideal)-1].X {
				ideal = append(ideal, plotter.XY{X: s.X, Y: s.X})
			}
		}
	}
	type curve struct {
		name string
		xys  plotter.XYs
		dash bool
	}
	var curves []curve
	for _, sw := range sweeps {
		suffix := ""
		if sw.label != "" {
			suffix = " (" + sw.label + ")"
		}
		curves = append(curves, curve{"speedup" + suffix, sw.speed, false}, curve{"search overhead" + suffix, sw.over, false})
	}
	curves = append(curves, curve{"ideal speedup", ideal, true})
	for i, l := range curves {
		line, points, err := plotter.NewLinePoints(l.xys)
		if err != nil {
			return err
		}
		line.Color = plotutil.Color(i)
		points.Color = plotutil.Color(i)
		points.Shape = plotutil.Shape(i)
		if l.dash {
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
		}
		p.Add(line, points)
		p.Legend.Add(l.name, line, points)
	}
	// Room above the curves for the legend and right of them for the last
	// tick label.
	p.X.Max *= 1.5
	p.Y.Max *= 8
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(8), -vg.Points(4)
	return p.Save(6*vg.Inch, 4*vg.Inch, path)
}

// readSweeps reads -plot: FILE, or LABEL=FILE,LABEL=FILE,… for several
// sweeps drawn together.
func readSweeps(arg string) ([]series, error) {
	var sweeps []series
	for _, part := range strings.Split(arg, ",") {
		label, path, ok := strings.Cut(part, "=")
		if !ok {
			label, path = "", part
		}
		speed, over, err := readTables(path)
		if err != nil {
			return nil, err
		}
		sweeps = append(sweeps, series{label, speed, over})
	}
	return sweeps, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchswarm:", err)
	os.Exit(1)
}

// readTables reads the rows of tables this command printed: workers,
// speedup and search overhead, in the order of the rows.
func readTables(path string) (speed, over plotter.XYs, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 11 {
			continue
		}
		n, err1 := strconv.Atoi(strings.TrimSpace(cells[1]))
		sp, err2 := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(cells[8]), "×"), 64)
		ov, err3 := strconv.ParseFloat(strings.TrimSpace(cells[9]), 64)
		if err1 != nil || err2 != nil || err3 != nil {
			continue // a header or separator row
		}
		speed = append(speed, plotter.XY{X: float64(n), Y: sp})
		over = append(over, plotter.XY{X: float64(n), Y: ov})
	}
	if len(speed) == 0 {
		return nil, nil, fmt.Errorf("%s: no table rows", path)
	}
	return speed, over, nil
}

// printProofWork shows on stderr where the reported iterations of a run
// went (swarmlab.ProofWork).
func printProofWork(cores int, pw swarmlab.ProofWork) {
	total := pw.Total()
	fmt.Fprintf(os.Stderr, "benchswarm: %d cores: of %d iterations reported, %d (%.1f%%) on the proof; off it, below moves still open %.1f%%, refuted %.1f%%, winning but not taken %.1f%%; off it by the depth of the won couple they leave the proof from:",
		cores, total, pw.OnProof, 100*share(pw.OnProof, total), 100*share(pw.Open, total), 100*share(pw.Refuted, total), 100*share(pw.Winning, total))
	for d, w := range pw.ByDepth {
		if w > 0 {
			fmt.Fprintf(os.Stderr, " %d: %.1f%%", d, 100*share(w, total))
		}
	}
	fmt.Fprintln(os.Stderr)
}

func share(part, whole uint64) float64 {
	if whole == 0 {
		return 0
	}
	return float64(part) / float64(whole)
}
