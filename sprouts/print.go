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
	for i, code := 0, p.code; ; i++ {
		if i > 0 {
			sb.WriteByte('+')
		}
		land, rest, more := strings.Cut(code, string(rune(cLand)))
		writeLand(&sb, land)
		if !more {
			break
		}
		code = rest
	}
	return sb.String()
}

func writeLand(sb *strings.Builder, land string) {
	// Letters are named a…l and A…Y while they fit, m(k) and n(k) past that.
	longLow, longUp := false, false
	for i := 0; i < len(land); i++ {
		switch b := land[i]; {
		case b >= cLowerBase+12 && b < cLowerLong, b == cLowerLong:
			longLow = true
		case b >= cUpperBase+25 && b < cUpperLong, b == cUpperLong:
			longUp = true
		}
		if b := land[i]; b == cLowerLong || b == cUpperLong {
			i += 2 // continuation bytes, which would read as uppercase
		}
	}
	for ri, code := 0, land; ; ri++ {
		if ri > 0 {
			sb.WriteByte('|')
		}
		region, rest, more := strings.Cut(code, string(rune(cRegion)))
		writeRegion(sb, region, longLow, longUp)
		if !more {
			break
		}
		code = rest
	}
}

// writeRegion writes the boundaries of a region, a run of two or more
// spots without lines as 0*k.
func writeRegion(sb *strings.Builder, region string, longLow, longUp bool) {
	n := len(region)
	end := func(i int) int { // end of the boundary that starts at i
		if j := strings.IndexByte(region[i:], cBoundary); j >= 0 {
			return i + j
		}
		return n
	}
	for i := 0; i <= n; {
		if i > 0 {
			sb.WriteByte('.')
		}
		e := end(i)
		if e-i == 1 && region[i] == cSpot0 {
			run := 1
			for j := e + 1; j < n; j = e + 1 {
				e2 := end(j)
				if e2-j != 1 || region[j] != cSpot0 {
					break
				}
				run, e = run+1, e2
			}
			if run >= 2 {
				sb.WriteString("0*")
				sb.WriteString(strconv.Itoa(run))
				i = e + 1
				continue
			}
		}
		writeBoundary(sb, region[i:e], longLow, longUp)
		i = e + 1
	}
}

func writeBoundary(sb *strings.Builder, b string, longLow, longUp bool) {
	for i := 0; i < len(b); {
		if c := b[i]; !longLow && !longUp && c != cLowerLong && c != cUpperLong {
			switch {
			case c >= cUpperBase:
				sb.WriteByte('A' + c - cUpperBase)
			case c >= cLowerBase:
				sb.WriteByte('a' + c - cLowerBase)
			default:
				sb.WriteByte('0' + c - cSpot0)
			}
			i++
			continue
		}
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
