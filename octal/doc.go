// Package octal implements the rules of octal games, the take-and-break
// games of heaps of tokens named by a code such as 0.77 (Kayles) or 0.07
// (Dawson's Kayles): positions, a text notation, a canonical form, heaps
// as the components of a sum, and moves.
//
// It imports nothing of this project, and a verifier may trust it: a move
// that Children misses or invents would make a proof wrong.
//
// # The games
//
// A position is a sum of heaps of tokens; a move takes k ≥ 1 tokens from
// one heap and may leave what is left of it as nothing, as one heap, or as
// two heaps, as the game's code allows. The code is written "0.d1d2d3…":
// the octal digit dk says what a move taking k tokens may leave: bit 1 (the
// digit is 1, 3, 5 or 7) nothing (the heap had exactly k tokens), bit 2 one
// heap (of at least one token), bit 4 two heaps (of at least one token
// each). A digit 0, and any k past the last digit, allows no move taking k
// tokens. Both players have the same moves, so every game is impartial, and
// it is played under the normal rule: the player who cannot move loses.
//
// Kayles, 0.77, is a row of pins: a ball knocks down one pin or two
// adjacent ones, which may split the row in two. Dawson's Kayles, 0.07,
// knocks down exactly two adjacent pins (dominoes on a 1×n strip). Their Grundy
// values are OEIS A002186 and A002187 (shifted by one).
//
// Codes with a digit before the point other than 0 (such as 4.07, which
// may also split a heap without taking a token) and hexadecimal games are
// not octal games in this sense and are refused: every move here takes at
// least one token, which is what makes the number of tokens a size that
// strictly decreases along moves.
//
// # Positions and notation
//
// A heap is written as its code, ':', and its number of tokens; heaps of
// the same code may share it, which is written once, before the first:
//
//	!                  the empty position (no move left)
//	0.77:5             a heap of 5 tokens in Kayles
//	0.77:3+5+7         three heaps of Kayles, played side by side
//	0.07:4+0.77:3+5    a heap of Dawson's Kayles beside two of Kayles
//
// A heap without a code has the code of the heap before it. Sizes are
// decimal numbers without leading zeros, at most MaxHeap; a heap of 0
// tokens is no heap. A code is "0." and 1 to MaxDigits octal digits;
// trailing zeros name the same game and are dropped (0.070 is 0.07). A
// position has at most MaxTokens tokens, a text at most MaxInput bytes.
// Parse is strict: any other text is a *ParseError naming the byte where it
// goes wrong, and one over a size limit also wraps ErrTooLarge.
//
// A heap on which no move is possible (in Dawson's Kayles a heap of one
// token) never changes and never lets anyone move: the sum of it and any
// position is the same game tree as the position alone. Parse and every
// move drop such heaps, so every heap of a position has a move, and the
// empty position is the only one without. Nothing else is dropped: a heap
// of Grundy value 0 with moves stays (its value is what a search finds).
//
// # The canonical form
//
// String (and Key, the same text) writes a position so that two positions
// share it exactly when they are the same multiset of heaps (code and
// size), after the dead heaps above are dropped and codes lose their
// trailing zeros: the heaps are sorted by code (as text), then by size
// (as numbers), and written as above, each code once, before the first of
// its heaps. Parse(p.String()) gives p back.
//
// # Moves and their order
//
// Children returns every position one move away, each once, in canonical
// form, sorted by text (byte by byte). Certificates refer to children by
// their index in that order; Notation names this form and this order.
package octal
