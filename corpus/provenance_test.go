package corpus

import (
	"testing"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/buildinfo"
)

// TestProvenance: every committed certificate says when it was made and by
// which version (not the zero time, not "dev" or "(devel)", which a build
// without a recorded revision writes), and index.csv and cram.csv record
// that version. The provenance is outside the content address, so a
// certificate that lacks it can be given it without a new address.
func TestProvenance(t *testing.T) {
	c, err := Open(".")
	if err != nil {
		t.Fatal(err)
	}
	check := func(claim, path, indexed string) {
		r, err := format.OpenCertificate(path)
		if err != nil {
			t.Error(err)
			return
		}
		defer r.Close()
		h := r.Header()
		if !buildinfo.Named(h.Version) {
			t.Errorf("%s (%s): version %q names no revision: write certificates with a build of make build (bin/), which stamps the version; for one already committed, go run ./corpus/restamp", claim, path, h.Version)
		}
		if h.Created.IsZero() {
			t.Errorf("%s (%s): no creation time (%v): go run ./corpus/restamp", claim, path, h.Created)
		}
		if want := h.Producer + " " + h.Version; indexed != want {
			t.Errorf("%s (%s): the index records producer %q, the certificate %q", claim, path, indexed, want)
		}
	}
	n := 0
	for _, r := range c.Records {
		if r.Committed {
			check(r.Claim.String(), c.CertPath(r), r.Producer)
			n++
		}
	}
	for _, r := range cramRecords(c) {
		check(r.Claim.String(), c.GamePath("cram", r), r.Producer)
		n++
	}
	if n == 0 {
		t.Fatal("no committed certificate")
	}
}
