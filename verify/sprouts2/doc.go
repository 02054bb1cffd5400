// Package sprouts2 is a second implementation of the rules of Sprouts,
// written apart from package sprouts so that the checker can judge a proof
// without trusting the code the solver used to make it
// (spots-verify --independent).
//
// # Why it is independent
//
// It was written from the rules of the game and the notation (the
// documentation of package sprouts and the project's notes on the
// reference solver's notation), not from package sprouts' code, and it
// imports nothing of this module (TestLayers in internal/repocheck holds
// it to that). It shares no algorithm with sprouts where sprouts is intricate:
//
//   - Moves are drawn on its own model of a land: every spot is a number,
//     every corner an occurrence of that number on a boundary; the cases of
//     the notation (lowercase, uppercase, 2) are read off where a spot's
//     corners lie, not carried from the text.
//   - There is no canonical form. When two lands are the same position is
//     decided by a search for a relabelling (Same): a bijection of regions,
//     of their boundaries, a rotation of each boundary, a direction for each
//     region and a bijection of spots, built one corner at a time and
//     abandoned at the first mismatch. A hash that such relabellings cannot
//     change (Land.Hash) only says which lands are worth trying; a collision
//     costs time, never a wrong answer, because Same checks every corner.
//
// A bug in package sprouts that merged two different lands under one code,
// dropped or invented a move, or reduced a position wrongly would make the
// solver's certificate name positions or values that this package does not
// reproduce, and the independent check would reject it; the planted faults
// of package sprouts' fault tests show this for several such bugs.
//
// # What it trusts
//
// The rules of Sprouts, and that the following rewritings keep the value of
// every position (each is the reference solver's, and package sprouts makes
// the same ones, so the two implementations agree on the positions a proof
// names):
//
//   - A spot without lives, and a boundary left without corners, can be
//     removed: no line can reach them.
//   - A spot whose two corners on a boundary have nothing alive between them
//     is a spot with one corner (a 2): the dead part between them is a tree
//     hanging from it that no move can use.
//   - A region in which no move is possible (fewer than two distinct live
//     spots, none with two lives) can be removed; a spot of it seen in
//     another region keeps its one corner there (becomes a 2).
//   - A region with two or three lives is the same game whatever the
//     boundaries its spots lie on: it is rewritten as one boundary of its
//     spots, the spots it shares with no other region written as 2s. (Any
//     two moves there leave at most one life, so the children of two
//     arrangements differ only by lands of equal value.)
//   - Reading all the boundaries of one region in the other direction
//     changes no move: the moves of a region depend only on the cyclic order
//     of the corners of each of its boundaries, which a mirror maps
//     bijectively.
//
// and that the value of a sum of lands is the xor of their values (the
// Sprague–Grundy theorem), which is what makes lands worth splitting.
//
// # The model
//
// A land is a list of regions, a region a list of boundaries, a boundary
// the cyclic list of corners met walking along it with the region on one
// side (the same side for every boundary of a region). A corner holds a
// spot: 0 (no lines, three lives, alone in its boundary), 1 (one line end,
// two lives), 2 (one life, one corner usable here), or a letter: a spot
// with one life and two corners, both on one boundary (written lowercase)
// or one in each of two regions (written uppercase). Parse reads the
// notation of package sprouts (and of GLOP and the reference solver):
// lands separated by '+', regions by '|', boundaries by '.', 0*k for k
// boundaries that are single 0s, m(k) and n(k) for lowercase and uppercase
// letter number k, "!" for the empty position.
package sprouts2
