// Package sprouts implements the rules of the game Sprouts: positions in the
// notation of the Applegate–Jacobson–Sleator papers as used by GLOP and the
// SPOTS solver, a canonical form, lives, lands and moves.
//
// It imports nothing of this project, and the verifier trusts it: a move that
// Children misses or invents would make a proof wrong.
//
// # Positions
//
// A position is a drawing of spots and lines on the sphere. Each region
// (face) is bounded by one or more boundaries, one per connected piece of
// the drawing it touches; a boundary is written as the spots met walking
// along it with the region on the same side:
//
//	0   a spot without lines (3 lives), alone in its boundary
//	1   a spot with one line (2 lives)
//	2   a spot with one life that no other region can use
//	a   a spot with one life seen twice on this boundary (lowercase letter)
//	A   a spot with one life seen in two regions of a land (uppercase letter)
//
// Boundaries are separated by '.', regions by '|', lands by '+'. A land is a
// group of regions tied together by uppercase letters; different lands share
// nothing, so a position is the sum of the games of its lands. See Parse for
// the rest of the notation.
//
// # Moves
//
// A move draws a line inside a region between two corners with a life each,
// or a loop from a corner of a spot with two lives back to it, and puts a new
// spot on the line. A line within one boundary splits the region in two and
// the region's other boundaries go to either side in every possible way; a
// line between two boundaries joins them. Children returns every position a
// move reaches, reduced and in canonical form, each once.
//
// Reduction removes what cannot matter: dead spots, regions with fewer than
// two lives, corners of one spot with nothing alive between them; a region
// with two or three lives is rewritten as one boundary of its spots. The
// tests check, against a slow model of the drawing that reduces nothing,
// that every position reachable from 0*1 … 0*5 keeps its Grundy value.
//
// # The canonical form
//
// The reference solver's normal form is not canonical: the same position
// written in two ways may stay two strings. This package's form is: two
// positions have the same String (and Key) exactly when they are the same
// game up to renaming letters, rotating a boundary, reading a region
// backwards (all its boundaries at once), and reordering boundaries,
// regions and lands. It is computed per land as follows.
//
//  1. Tokens. Every corner becomes a number. A lowercase letter becomes the
//     distance, along its boundary, to its partner corner, so a boundary's
//     tokens do not depend on lowercase names or on where the boundary is
//     cut open. Uppercase letters get colors, which start equal.
//
//  2. Refinement. The uppercase letters form an ordered partition (their
//     colors). In rounds, every letter is given a signature from what its
//     two corners see: a hash of their region (the boundaries' hashes at
//     their least rotations, read both ways) and of their place on their
//     boundary relative to where its least rotation starts. Each class of
//     letters is split by signature, in signature order. Rounds stop when
//     they split nothing. Everything a round looks at is unchanged by the
//     symmetries above, so two writings of one land end with the same
//     partition, class for class.
//
//  3. Individualisation. If some class still holds several letters, each of
//     them in turn is put in a class of its own and refinement resumes,
//     until every letter has its own class (as in nauty). Automorphisms
//     found on the way (two branches that end in the same code) prune
//     branches that can only repeat what was seen.
//
//  4. Encoding. With every letter in its own class, the land is written
//     with each boundary at its least rotation, each region in the reading
//     direction that gives the lesser sequence of sorted boundaries, and the
//     regions sorted; letters are then named in order of appearance. The
//     canonical code is the least such code over the branches of step 3.
//
// Why it is canonical: steps 1 and 2 depend only on the land, not on how it
// was written, and step 3 explores the same tree (up to relabelling) for
// every writing; step 4 writes the same code for every writing once each
// letter is marked by its class. The code is a faithful description of the
// land, so different lands never share it. The tests compare the result
// with a brute-force form (least text over all renamings) and rewrite
// thousands of reachable positions at random without changing the form.
//
// Lands are sorted by their codes. Canonical codes of lands met before are
// kept in a bounded cache keyed by the exact drawing handed to step 1, so a
// search that meets the same land again pays only for a lookup.
//
// # Differences from the reference
//
// Parse is strict where the reference silently drops characters; see
// Parse. The reference's strings are read and re-keyed under this form,
// so its databases can be checked; the strings this package writes are in
// the reference's syntax, and the reference reads them.
package sprouts
