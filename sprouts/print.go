package sprouts

import (
	"strconv"
	"strings"
)

// String writes p in the notation of the reference solver (SPOTS, GLOP):
// lands joined by '+', regions by '|', boundaries by '.', runs of spots
// without lines as 0*k, and "!" for the empty position. Lowercase letters
// are a…l, or m(k) for every lowercase letter of a land once one of them is
// past l; uppercase letters are A…Y, or n(k) likewise. The reference parses
// every string String returns, and Parse(p.String()) == p.
func (p Position) String() string {
	if p.code == "" {
		return "!"
	}
	var sb strings.Builder
	sb.Grow(len(p.code) + len(p.code)/4)
	for i, land := range strings.Split(p.code, string(rune(cLand))) {
		if i > 0 {
			sb.WriteByte('+')
		}
		writeLand(&sb, land)
	}
	return sb.String()
}

func writeLand(sb *strings.Builder, land string) {
	maxLow, maxUp := -1, -1
	for i := 0; i < len(land); {
		if land[i] <= cLand {
			i++
			continue
		}
		kind, k, next := readSymbol(land, i)
		if kind == kLower {
			maxLow = max(maxLow, k)
		} else if kind == kUpper {
			maxUp = max(maxUp, k)
		}
		i = next
	}
	longLow, longUp := maxLow >= 12, maxUp >= 25
	for ri, region := range strings.Split(land, string(rune(cRegion))) {
		if ri > 0 {
			sb.WriteByte('|')
		}
		bounds := strings.Split(region, string(rune(cBoundary)))
		for bi := 0; bi < len(bounds); {
			if bi > 0 {
				sb.WriteByte('.')
			}
			run := 0
			for bi+run < len(bounds) && bounds[bi+run] == string(rune(cSpot0)) {
				run++
			}
			if run >= 2 {
				sb.WriteString("0*")
				sb.WriteString(strconv.Itoa(run))
				bi += run
				continue
			}
			writeBoundary(sb, bounds[bi], longLow, longUp)
			bi++
		}
	}
}

func writeBoundary(sb *strings.Builder, b string, longLow, longUp bool) {
	for i := 0; i < len(b); {
		kind, k, next := readSymbol(b, i)
		i = next
		switch kind {
		case kSpot0:
			sb.WriteByte('0')
		case kSpot1:
			sb.WriteByte('1')
		case kSpot2:
			sb.WriteByte('2')
		case kLower:
			writeLetter(sb, k, longLow, 'a', 'm')
		case kUpper:
			writeLetter(sb, k, longUp, 'A', 'n')
		}
	}
}

func writeLetter(sb *strings.Builder, k int, long bool, first, longName byte) {
	if !long {
		sb.WriteByte(first + byte(k))
		return
	}
	sb.WriteByte(longName)
	sb.WriteByte('(')
	sb.WriteString(strconv.Itoa(k + 1))
	sb.WriteByte(')')
}
