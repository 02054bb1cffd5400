package corpus

// Rotation returns the addresses of committed certificates, beyond those
// fixed chooses, that a sampled check verifies in turn: starting at the
// certificate seed picks (e.g. from the commit being tested), in the
// order of the index, each is taken whose verification with all it
// cites not chosen yet fits in what is left of budget seconds (the
// verify times index.csv records), what fixed chooses and all it cites
// paid for first. As the seed changes from commit to commit
// every certificate whose closure fits the budget has its turn; the
// others are verified by a full check (make corpus-check).
func Rotation(records []Record, fixed func(Record) bool, seed uint64, budget float64) map[string]bool {
	byAddr := map[string]Record{}
	var order []Record
	for _, r := range records {
		if r.Committed {
			byAddr[r.Address] = r
			order = append(order, r)
		}
	}
	chosen := map[string]bool{}
	closure := func(addr string) []string { // addr and what it relies on, not chosen yet
		var out []string
		seen := map[string]bool{}
		stack := []string{addr}
		for len(stack) > 0 {
			a := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			r, ok := byAddr[a]
			if !ok || seen[a] || chosen[a] {
				continue
			}
			seen[a] = true
			out = append(out, a)
			stack = append(stack, r.Cites...)
		}
		return out
	}
	for _, r := range order { // the fixed part is paid for first
		if fixed(r) {
			for _, a := range closure(r.Address) {
				chosen[a] = true
				budget -= byAddr[a].VerifySeconds
			}
		}
	}
	picked := map[string]bool{}
	if len(order) == 0 {
		return picked
	}
	start := int(seed % uint64(len(order)))
	for i := range order {
		r := order[(start+i)%len(order)]
		if chosen[r.Address] {
			continue
		}
		more := closure(r.Address)
		cost := 0.0
		for _, a := range more {
			cost += byAddr[a].VerifySeconds
		}
		if cost > budget {
			continue
		}
		budget -= cost
		for _, a := range more {
			chosen[a] = true
		}
		picked[r.Address] = true
	}
	return picked
}
