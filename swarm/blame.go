package swarm

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"github.com/spots-dev/spots/sprouts"
)

// Blame is the pure half of what an audit does with what it found: given
// the findings and where every value came from, it says which groups are
// to blame and which values are to go. Master.drop applies its verdict
// (bans, a new epoch). Keeping the two apart lets the scenarios of
// testdata/blame drive the judgement with no master, no search and no
// clock.

// findings is what an audit or check found: the input of blame.
type findings struct {
	// wrong are the values found wrong by solving their positions.
	wrong map[string]bool
	// inconsistent are the values with a child of the same value, each
	// with that child's lands: a group that knew the values of those
	// lands (it was sent them, or sent them itself) and sent the value
	// anyway did not derive it, lies included, and lied itself.
	inconsistent map[string][]string
	// disputed are the keys each group sent a value of against the
	// master's: what it knew of them is its own value, not the master's.
	disputed map[string]map[string]bool
	// underived are values no check found wrong that the verifier could
	// not derive from the others (Master.underived).
	underived map[string]bool
	// refuted are values groups sent against the master's, found wrong.
	refuted []dispute
	// liars are the groups whose claimed outcomes the values do not back,
	// each with the exchange its first claim arrived with.
	liars map[string]uint64
}

// provenance is what the master knows of where its values came from.
type provenance struct {
	keys       []string                 // the values held
	origin     map[string]valueOrigin   // the first sender of each
	resent     map[string][]valueOrigin // the others
	deliveries map[string][]delivery    // what each group was sent
	reads      map[string]*readLog      // what each group read of it (nil: all it was sent)
	hash       func(string) uint64      // the readHash of a key's value
	lives      func(string) int         // the lives of a key's position
	// epochSeq is the last exchange before the epoch began: a value that
	// arrived no later was kept by the audit that began it, though it may
	// rest on the lies that audit dropped (blame).
	epochSeq uint64
}

// blameVerdict is what blame decides.
type blameVerdict struct {
	// culprits are the groups to ban, sorted.
	culprits []string
	// discard are the values to drop.
	discard map[string]bool
	// senders are, for each value kept, the senders it is kept for (the
	// first becomes its origin).
	senders map[string][]valueOrigin
	// keepAll: nothing was found wrong; every value stays, the master's
	// own derivations too.
	keepAll bool
	// kept are the groups, sorted, that report their reads and read none
	// of the values dropped nor any suspicious one, and sent none of those
	// dropped: all they hold rests on values that stay, so they keep it
	// (their values and tables) through the new epoch, forgetting only
	// the values dropped (ExchangeReply.Kept).
	kept []string
}

// never is a sequence number past every exchange.
const never = uint64(1<<63 - 1)

// blamer is the state of one blame: the culprits found so far and what
// follows from them.
type blamer struct {
	f        findings
	p        provenance
	culprits map[string]bool
	t0       uint64 // the first arrival of a culprit's value or claim (or of a wrong value without a sender)
	minBad   int    // the fewest lives of a wrong value or a culprit's
	tainted  map[string]taint
}

// blame names the culprits of f and the values to drop. A culprit is a
// liar (a claim the values do not back), or the sender of a wrong value
// or a refuted dispute that could not have taken it from another culprit
// or wrong value: it knew values of its children that contradict it
// (knewBetter), or it was sent no suspicious value of fewer lives before
// it sent it (a value rests only on values of fewer lives: every move
// takes a life). Every such sender is named, all in one blame, not one a
// round: where several lied, each is banned. When several wrong values
// could only rest on one another, the earliest names its sender, and
// what the others' senders sent after is taken to rest on it.
//
// The values dropped are the wrong ones, the underived ones, and those
// no sender is trusted with: a sender is not trusted with a value when it
// is a culprit, or may have rested on a culprit's value or a wrong one
// when it sent it (its taint covers it). So an honest group's values of
// fewer lives than every lie it was sent stay, and so do all those it
// sent before; of a group that reports what it read (reads.go), all those
// it sent before it read a lie stay, and all of a group that never read
// one. Keeping the values that may rest on a lie too, to be
// checked again, was tried: a liar of many lies then stalled the solve,
// each audit finding one more value derived from them. blame reads f and
// p and changes neither.
func blame(f findings, p provenance) blameVerdict {
	j := &blamer{f: f, p: p, culprits: map[string]bool{}, t0: never, minBad: math.MaxInt}
	for g, first := range f.liars {
		j.culprits[g] = true
		j.t0 = min(j.t0, first)
	}
	for {
		j.settle()
		named := j.unexplained()
		if len(named) == 0 {
			break
		}
		for _, g := range named {
			j.culprits[g] = true
		}
	}
	if len(f.wrong) == 0 && len(f.underived) == 0 && len(j.culprits) == 0 {
		return blameVerdict{keepAll: true, kept: j.keptGroups(nil)}
	}
	v := blameVerdict{discard: map[string]bool{}, senders: map[string][]valueOrigin{}}
	for g := range j.culprits {
		v.culprits = append(v.culprits, g)
	}
	sort.Strings(v.culprits)
	for _, k := range p.keys {
		o, known := p.origin[k]
		senders := append([]valueOrigin{o}, p.resent[k]...)
		senders = slices.DeleteFunc(senders, func(o valueOrigin) bool { return !j.trusted(o, k) })
		if f.wrong[k] || f.underived[k] || !known || len(senders) == 0 {
			v.discard[k] = true
			continue
		}
		v.senders[k] = senders
	}
	v.kept = j.keptGroups(v.discard)
	return v
}

// keptGroups returns the groups that keep what they hold when discard
// goes (blameVerdict.kept), sorted.
func (j *blamer) keptGroups(discard map[string]bool) []string {
	sentDropped := map[string]bool{}
	dropped := make(map[uint64]bool, len(discard))
	for k := range discard {
		dropped[j.p.hash(k)] = true
		sentDropped[j.p.origin[k].group] = true
		for _, o := range j.p.resent[k] {
			sentDropped[o.group] = true
		}
	}
	var out []string
	for g, r := range j.p.reads {
		if !r.tracked || j.culprits[g] || j.tainted[g].set || sentDropped[g] {
			continue
		}
		read := false
		for h := range r.first {
			if dropped[h] {
				read = true
				break
			}
		}
		if !read {
			out = append(out, g)
		}
	}
	sort.Strings(out)
	return out
}

// settle works out t0, minBad and the taints that follow from the
// culprits named so far.
func (j *blamer) settle() {
	j.t0, j.minBad, j.tainted = j.taintsWith(nil)
}

// taintsWith returns t0, minBad and the taints that follow from the
// culprits named so far and the groups of extra.
func (j *blamer) taintsWith(extra map[string]bool) (t0 uint64, minBad int, tainted map[string]taint) {
	culprits := j.culprits
	if len(extra) > 0 {
		culprits = map[string]bool{}
		for g := range j.culprits {
			culprits[g] = true
		}
		for g := range extra {
			culprits[g] = true
		}
	}
	t0, minBad = j.t0, j.minBad
	for k, o := range j.p.origin {
		if culprits[o.group] {
			t0 = min(t0, o.seq)
			minBad = min(minBad, j.p.lives(k))
		}
	}
	for k := range j.f.wrong {
		minBad = min(minBad, j.p.lives(k))
		if o := j.p.origin[k]; o.group == "" || o.group == savedOrigin {
			t0 = min(t0, o.seq)
		}
	}
	return t0, minBad, taints(j.p, j.f.wrong, culprits, t0, minBad)
}

// finding is a wrong value (or a refuted dispute) with its sender.
type finding struct {
	group, key string
	seq        uint64
}

// open returns the wrong values and refuted disputes whose senders
// are groups not yet named.
func (j *blamer) open() []finding {
	var out []finding
	for k := range j.f.wrong {
		if o := j.p.origin[k]; o.group != "" && o.group != savedOrigin && !j.culprits[o.group] {
			out = append(out, finding{o.group, k, o.seq})
		}
	}
	for _, d := range j.f.refuted {
		if !j.culprits[d.group] {
			out = append(out, finding{d.group, d.key, d.seq})
		}
	}
	return out
}

// unexplained returns the groups not yet culprits that sent a wrong value
// or a refuted dispute that nothing explains. A value its sender knew
// its children's values contradict names it. So does one sent before its
// group could have rested on a suspicious value (a wrong value, a
// culprit's, or one that rests on such), unless it could rest on what
// another such sender sent: then only the earliest of those is named, so
// that an honest group that took a liar's lie is not banned with it. A
// value that may rest on a suspicious one is excused, and so is one kept
// from an earlier epoch: it may rest on a lie dropped then.
func (j *blamer) unexplained() []string {
	named, candidates := map[string]bool{}, map[string]bool{}
	var uncovered []finding
	for _, x := range j.open() {
		switch {
		case x.seq <= j.p.epochSeq:
			// Kept from an earlier epoch, it may rest on the lies dropped
			// then, which the values of this epoch no longer show.
		case j.knewBetter(x):
			named[x.group] = true
		case !j.tainted[x.group].covers(x.seq, j.p.lives(x.key)):
			candidates[x.group] = true
			uncovered = append(uncovered, x)
		}
	}
	if len(candidates) > 1 {
		// A candidate whose finding is unexplained even were every other
		// one a culprit rests on nobody's lie.
		_, _, tainted := j.taintsWith(candidates)
		for _, x := range uncovered {
			if !tainted[x.group].covers(x.seq, j.p.lives(x.key)) {
				named[x.group] = true
			}
		}
	}
	if len(named) == 0 && len(uncovered) > 0 {
		first := slices.MinFunc(uncovered, func(a, b finding) int {
			return cmp.Or(cmp.Compare(a.seq, b.seq), cmp.Compare(a.group, b.group))
		})
		named[first.group] = true
	}
	out := make([]string, 0, len(named))
	for g := range named {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}

// knewBetter reports whether the group of x knew, when it sent x, the
// values of the lands of a child of x's position that give that child
// x's value: it was sent them, or sent them itself, and did not dispute
// them. Such a value is no derivation, honest or misled.
func (j *blamer) knewBetter(x finding) bool {
	lands, ok := j.f.inconsistent[x.key]
	if !ok || len(lands) == 0 {
		return false
	}
	for _, l := range lands {
		if j.f.disputed[x.group][l] || !j.knew(x.group, l, x.seq) {
			return false
		}
	}
	return true
}

// knew reports whether group had the master's value of k by exchange
// seq: it sent it, or was sent it at an earlier exchange.
func (j *blamer) knew(group, k string, seq uint64) bool {
	o, ok := j.p.origin[k]
	if !ok {
		return false
	}
	if o.group == group {
		return o.seq <= seq
	}
	for _, r := range j.p.resent[k] {
		if r.group == group && r.seq <= seq {
			return true
		}
	}
	for _, d := range j.p.deliveries[group] {
		if d.seq < seq && d.arrived >= o.seq {
			return true
		}
	}
	return false
}

// trusted reports whether the value k is kept for its sender o: o is no
// culprit, and when it sent k it could not have rested on a culprit's
// values (or a wrong one): it was not tainted then, or k has no more
// lives than what tainted it; the master's own derivations since a
// culprit's first value may rest on it too.
func (j *blamer) trusted(o valueOrigin, k string) bool {
	return !j.culprits[o.group] && !(o.group == "" && o.seq >= j.t0 && j.p.lives(k) > j.minBad) &&
		!j.tainted[o.group].covers(o.seq, j.p.lives(k))
}

// taint is when a group was first sent a value that may be wrong (a wrong
// value, a culprit's, or one that rests on such a value), or first read
// one if it reports its reads, and the fewest lives of such a value sent
// to it (or read). What the group sent after seq may rest
// on it, but only a value of a position of more lives: every move takes a
// life, so a position's value rests only on values of positions of fewer
// lives. The zero taint covers nothing.
type taint struct {
	seq   uint64
	lives int
	set   bool
}

// covers reports whether a value of a position of the given lives, sent at
// exchange seq by the tainted group, may rest on what tainted it.
func (t taint) covers(seq uint64, lives int) bool {
	return t.set && seq > t.seq && lives > t.lives
}

// worse is t with a suspicious value of the given lives sent at seq.
func worse(t taint, seq uint64, lives int) taint {
	if !t.set {
		return taint{seq: seq, lives: lives, set: true}
	}
	return taint{seq: min(t.seq, seq), lives: min(t.lives, lives), set: true}
}

// livesOf returns a function giving the lives of the position of a key,
// each worked out once; a key that is no position has the most lives, so
// that it is never taken to rest on nothing.
func livesOf() func(string) int {
	memo := map[string]int{}
	return func(k string) int {
		if n, ok := memo[k]; ok {
			return n
		}
		n := math.MaxInt
		if p, err := sprouts.FromKey(k); err == nil {
			n = p.Lives()
		}
		memo[k] = n
		return n
	}
}

// taints works out which groups were sent values that may be wrong, and
// when (see taint): values found wrong, values of culprits, the master's
// own derivations since t0 of positions of more lives than minBad (they
// may rest on a culprit's), and values a tainted group sent that may rest
// on what tainted it, until nothing changes. A group sent only values
// that cannot be wrong is not tainted: the values are shared with every
// group, so counting every delivery after the first lie would excuse
// every liar but the first.
func taints(p provenance, wrong, culprits map[string]bool, t0 uint64, minBad int) map[string]taint {
	tainted := map[string]taint{}
	suspicious := func(k string, o valueOrigin) bool {
		return wrong[k] || culprits[o.group] || o.group == "" && o.seq >= t0 && p.lives(k) > minBad ||
			tainted[o.group].covers(o.seq, p.lives(k))
	}
	for changed := true; changed; {
		changed = false
		for group, ds := range p.deliveries {
			t := tainted[group]
			for _, d := range ds {
				t = taintOf(t, group, d, t0, suspicious, p)
			}
			if t != tainted[group] {
				tainted[group], changed = t, true
			}
		}
	}
	return tainted
}

// taintOf is t with what delivery d sent to group: the suspicious values
// of it that the group read, if it reports its reads, or else all of them.
func taintOf(t taint, group string, d delivery, t0 uint64, suspicious func(string, valueOrigin) bool, p provenance) taint {
	if d.arrived < t0 {
		return t // nothing sent had arrived since the first lie
	}
	if d.log == nil && d.pending == nil {
		// Of an earlier epoch, its content let go: anything sent after
		// it may rest on it.
		return worse(t, d.seq, 0)
	}
	r := p.reads[group]
	for _, v := range d.log {
		if v.from != group && suspicious(v.e.Key, valueOrigin{v.from, v.seq}) {
			if after, read := r.readAt(v.e, d.seq); read {
				t = worse(t, after, p.lives(v.e.Key))
			}
		}
	}
	for _, e := range d.pending {
		if suspicious(e.Key, p.origin[e.Key]) {
			if after, read := r.readAt(e, d.seq); read {
				t = worse(t, after, p.lives(e.Key))
			}
		}
	}
	return t
}
