package swarm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/spots-dev/spots/solve"
)

// statusRefresh is how often the status page reloads itself.
const statusRefresh = 5 * time.Second

// pageData is what the status page template shows.
type pageData struct {
	R           StatusReport
	Refresh     int
	Uptime      string
	RootPN      string
	RootDN      string
	Estimate    string
	UtilChart   chart
	PNChart     chart
	WorkerChart chart
	// Events are the report's latest events, newest first, and
	// EventCounts how many of each kind there were in all.
	Events      []event
	EventCounts string
	// File: the page is written to a file (WriteSnapshot), not served: it
	// does not reload itself, and links to no other page.
	File bool
}

// maxPageEvents bounds the events the status page lists.
const maxPageEvents = 20

// chart is a line chart drawn as inline SVG: polylines in a 600 × 120 box.
type chart struct {
	Title  string
	Lines  []chartLine
	Top    string // the label of the top of the y axis
	Bottom string
	Span   string // the time the x axis covers
}

type chartLine struct {
	Points template.HTMLAttr // points="…"
	Colour string
	Name   string
}

const chartW, chartH = 600.0, 120.0

// series scales ys (one per sample, NaN for none) into chart points
// between lo and hi.
func series(samples []sample, ys []float64, lo, hi float64) template.HTMLAttr {
	if len(samples) == 0 || hi <= lo {
		return `points=""`
	}
	t0, t1 := samples[0].Time, samples[len(samples)-1].Time
	span := t1.Sub(t0).Seconds()
	var b strings.Builder
	for i, s := range samples {
		if math.IsNaN(ys[i]) || math.IsInf(ys[i], 0) {
			continue
		}
		x := 0.0
		if span > 0 {
			x = s.Time.Sub(t0).Seconds() / span * chartW
		}
		y := chartH - (min(max(ys[i], lo), hi)-lo)/(hi-lo)*chartH
		fmt.Fprintf(&b, "%.1f,%.1f ", x, y)
	}
	return template.HTMLAttr(`points="` + strings.TrimSpace(b.String()) + `"`)
}

func spanOf(samples []sample) string {
	if len(samples) < 2 {
		return "no samples yet"
	}
	return "last " + samples[len(samples)-1].Time.Sub(samples[0].Time).Round(time.Second).String()
}

// pnText writes a proof number, ∞ for infinity.
func pnText(n uint64) string {
	if n == solve.Inf {
		return "∞"
	}
	return strconv.FormatUint(n, 10)
}

func newPageData(r StatusReport) pageData {
	d := pageData{R: r, Refresh: int(statusRefresh.Seconds()), Uptime: r.Now.Sub(r.Started).Round(time.Second).String(),
		RootPN: pnText(r.Stats.RootPN), RootDN: pnText(r.Stats.RootDN)}
	for i := len(r.Events) - 1; i >= 0 && len(d.Events) < maxPageEvents; i-- {
		d.Events = append(d.Events, r.Events[i])
	}
	var counts []string
	for _, k := range eventKinds {
		counts = append(counts, fmt.Sprintf("%s %d", k, r.Stats.Events[string(k)]))
	}
	d.EventCounts = strings.Join(counts, ", ")
	switch e := r.Estimate; {
	case r.Outcome != solve.Unknown:
		d.Estimate = "none left: solved"
	case e.Available:
		d.Estimate = "about " + (time.Duration(e.Seconds) * time.Second).Round(time.Second).String() + " (rough)"
	default:
		d.Estimate = "not available: " + e.Reason
	}
	n := len(r.Samples)
	util, pn, dn, workers, slots := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	maxLog, maxWorkers := 1.0, 1.0
	for i, s := range r.Samples {
		util[i] = 100 * s.Utilisation
		pn[i], dn[i] = logPN(s.RootPN), logPN(s.RootDN)
		for _, v := range []float64{pn[i], dn[i]} {
			if !math.IsInf(v, 0) {
				maxLog = math.Max(maxLog, math.Ceil(v))
			}
		}
		workers[i], slots[i] = float64(s.Workers), float64(s.Slots)
		maxWorkers = math.Max(maxWorkers, float64(s.Slots))
	}
	span := spanOf(r.Samples)
	d.UtilChart = chart{Title: "Utilisation between samples (%)", Top: "100 %", Bottom: "0 %", Span: span,
		Lines: []chartLine{{series(r.Samples, util, 0, 100), "#1f77b4", "utilisation"}}}
	d.PNChart = chart{Title: "Root proof and disproof numbers (log10)", Top: fmt.Sprintf("10^%.0f", maxLog), Bottom: "1", Span: span,
		Lines: []chartLine{{series(r.Samples, pn, 0, maxLog), "#2ca02c", "pn"}, {series(r.Samples, dn, 0, maxLog), "#d62728", "dn"}}}
	d.WorkerChart = chart{Title: "Worker groups and slots", Top: strconv.Itoa(int(maxWorkers)), Bottom: "0", Span: span,
		Lines: []chartLine{{series(r.Samples, workers, 0, maxWorkers), "#9467bd", "groups"}, {series(r.Samples, slots, 0, maxWorkers), "#ff7f0e", "slots"}}}
	return d
}

// logPN is log10 of a proof number (+Inf for infinity).
func logPN(n uint64) float64 {
	if n == solve.Inf {
		return math.Inf(1)
	}
	return math.Log10(float64(max(n, 1)))
}

var statusPage = template.Must(template.New("status").Funcs(template.FuncMap{
	"pct":   func(f float64) string { return fmt.Sprintf("%.1f %%", 100*f) },
	"ago":   func(s float64) string { return agoText(s) },
	"stamp": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") },
	"list":  func(cs ...chart) []chart { return cs },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
{{if not .File}}<meta http-equiv="refresh" content="{{.Refresh}}">
{{end}}<title>spots swarm{{with .R.Position}}: {{.}}{{end}}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: .5em 0 1.5em; }
td, th { padding: 2px 10px; text-align: right; border-bottom: 1px solid #ddd; }
th { background: #f4f4f4; } td.l, th.l { text-align: left; }
.charts { display: flex; flex-wrap: wrap; gap: 1.5em; }
svg { border: 1px solid #ccc; background: #fcfcfc; }
.small { color: #666; font-size: 12px; }
</style>
</head>
<body>
<h1>spots swarm{{with .R.Position}}: {{.}}{{end}}</h1>
{{if .File}}<p class="small">Written to this file by the master {{stamp .R.Now}}, up {{.Uptime}}{{if .R.Finished}}: the solve is over{{end}}. While it solves the master writes it again every few seconds: reload to see the latest.</p>
{{else}}<p class="small">Read-only; reloads every {{.Refresh}} s. {{stamp .R.Now}}, up {{.Uptime}}. Also as <a href="status.json">JSON</a> and <a href="metrics">Prometheus metrics</a>.</p>
{{end}}
<table>
<tr><th class="l">outcome</th><td>{{.R.Outcome}}{{if .R.Finished}} (audited){{end}}</td></tr>
<tr><th class="l">root pn / dn</th><td>{{.RootPN}} / {{.RootDN}}</td></tr>
<tr><th class="l">workers (groups) / slots</th><td>{{.R.Stats.Groups}} / {{.R.Stats.Slots}}</td></tr>
<tr><th class="l">jobs out / assigned / expanded / expired</th><td>{{.R.Stats.Open}} / {{.R.Stats.Assigned}} / {{.R.Stats.Expanded}} / {{.R.Stats.Expired}}</td></tr>
<tr><th class="l">utilisation since the first exchange</th><td>{{pct .R.Stats.Utilisation}}</td></tr>
<tr><th class="l">master load (of it at cycles' ends) / reports every / gather</th><td>{{pct .R.Stats.Load}} ({{pct .R.Stats.PacedLoad}}) / {{.R.Stats.ReportEvery}} iterations / {{pct .R.Stats.Gather}} of a cycle</td></tr>
<tr><th class="l">cores / jobs of at most</th><td>{{.R.Stats.Cores}} / {{.R.Stats.JobIterations}} iterations{{if .R.Stats.Follow}}, each below its group's last{{end}}</td></tr>
<tr><th class="l">T-It (iterations reported)</th><td>{{.R.Stats.Iterations}}</td></tr>
<tr><th class="l">M-Nodes</th><td>{{.R.Stats.Nodes}}</td></tr>
<tr><th class="l">Grundy values: known / received / forwarded</th><td>{{.R.Nimbers}} / {{.R.Stats.NimbersIn}} / {{.R.Stats.NimbersShared}}</td></tr>
<tr><th class="l">audits / groups banned / values dropped</th><td>{{.R.Stats.Audits}} / {{.R.Stats.Banned}} / {{.R.Stats.Dropped}}</td></tr>
<tr><th class="l">work left</th><td>{{.Estimate}}</td></tr>
</table>
<p class="small">Work left: {{.R.Estimate.Method}}.</p>
<div class="charts">
{{range $c := (list .UtilChart .PNChart .WorkerChart)}}<div>
<div>{{$c.Title}} <span class="small">({{$c.Span}}; top {{$c.Top}}, bottom {{$c.Bottom}})</span></div>
<svg width="600" height="120" viewBox="0 0 600 120" role="img" aria-label="{{$c.Title}}">{{range $c.Lines}}
<polyline fill="none" stroke="{{.Colour}}" stroke-width="1.5" {{.Points}}><title>{{.Name}}</title></polyline>{{end}}
</svg>
<div class="small">{{range $c.Lines}}<span style="color:{{.Colour}}">&#9632; {{.Name}}</span> {{end}}</div>
</div>
{{end}}</div>
<h2>Workers</h2>
<table>
<tr><th class="l">name</th><th>slots</th><th>jobs out</th><th>last exchange</th><th class="l">gossip</th><th class="l">address</th><th>threads</th><th class="l">version</th></tr>
{{range .R.Workers}}<tr><td class="l">{{.Name}}</td><td>{{.Slots}}</td><td>{{.JobsOut}}</td><td>{{ago .SinceSeen}}</td><td class="l">{{or .Gossip "—"}}</td><td class="l">{{.Addr}}</td><td>{{.Threads}}</td><td class="l">{{.Version}}</td></tr>
{{else}}<tr><td class="l" colspan="8">no worker yet</td></tr>
{{end}}</table>
<h2>Recent events</h2>
<p class="small">{{.EventCounts}}; the latest first.</p>
<table>
<tr><th class="l">time</th><th class="l">event</th><th class="l">group</th><th class="l">detail</th></tr>
{{range .Events}}<tr><td class="l">{{stamp .Time}}</td><td class="l">{{.Kind}}</td><td class="l">{{.Group}}</td><td class="l">{{.Detail}}</td></tr>
{{else}}<tr><td class="l" colspan="4">none yet</td></tr>
{{end}}</table>
</body>
</html>
`))

// agoText writes seconds since an event, or "never" for a negative count.
func agoText(s float64) string {
	if s < 0 {
		return "never"
	}
	return (time.Duration(s * float64(time.Second))).Round(100*time.Millisecond).String() + " ago"
}

// statusHeaders are set on every status reply: nothing is cached, nothing
// is loaded from elsewhere, the page is not framed.
func statusHeaders(w http.ResponseWriter, contentType string) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
}

// servePage serves the status page (HTML): a snapshot of the master made
// into HTML outside its lock.
func (s *Status) servePage(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	if err := statusPage.Execute(&buf, newPageData(s.report())); err != nil {
		http.Error(w, "rendering the status page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	statusHeaders(w, "text/html; charset=utf-8")
	w.Write(buf.Bytes())
}

// WriteSnapshot writes the master's status as it is now (read afresh, not
// a report cached for the pages) to w: the status page when page is set
// (one that does not reload itself and links nowhere, for a file a
// browser opens), otherwise the JSON of /status.json. A command writes it
// to a file so that the status of a solve can still be read once the
// solve is over and its pages are gone.
func (s *Status) WriteSnapshot(w io.Writer, page bool) error {
	s.takeSample()
	s.mu.Lock()
	s.cached = nil
	s.mu.Unlock()
	r := s.report()
	if page {
		d := newPageData(r)
		d.File = true
		if err := statusPage.Execute(w, d); err != nil {
			return fmt.Errorf("rendering the status page: %w", err)
		}
		return nil
	}
	out, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the status: %w", err)
	}
	_, err = w.Write(append(out, '\n'))
	return err
}

// serveJSON serves the status report as JSON (StatusReport).
func (s *Status) serveJSON(w http.ResponseWriter, r *http.Request) {
	out, err := json.MarshalIndent(s.report(), "", "  ")
	if err != nil {
		http.Error(w, "encoding the status: "+err.Error(), http.StatusInternalServerError)
		return
	}
	statusHeaders(w, "application/json")
	w.Write(append(out, '\n'))
}
