// Package cram implements the rules of the game Cram: positions on
// rectangular boards with holes, a text notation, a canonical form under the
// symmetries of the square grid, regions and moves.
//
// It imports nothing of this project, and the verifier trusts it: a move
// that Children misses or invents would make a proof wrong.
//
// # The game
//
// Cram is played on a board of square cells, some of which may be holes.
// The two players take turns placing a domino on two empty cells that are
// orthogonally adjacent (side by side or one above the other); a covered
// cell stays covered. Both players have the same moves, so the game is
// impartial, and it is played under the normal rule: the player who cannot
// move loses. Every position is therefore a Nim heap in disguise, and its
// Grundy value tells who wins: 0 is a loss for the player to move, any other
// value a win. On an even×even board the second player wins by answering
// each move with its image under the half-turn about the centre; on an
// even×odd board the first player covers the two centre cells and then
// does the same. Cram on a 1×n strip is Dawson's Kayles (the octal game
// 0.07).
//
// # Positions and notation
//
// A position is a set of empty cells. Cells that touch only through a
// corner, or not at all, never interact, so a position is the sum of its
// regions: its maximal sets of orthogonally connected empty cells. A cell
// alone in its region can never be covered and is dropped, so every region
// has at least two cells and at least one move.
//
// The text form is one of
//
//	!            the empty position (no move left)
//	5x5          an empty board of 5 rows and 5 columns
//	.#./.../..#  a board written row by row: '.' an empty cell, '#' a hole
//	             (or a covered cell), rows separated by '/', all of one length
//	2x2+1x3      boards separated by '+': their sum, played side by side
//
// Parse reads all of them; a board written row by row may hold several
// regions, and any board may hold isolated cells, which Parse drops. A board
// has at most MaxArea cells and a position at most MaxCells (counted over
// its boards before anything is dropped); a text is at most MaxInput bytes.
// Parse is strict: any other text is a *ParseError naming the byte where it
// goes wrong, and one over a size limit also wraps ErrTooLarge.
//
// # The canonical form
//
// String (and Key, which is the same text) writes a position in a form that
// two positions share exactly when they are the same set of regions up to
// the 8 symmetries of the square grid (rotations by quarter turns and
// reflections) applied to each region on its own, and translation. It is
// computed region by region:
//
//  1. The region's cells are taken alone, without the rest of the board.
//  2. Each of the 8 symmetries is applied, and the image is translated so
//     that its bounding box starts at row 0, column 0.
//  3. Each image is encoded by its height, its width, and then its rows of
//     '.' and '#' within the bounding box; the least encoding (by height,
//     then width, then the rows as text, '#' before '.') is the region's
//     canonical image.
//  4. The region is written as its canonical image: "HxW" when it fills its
//     bounding box (so H ≤ W), its rows separated by '/' otherwise.
//
// The regions' texts are sorted as strings and joined by '+'. Why it is
// canonical: the 8 images of a region are the same set whichever symmetric
// copy one starts from, so the least of them is too; the encoding is the
// region's cells in a fixed frame, so different regions never share it.
//
// # Moves and their order
//
// Children returns every position one move away, each once, in canonical
// form, sorted by text. Certificates refer to children by their index in
// that order; Notation names this form and this order.
package cram
