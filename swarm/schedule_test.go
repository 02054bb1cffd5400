package swarm

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// TestSchedule runs the scenarios of testdata/schedule: the master's
// scheduling decisions, a DAG and the groups' reports in, jobs out. Each
// file is a sequence of commands (go test ./swarm -run TestSchedule
// -rewrite writes what they print):
//
//	master pos=POS [init-nodes=N] [iterations=N] [updates=N] [large-swarm=N]
//	       [large-iterations=N] [lease=D] [probation=D] [cost=D] [pace-every=N]
//	       [pace-weight=F]
//	    a new master of POS on a clock of the test's, on which each exchange
//	    costs cost; prints its DAG. Its groups are trusted from their first
//	    exchange, unless probation is given (Params.Probation)
//	exchange group=G [slots=N] [threads=N] [epoch=N] [after=D]
//	    an exchange of group G, D after the previous one; each line of its
//	    input is a report or a value it sends:
//	      run JOB [iterations=N]    the group's solver runs the job's cycle
//	                                (all its iterations, or N), as a worker
//	                                does, and sends what it proved
//	      report JOB iterations=N pn=P dn=D
//	                                a report of a cycle that found the leaf open
//	      report JOB win|loss       a report that solved the job's leaf
//	      report JOB iterations=N expand
//	                                a report that expands the job's leaf (a
//	                                couple of one land) with its moves by
//	                                the rules, each with numbers 1/1
//	      report j? ...             the same of a job the master does not know
//	      gn POS G                  a Grundy value
//	    prints the reply: the jobs (new ones named j1, j2, … in the order
//	    handed out), whether the solve is over, the gathering asked for,
//	    whether the group's values were not heard and the values sent
//	park group=G     G waits at the master for a job (Master.Park)
//	delivered        the jobs the parked groups were handed since the last call
//	tick after=D     the clock moves on by D; the master takes back expired jobs
//	drop group=G     G left (Master.DropGroup)
//	finish           the solve is over (Master.Finish)
//	events           the master's events since the last call
//	value pos=POS    the master's Grundy value of POS, or none
//	tree [depth=N]   the master's DAG, N levels deep (2)
//	stats            the master's counters that scheduling sets
func TestSchedule(t *testing.T) {
	datadriven.Walk(t, "testdata/schedule", func(t *testing.T, path string) {
		h := &scheduleHarness{t: t}
		datadriven.RunTest(t, path, h.run)
	})
}

// scheduleHarness is the state of one scenario.
type scheduleHarness struct {
	t         *testing.T
	m         *Master
	params    Params
	now       time.Time
	cost      time.Duration // what an exchange costs on the clock
	names     map[string]string
	ids       map[string]string
	specs     map[string]JobSpec
	groups    map[string]*Group
	delivered []string
	events    int // the master's events printed so far
}

// Now and Since are the master's clock: an exchange costs h.cost.
func (h *scheduleHarness) Now() time.Time                  { return h.now }
func (h *scheduleHarness) Since(t time.Time) time.Duration { return h.now.Add(h.cost).Sub(t) }

func (h *scheduleHarness) run(t *testing.T, td *datadriven.TestData) string {
	if h.m == nil && td.Cmd != "master" {
		td.Fatalf(t, "the first command must be master")
	}
	switch td.Cmd {
	case "master":
		return h.newMaster(t, td)
	case "exchange":
		return h.exchange(t, td)
	case "park":
		var group string
		td.ScanArgs(t, "group", &group)
		_, ok := h.m.Park(group, func(jobs []JobSpec) {
			h.delivered = append(h.delivered, fmt.Sprintf("%s: %s", group, h.describeJobs(jobs)))
		})
		return fmt.Sprintf("parked %v", ok)
	case "delivered":
		out := strings.Join(h.delivered, "\n")
		h.delivered = nil
		return cmpString(out, "nothing")
	case "tick":
		h.now = h.now.Add(h.duration(t, td, "after"))
		return fmt.Sprintf("expired %d", h.m.expire())
	case "drop":
		var group string
		td.ScanArgs(t, "group", &group)
		return fmt.Sprintf("took %d jobs", h.m.DropGroup(group))
	case "finish":
		h.m.finish()
		return "finished"
	case "events":
		var lines []string
		evs := h.m.eventsNow() // a scenario's are fewer than the master keeps
		for _, e := range evs[min(h.events, len(evs)):] {
			lines = append(lines, e.text())
		}
		h.events += len(lines)
		return cmpString(strings.Join(lines, "\n"), "none")
	case "value":
		var pos string
		td.ScanArgs(t, "pos", &pos)
		if g, ok := h.m.DB().Get(sprouts.MustParse(pos).Key()); ok {
			return fmt.Sprintf("gn(%s) = %d", pos, g)
		}
		return "none"
	case "tree":
		depth := 2
		td.MaybeScanArgs(t, "depth", &depth)
		return h.tree(depth)
	case "stats":
		st := h.m.Stats()
		return fmt.Sprintf("nodes %d, groups %d, slots %d, cores %d, jobs out %d\njobs of %d iterations, reports every %d, follow %v, gather %g\nload %.2f (paced %.2f)\nassigned %d, continued %d, expanded %d, expired %d, stale %d, malformed %d",
			st.Nodes, st.Groups, st.Slots, st.Cores, st.Open, st.JobIterations, st.ReportEvery, st.Follow, st.Gather,
			st.Load, st.PacedLoad, st.Assigned, st.Continued, st.Expanded, st.Expired, st.Stale, st.Malformed)
	}
	td.Fatalf(t, "unknown command %s", td.Cmd)
	return ""
}

func (h *scheduleHarness) newMaster(t *testing.T, td *datadriven.TestData) string {
	var pos string
	td.ScanArgs(t, "pos", &pos)
	p := DefaultParams()
	p.Capacity = 4096
	td.MaybeScanArgs(t, "init-nodes", &p.InitNodes)
	td.MaybeScanArgs(t, "iterations", &p.Iterations)
	td.MaybeScanArgs(t, "updates", &p.Updates)
	td.MaybeScanArgs(t, "large-swarm", &p.LargeSwarm)
	td.MaybeScanArgs(t, "large-iterations", &p.LargeIterations)
	td.MaybeScanArgs(t, "pace-every", &p.Pace.Every)
	td.MaybeScanArgs(t, "pace-weight", &p.Pace.Weight)
	if td.HasArg("lease") {
		p.Lease = h.duration(t, td, "lease")
	}
	p.Probation = 0 // groups are trusted, unless the scenario says
	if td.HasArg("probation") {
		p.Probation = h.duration(t, td, "probation")
	}
	if td.HasArg("cost") {
		h.cost = h.duration(t, td, "cost")
	}
	h.params, h.now = p, time.Unix(1_000_000, 0)
	h.names, h.ids, h.specs, h.groups = map[string]string{}, map[string]string{}, map[string]JobSpec{}, map[string]*Group{}
	m, err := NewMaster(sprouts.MustParse(pos), p, nil, WithClock(h))
	if err != nil {
		return err.Error()
	}
	h.m = m
	return h.tree(2)
}

func (h *scheduleHarness) duration(t *testing.T, td *datadriven.TestData, key string) time.Duration {
	var s string
	td.ScanArgs(t, key, &s)
	d, err := time.ParseDuration(s)
	if err != nil {
		td.Fatalf(t, "%s=%s: %v", key, s, err)
	}
	return d
}

func (h *scheduleHarness) exchange(t *testing.T, td *datadriven.TestData) string {
	req := ExchangeRequest{Slots: 1}
	td.ScanArgs(t, "group", &req.Group)
	td.MaybeScanArgs(t, "slots", &req.Slots)
	td.MaybeScanArgs(t, "threads", &req.Threads)
	td.MaybeScanArgs(t, "epoch", &req.Epoch)
	if td.HasArg("after") {
		h.now = h.now.Add(h.duration(t, td, "after"))
	}
	for _, line := range strings.Split(td.Input, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case f[0] == "run" && len(f) >= 2:
			h.runCycle(t, td, &req, f[1:])
		case f[0] == "report" && len(f) >= 3:
			req.Completed = append(req.Completed, h.report(t, td, f[1:]))
		case f[0] == "gn" && len(f) == 3:
			g, err := strconv.ParseUint(f[2], 10, 32)
			if err != nil {
				td.Fatalf(t, "%s: %v", line, err)
			}
			req.Nimbers = append(req.Nimbers, solve.NimberEntry{Key: sprouts.MustParse(f[1]).Key(), G: uint32(g)})
		default:
			td.Fatalf(t, "cannot read %q", line)
		}
	}
	reply, err := h.m.Exchange(req)
	if err != nil {
		return "error: " + err.Error()
	}
	out := "jobs: " + h.describeJobs(reply.Jobs)
	if reply.Done {
		out += "\ndone"
	}
	if reply.Gather > 0 {
		out += fmt.Sprintf("\ngather %g", reply.Gather)
	}
	if reply.Epoch > 0 {
		out += fmt.Sprintf("\nepoch %d", reply.Epoch)
	}
	if reply.Unheard {
		out += "\nvalues unheard"
	}
	return out + fmt.Sprintf("\nvalues sent %d", len(reply.Delta))
}

// describeJobs names the jobs (new ones j1, j2, …) and says what each is.
func (h *scheduleHarness) describeJobs(jobs []JobSpec) string {
	if len(jobs) == 0 {
		return "none"
	}
	var lines []string
	for _, j := range jobs {
		name, old := h.names[j.ID]
		if !old {
			name = fmt.Sprintf("j%d", len(h.names)+1)
			h.names[j.ID], h.ids[name] = name, j.ID
		}
		h.specs[name] = j
		s := fmt.Sprintf("\n  %s %s", name, couple(j.Position, j.N))
		if j.Cycle > 0 {
			s += fmt.Sprintf(", cycle %d", j.Cycle)
		}
		s += fmt.Sprintf(", %d iterations", j.MaxIterations)
		if j.After != "" {
			s += ", after " + h.names[j.After]
		}
		lines = append(lines, s)
	}
	return strings.Join(lines, "")
}

func couple(pos string, n uint32) string {
	if n == 0 {
		return pos
	}
	return fmt.Sprintf("%s + *%d", pos, n)
}

// runCycle runs a cycle of the job on a solver of the group, as a worker
// does, and adds its report and the values it proved to req.
func (h *scheduleHarness) runCycle(t *testing.T, td *datadriven.TestData, req *ExchangeRequest, args []string) {
	spec, ok := h.specs[args[0]]
	if !ok {
		td.Fatalf(t, "no job %s", args[0])
	}
	if len(args) > 1 {
		var n uint64
		if _, err := fmt.Sscanf(args[1], "iterations=%d", &n); err != nil {
			td.Fatalf(t, "%v: %v", args, err)
		}
		spec.MaxIterations = n
	}
	g := h.groups[req.Group]
	if g == nil {
		p := h.params
		p.Grouping = min(req.Slots, MaxGrouping)
		var err error
		if g, err = NewGroup(req.Group, p); err != nil {
			td.Fatalf(t, "%v", err)
		}
		h.groups[req.Group] = g
	}
	s := g.Place(spec)
	if s == nil {
		td.Fatalf(t, "group %s has no solver free for %s", req.Group, args[0])
	}
	req.Completed = append(req.Completed, g.Cycle(context.Background(), s, spec))
	req.Nimbers = append(req.Nimbers, g.DB().TakeNew()...)
	g.Release(spec.ID)
}

// report makes a report by hand: "JOB iterations=N pn=P dn=D", "JOB
// iterations=N expand", or "JOB win" or "JOB loss".
func (h *scheduleHarness) report(t *testing.T, td *datadriven.TestData, args []string) Report {
	r := Report{ID: h.ids[args[0]], PN: 1, DN: 1}
	if r.ID == "" {
		r.ID = "unknown-" + args[0]
	}
	for _, a := range args[1:] {
		var err error
		switch k, v, _ := strings.Cut(a, "="); k {
		case "expand":
			spec := h.specs[args[0]]
			r.Folded, r.FoldedN = spec.Position, spec.N
			for m := range spec.N {
				r.Children = append(r.Children, childReport{Position: spec.Position, N: m, PN: 1, DN: 1})
			}
			for _, c := range sprouts.MustParse(spec.Position).Children() {
				r.Children = append(r.Children, childReport{Position: c.String(), N: spec.N, PN: 1, DN: 1})
			}
		case "win":
			r.Outcome = solve.Win
		case "loss":
			r.Outcome = solve.Loss
		case "iterations":
			r.Iterations, err = strconv.ParseUint(v, 10, 64)
		case "pn":
			r.PN, err = strconv.ParseUint(v, 10, 64)
		case "dn":
			r.DN, err = strconv.ParseUint(v, 10, 64)
		default:
			err = fmt.Errorf("unknown %q", a)
		}
		if err != nil {
			td.Fatalf(t, "report %v: %v", args, err)
		}
	}
	return r
}

// tree prints the master's DAG from its root, depth levels deep: each
// couple with its proof and disproof numbers, its plain ones where they
// differ, and whether a job holds it or running jobs cover its part of the
// plan. A couple met again is printed once.
func (h *scheduleHarness) tree(depth int) string {
	h.m.work.mu.Lock()
	defer h.m.work.mu.Unlock()
	jobs := map[*node]string{}
	for id, j := range h.m.work.jobs {
		jobs[j.leaf] = h.names[id]
	}
	var b strings.Builder
	seen := map[*node]bool{}
	var walk func(v *node, level int)
	walk = func(v *node, level int) {
		fmt.Fprintf(&b, "%s%s %s/%s", strings.Repeat("  ", level), couple(v.pos.String(), v.n), num(v.pn), num(v.dn))
		if v.ppn != v.pn || v.pdn != v.dn {
			fmt.Fprintf(&b, " (plain %s/%s)", num(v.ppn), num(v.pdn))
		}
		var flags []string
		if name := jobs[v]; name != "" {
			flags = append(flags, "job "+name)
		} else if v.locked {
			flags = append(flags, "locked")
		}
		if v.covered && !solved(v) {
			flags = append(flags, "covered")
		}
		if seen[v] && len(v.kids) > 0 {
			flags = append(flags, "as above")
		}
		if len(flags) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(flags, ", "))
		}
		b.WriteByte('\n')
		if seen[v] {
			return
		}
		seen[v] = true
		if level+1 > depth {
			if len(v.kids) > 0 {
				fmt.Fprintf(&b, "%s… %d children\n", strings.Repeat("  ", level+1), len(v.kids))
			}
			return
		}
		for _, c := range v.kids {
			walk(c, level+1)
		}
	}
	walk(h.m.work.dag.root, 0)
	return strings.TrimSuffix(b.String(), "\n")
}

func num(x uint64) string {
	if x == solve.Inf {
		return "∞"
	}
	return strconv.FormatUint(x, 10)
}

func cmpString(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
