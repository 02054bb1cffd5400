package solve

import (
	"fmt"
	"strings"
)

// Algorithm names a search: what a command's --algorithm chooses, what a
// checkpoint and the corpus's indexes record. Its names (String) are the
// spellings written in flags, files and JSON, which never change: a saved
// checkpoint or an index written by an older build reads the same.
//
// The zero Algorithm names none: a value left unset is an error where it
// is used, never a search chosen in its stead.
type Algorithm uint8

const (
	// SearchDFPN is the depth-first proof-number search (DFPN with one
	// thread), in memory bounded by its table: deterministic.
	SearchDFPN Algorithm = iota + 1
	// SearchPDFPN is DFPN on several threads sharing one table (DFPN with
	// Options.Threads ≥ 2).
	SearchPDFPN
	// SearchPNS is the proof-number search over the whole DAG it keeps
	// (PNS).
	SearchPNS
	// SearchSwarm is the distributed search of package swarm: a master
	// handing jobs of PDFPN to worker processes. This package does not run
	// it; a program runs it through package swarm.
	SearchSwarm
)

// algorithmNames are the names of the algorithms, in the order a list of
// them is written: the parallel search first, as commands default to it
// on a machine of several cores.
var algorithmNames = [...]struct {
	a    Algorithm
	name string
}{
	{SearchPDFPN, "pdfpn"},
	{SearchDFPN, "dfpn"},
	{SearchPNS, "pns"},
	{SearchSwarm, "swarm"},
}

// AlgorithmNames returns the names ParseAlgorithm accepts, joined as a
// list for a message: "pdfpn, dfpn, pns or swarm".
func AlgorithmNames() string {
	names := make([]string, len(algorithmNames))
	for i, n := range algorithmNames {
		names[i] = n.name
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// ParseAlgorithm returns the algorithm named name ("pdfpn", "dfpn", "pns"
// or "swarm", exactly as String writes them). Any other name is an error
// that quotes it and lists the names there are.
func ParseAlgorithm(name string) (Algorithm, error) {
	for _, n := range algorithmNames {
		if n.name == name {
			return n.a, nil
		}
	}
	return 0, fmt.Errorf("unknown algorithm %q (want %s)", name, AlgorithmNames())
}

// String returns the algorithm's name, as ParseAlgorithm reads it; an
// Algorithm that names none (the zero value, or a number past the last)
// is written "Algorithm(N)", which ParseAlgorithm refuses.
func (a Algorithm) String() string {
	for _, n := range algorithmNames {
		if n.a == a {
			return n.name
		}
	}
	return fmt.Sprintf("Algorithm(%d)", uint8(a))
}

// Valid reports whether a names an algorithm.
func (a Algorithm) Valid() bool {
	for _, n := range algorithmNames {
		if n.a == a {
			return true
		}
	}
	return false
}

// MarshalText writes the algorithm's name, so that JSON and other text
// formats hold the same spelling as flags; an Algorithm that names none
// is an error, never written.
func (a Algorithm) MarshalText() ([]byte, error) {
	if !a.Valid() {
		return nil, fmt.Errorf("algorithm %d names no search", uint8(a))
	}
	return []byte(a.String()), nil
}

// UnmarshalText reads a name as ParseAlgorithm does: an unknown one is an
// error.
func (a *Algorithm) UnmarshalText(text []byte) error {
	v, err := ParseAlgorithm(string(text))
	if err != nil {
		return err
	}
	*a = v
	return nil
}
