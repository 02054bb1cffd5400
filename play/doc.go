// Package play reads perfect play off proof certificates: the proven
// Grundy values of positions, the moves that win, and a move to make when
// none does.
//
// A verified certificate (package verify) proves gn(Q) = g for each of its
// entries Q, atomic positions. Values holds those facts, from one or more
// certificates, each checked by verify before any of its values is used
// (see Load). From them and the rules of the game alone, never a search,
// it answers:
//
//   - the value of a position, a sum of lands plus an optional Nim heap
//     (a Game): the xor of its lands' values and the heap, when every land
//     is an entry;
//   - who wins it (Analyze): a Loss when its value is 0; a Win when its
//     value is not 0, or when some move reaches a position of value 0 (a
//     certificate of POS=W may prove only that);
//   - its proven winning moves: every move to a position whose value is
//     proven to be 0. A move whose result the certificates do not cover is
//     never called winning, so the list may miss winning moves; it is never
//     empty for a Win.
//
// Why a certificate lets the winner keep playing proven moves: after a
// winning move the position P has value 0 and every land of P is an entry.
// Whatever the opponent plays, in a land L of value g, reaching L', the
// entry of L holds a hint for that child: either every land of L' is an
// entry with a value other than g (then the new position has a known
// value other than 0, and the reach hints of its lands give a move back to
// 0, as in Nim), or the hint names a reply in L' that reaches lands that
// are all entries with the value g, which makes the whole position 0
// again. Either way the reply is among the children of the new position
// whose value is proven to be 0, which is what Analyze lists.
//
// The game-specific parts (parsing, lands, children, lives, the limits
// on what a position may cost to expand, descriptions of moves) are in
// rules.go and describe.go; the rest speaks of keys and values only.
package play
