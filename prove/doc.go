// Package prove is the pipeline from a position to its proof, the one that
// spots-solve (every registered game), spots-corpus add and the swarm's master
// run:
//
//  1. search: a search of package solve (NewSearcher: DFPN, PDFPN or PNS,
//     saved into a checkpoint as it runs if asked; or any other
//     solve.Searcher, such as a swarm's master) finds the outcome of a
//     position plus a heap, or the Grundy value of a position;
//  2. outcome: a Grundy value g gives the outcome it implies (a loss for
//     the player to move when g = 0, a win otherwise), so that every result
//     carries an outcome; a search that stopped first says why (Stop);
//  3. certify: the claim the result makes is turned into a certificate from
//     the values the search found (package certify) and written into a
//     directory under its content address;
//  4. verify: the written file is checked again by the checker (package
//     verify) before its path is reported.
//
// A Pipeline proves one position after another with one search, so what is
// proved for one is reused by the next. Its guarantees: a Result with a
// Certificate names a file that the checker has verified on disk, proving
// exactly the claim of the result; a search that stops early (its context
// ends, its Timeout, its iteration limit) gives an Unknown result and
// writes nothing; the checkpoint of a search that stopped unsolved holds
// all it did. The package owns the checkpoints (Checkpoint): it saves the
// search as it runs and when a solve stops, and a search resumed from one
// proves the same claim as one from nothing (prove_test.go holds these
// promises on 0*5, 0*6 and 0*8).
//
// What it trusts: the search's values only as far as the checker derives
// them from the rules. A checkpoint that a search was resumed from is
// input, not truth (Resumed). The caller owns the presentation: the package
// prints nothing.
package prove
