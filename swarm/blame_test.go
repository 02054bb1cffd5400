package swarm

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/spots-dev/spots/solve"
)

// TestBlame runs the scenarios of testdata/blame: each gives where the
// master's values came from and what an audit found, and expects the
// culprits blame names, the values it drops and those it keeps (with the
// senders they are kept for). Keys stand for positions, each with the
// lives given.
//
//	blame wrong=(k,…) inconsistent=(k:land+land,…) disputed=(group@k,…) underived=(k,…) refuted=(k@group@seq,…) liars=(group@seq,…)
//	value KEY lives=N from=GROUP seq=S [also=GROUP@S,…]   (from=master: the master's derivation; from=saved: loaded)
//	sent GROUP seq=S arrived=A [log=KEY,…] [pending=KEY,…] [old]
//	read GROUP seq=S keys=KEY,…   (the group reports its reads: these at exchange S)
//	untracked GROUP               (it reported reads, then sent a request without them)
//	unheard GROUP                 (it was sent values, but made no request since the epoch began)
//	epoch S   (the epoch began after exchange S)
func TestBlame(t *testing.T) {
	datadriven.Walk(t, "testdata/blame", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "blame" {
				d.Fatalf(t, "unknown command %s", d.Cmd)
			}
			f, err := scenarioFindings(d)
			if err != nil {
				d.Fatalf(t, "%v", err)
			}
			p, err := scenarioProvenance(d.Input)
			if err != nil {
				d.Fatalf(t, "%v", err)
			}
			return describeVerdict(blame(f, p), p)
		})
	})
}

// scenarioFindings reads the findings of a blame command's arguments.
func scenarioFindings(d *datadriven.TestData) (findings, error) {
	f := findings{wrong: map[string]bool{}, inconsistent: map[string][]string{}, underived: map[string]bool{}, liars: map[string]uint64{}, disputed: map[string]map[string]bool{}}
	for _, a := range d.CmdArgs {
		for _, v := range a.Vals {
			switch a.Key {
			case "wrong":
				f.wrong[v] = true
			case "inconsistent":
				// key:land+land… (a child of the value's, its lands)
				k, lands, _ := strings.Cut(v, ":")
				f.inconsistent[k] = strings.Split(lands, "+")
			case "disputed":
				g, k, _ := strings.Cut(v, "@")
				if f.disputed[g] == nil {
					f.disputed[g] = map[string]bool{}
				}
				f.disputed[g][k] = true
			case "underived":
				f.underived[v] = true
			case "refuted":
				parts := strings.Split(v, "@")
				if len(parts) != 3 {
					return f, fmt.Errorf("refuted %q: want key@group@seq", v)
				}
				seq, err := strconv.ParseUint(parts[2], 10, 64)
				if err != nil {
					return f, fmt.Errorf("refuted %q: %w", v, err)
				}
				f.refuted = append(f.refuted, dispute{key: parts[0], group: parts[1], seq: seq})
			case "liars":
				o, err := parseOrigin(v)
				if err != nil {
					return f, err
				}
				f.liars[o.group] = o.seq
			default:
				return f, fmt.Errorf("unknown argument %s", a.Key)
			}
		}
	}
	return f, nil
}

// scenarioProvenance reads the value and sent lines of a scenario.
func scenarioProvenance(input string) (provenance, error) {
	p := provenance{origin: map[string]valueOrigin{}, resent: map[string][]valueOrigin{}, deliveries: map[string][]delivery{}, reads: map[string]*readLog{},
		hash: func(k string) uint64 { return readHash(solve.NimberEntry{Key: k}) }} // the scenarios' values are all 0
	lives := map[string]int{}
	p.lives = func(k string) int { return lives[k] }
	for _, line := range strings.Split(input, "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		args := map[string]string{}
		for _, f := range fields[2:] {
			k, v, _ := strings.Cut(f, "=")
			args[k] = v
		}
		num := func(k string) uint64 {
			n, _ := strconv.ParseUint(args[k], 10, 64)
			return n
		}
		switch fields[0] {
		case "value":
			k := fields[1]
			p.keys = append(p.keys, k)
			lives[k] = int(num("lives"))
			p.origin[k] = valueOrigin{group: groupName(args["from"]), seq: num("seq")}
			for _, a := range list(args["also"]) {
				o, err := parseOrigin(a)
				if err != nil {
					return p, err
				}
				p.resent[k] = append(p.resent[k], o)
			}
		case "epoch":
			n, err := strconv.ParseUint(fields[1], 10, 64)
			if err != nil {
				return p, fmt.Errorf("%q: %w", line, err)
			}
			p.epochSeq = n
		case "sent":
			d := delivery{seq: num("seq"), arrived: num("arrived")}
			for _, k := range list(args["log"]) {
				o := p.origin[k]
				d.log = append(d.log, sharedValue{e: solve.NimberEntry{Key: k}, from: o.group, seq: o.seq})
			}
			for _, k := range list(args["pending"]) {
				d.pending = append(d.pending, solve.NimberEntry{Key: k})
			}
			if _, old := args["old"]; !old && d.log == nil && d.pending == nil {
				d.log = []sharedValue{} // sent nothing, but of this epoch
			}
			p.deliveries[fields[1]] = append(p.deliveries[fields[1]], d)
		case "read":
			r := p.reads[fields[1]]
			if r == nil {
				r = &readLog{tracked: true, first: map[uint64]uint64{}}
				p.reads[fields[1]] = r
			}
			for _, k := range list(args["keys"]) {
				if _, ok := r.first[p.hash(k)]; !ok {
					r.first[p.hash(k)] = num("seq")
				}
			}
		case "unheard":
			p.reads[fields[1]] = &readLog{}
		case "untracked":
			p.reads[fields[1]] = &readLog{untracked: true}
		default:
			return p, fmt.Errorf("unknown line %q", line)
		}
	}
	return p, nil
}

func list(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// groupName maps the scenarios' names of the master's own senders.
func groupName(s string) string {
	switch s {
	case "master":
		return ""
	case "saved":
		return savedOrigin
	}
	return s
}

func parseOrigin(s string) (valueOrigin, error) {
	g, seq, ok := strings.Cut(s, "@")
	n, err := strconv.ParseUint(seq, 10, 64)
	if !ok || err != nil {
		return valueOrigin{}, fmt.Errorf("%q: want group@seq", s)
	}
	return valueOrigin{group: groupName(g), seq: n}, nil
}

// describeVerdict writes a verdict as the scenarios expect it.
func describeVerdict(v blameVerdict, p provenance) string {
	var b strings.Builder
	if v.keepAll {
		b.WriteString("nothing wrong: every value kept\n")
		if len(v.kept) > 0 {
			fmt.Fprintf(&b, "groups that keep what they hold: %s\n", strings.Join(v.kept, " "))
		}
		return b.String()
	}
	fmt.Fprintf(&b, "banned: %s\n", strings.Join(v.culprits, " "))
	var dropped, kept []string
	for _, k := range slices.Sorted(slices.Values(p.keys)) {
		if v.discard[k] {
			dropped = append(dropped, k)
			continue
		}
		var from []string
		for _, o := range v.senders[k] {
			g := o.group
			switch g {
			case "":
				g = "master"
			case savedOrigin:
				g = "saved"
			}
			from = append(from, fmt.Sprintf("%s@%d", g, o.seq))
		}
		kept = append(kept, fmt.Sprintf("%s(%s)", k, strings.Join(from, ",")))
	}
	fmt.Fprintf(&b, "dropped: %s\n", strings.Join(dropped, " "))
	fmt.Fprintf(&b, "kept: %s\n", strings.Join(kept, " "))
	if len(v.kept) > 0 {
		fmt.Fprintf(&b, "groups that keep what they hold: %s\n", strings.Join(v.kept, " "))
	}
	return b.String()
}
