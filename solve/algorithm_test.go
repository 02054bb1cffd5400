package solve

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestParseAlgorithm: every name String writes reads back as its
// algorithm, and any other text, near misses included, is an error that
// quotes it and lists the names there are.
func TestParseAlgorithm(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Algorithm
		wantErr bool
	}{
		{in: "dfpn", want: SearchDFPN},
		{in: "pdfpn", want: SearchPDFPN},
		{in: "pns", want: SearchPNS},
		{in: "swarm", want: SearchSwarm},
		{in: "", wantErr: true},
		{in: "DFPN", wantErr: true},
		{in: " dfpn", wantErr: true},
		{in: "dfpn\x00", wantErr: true},
		{in: "mcts", wantErr: true},
		{in: "pns-pdfpn", wantErr: true}, // spots-solve's alias of swarm, not a name
		{in: "Algorithm(0)", wantErr: true},
	} {
		got, err := ParseAlgorithm(tc.in)
		if tc.wantErr {
			if err == nil {
				t.Errorf("ParseAlgorithm(%q) = %v, want an error", tc.in, got)
				continue
			}
			msg := err.Error()
			if !strings.Contains(msg, fmt.Sprintf("%q", tc.in)) ||
				!strings.Contains(msg, "pdfpn, dfpn, pns or swarm") {
				t.Errorf("ParseAlgorithm(%q): %q neither names the input nor lists the names", tc.in, msg)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseAlgorithm(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if got.String() != tc.in {
			t.Errorf("ParseAlgorithm(%q).String() = %q", tc.in, got.String())
		}
	}
}

// TestAlgorithmText: JSON holds an algorithm by its name, the same
// spelling as before the type existed; an unknown name read is an error,
// and an Algorithm that names none is never written.
func TestAlgorithmText(t *testing.T) {
	type doc struct {
		Algorithm Algorithm `json:"algorithm"`
	}
	for _, a := range []Algorithm{SearchDFPN, SearchPDFPN, SearchPNS, SearchSwarm} {
		b, err := json.Marshal(doc{a})
		if err != nil || string(b) != `{"algorithm":"`+a.String()+`"}` {
			t.Errorf("%v: %s, %v", a, b, err)
		}
		var back doc
		if err := json.Unmarshal(b, &back); err != nil || back.Algorithm != a {
			t.Errorf("%s read back as %v, %v", b, back.Algorithm, err)
		}
	}
	for _, bad := range []string{`{"algorithm":"mcts"}`, `{"algorithm":""}`, `{"algorithm":"Algorithm(9)"}`} {
		var d doc
		if err := json.Unmarshal([]byte(bad), &d); err == nil {
			t.Errorf("%s read as %v, want an error", bad, d.Algorithm)
		}
	}
	for _, a := range []Algorithm{0, SearchSwarm + 1, 255} {
		if a.Valid() {
			t.Errorf("%v is valid", a)
		}
		if _, err := ParseAlgorithm(a.String()); err == nil {
			t.Errorf("%v reads back", a)
		}
		if b, err := json.Marshal(doc{a}); err == nil {
			t.Errorf("%d written as %s", uint8(a), b)
		}
	}
}
