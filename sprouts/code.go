package sprouts

import "fmt"

// The compact code of a position is a byte string, one byte per corner in the
// common case. It is what a Position holds and what Key returns: cheap to
// copy, hash and compare, and decoded by a single linear scan when moves are
// generated. Text (the reference's notation) is produced only by String.
//
//	0x01        end of a boundary (between boundaries of one region)
//	0x02        end of a region (between regions of one land)
//	0x03        end of a land (between lands of one position)
//	0x04 0x05 0x06   the spots 0, 1 and 2
//	0x08+k      lowercase letter k, k < 0x77
//	0x7F x y    lowercase letter k ≥ 0x77: x = 0x80|k>>7, y = 0x80|k&0x7F
//	0x80+k      uppercase letter k, k < 0x7F
//	0xFF x y    uppercase letter k ≥ 0x7F, continuation bytes as above
//
// Continuation bytes have the high bit set, so the separator bytes never occur
// inside a symbol and a land can be cut out of a position by searching for
// 0x03.
const (
	cBoundary = 0x01
	cRegion   = 0x02
	cLand     = 0x03
	cSpot0    = 0x04
	cSpot1    = 0x05
	cSpot2    = 0x06

	cLowerBase  = 0x08
	cLowerLong  = 0x7F
	cUpperBase  = 0x80
	cUpperLong  = 0xFF
	lowerShort  = cLowerLong - cLowerBase // letters with a one-byte code
	upperShort  = cUpperLong - cUpperBase
	maxLetter   = 1<<14 - 1 // largest letter index the code can hold
	contMarker  = 0x80
	contPayload = 0x7F
)

// symbol kinds as decoded from a code.
const (
	kSep0 = iota // not a symbol
	kSpot0
	kSpot1
	kSpot2
	kLower
	kUpper
)

// readSymbol decodes the symbol at code[i]. It returns the kind, the letter
// index for letters, and the index of the next byte. The caller guarantees
// code[i] is not a separator.
func readSymbol(code string, i int) (kind, index, next int) {
	b := code[i]
	switch {
	case b == cSpot0:
		return kSpot0, 0, i + 1
	case b == cSpot1:
		return kSpot1, 0, i + 1
	case b == cSpot2:
		return kSpot2, 0, i + 1
	case b == cLowerLong:
		return kLower, int(code[i+1]&contPayload)<<7 | int(code[i+2]&contPayload), i + 3
	case b == cUpperLong:
		return kUpper, int(code[i+1]&contPayload)<<7 | int(code[i+2]&contPayload), i + 3
	case b >= cUpperBase:
		return kUpper, int(b - cUpperBase), i + 1
	default:
		return kLower, int(b - cLowerBase), i + 1
	}
}

// appendLetter appends the code of a letter.
func appendLetter(dst []byte, upper bool, k int) []byte {
	base, long, short := byte(cLowerBase), byte(cLowerLong), lowerShort
	if upper {
		base, long, short = cUpperBase, cUpperLong, upperShort
	}
	if k < short {
		return append(dst, base+byte(k))
	}
	return append(dst, long, contMarker|byte(k>>7), contMarker|byte(k&contPayload))
}

// checkCode reports whether code is the key of a canonical position: it must
// decode, and parsing its text must give it back.
func checkCode(code string) error {
	prevSep := true
	for i := 0; i < len(code); {
		b := code[i]
		switch {
		case b <= cLand:
			if b == 0 || prevSep {
				return fmt.Errorf("key byte %d: misplaced separator 0x%02x", i, b)
			}
			prevSep = true
			i++
			continue
		case b == cLowerLong || b == cUpperLong:
			if i+2 >= len(code) || code[i+1] < contMarker || code[i+2] < contMarker {
				return fmt.Errorf("key byte %d: cut-off letter", i)
			}
		case b == 0x07:
			return fmt.Errorf("key byte %d: unknown symbol 0x07", i)
		}
		_, _, i = readSymbol(code, i)
		prevSep = false
	}
	if prevSep && code != "" {
		return fmt.Errorf("key ends with a separator")
	}
	p, err := Parse(Position{code}.String())
	if err != nil {
		return fmt.Errorf("key does not decode to a position: %w", err)
	}
	if p.code != code {
		return fmt.Errorf("key is not canonical: it decodes to %s", p)
	}
	return nil
}
