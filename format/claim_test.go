package format

import (
	"strings"
	"testing"

	"github.com/spots-dev/spots/outcome"
)

func TestParseClaim(t *testing.T) {
	tests := []struct {
		in   string
		want Claim
		out  string // String of the result, if not in
	}{
		{"0*12=L", Claim{"0*12", ClaimLoss, 0}, ""},
		{"0*12=W", Claim{"0*12", ClaimWin, 0}, ""},
		{"0*12+*3=W", Claim{"0*12", ClaimWin, 3}, ""},
		{"0*12+*1=L", Claim{"0*12", ClaimLoss, 1}, ""},
		{"0*12+*0=L", Claim{"0*12", ClaimLoss, 0}, "0*12=L"},
		{"gn(0*12)=2", Claim{"0*12", ClaimGrundy, 2}, ""},
		{"gn(0*12)=0", Claim{"0*12", ClaimGrundy, 0}, ""},
		{"gn(0*2)=4294967295", Claim{"0*2", ClaimGrundy, 4294967295}, ""},
		{"0*2+*4294967295=W", Claim{"0*2", ClaimWin, 4294967295}, ""},
		{"!=L", Claim{"!", ClaimLoss, 0}, ""},
		{"gn(!)=0", Claim{"!", ClaimGrundy, 0}, ""},
		{"0.AB|AB+1a1a=W", Claim{"0.AB|AB+1a1a", ClaimWin, 0}, ""},
		{"0.AB|AB+1a1a+*7=L", Claim{"0.AB|AB+1a1a", ClaimLoss, 7}, ""},
		{"m(13)n(2)=W", Claim{"m(13)n(2)", ClaimWin, 0}, ""},
		{"a=b=W", Claim{"a=b", ClaimWin, 0}, ""},                // split on the last '='
		{"gn(a)=W", Claim{"gn(a)", ClaimWin, 0}, ""},            // W/L decides the form
		{"gn(a)b)=3", Claim{"a)b", ClaimGrundy, 3}, ""},         // parentheses inside
		{"gn(gn(a)=1)=2", Claim{"gn(a)=1", ClaimGrundy, 2}, ""}, // '=' inside
		{"a+=W", Claim{"a+", ClaimWin, 0}, ""},                  // '+' alone is fine
		{"a++*2=W", Claim{"a+", ClaimWin, 2}, ""},               // last "+*"
		{"a*+*2=L", Claim{"a*", ClaimLoss, 2}, ""},              // '*' alone is fine
		{"é=W", Claim{"é", ClaimWin, 0}, ""},                    // UTF-8
		{"gn(0*3)=3", Claim{"0*3", ClaimGrundy, 3}, ""},
	}
	for _, tt := range tests {
		got, err := ParseClaim(tt.in)
		if err != nil {
			t.Errorf("ParseClaim(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParseClaim(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
		out := tt.out
		if out == "" {
			out = tt.in
		}
		if got.String() != out {
			t.Errorf("ParseClaim(%q).String() = %q, want %q", tt.in, got.String(), out)
		}
		if err := got.check(); err != nil {
			t.Errorf("ParseClaim(%q) gave a claim that does not check: %v", tt.in, err)
		}
	}
}

func TestParseClaimRejects(t *testing.T) {
	tests := []struct{ in, reason string }{
		{"", `no "="`},
		{"0*12", `no "="`},
		{"0*12=X", "outcome must be W or L"},
		{"0*12=w", "outcome must be W or L"},
		{"0*12=", "outcome must be W or L"},
		{"0*12=WL", "outcome must be W or L"},
		{"=W", "root is empty"},
		{"+*3=W", "root is empty"},
		{"gn()=3", "root is empty"},
		{"0*12+*=W", "heap size is missing"},
		{"0*12+*x=W", `heap size "x" is not a decimal`},
		{"0*12+*-1=W", `heap size "-1" is not a decimal`},
		{"0*12+*+1=W", `heap size "+1" is not a decimal`},
		{"0*12+*01=W", "leading zero"},
		{"0*12+*00=W", "leading zero"},
		{"0*12+*4294967296=W", "does not fit 32 bits"},
		{"0*12+*99999999999999999999=W", "does not fit 32 bits"},
		{"a+*b+*3=W", `must not contain "+*"`},
		{"gn(a+*b)=3", `must not contain "+*"`},
		{"gn(0*12)=X", `Grundy value "X" is not a decimal`},
		{"gn(0*12)=", "Grundy value is missing"},
		{"gn(0*12)=-1", "not a decimal"},
		{"gn(0*12)=01", "leading zero"},
		{"gn(0*12)=4294967296", "does not fit 32 bits"},
		{"gn(0*12=3", "outcome must be W or L"},
		{"0 *12=W", "whitespace at byte 1"},
		{"0*12\t=W", "control character at byte 4"},
		{"\u00a0=W", "whitespace"},
		{"0*12\x00=W", "control character at byte 4"},
		{"0*12\x7f=W", "control character"},
		{"0*12\u0085=W", "control character"},
		{"\xff=W", "not valid UTF-8"},
		{"gn(a b)=1", "whitespace"},
	}
	for _, tt := range tests {
		c, err := ParseClaim(tt.in)
		if err == nil {
			t.Errorf("ParseClaim(%q) = %+v, want an error", tt.in, c)
			continue
		}
		if !strings.Contains(err.Error(), tt.reason) || !strings.HasPrefix(err.Error(), "claim ") {
			t.Errorf("ParseClaim(%q): %v; want a claim error about %q", tt.in, err, tt.reason)
		}
	}
}

func TestClaimErrorNamesTheClaim(t *testing.T) {
	_, err := ParseClaim("0*12=X")
	if want := `claim "0*12=X": outcome must be W or L`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestClaimCheck(t *testing.T) {
	bad := []Claim{
		{},
		{Root: "0*2", Kind: 0},
		{Root: "0*2", Kind: 5},
		{Root: "0*2", Kind: ClaimLemmas, N: 1},
		{Root: "", Kind: ClaimWin},
		{Root: "a+*b", Kind: ClaimWin},
		{Root: "a+*5", Kind: ClaimWin},
		{Root: "0 2", Kind: ClaimGrundy},
	}
	for _, c := range bad {
		if err := c.check(); err == nil {
			t.Errorf("%+v (%q) checks", c, c.String())
		}
	}
	if s := (Claim{Root: "0", Kind: 9}).String(); s != "0=?9" {
		t.Errorf("invalid kind writes %q", s)
	}
}

// FuzzParseClaim checks that no input makes ParseClaim panic and that what
// it accepts is written back by String and read again to the same claim.
func FuzzParseClaim(f *testing.F) {
	for _, s := range []string{"0*12=L", "0*12+*3=W", "0*12+*0=L", "gn(0*12)=2", "gn(a)b)=3", "a=b=W", "gn(a)=W", "0*12=X", "\xff=W"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseClaim(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "claim ") {
				t.Fatalf("error %q does not name the claim", err)
			}
			return
		}
		back, err := ParseClaim(c.String())
		if err != nil || back != c {
			t.Fatalf("ParseClaim(%q) = %+v, written %q, read back %+v, %v", s, c, c.String(), back, err)
		}
		if c.String() != s && !strings.HasSuffix(s[:strings.LastIndexByte(s, '=')], "+*0") {
			t.Fatalf("ParseClaim(%q) writes back as %q", s, c.String())
		}
	})
}

func TestClaimOutcome(t *testing.T) {
	for _, tt := range []struct {
		kind ClaimKind
		out  outcome.Outcome
	}{{ClaimWin, outcome.Win}, {ClaimLoss, outcome.Loss}, {ClaimGrundy, outcome.Unknown}, {0, outcome.Unknown}, {9, outcome.Unknown}} {
		if got := tt.kind.Outcome(); got != tt.out {
			t.Errorf("ClaimKind(%d).Outcome() = %v, want %v", tt.kind, got, tt.out)
		}
		if tt.out.Known() && OutcomeKind(tt.out) != tt.kind {
			t.Errorf("OutcomeKind(%v) = %d, want %d", tt.out, OutcomeKind(tt.out), tt.kind)
		}
	}
	if k := OutcomeKind(outcome.Unknown); k != 0 {
		t.Errorf("OutcomeKind(Unknown) = %d, want no kind", k)
	}

	for _, tt := range []struct {
		claim string
		out   outcome.Outcome
		g     int // -1: no value
	}{
		{"0*12=L", outcome.Loss, 0},
		{"0*12=W", outcome.Win, -1},
		{"gn(0*9)=1", outcome.Win, 1},
		{"gn(0*6)=0", outcome.Loss, 0},
		{"0*3+*1=L", outcome.Win, 1},
		{"0*3+*2=W", outcome.Unknown, -1},
	} {
		c, err := ParseClaim(tt.claim)
		if err != nil {
			t.Fatal(err)
		}
		out, g := c.RootOutcome()
		if out != tt.out || (g == nil) != (tt.g < 0) || g != nil && int(*g) != tt.g {
			t.Errorf("%s: RootOutcome() = %v, %v; want %v, %d", tt.claim, out, g, tt.out, tt.g)
		}
	}
	if out, g := (Claim{Root: "0", Kind: 9}).RootOutcome(); out != outcome.Unknown || g != nil {
		t.Errorf("invalid kind: RootOutcome() = %v, %v", out, g)
	}
}
