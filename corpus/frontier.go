package corpus

// The frontier: how far the corpus's certificates reach.

// The n whose outcomes GLOP's computations of 2010–2011 settled (with
// those of 2007 between them) lie in GoalFrom … GoalTo: the next stretch
// for the corpus to certify beyond the literature's first 32.
const (
	GoalFrom = 33
	GoalTo   = 44
)

// Frontier says how far the certified outcomes reach.
type Frontier struct {
	// Complete is the largest n such that the outcome of every 0*n',
	// 1 ≤ n' ≤ n, is certified; 0 when that of 0*1 is not.
	Complete int
	// Beyond lists the n above Complete whose outcome is certified, in
	// increasing order.
	Beyond []int
	// Goal lists the n of GoalFrom … GoalTo whose outcome is certified,
	// Open those whose outcome is not (yet), in increasing order.
	Goal, Open []int
	// Late lists the n of GoalFrom … GoalTo that the literature table
	// says GLOP first solved in 2010–2011.
	Late []int
}

// Certifies reports whether the certificate counts as certifying its
// claim in a table: verified by the check the table was made from, found
// as listed by a check that verified nothing (spots-corpus status: add
// verified it when it was made), or listed as kept elsewhere (likewise).
func (c Cert) Certifies() bool {
	switch c.Status {
	case StatusVerified, StatusFound, StatusNotCommitted:
		return true
	}
	return false
}

// FrontierOf returns the frontier of the table's rows: an n counts as
// certified when one of its certificates certifies (Cert.Certifies) a
// claim about it, an outcome or a Grundy value (which gives the outcome).
func FrontierOf(rows []Row) Frontier {
	certified := map[int]bool{}
	lateN := map[int]bool{}
	for _, r := range rows {
		for _, c := range r.Certificates {
			if c.Certifies() {
				certified[r.N] = true
			}
		}
		if k := r.Known; k != nil && r.N >= GoalFrom && r.N <= GoalTo {
			if _, year := k.Solver(); year == "2010-2011" {
				lateN[r.N] = true
			}
		}
	}
	var f Frontier
	for certified[f.Complete+1] {
		f.Complete++
	}
	maxN := 0
	for n := range certified {
		maxN = max(maxN, n)
	}
	for n := f.Complete + 2; n <= maxN; n++ {
		if certified[n] {
			f.Beyond = append(f.Beyond, n)
		}
	}
	for n := GoalFrom; n <= GoalTo; n++ {
		if certified[n] {
			f.Goal = append(f.Goal, n)
		} else {
			f.Open = append(f.Open, n)
		}
		if lateN[n] {
			f.Late = append(f.Late, n)
		}
	}
	return f
}

// Spans writes increasing numbers of spots as ranges, as the corpus's
// tables do: "0*1 … 0*14, 0*16, 0*17, 0*22", or "none".
func Spans(ns []int) string { return spans(ns) }
