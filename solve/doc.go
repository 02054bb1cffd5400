// Package solve decides positions of normal-play impartial games with
// proof-number search: "is P + *n a win for the player to move?" and
// "what is the Grundy value of P?". It knows games only through the Game
// interface (package sprouts provides Sprouts as sprouts.Rules) and imports
// nothing of this project but the leaf package outcome, whose Outcome it
// reports.
//
// # What it guarantees
//
// An outcome a search reports (Win or Loss, never Unknown) is proved by the
// rules of the game as Game presents them: the search concludes Loss for an
// atomic couple (P, n) only when every move is answered, and then records
// gn(P) = n in the nimber database; it concludes Win only from a lost
// child. So every value it reports can be re-derived from the database by
// looking one or two moves ahead, which is what package certify writes and
// package verify checks, without trusting this package. A search that stops
// early (a context that ends, Options.MaxIterations) reports Unknown, never
// a guess. Proof and disproof numbers saturate instead of wrapping (see
// Inf).
//
// # The Game contract
//
// A Game gives keys, components, children, sizes and a cheap estimate of the
// number of children; the comment of Game lists what the search relies on.
// The one that matters most: Children must miss no move and invent none,
// since a certificate is only as good as the move generator its checker
// uses. A game may also offer ChildrenUntil, which lets DFPN stop
// generating children at the first lost one.
//
// # Couples and the searches
//
// Every search works on couples (P, n), the position P plus one Nim heap of
// size n, which is lost for the player to move exactly when gn(P) = n. An
// atomic couple's children are (P, m) for m < n (heap moves) and (C, n) for
// every child C of P, with the components of C whose values are known
// folded into the heap. A couple whose position is a sum is solved
// component by component: each component Q is tried as (Q, 0), (Q, 1), …
// until its value is found (SettleSum keeps these books). Children of a
// couple are ordered as Lemoine and Viennot's solver orders them (fewer
// lives plus four per heap unit, more components, fewer estimated moves,
// key), and ties in selection are broken by that order, or at random with
// Options.Seed.
//
//   - PNS is proof-number search on a DAG: every couple met is one node,
//     kept until the search ends. Simple and exact; its memory grows with
//     the nodes.
//   - DFPN is depth-first proof-number search with thresholds, in memory
//     bounded by a transposition table of fixed capacity. With
//     Options.Threads ≥ 2 it is PDFPN (Kaneko's parallel df-pn as adapted
//     by Čížek, Balko and Schmid): threads share the table and the
//     database and spread over the tree.
//   - DFPN.Job runs a budgeted search of one couple and reports its numbers
//     and children (Expansion): the unit of work of package swarm, whose
//     master keeps its own PNS DAG over the jobs and uses this package's
//     rules (SettleAtomic, SettleSum, RankQueue) to keep its numbers.
//
// Both searches follow the paper "Massively Parallel Proof-Number Search
// for Impartial Games and Beyond" (Čížek, Balko, Schmid) and the rules of
// the reference solver SPOTS. A search's Grundy method finds gn(P) by
// solving (P, 0), (P, 1), … in turn, reusing its table and database.
//
// # The nimber database
//
// NimberDB maps the keys of atomic positions to their Grundy values. It is
// shared by the searches that are given the same one (and, through
// TakeNew and Learn, by the groups of a swarm), is safe for concurrent
// use, and only grows: an entry is never evicted, since it is both what
// makes transpositions across couples cheap and what a certificate is made
// from.
//
// # Determinism
//
// With Options.Seed 0 and one thread, a search is deterministic: the same
// game, root, options and database give the same iterations, the same
// outcome and the same database, run after run
// (the transposition table hashes with a fixed function, so even which
// entries a full bucket gives up is fixed; see hashKey). A seed other than
// 0 changes only how ties are broken, and is itself reproducible. PDFPN
// (Threads ≥ 2) depends on how threads interleave: its outcome is the same,
// its iterations and database are not.
//
// # Memory
//
// The transposition table (Options.Capacity entries, TableBytes bytes) and
// the cache of children (Options.ChildrenCache bytes) are bounded; the
// nimber database, PNS's DAG and the path of a DFPN are not. MemoryPlan
// divides one budget (PlanMemory, PlanCapacity) between the table, the
// children cache, the game's own caches and a soft limit for the Go heap,
// leaving the rest for what no plan bounds. Callers that need a memory
// bound run DFPN with a plan's Capacity and ChildrenCache.
package solve
