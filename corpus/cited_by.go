package corpus

import (
	"fmt"
	"slices"
)

// CitedBy returns the claims whose certificates, or lemma certificates,
// cite the certificate at address, in the order of the index and then of
// lemmas.csv (a lemma file as "lemmas(0*N) (its short address)"). A record from an index
// without the cites column is asked its certificate's header when the
// file is committed; one whose header cannot be read counts as citing it,
// for a certificate that cannot be read may not be relied on to cite
// nothing. Replacing or removing a certificate that something cites would
// leave that citation pointing outside the corpus.
func (c *Corpus) CitedBy(address string) []string {
	var out []string
	for _, r := range c.Records {
		if r.Address == address {
			continue
		}
		cites := r.Cites
		if !r.CitesRecorded && r.Committed {
			var err error
			if cites, err = headerCites(c.CertPath(r)); err != nil {
				out = append(out, r.Claim.String())
				continue
			}
		}
		if slices.Contains(cites, address) {
			out = append(out, r.Claim.String())
		}
	}
	for _, l := range c.Lemmas {
		if slices.Contains(l.Cites, address) {
			out = append(out, fmt.Sprintf("%s (%.12s)", l.Claim, l.Address))
		}
	}
	return out
}
