package format

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spots-dev/spots/outcome"
)

// ClaimKind says what a Claim asserts about its root.
type ClaimKind uint8

// The kinds of claim. The zero ClaimKind is not a kind: a Claim holding it
// is invalid.
const (
	ClaimLoss   ClaimKind = iota + 1 // Root + *N is a loss for the player to move
	ClaimWin                         // Root + *N is a win for the player to move
	ClaimGrundy                      // gn(Root) = N
	ClaimLemmas                      // every entry holds; nothing is said of Root
)

// Outcome returns the outcome a claim of kind k asserts of Root + *N:
// Win for ClaimWin, Loss for ClaimLoss, and Unknown for ClaimGrundy (which
// asserts a value; see Claim.RootOutcome) and for an invalid kind.
func (k ClaimKind) Outcome() outcome.Outcome {
	switch k {
	case ClaimWin:
		return outcome.Win
	case ClaimLoss:
		return outcome.Loss
	}
	return outcome.Unknown
}

// OutcomeKind returns the kind of claim that asserts o of Root + *N:
// ClaimWin for Win, ClaimLoss for Loss, and the zero ClaimKind, which is no
// kind, for Unknown or an invalid outcome. It is the inverse of
// ClaimKind.Outcome on Win and Loss.
func OutcomeKind(o outcome.Outcome) ClaimKind {
	switch o {
	case outcome.Win:
		return ClaimWin
	case outcome.Loss:
		return ClaimLoss
	}
	return 0
}

// A Claim is what a certificate proves about its root position.
//
// Its text form (String, ParseClaim) is one of
//
//	POS=L   POS=W         Root is a loss / win (heap 0)
//	POS+*N=L  POS+*N=W    Root + *N is a loss / win, N ≥ 1
//	gn(POS)=N             the Grundy value of Root is N
//	lemmas(POS)           every entry of the certificate is a true value
//
// A claim of lemmas says nothing of Root, which names the search whose
// proven values the certificate keeps (so that a later search of Root
// can draw on them), and has N = 0: a certificate of lemmas is valid when
// each of its entries is, its worth is its entries.
//
// where N is a decimal number without leading zeros that fits 32 bits.
// POS is any non-empty UTF-8 text without whitespace or control characters
// and without "+*" (which would make the heap ambiguous); it may hold '=',
// '(' and ')' since the text is split on its last '='.
type Claim struct {
	Root string    // the root position as text (the caller passes canonical text)
	Kind ClaimKind // Loss/Win: "Root + *N is a loss/win for the player to move"; Grundy: "gn(Root) = N"
	N    uint32
}

// heapMark separates the root from the heap in "POS+*N=W".
const heapMark = "+*"

// String returns the text form of c; for a valid claim ParseClaim gives c
// back. The heap is written only when N ≥ 1. An invalid Kind is written
// as "POS=?kind" so that String never fails; ParseClaim refuses it.
func (c Claim) String() string {
	switch c.Kind {
	case ClaimGrundy:
		return "gn(" + c.Root + ")=" + strconv.FormatUint(uint64(c.N), 10)
	case ClaimLemmas:
		if c.N == 0 {
			return lemmasPrefix + c.Root + ")"
		}
	case ClaimWin, ClaimLoss:
		out := c.Kind.Outcome().String()
		if c.N == 0 {
			return c.Root + "=" + out
		}
		return c.Root + heapMark + strconv.FormatUint(uint64(c.N), 10) + "=" + out
	}
	return fmt.Sprintf("%s=?%d", c.Root, c.Kind)
}

// RootOutcome returns what c says of Root alone, without a heap: its
// outcome and, when c determines it, its Grundy value (a new pointer on
// each call). gn(Root)=N says OfGrundy(N) and N; Root+*N=L says gn(Root) =
// N, so the same; Root=W says Win and no value; Root+*N=W with N ≥ 1 (the
// value is not N) and an invalid kind say Unknown and no value.
func (c Claim) RootOutcome() (outcome.Outcome, *uint32) {
	switch c.Kind {
	case ClaimGrundy, ClaimLoss:
		g := c.N
		return outcome.OfGrundy(g), &g
	case ClaimWin:
		if c.N == 0 {
			return outcome.Win, nil
		}
	}
	return outcome.Unknown, nil
}

// ParseClaim reads the text form of a claim (see Claim). It accepts
// "POS+*0=W" as "POS=W"; anything else that String would not write is an
// error naming the claim and what is wrong with it.
func ParseClaim(s string) (Claim, error) {
	c, reason := parseClaim(s)
	if reason != "" {
		return Claim{}, fmt.Errorf("claim %q: %s", cutString(s), reason)
	}
	return c, nil
}

// lemmasPrefix starts the text of a claim of lemmas, "lemmas(POS)".
const lemmasPrefix = "lemmas("

func parseClaim(s string) (Claim, string) {
	if root, ok := strings.CutPrefix(s, lemmasPrefix); ok && strings.HasSuffix(root, ")") {
		root = root[:len(root)-1]
		if reason := checkRoot(root); reason != "" {
			return Claim{}, reason
		}
		return Claim{Root: root, Kind: ClaimLemmas}, ""
	}
	eq := strings.LastIndexByte(s, '=')
	if eq < 0 {
		return Claim{}, `no "=": want POS=W, POS=L, POS+*N=W, POS+*N=L, gn(POS)=N or lemmas(POS)`
	}
	lhs, rhs := s[:eq], s[eq+1:]
	switch {
	case rhs == outcome.Win.String() || rhs == outcome.Loss.String():
		return parseOutcome(lhs, rhs)
	case strings.HasPrefix(lhs, "gn(") && strings.HasSuffix(lhs, ")") && len(lhs) >= len("gn()"):
		return parseGrundy(lhs[len("gn("):len(lhs)-1], rhs)
	}
	return Claim{}, "outcome must be W or L"
}

// parseOutcome reads a claim POS=W, POS=L, POS+*N=W or POS+*N=L split at
// its last '=' into lhs and out, "W" or "L".
func parseOutcome(lhs, out string) (Claim, string) {
	o, err := outcome.Parse(out)
	if err != nil || !o.Known() {
		return Claim{}, "outcome must be W or L"
	}
	c := Claim{Root: lhs, Kind: OutcomeKind(o)}
	if i := strings.LastIndex(lhs, heapMark); i >= 0 {
		n, reason := parseDecimal(lhs[i+len(heapMark):], "heap size")
		if reason != "" {
			return Claim{}, reason
		}
		c.Root, c.N = lhs[:i], n
	}
	if reason := checkRoot(c.Root); reason != "" {
		return Claim{}, reason
	}
	return c, ""
}

func parseGrundy(root, value string) (Claim, string) {
	n, reason := parseDecimal(value, "Grundy value")
	if reason != "" {
		return Claim{}, reason
	}
	if reason := checkRoot(root); reason != "" {
		return Claim{}, reason
	}
	return Claim{Root: root, Kind: ClaimGrundy, N: n}, ""
}

// parseDecimal reads a decimal uint32 without sign or leading zeros.
func parseDecimal(s, what string) (uint32, string) {
	switch {
	case s == "":
		return 0, what + " is missing"
	case strings.Trim(s, "0123456789") != "":
		return 0, fmt.Sprintf("%s %q is not a decimal number", what, cutString(s))
	case len(s) > 1 && s[0] == '0':
		return 0, fmt.Sprintf("%s %q has a leading zero", what, cutString(s))
	}
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return 0, fmt.Sprintf("%s %s does not fit 32 bits", what, cutString(s))
	}
	return uint32(n), ""
}

// checkRoot returns why root cannot be the root of a claim, or "".
func checkRoot(root string) string {
	if strings.Contains(root, heapMark) {
		return `the root must not contain "+*"`
	}
	if reason := checkToken(root); reason != "" {
		return "the root " + reason
	}
	return ""
}

// checkToken returns why s is not a non-empty UTF-8 text without
// whitespace or control characters, or "".
func checkToken(s string) string {
	if s == "" {
		return "is empty"
	}
	if reason := checkText(s); reason != "" {
		return reason
	}
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return fmt.Sprintf("has whitespace at byte %d", i)
	}
	return ""
}

// checkText returns why s is not UTF-8 text without control characters,
// or "".
func checkText(s string) string {
	if !utf8.ValidString(s) {
		return "is not valid UTF-8"
	}
	if i := strings.IndexFunc(s, unicode.IsControl); i >= 0 {
		return fmt.Sprintf("has a control character at byte %d", i)
	}
	return ""
}

// check returns why c is not a claim that String and ParseClaim carry
// unchanged, or nil.
func (c Claim) check() error {
	back, err := ParseClaim(c.String())
	if err != nil {
		return err
	}
	if back != c {
		return fmt.Errorf("claim %q does not read back as itself", cutString(c.String()))
	}
	return nil
}

// cutString shortens s for an error message.
func cutString(s string) string {
	if len(s) > 120 {
		return cut([]byte(s))
	}
	return s
}
