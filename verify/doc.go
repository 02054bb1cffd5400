// Package verify is the independent checker of proofs about impartial
// games: the games of the registry (package game; Games lists them).
//
// It trusts only the rules of the game a certificate's header names (its
// rules package, through its adapter registered in package game/all:
// parsing, the canonical form, Children, the split into components), the Sprague–Grundy theorem (the value
// of a sum is the xor of its parts' values), and the decoders of package
// format. With Options.Independent (and CheckIndependent) it trusts, for
// Sprouts, package verify/sprouts2 instead of package sprouts: a second
// implementation of the rules that shares no code with the one the solver
// uses, so that a bug in the rules cannot make a false proof pass unless
// it is made twice (see independent.go). It does not import the solver, the swarm or the certificate
// builder, so a bug there cannot make a false claim pass here (TestLayers in
// internal/repocheck holds it to that). The rules of each game reach the checker through the
// registry (package game) and one small internal interface (rules in
// game.go); the check itself, the parallel pipeline and the limits are the
// same code for every game. The words below are Sprouts's: for another
// game, read its components (game.Info.ComponentName) for lands and its
// size (SizeName) for lives.
//
// A proof is a set of entries gn(Q) = g for atomic positions Q. An entry is
// valid when
//
//  1. every smaller value is reached: for each m < g some child of Q has
//     components that are all valid entries, with values xoring to m; and
//  2. no child has value g: for each child C, either C's components are all
//     valid entries whose values xor to something other than g, or some
//     move from C reaches a position whose components are valid entries
//     xoring to g (a winning reply in C + *g).
//
// A claim "R + *n is a Loss" holds when R's components are valid entries
// xoring to n; "Win" when they xor to something else or a move from R
// reaches such a position xoring to n; "gn(R) = g" as the Loss of R + *g.
//
// Hinted certificates (our .arrow files) name, for each entry, the child for
// each m < g and the winning reply for each child, so File checks them in one
// streaming pass, generating each entry's children once and never
// searching. Generating those children is almost all of the work, and
// which ones a row needs depends only on the row, so File, Stream and
// CertificateWith generate them on Options.Workers goroutines (GOMAXPROCS
// by default) a bounded window of rows ahead of the check, which stays
// sequential and in row order: the verdict, the first failing row and
// every refusal are those of a sequential check (see pipeline.go).
// Unhinted databases (GLOP/SPOTS [Positions+Nimber] text) are
// checked by Database.Check with a memoised search one or two moves deep,
// which also chooses the witnesses that turn such a database into a hinted
// certificate.
//
// Input is untrusted: before generating the children of any position (an
// entry, the claim's root, a land of a child that a hint names) the
// checker measures it (Measure: lives, boundaries, letters, an upper bound
// on the moves to try and on the work; for other games, their Measure:
// empty cells, moves, work) and refuses it if it is over Options.Limits, with a *LimitError
// wrapping ErrLimit. A refusal says
// nothing about the proof: it is neither valid nor invalid.
package verify
