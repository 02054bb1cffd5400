package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/spots-dev/spots/prove"
	"github.com/spots-dev/spots/solve"
)

// result is one solved position, as printed with --json.
type result struct {
	Input         string        `json:"input"`            // the text given
	Canonical     string        `json:"canonical"`        // with " + *N" for a heap
	Outcome       solve.Outcome `json:"outcome"`          // W, L or unknown
	Reason        string        `json:"reason,omitempty"` // why unknown: timeout, iteration limit, interrupted
	Nimber        *uint32       `json:"grundy"`           // with --nimber: the Grundy value
	Algorithm     string        `json:"algorithm"`
	Seconds       float64       `json:"seconds"`
	Iterations    uint64        `json:"iterations"`
	GrundyNumbers int           `json:"grundy_numbers"`
	TTEntries     int64         `json:"tt_entries"`
	Claim         string        `json:"claim,omitempty"`   // with --cert: the claim certified
	Address       string        `json:"address,omitempty"` // with --cert: the certificate's content address
	Certificate   string        `json:"path,omitempty"`    // with --cert: the certificate's file
	CertEntries   int           `json:"entries,omitempty"` // with --cert: the certificate's entries
	Cites         []string      `json:"cites,omitempty"`   // with --cert and --reuse: the addresses of the certificates it cites
	Cited         int           `json:"cited,omitempty"`   // and the number it relies on, directly or not, all verified
	// pdfpn only
	Threads         int      `json:"threads,omitempty"`
	Spread          uint64   `json:"spread,omitempty"`
	PerThread       []uint64 `json:"per_thread_iterations,omitempty"`
	LockWaits       int64    `json:"lock_waits,omitempty"`
	LockWaitSeconds float64  `json:"lock_wait_seconds,omitempty"`
	TTHitRate       float64  `json:"tt_hit_rate,omitempty"`
	// With --root-moves.
	RootMoves []rootMove `json:"root_moves,omitempty"`

	stats solve.Stats // the search's counters for this position
}

// newResult is what the run prints of the result pr about root + *heap
// (its canonical text, with " + *N" for a heap).
func newResult[P fmt.Stringer](cfg config, input string, root P, heap uint32, pr prove.Result) result {
	st := pr.Spent
	r := result{Input: input, Canonical: root.String(), Algorithm: cfg.algorithm.String(), Outcome: pr.Outcome,
		Reason: string(pr.Stop), Nimber: pr.Grundy, Seconds: st.Seconds, Iterations: st.Iterations,
		GrundyNumbers: st.GrundyNumbers, TTEntries: st.TTEntries, stats: st}
	if heap > 0 {
		r.Canonical += " + *" + strconv.FormatUint(uint64(heap), 10)
	}
	if cfg.algorithm == solve.SearchPDFPN {
		r.Threads, r.Spread = cfg.threads, solve.DefaultSpread
		r.PerThread, r.LockWaits, r.LockWaitSeconds = st.PerThread, st.LockWaits, st.LockWaitSeconds
		if st.TTLookups > 0 {
			r.TTHitRate = float64(st.TTHits) / float64(st.TTLookups)
		}
	}
	if c := pr.Certificate; c != nil {
		r.Claim, r.Certificate, r.Address, r.CertEntries = c.Claim.String(), c.Path, c.Address, c.Entries
		r.Cites, r.Cited = c.Cites, c.Cited
	}
	return r
}

func printResult(w io.Writer, cfg config, r result) {
	if cfg.json {
		b, _ := json.Marshal(r)
		fmt.Fprintf(w, "%s\n", b)
		return
	}
	who := map[solve.Outcome]string{solve.Win: "first player wins", solve.Loss: "second player wins"}
	switch {
	case r.Outcome == solve.Unknown:
		fmt.Fprintf(w, "%s  unknown  (stopped after %.1f s, %d iterations: %s)\n", r.Input, r.Seconds, r.Iterations, r.Reason)
	case r.Nimber != nil:
		fmt.Fprintf(w, "%s  %d  (Grundy value; %s)\n", r.Input, *r.Nimber, who[r.Outcome])
	default:
		fmt.Fprintf(w, "%s  %s  (%s)\n", r.Input, r.Outcome, who[r.Outcome])
	}
	if r.Certificate != "" {
		cites := ""
		if len(r.Cites) > 0 {
			cites = fmt.Sprintf("; cites %d certificates, %d in all, verified", len(r.Cites), r.Cited)
		}
		fmt.Fprintf(w, "    certificate %s  (%d entries, verified%s)\n", r.Certificate, r.CertEntries, cites)
	}
	for _, m := range r.RootMoves {
		fmt.Fprintf(w, "    %12d iterations (%5.1f %%) below %s\n", m.Iterations, 100*float64(m.Iterations)/float64(max(r.Iterations, 1)), m.Position)
	}
}

// rootMove is a move of a solved position with the iterations spent below
// it, as --root-moves prints it.
type rootMove struct {
	Position   string `json:"position"` // the position after the move, with " + *N" for a heap
	Iterations uint64 `json:"iterations"`
}

func rootMoves[P fmt.Stringer](kids []solve.RootChild[P]) []rootMove {
	moves := make([]rootMove, 0, len(kids))
	for _, k := range kids {
		pos := k.Pos.String()
		if k.N > 0 {
			pos += " + *" + strconv.FormatUint(uint64(k.N), 10)
		}
		moves = append(moves, rootMove{pos, k.Iterations})
	}
	return moves
}
