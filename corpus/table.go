package corpus

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spots-dev/spots/format"
)

// The status of a certificate in the table.
const (
	StatusVerified     = "verified"      // committed, and verified by the Check the table was built from
	StatusFailed       = "FAILED"        // committed, and that Check found it missing, invalid or not as listed
	StatusUnchecked    = "unchecked"     // committed, and no Check was given
	StatusNotCommitted = "not committed" // listed in the index only (verified by spots-corpus add when it was made)
)

// The status of a certificate in spots-corpus check's report, besides
// StatusVerified and StatusFailed.
const (
	StatusElsewhere = "verified (kept elsewhere)" // not committed, found in a directory of CheckOptions.Elsewhere and verified
	StatusMissing   = "missing"                   // not committed, and in none of those directories
	StatusFound     = "found, not verified"       // committed, left out of the sample: present with its size, not read
)

// The verification-speed target: a certificate of 0*n, n ≥ VerifyTargetN,
// should verify in at most VerifyTarget times the time its search took
// (both as index.csv records them). For a certificate that cites others,
// both sides are of the whole proof: its check checks what it cites, and
// the searches of those count with its own (Record.ProofSolveSeconds).
// OUTCOMES.md flags those that do not.
const (
	VerifyTarget  = 0.05
	VerifyTargetN = 14
)

// IndependentTarget is the speed target of the independent check
// (spots-verify --independent, on every core): a certificate of 0*n, n ≥
// VerifyTargetN, should pass it in at most this share of the time its
// search took (independent_seconds and solve_seconds in index.csv).
const IndependentTarget = 0.20

// ProofSolveSeconds is what the certificate's whole proof took to make:
// its search and those of the certificates it relies on.
func (r Record) ProofSolveSeconds() float64 { return r.SolveSeconds + r.CitedSolveSeconds }

// VerifyRatio returns the certificate's verify time over the solve time of
// its proof (ProofSolveSeconds), and false when that is 0 (too short to
// measure).
func (r Record) VerifyRatio() (float64, bool) {
	if r.ProofSolveSeconds() <= 0 {
		return 0, false
	}
	return r.VerifySeconds / r.ProofSolveSeconds(), true
}

// OverTarget reports whether the certificate is held to the
// verification-speed target and misses it.
func (r Record) OverTarget() bool {
	q, ok := r.VerifyRatio()
	return ok && r.N >= VerifyTargetN && q > VerifyTarget
}

// ratio writes the verify/solve ratio for the tables, marked ⚠ when over
// the target.
func ratio(r Record) string {
	q, ok := r.VerifyRatio()
	if !ok {
		return "–"
	}
	s := strconv.FormatFloat(100*q, 'f', 1, 64) + " %"
	if r.OverTarget() {
		s += " ⚠"
	}
	return s
}

// Cert is a certificate as the table shows it.
type Cert struct {
	Record
	Status string // one of the Status constants
}

// Row is what is known of 0*N: one row of OUTCOMES.md and of spots-corpus
// status.
type Row struct {
	N     int
	Known *Known // the literature's row; nil when the table has none for N
	// Outcome is the outcome our verified certificates prove, or else the
	// literature's (Unknown for an open case).
	Outcome Outcome
	// Grundy is the Grundy value of 0*N when known: proved by a verified
	// certificate of ours, or 0 for an outcome L (a loss for the player to
	// move is the Grundy value 0). Nil otherwise.
	Grundy *uint32
	// ConjectureOutcome and ConjectureGrundy are what the Sprouts
	// conjecture predicts (see Conjecture).
	ConjectureOutcome Outcome
	ConjectureGrundy  uint32
	Certificates      []Cert // ours, in index order
}

// Certified reports whether a verified certificate of ours proves the
// row's outcome.
func (r Row) Certified() bool {
	for _, c := range r.Certificates {
		if c.Status == StatusVerified {
			return true
		}
	}
	return false
}

// Table returns one row per n that the literature or the index knows, in
// increasing order of n. The statuses of committed certificates come from
// rep (StatusUnchecked for all of them when rep is nil); only verified
// certificates contribute outcomes and Grundy values.
func (c *Corpus) Table(rep *Report) []Row {
	maxN := 0
	for _, k := range c.Literature {
		maxN = max(maxN, k.N)
	}
	for _, r := range c.Records {
		maxN = max(maxN, r.N)
	}
	byN := map[int][]Record{}
	for _, r := range c.Records {
		byN[r.N] = append(byN[r.N], r)
	}
	var rows []Row
	for n := 1; n <= maxN; n++ {
		k, known := c.Known(n)
		recs := byN[n]
		if !known && len(recs) == 0 {
			continue
		}
		row := Row{N: n}
		row.ConjectureOutcome, row.ConjectureGrundy = Conjecture(n)
		if known {
			row.Known = &k
			row.Outcome = k.Outcome
		}
		for _, r := range recs {
			cert := Cert{Record: r, Status: StatusNotCommitted}
			switch {
			case !r.Committed:
			case rep == nil:
				cert.Status = StatusUnchecked
			case rep.Verified(r.Address):
				cert.Status = StatusVerified
				out, g, err := ClaimOutcome(r.Claim)
				if err == nil {
					row.Outcome = out
					if g != nil {
						row.Grundy = g
					}
				}
			default:
				cert.Status = StatusFailed
			}
			row.Certificates = append(row.Certificates, cert)
		}
		if row.Outcome == Loss && row.Grundy == nil {
			zero := uint32(0)
			row.Grundy = &zero
		}
		rows = append(rows, row)
	}
	return rows
}

// WriteMarkdown writes OUTCOMES.md: an introduction, the table of n, the
// list of certificates and the plot. It uses only what rows hold, so equal
// rows give equal bytes.
func WriteMarkdown(w io.Writer, rows []Row) error {
	var b strings.Builder
	var solved, open, grundy, committed, verified, listed int
	var certN []int
	var targeted int  // certificates held to the verification-speed target
	var over []string // those that miss it
	for _, r := range rows {
		if r.Known != nil && !r.Known.Open() {
			solved++
		}
		if r.Known != nil && r.Known.Open() {
			open++
		}
		if r.Certified() {
			certN = append(certN, r.N)
		}
		for _, c := range r.Certificates {
			listed++
			if _, ok := c.VerifyRatio(); ok && c.N >= VerifyTargetN {
				targeted++
				if c.OverTarget() {
					over = append(over, "`"+c.Claim.String()+"` ("+strings.TrimSuffix(ratio(c.Record), " ⚠")+")")
				}
			}
			if c.Committed {
				committed++
			}
			if c.Status == StatusVerified {
				verified++
				if c.Claim.Kind == format.ClaimGrundy {
					grundy++
				}
			}
		}
	}
	b.WriteString("# Known outcomes of n-spot Sprouts\n\n")
	b.WriteString("<!-- Generated by `spots-corpus regenerate` from literature.csv and index.csv: do not edit. -->\n\n")
	fmt.Fprintf(&b, "The literature table (literature.csv) settles %d of the %d starting positions 0*n it lists", solved, solved+open)
	if open > 0 {
		fmt.Fprintf(&b, "; %d are open", open)
	}
	b.WriteString(".\n")
	fmt.Fprintf(&b, "The corpus holds %d certificates of ours: %d committed here, of which %d were verified when this file was generated", listed, committed, verified)
	if listed > committed {
		fmt.Fprintf(&b, ", and %d listed but kept elsewhere (not committed)", listed-committed)
	}
	fmt.Fprintf(&b, ". The verified ones prove the outcome of %s, and %d of them a Grundy value (gn claims; an outcome L already proves the value 0).\n\n", spans(certN), grundy)
	fmt.Fprintf(&b, "Verification speed: a certificate of 0*%d and up should verify in at most %g %% of the time its search took. ", VerifyTargetN, 100*VerifyTarget)
	fmt.Fprintf(&b, "%d of the %d listed here meet that", targeted-len(over), targeted)
	if len(over) > 0 {
		fmt.Fprintf(&b, "; ⚠ marks the %d that do not: %s", len(over), strings.Join(over, ", "))
	}
	b.WriteString(".\n\n")
	b.WriteString("*outcome*: W when the first player wins, L when the second player does, ? when open. ")
	b.WriteString("*Grundy*: 0 for every L (a loss for the player to move is the value 0); for a W only where a certificate here proves it. ")
	b.WriteString("*conjecture*: what the Sprouts conjecture predicts (W exactly when n mod 6 is 3, 4 or 5). ")
	b.WriteString("*paper proof*: the size of the published proof in Grundy numbers. ")
	b.WriteString("*entries*, *bytes*, *solve*, *verify*: our certificate's entries (Grundy numbers, comparable with the paper's proof size), its file's size, and the seconds its search and its check took, recorded in index.csv when it was added. ")
	fmt.Fprintf(&b, "*verify/solve*: the check's time as a share of the search's, ⚠ when over %g %% for 0*%d and up.\n\n", 100*VerifyTarget, VerifyTargetN)

	b.WriteString("| n | outcome | Grundy | conjecture | first solved by | year | paper proof | certificate | status | entries | bytes | solve | verify | verify/solve |\n")
	b.WriteString("|---:|:---:|:---:|:---:|---|---|---:|---|---|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		who, year, paper := "", "", ""
		if r.Known != nil {
			who, year = r.Known.Solver()
			if r.Known.Open() {
				who = "*open*"
			}
			paper = r.Known.ProofSize
		}
		g := ""
		if r.Grundy != nil {
			g = strconv.FormatUint(uint64(*r.Grundy), 10)
		}
		var certs, status, entries, sizes, solve, verify, ratios []string
		for _, c := range r.Certificates {
			link := "`" + c.ShortAddress() + "`"
			if c.Committed {
				link = "[`" + c.ShortAddress() + "`](" + CertsDir + "/" + c.FileName() + ")"
			}
			certs = append(certs, "`"+c.Claim.String()+"` "+link)
			status = append(status, c.Status)
			entries = append(entries, strconv.Itoa(c.Entries))
			sizes = append(sizes, SizeText(c.Bytes))
			solve = append(solve, duration(c.SolveSeconds))
			verify = append(verify, duration(c.VerifySeconds))
			ratios = append(ratios, ratio(c.Record))
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.N, r.Outcome.Mark(), g, r.ConjectureOutcome.Mark(), cell(who), cell(year), paper,
			strings.Join(certs, "<br>"), strings.Join(status, "<br>"), strings.Join(entries, "<br>"),
			strings.Join(sizes, "<br>"), strings.Join(solve, "<br>"), strings.Join(verify, "<br>"), strings.Join(ratios, "<br>"))
	}

	b.WriteString("\n## Certificates\n\n")
	b.WriteString("Each committed certificate is `certs/<address>.arrow`, named by its content address; ")
	b.WriteString("check one with `spots-verify FILE`, all of them with `spots-corpus check`. ")
	fmt.Fprintf(&b, "Those not committed (over %s, or kept out of the repository by choice) are kept elsewhere: the command makes them again, at the same address, and `spots-corpus check --dir DIR` verifies those in DIR (see README.md).\n\n", SizeText(MaxCertBytes))
	claimOf := map[string]string{}
	citing := 0
	for _, r := range rows {
		for _, c := range r.Certificates {
			claimOf[c.Address] = c.Claim.String()
			if len(c.Cites) > 0 {
				citing++
			}
		}
	}
	if citing > 0 {
		if citing == 1 {
			b.WriteString("One of them cites others")
		} else {
			fmt.Fprintf(&b, "%d of them cite others", citing)
		}
		b.WriteString(" by content address (\"cites N\" after the claim, with the claims those prove), relying on their entries without repeating them: such a certificate is valid only with those it cites, each a certificate of this corpus, which `spots-corpus check` verifies once however many cite it; `spots-verify --bundle DIR` copies one with all it relies on, `--inline DIR` makes it self-contained.\n\n")
	}
	b.WriteString("*iterations*: the search's, over all its runs (blank where not recorded). *verify* and *independent*: the check's time by `spots-verify` and by `spots-verify --independent` (blank where not measured); for a certificate that cites others, its own share once what it relies on is checked.\n\n")
	b.WriteString("| claim | address | entries | size | algorithm | iterations | solve | verify | independent | verify/solve | added | producer | machine | status | command |\n")
	b.WriteString("|---|---|---:|---:|---|---:|---:|---:|---:|---:|---|---|---|---|---|\n")
	for _, r := range rows {
		for _, c := range r.Certificates {
			addr := "`" + c.Address + "`"
			if c.Committed {
				addr = "[`" + c.Address + "`](" + CertsDir + "/" + c.FileName() + ")"
			}
			fmt.Fprintf(&b, "| `%s`%s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | `%s` |\n",
				c.Claim, citesText(c.Record, claimOf), addr, c.Entries, SizeText(c.Bytes), c.Algorithm, iterationsText(c.Iterations),
				duration(c.SolveSeconds), duration(c.VerifySeconds), independentText(c.IndependentSeconds), ratio(c.Record),
				cell(c.Added), cell(c.Producer), cell(c.Machine), c.Status, strings.ReplaceAll(c.Command, "|", `\|`))
		}
	}
	fmt.Fprintf(&b, "\n## Plot\n\n![proof size against n beside the published proof sizes, certificate bytes, solve and verify times](%s)\n", PlotFile)
	_, err := io.WriteString(w, b.String())
	return err
}

// citesText writes what a certificate cites for the table: "" for none,
// else " cites N: " and the claims they prove (claimOf, by address; the
// short address of one the corpus does not list).
func citesText(r Record, claimOf map[string]string) string {
	if len(r.Cites) == 0 {
		return ""
	}
	var claims []string
	for _, a := range r.Cites {
		if claim, ok := claimOf[a]; ok {
			claims = append(claims, "`"+claim+"`")
		} else {
			claims = append(claims, "`"+a[:min(12, len(a))]+"`")
		}
	}
	return fmt.Sprintf(" cites %d: %s", len(r.Cites), strings.Join(claims, ", "))
}

// iterationsText writes a search's iterations for the table, blank when
// the index does not record them.
func iterationsText(n uint64) string {
	if n == 0 {
		return ""
	}
	return strconv.FormatUint(n, 10)
}

// independentText writes the independent check's time for the table,
// blank when it was not measured.
func independentText(s float64) string {
	if s <= 0 {
		return ""
	}
	return duration(s)
}

// cell makes text safe in a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// duration writes seconds for the table: two decimals below 10 s, one
// below 1000 s, none above.
func duration(s float64) string {
	switch {
	case s < 10:
		return strconv.FormatFloat(s, 'f', 2, 64) + " s"
	case s < 1000:
		return strconv.FormatFloat(s, 'f', 1, 64) + " s"
	}
	return strconv.FormatFloat(s, 'f', 0, 64) + " s"
}

// SizeText writes a file size in bytes, KB or MB (powers of 1000), as the
// corpus's tables and messages do.
func SizeText(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1000_000:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + " KB"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
}

// spans writes increasing numbers of spots as ranges: "0*1 … 0*14, 0*16, 0*17, 0*22".
func spans(ns []int) string {
	if len(ns) == 0 {
		return "none"
	}
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		switch j {
		case i:
			parts = append(parts, "0*"+strconv.Itoa(ns[i]))
		case i + 1:
			parts = append(parts, "0*"+strconv.Itoa(ns[i]), "0*"+strconv.Itoa(ns[j]))
		default:
			parts = append(parts, "0*"+strconv.Itoa(ns[i])+" … 0*"+strconv.Itoa(ns[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
