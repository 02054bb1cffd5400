package corpus

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"

	// gonum.org/v1/plot draws the figure: the plotting library of the Gonum
	// project, maintained for a decade, pure Go (no cgo, no browser, no
	// system fonts: it ships the Liberation fonts it measures text with),
	// with log axes, tiled panels and an SVG backend whose output depends
	// only on the data, which the corpus needs to regenerate identical bytes.
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/spots-dev/spots/format"
)

// Smallest values drawn on the log axes: a time of 0.000 s is drawn at
// minSeconds, an empty certificate at one entry, an empty file at 1 KB.
const (
	minSeconds = 1e-3
	minEntries = 1
	minBytes   = 1e3
)

// series colours: ours, in two shades, and the literature in grey.
var (
	outcomeColor = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	grundyColor  = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	paperColor   = color.RGBA{R: 0x80, G: 0x80, B: 0x80, A: 0xff}
)

// WriteSVG writes outcomes.svg, three panels against n: at the top the
// proof size, the entries of our certificates beside the size of the
// published proofs (both in Grundy numbers); in the middle the size of
// our certificates' files; at the bottom the time our searches took
// (solid) and the time their certificates took to verify (dashed). The
// axes of size and time are logarithmic. Failed certificates are left
// out. It uses only what rows hold, so equal rows give equal bytes.
func WriteSVG(w io.Writer, rows []Row) error {
	canvas := vgsvg.New(plotWidth, plotHeight)
	if err := drawPlot(draw.New(canvas), rows); err != nil {
		return err
	}
	_, err := canvas.WriteTo(w)
	return err
}

// The size of the plot.
const (
	plotWidth  = 8 * vg.Inch
	plotHeight = 10 * vg.Inch
)

// drawPlot draws the plot of WriteSVG on dc.
func drawPlot(dc draw.Canvas, rows []Row) (err error) {
	defer func() {
		// gonum/plot panics on some impossible geometry; report it as an
		// error rather than crash a command.
		if r := recover(); r != nil {
			err = fmt.Errorf("drawing %s: %v", PlotFile, r)
		}
	}()
	var outEntries, grundyEntries, paper, outBytes, grundyBytes, outTime, grundyTime, outVerify, grundyVerify plotter.XYs
	maxN := 1
	for _, r := range rows {
		maxN = max(maxN, r.N)
		if r.Known != nil && r.Known.ProofSize != "" {
			if v, err := strconv.ParseFloat(r.Known.ProofSize, 64); err == nil && v > 0 {
				paper = append(paper, plotter.XY{X: float64(r.N), Y: max(v, minEntries)})
			}
		}
		for _, c := range r.Certificates {
			if c.Status == StatusFailed {
				continue
			}
			x := float64(r.N)
			e := plotter.XY{X: x, Y: max(float64(c.Entries), minEntries)}
			sz := plotter.XY{X: x, Y: max(float64(c.Bytes), minBytes)}
			t := plotter.XY{X: x, Y: max(c.SolveSeconds, minSeconds)}
			v := plotter.XY{X: x, Y: max(c.VerifySeconds, minSeconds)}
			if c.Claim.Kind == format.ClaimGrundy {
				grundyEntries, grundyBytes = append(grundyEntries, e), append(grundyBytes, sz)
				grundyTime, grundyVerify = append(grundyTime, t), append(grundyVerify, v)
			} else {
				outEntries, outBytes = append(outEntries, e), append(outBytes, sz)
				outTime, outVerify = append(outTime, t), append(outVerify, v)
			}
		}
	}

	top, middle, bottom := plot.New(), plot.New(), plot.New()
	panels := []*plot.Plot{top, middle, bottom}
	top.Title.Text = "n-spot Sprouts: proof sizes, certificate sizes, solve and verify times"
	top.Y.Label.Text = "proof size (Grundy numbers)"
	middle.Y.Label.Text = "certificate size (bytes)"
	bottom.Y.Label.Text = "time (s)"
	bottom.X.Label.Text = "n (spots)"
	for _, p := range panels {
		p.X.Min, p.X.Max = 0, float64(maxN+1)
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, decadeTicks{}
		p.Add(plotter.NewGrid())
		// Top left, inside the data area (see below): the data rise from
		// the bottom left. Left-aligned, so that a viewer drawing the text
		// in a wider font than Liberation does not push it into the icons.
		p.Legend.Top, p.Legend.Left = true, true
		p.Legend.Padding = vg.Points(2)
		p.Legend.XOffs = vg.Points(8)
	}
	for _, s := range []struct {
		p            *plot.Plot
		name         string
		xys          plotter.XYs
		c            color.Color
		line, dashed bool
	}{
		{top, "published proof (literature.csv)", paper, paperColor, false, false},
		{top, "outcome certificate (entries)", outEntries, outcomeColor, true, false},
		{top, "Grundy certificate (entries)", grundyEntries, grundyColor, true, false},
		{middle, "outcome certificate", outBytes, outcomeColor, true, false},
		{middle, "Grundy certificate", grundyBytes, grundyColor, true, false},
		{bottom, "solve: outcome (W/L)", outTime, outcomeColor, true, false},
		{bottom, "solve: Grundy value", grundyTime, grundyColor, true, false},
		{bottom, "verify: outcome (W/L)", outVerify, outcomeColor, true, true},
		{bottom, "verify: Grundy value", grundyVerify, grundyColor, true, true},
	} {
		if err := addSeries(s.p, s.name, s.xys, s.c, s.line, s.dashed); err != nil {
			return err
		}
	}
	top.Y.Min, top.Y.Max = decades(minEntries, paper, outEntries, grundyEntries)
	middle.Y.Min, middle.Y.Max = decades(minBytes, outBytes, grundyBytes)
	bottom.Y.Min, bottom.Y.Max = decades(minSeconds, outTime, grundyTime, outVerify, grundyVerify)

	tiles := draw.Tiles{Rows: 3, Cols: 1, PadX: vg.Millimeter, PadY: 4 * vg.Millimeter,
		PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 4 * vg.Millimeter}
	plots := [][]*plot.Plot{{top}, {middle}, {bottom}}
	canvases := plot.Align(plots, tiles, dc)
	for i, p := range panels {
		// The legend is drawn from the top of the plot's canvas, which
		// Align may make higher than the data area: move it down into it.
		c := canvases[i][0]
		if p.Title.Text != "" {
			c.Max.Y -= p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
		}
		data := p.DataCanvas(canvases[i][0])
		p.Legend.YOffs = min(0, data.Max.Y-c.Max.Y) - vg.Points(6)
		if p == bottom {
			// Times rise to the top left: keep the legend top right, its
			// text still left-aligned.
			legend := p.Legend.Rectangle(data)
			p.Legend.XOffs = data.Max.X - data.Min.X - (legend.Max.X - legend.Min.X) - vg.Points(40)
		}
	}
	for i, p := range panels {
		p.Draw(canvases[i][0])
	}
	return nil
}

// decades returns the range of a log axis for the points: whole decades
// around them, at least one decade wide (gonum/plot would widen an empty
// range to one that includes 0, which a log axis cannot show). Without
// points it is [floor, 10·floor].
func decades(floor float64, series ...plotter.XYs) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, p := range s {
			lo, hi = min(lo, p.Y), max(hi, p.Y)
		}
	}
	if lo > hi {
		return floor, 10 * floor
	}
	lo, hi = math.Pow(10, math.Floor(math.Log10(lo))), math.Pow(10, math.Ceil(math.Log10(hi)))
	if hi <= lo {
		hi = 10 * lo
	}
	return lo, hi
}

// decadeTicks marks every power of ten on a log axis, labelled as the
// literature writes sizes: 1, 10, 100, 1000, then 1e4, 1e5, …; below 1,
// 0.1, 0.01, 0.001, then 1e-4, ….
type decadeTicks struct{}

// Ticks returns the tick marks between min and max.
func (decadeTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	if !(lo > 0) || !(hi >= lo) {
		return nil
	}
	for e := int(math.Floor(math.Log10(lo))); e <= int(math.Ceil(math.Log10(hi))); e++ {
		v := math.Pow(10, float64(e))
		if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
			continue
		}
		label := "1e" + strconv.Itoa(e)
		if e >= -3 && e <= 3 {
			label = strconv.FormatFloat(v, 'f', max(0, -e), 64)
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}

// addSeries adds points (joined by a line when line, dashed when dashed)
// with a legend entry; an empty series adds nothing. Points of a dashed
// series are triangles, so that it reads without colour too.
func addSeries(p *plot.Plot, name string, xys plotter.XYs, c color.Color, line, dashed bool) error {
	if len(xys) == 0 {
		return nil
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	s.GlyphStyle.Color = c
	s.GlyphStyle.Radius = vg.Points(2.5)
	s.GlyphStyle.Shape = draw.CircleGlyph{}
	if dashed {
		s.GlyphStyle.Shape = draw.TriangleGlyph{}
	}
	if !line {
		s.GlyphStyle.Shape = draw.RingGlyph{}
		p.Add(s)
		p.Legend.Add(name, s)
		return nil
	}
	// One line per run of consecutive n: no line across an n we lack.
	var first *plotter.Line
	for start := 0; start < len(xys); {
		end := start + 1
		for end < len(xys) && xys[end].X == xys[end-1].X+1 {
			end++
		}
		l, err := plotter.NewLine(xys[start:end])
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		l.LineStyle.Color = c
		l.LineStyle.Width = vg.Points(1)
		if dashed {
			l.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		p.Add(l)
		if first == nil {
			first = l
		}
		start = end
	}
	p.Add(s)
	p.Legend.Add(name, first, s)
	return nil
}
