// Command benchswarm measures the swarm in simulation (swarm.Simulate):
// for each number of virtual workers it solves one position and prints the
// paper's statistics as a Markdown table, then draws speedup and search
// overhead against the number of workers as an SVG.
//
//	go run ./internal/benchswarm -pos 0*13 -n 1,2,4,8 -svg swarm-scaling.svg
//
// A long sweep may be run in parts; -plot joins the tables they printed
// into one curve without simulating again:
//
//	go run ./internal/benchswarm -pos 0*14 -plot tables.md -svg swarm-scaling.svg
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
	"gonum.org/v1/plot/vg"

	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/swarm"
)

func main() {
	pos := flag.String("pos", "0*14", "the position to solve")
	ns := flag.String("n", "1,2,4,8,16,32,64,128,256,512,1024", "numbers of virtual workers")
	capacity := flag.Int("capacity", 8192, "table entries per virtual worker")
	iterations := flag.Uint64("iterations", 1000, "iterations per job")
	updates := flag.Uint64("updates", 1000, "iterations per report")
	cost := flag.Uint64("master-cost", 10, "the master's cost of one exchange, in iterations")
	svg := flag.String("svg", "", "write the scaling curve to this SVG file")
	from := flag.String("plot", "", "draw -svg from the Markdown tables this command printed before (several runs may be joined) instead of simulating")
	flag.Parse()
	if *from != "" {
		if *svg == "" {
			fail(fmt.Errorf("-plot %s: say where to draw with -svg FILE", *from))
		}
		speed, over, err := readTables(*from)
		if err == nil {
			err = draw(*svg, *pos, speed, over)
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
	fmt.Printf("Position %s (%s); sequential DFPN with %d table entries: %d iterations (%.1f s). Master cost %d iterations per exchange; jobs of %d iterations, reports every %d.\n\n",
		*pos, out, *capacity, seq, time.Since(start).Seconds(), *cost, *iterations, *updates)
	fmt.Println("| workers | M-Nodes | W-Nodes | T-GN | T-It | Util | Time | Speedup | search overhead | master busy | real s |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	var speed, over plotter.XYs
	for _, s := range strings.Split(*ns, ",") {
		n, err := strconv.Atoi(s)
		if err != nil {
			fail(fmt.Errorf("-n %q: %v", s, err))
		}
		r, err := swarm.Simulate(ctx, root, params, swarm.SimConfig{Workers: n, MasterCost: *cost})
		if err != nil {
			fail(err)
		}
		if r.Outcome != out.String() {
			fail(fmt.Errorf("%d workers: %s, sequential %s", n, r.Outcome, out))
		}
		sp, ov := float64(seq)/float64(r.Time), float64(r.TIt)/float64(seq)
		fmt.Printf("| %d | %d | %.0f | %d | %d | %.1f%% | %d | %.1f× | %.2f | %.1f%% | %.0f |\n", n, r.MNodes, r.WNodes, r.TGN, r.TIt,
			100*r.Util, r.Time, sp, ov, 100*float64(r.MasterBusy)/float64(r.Time), r.Seconds)
		speed = append(speed, plotter.XY{X: float64(n), Y: sp})
		over = append(over, plotter.XY{X: float64(n), Y: ov})
	}
	if *svg != "" {
		if err := draw(*svg, *pos, speed, over); err != nil {
			fail(err)
		}
	}
}

// draw plots speedup and search overhead against workers, both axes
// logarithmic, with the ideal speedup for reference.
func draw(path, pos string, speed, over plotter.XYs) error {
	p := plot.New()
	p.Title.Text = "Simulated swarm on " + pos
	p.X.Label.Text = "virtual workers"
	p.Y.Label.Text = "speedup, search overhead"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	ideal := make(plotter.XYs, len(speed))
	for i, s := range speed {
		ideal[i] = plotter.XY{X: s.X, Y: s.X}
	}
	for _, l := range []struct {
		name string
		xys  plotter.XYs
		dash bool
	}{{"speedup", speed, false}, {"search overhead", over, false}, {"ideal speedup", ideal, true}} {
		line, points, err := plotter.NewLinePoints(l.xys)
		if err != nil {
			return err
		}
		if l.dash {
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
		}
		p.Add(line, points)
		p.Legend.Add(l.name, line, points)
	}
	p.Legend.Top, p.Legend.Left = true, true
	return p.Save(6*vg.Inch, 4*vg.Inch, path)
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
