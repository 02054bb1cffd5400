// Command benchswarm measures the swarm in simulation (swarm.Simulate):
// for each number of virtual workers it solves one position and prints the
// paper's statistics as a Markdown table, then draws speedup and search
// overhead against the number of workers as an SVG.
//
//	go run ./internal/benchswarm -pos 0*13 -n 1,2,4,8 -svg docs/swarm-scaling.svg
//
// A long sweep may be run in parts; -plot joins the tables they printed
// into one curve without simulating again:
//
//	go run ./internal/benchswarm -pos 0*14 -plot tables.md -svg docs/swarm-scaling.svg
//	go run ./internal/benchswarm -pos 0*14 -plot 'groups of 32=a.md,one solver per group=b.md' -svg docs/swarm-scaling.svg
package main

import (
	"context"
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

	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/swarm"
)

func main() {
	pos := flag.String("pos", "0*14", "the position to solve")
	ns := flag.String("n", "1,2,4,8,16,32,64,128,256,512,1024", "numbers of virtual workers (solvers)")
	grouping := flag.Int("grouping", 1, "solvers per worker group (one machine, one nimber database, one exchange per cycle); n solvers form n/min(n, grouping) groups")
	capacity := flag.Int("capacity", 8192, "table entries per virtual worker")
	iterations := flag.Uint64("iterations", 1000, "iterations per job")
	updates := flag.Uint64("updates", 1000, "iterations per report")
	cost := flag.Uint64("master-cost", 10, "the master's cost of one exchange, in iterations")
	svg := flag.String("svg", "", "write the scaling curve to this SVG file")
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
	params := swarm.DefaultParams()
	params.Capacity, params.Iterations, params.Updates = *capacity, *iterations, *updates
	ctx := context.Background()
	start := time.Now()
	seq, out := swarm.SequentialIterations(ctx, root, params)
	fmt.Printf("Position %s (%s); sequential DFPN with %d table entries: %d iterations (%.1f s). Master cost %d iterations per exchange; jobs of %d iterations, reports every %d; up to %d solvers per group.\n\n",
		*pos, out, *capacity, seq, time.Since(start).Seconds(), *cost, *iterations, *updates, *grouping)
	fmt.Println("| workers | M-Nodes | W-Nodes | T-GN | T-It | Util | Time | Speedup | search overhead | master busy | real s | groups × solvers |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|")
	var speed, over plotter.XYs
	for _, s := range strings.Split(*ns, ",") {
		n, err := strconv.Atoi(s)
		if err != nil {
			fail(fmt.Errorf("-n %q: %v", s, err))
		}
		if n < 1 || *grouping < 1 || n%min(n, *grouping) != 0 {
			fail(fmt.Errorf("-n %d, -grouping %d: the workers must split into equal groups", n, *grouping))
		}
		params.Grouping = min(n, *grouping)
		groups := n / params.Grouping
		r, err := swarm.Simulate(ctx, root, params, swarm.SimConfig{Workers: groups, MasterCost: *cost})
		if err != nil {
			fail(err)
		}
		if r.Outcome != out.String() {
			fail(fmt.Errorf("%d workers: %s, sequential %s", n, r.Outcome, out))
		}
		sp, ov := float64(seq)/float64(r.Time), float64(r.TIt)/float64(seq)
		fmt.Printf("| %d | %d | %.0f | %d | %d | %.1f%% | %d | %.1f× | %.2f | %.1f%% | %.0f | %d × %d |\n", n, r.MNodes, r.WNodes, r.TGN, r.TIt,
			100*r.Util, r.Time, sp, ov, 100*float64(r.MasterBusy)/float64(r.Time), r.Seconds, groups, params.Grouping)
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
