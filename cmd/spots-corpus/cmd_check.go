package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/verify"
)

func checkFlags(f *pflag.FlagSet, o *options) {
	f.BoolVar(&o.json, "json", false, "print the report as one JSON object")
	f.BoolVar(&o.sample, "sample", false, fmt.Sprintf("verify only the committed certificates of 0*1 … 0*%d and those changed since the last git tag (since HEAD when there is no tag); only find the others", corpus.SampleMaxN))
	f.DurationVar(&o.budget, "budget", 0, "as --sample when the verify times index.csv records for the committed certificates add up to more than `D` (e.g. 90s; 0: never), and, in what is left of D, certificates in turn from a place the git commit picks")
	f.BoolVar(&o.independent, "independent", false, "verify the Sprouts certificates with the second, independent implementation of the rules (spots-verify --independent); the certificates of the other games are then only found")
	f.BoolVar(&o.noCache, "no-cache", false, "verify everything again: neither use nor keep the verdicts this build of the checker remembers (spots-verify --no-cache)")
}

// limits is the size rule the commands apply (the zero value: the
// defaults of package corpus); tests make it small.
var limits corpus.Limits

// check verifies the corpus (with --no-verify: checks it without
// verifying the certificates), showing progress. opt gives the rest of
// the options (its NoVerify, Limits and Progress are set here).
func (e *env) check(c *corpus.Corpus, opt corpus.CheckOptions) *corpus.Report {
	opt.NoVerify, opt.Limits = e.opt.noVerify, limits
	if e.prog != nil {
		what := "verifying"
		if opt.NoVerify {
			what = "finding"
		}
		opt.Progress = func(i, total int, r corpus.Record) {
			e.prog.Report(false, what, checkProgress{i, total, r.Claim.String()}, fmt.Sprintf("%s %d of %d: %s", what, i, total, r.Claim))
		}
		if e.opt.progress == statusline.Text && !opt.NoVerify {
			// A line a certificate verified, kept: interrupted, the run
			// shows what it had checked. One only found (status, or left
			// out of a sample) says nothing worth a line.
			opt.Checked = func(done, total int, cc corpus.CertCheck) {
				if cc.Trusted && cc.Err == nil {
					return
				}
				e.prog.Clear()
				fmt.Fprintf(e.stderr, "spots-corpus: %d of %d: %s %s (%.2f s)\n", done, total, cc.Record.Claim, checkedWord(cc), cc.Elapsed.Seconds())
			}
		}
	}
	rep := c.Check(opt)
	e.prog.Clear()
	return rep
}

// checkedWord says how a certificate's check ended, in a word or two.
func checkedWord(cc corpus.CertCheck) string {
	switch {
	case cc.Err != nil:
		return "FAILED"
	case cc.Trusted:
		return "found"
	}
	return "verified"
}

// checkProgress are the figures of check's progress in --progress json.
type checkProgress struct {
	Certificate int    `json:"certificate"` // the number of the certificate begun, from 1
	Of          int    `json:"of"`          // the certificates
	Claim       string `json:"claim"`
}

func printProblems(w io.Writer, rep *corpus.Report) {
	for _, p := range rep.Problems {
		fmt.Fprintf(w, "PROBLEM   %s\n", p)
	}
	for _, p := range rep.Notes {
		fmt.Fprintf(w, "note      %s\n", p)
	}
}

type certJSON struct {
	N             int     `json:"n"`
	Claim         string  `json:"claim"`
	Address       string  `json:"address"`
	Entries       int     `json:"entries"`
	Bytes         int64   `json:"bytes"`
	Algorithm     string  `json:"algorithm"`
	SolveSeconds  float64 `json:"solve_seconds"`
	VerifySeconds float64 `json:"verify_seconds"`
	Added         string  `json:"added,omitempty"`
	Committed     bool    `json:"committed"`
	Command       string  `json:"command,omitempty"`
	Iterations    uint64  `json:"iterations,omitempty"` // of the search, when index.csv records them
	// Cites are the addresses of the certificates it cites (index.csv's
	// cites; in check's report, the certificate's own when verified), and
	// Cited the number it relies on, directly or not, as check verified
	// them.
	Cites   []string `json:"cites,omitempty"`
	Cited   int      `json:"cited,omitempty"`
	Status  string   `json:"status,omitempty"`
	Path    string   `json:"path,omitempty"`
	Seconds float64  `json:"seconds,omitempty"` // this check's time
	Error   string   `json:"error,omitempty"`
}

type problemJSON struct {
	N    int    `json:"n,omitempty"`
	File string `json:"path,omitempty"` // the file at fault
	What string `json:"what"`
}

type checkJSON struct {
	Dir          string        `json:"dir"`
	OK           bool          `json:"ok"`
	Sample       string        `json:"sample,omitempty"` // what --sample verified, when it sampled
	Bytes        int64         `json:"bytes"`            // the size of the corpus directory
	Certificates []certJSON    `json:"certificates"`
	Elsewhere    []certJSON    `json:"elsewhere,omitempty"` // with --dir DIR of certificates kept elsewhere
	Games        []gameJSON    `json:"-"`                   // each game table's certificates, under the game's name
	Problems     []problemJSON `json:"problems"`
	Notes        []problemJSON `json:"notes"`
}

// gameJSON is the certificates of one game's table in check's JSON: a
// key named by the game before "problems", holding a list (empty when the
// corpus has no table of the game), for every registered game but the
// default one.
type gameJSON struct {
	name  string
	certs []gameCertJSON
}

// MarshalJSON writes c with one key per game table (gameJSON) after
// "elsewhere".
func (c checkJSON) MarshalJSON() ([]byte, error) {
	type plain checkJSON // without this method
	b, err := json.Marshal(plain(c))
	if err != nil {
		return nil, err
	}
	var games bytes.Buffer
	for _, g := range c.Games {
		certs, err := json.Marshal(g.certs)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&games, "%q:%s,", g.name, certs)
	}
	i := bytes.LastIndex(b, []byte(`"problems":`))
	return slices.Concat(b[:i], games.Bytes(), b[i:]), nil
}

// gameCertJSON is a certificate of a game's table in check's JSON; its
// position's key is the game's noun ("board").
type gameCertJSON struct {
	noun     string
	Position string  `json:"-"`
	Claim    string  `json:"claim"`
	Address  string  `json:"address"`
	Path     string  `json:"path"`
	Seconds  float64 `json:"seconds"`
	Status   string  `json:"status"` // as certJSON's: verified, found (not in the sample) or FAILED
	Error    string  `json:"error,omitempty"`
}

// MarshalJSON writes j with the position first, under the game's noun.
func (j gameCertJSON) MarshalJSON() ([]byte, error) {
	type plain gameCertJSON
	b, err := json.Marshal(plain(j))
	if err != nil {
		return nil, err
	}
	pos, err := json.Marshal(j.Position)
	if err != nil {
		return nil, err
	}
	return slices.Concat([]byte(fmt.Sprintf("{%q:", j.noun)), pos, []byte(","), b[1:]), nil
}

// gameStatus returns the status of a certificate of a game's table in
// check's report.
func gameStatus(cc corpus.GameCheck) string {
	switch {
	case cc.Err != nil:
		return corpus.StatusFailed
	case cc.Trusted:
		return corpus.StatusFound
	}
	return corpus.StatusVerified
}

func recordJSON(r corpus.Record) certJSON {
	return certJSON{N: r.N, Claim: r.Claim.String(), Address: r.Address, Entries: r.Entries, Bytes: r.Bytes,
		Algorithm: r.Algorithm.String(), SolveSeconds: r.SolveSeconds, VerifySeconds: r.VerifySeconds, Added: r.Added,
		Committed: r.Committed, Command: r.Command, Iterations: r.Iterations, Cites: r.Cites}
}

func problemsJSON(ps []corpus.Problem) []problemJSON {
	out := []problemJSON{}
	for _, p := range ps {
		out = append(out, problemJSON{N: p.N, File: p.File, What: p.What})
	}
	return out
}

// certStatus returns the status of a certificate in check's report.
func certStatus(cc corpus.CertCheck, elsewhere bool) string {
	switch {
	case cc.Missing:
		return corpus.StatusMissing
	case cc.Err != nil:
		return corpus.StatusFailed
	case cc.Trusted:
		return corpus.StatusFound
	case elsewhere:
		return corpus.StatusElsewhere
	}
	return corpus.StatusVerified
}

func runCheck(e *env) int {
	if e.opt.sample && e.opt.budget != 0 {
		return e.fail(2, "--sample and --budget: give one (--budget samples only when the full check is over it)")
	}
	if e.opt.budget < 0 {
		return e.fail(2, "--budget %v is negative", e.opt.budget)
	}
	c, status := e.open()
	if c == nil {
		return status
	}
	opt := corpus.CheckOptions{Elsewhere: e.opt.certDirs, Verify: verify.Options{Independent: e.opt.independent}}
	if !e.opt.noCache {
		opt.Verify.Verdicts = cmdline.Verdicts("spots-corpus", e.stderr)
	}
	sample := e.sample(c, &opt)
	rep := e.check(c, opt)
	if rep.SampleCited > 0 {
		sample += fmt.Sprintf(", and the %s they cite, directly or not (a certificate verifies only with those it cites)", plural(rep.SampleCited, "certificate"))
	}
	if e.opt.json {
		printCheckJSON(e.stdout, c, rep, sample)
	} else {
		e.printCheck(c, rep, opt, sample)
	}
	if !rep.OK() {
		return 1
	}
	return 0
}

// sample sets opt.Sample to what check verifies, with --sample or when
// the recorded verify times are over --budget, and returns a phrase
// saying what that is ("" when check verifies every certificate).
func (e *env) sample(c *corpus.Corpus, opt *corpus.CheckOptions) string {
	recorded := c.VerifySeconds()
	over := e.opt.budget > 0 && recorded > e.opt.budget.Seconds()
	if !e.opt.sample && !over {
		return ""
	}
	var sample string
	opt.Sample, sample = sampleOf(c.Dir)
	if over {
		sample += fmt.Sprintf(" (the recorded verify times add up to %.0f s, over --budget %v)", recorded, e.opt.budget)
		if base, commit := opt.Sample, headCommit(c.Dir); base != nil && commit != "" {
			seed, _ := strconv.ParseUint(commit[:16], 16, 64)
			turn := corpus.Rotation(c.Records, base, seed, e.opt.budget.Seconds())
			opt.Sample = func(r corpus.Record) bool { return base(r) || turn[r.Address] }
			sample += fmt.Sprintf(", and %s in turn, chosen by commit %s within the budget (each commit another: over the history, every one whose check fits it)", plural(len(turn), "certificate"), commit[:12])
		}
	}
	return sample
}

// printCheckJSON prints check's report as one JSON object.
func printCheckJSON(w io.Writer, c *corpus.Corpus, rep *corpus.Report, sample string) {
	out := checkJSON{Dir: c.Dir, OK: rep.OK(), Sample: sample, Bytes: rep.Bytes, Certificates: []certJSON{},
		Problems: problemsJSON(rep.Problems), Notes: problemsJSON(rep.Notes)}
	for _, gm := range game.List() {
		if gm == game.Default() {
			continue // its certificates are those of "certificates"
		}
		g := gameJSON{name: gm.Info().Name, certs: []gameCertJSON{}}
		for _, cc := range rep.Games {
			if cc.Game != g.name {
				continue
			}
			j := gameCertJSON{noun: gm.Info().Noun, Position: cc.Record.Position, Claim: cc.Record.Claim.String(), Address: cc.Record.Address,
				Path: cc.Path, Seconds: cc.Elapsed.Seconds(), Status: gameStatus(cc)}
			if cc.Err != nil {
				j.Error = cc.Err.Error()
			}
			g.certs = append(g.certs, j)
		}
		out.Games = append(out.Games, g)
	}
	for _, cc := range rep.Certificates {
		out.Certificates = append(out.Certificates, checkedJSON(cc, false))
	}
	for _, cc := range rep.Elsewhere {
		out.Elsewhere = append(out.Elsewhere, checkedJSON(cc, true))
	}
	b, _ := json.Marshal(out)
	fmt.Fprintf(w, "%s\n", b)
}

// checkedJSON is a certificate in check's JSON (elsewhere: one kept
// outside the corpus).
func checkedJSON(cc corpus.CertCheck, elsewhere bool) certJSON {
	j := recordJSON(cc.Record)
	j.Path, j.Seconds, j.Status = cc.Path, cc.Elapsed.Seconds(), certStatus(cc, elsewhere)
	j.Cites, j.Cited = cc.Cites, cc.Result.Cited
	if cc.Err != nil {
		j.Error = cc.Err.Error()
	}
	return j
}

// checkTally counts what check did with the certificates.
type checkTally struct {
	verified, found, elsewhere, missing int
	// gameVerified and gameFound count the certificates of the games'
	// tables, by game.
	gameVerified, gameFound map[string]int
}

// printCheck prints check's report for people: what it verifies, a line
// per certificate, the problems and a summary.
func (e *env) printCheck(c *corpus.Corpus, rep *corpus.Report, opt corpus.CheckOptions, sample string) {
	if sample != "" {
		rest := ""
		if opt.Sample != nil {
			rest = "; the others are only found (make corpus-check verifies all)"
		}
		fmt.Fprintf(e.stdout, "sample    verifying %s%s\n", sample, rest)
	}
	if e.opt.independent {
		fmt.Fprintln(e.stdout, "rules     the independent implementation (verify/sprouts2), witnesses searched for; the other games' certificates only found")
	}
	n := printCertLines(e.stdout, rep, opt.Elsewhere)
	printProblems(e.stdout, rep)
	printCheckSummary(e.stdout, c, rep, n, e.opt.independent)
}

// printCertLines prints a line per certificate verified, found or missing
// (none for one that failed: its problem says why) and counts them.
func printCertLines(w io.Writer, rep *corpus.Report, elsewhere []string) checkTally {
	n := checkTally{gameVerified: map[string]int{}, gameFound: map[string]int{}}
	for _, cc := range rep.Certificates {
		switch {
		case cc.Err != nil:
		case cc.Trusted:
			n.found++
			fmt.Fprintf(w, "found     %s  %s  not verified (not in the sample)  %s\n", cc.Record.Claim, cc.Record.ShortAddress(), cc.Path)
		default:
			n.verified++
			fmt.Fprintf(w, "verified  %s  %s  %d entries  %.2f s  %s%s\n",
				cc.Record.Claim, cc.Record.ShortAddress(), cc.Result.Entries, cc.Elapsed.Seconds(), cc.Path, citesNote(cc))
		}
	}
	for _, cc := range rep.Elsewhere {
		switch {
		case cc.Missing:
			n.missing++
			fmt.Fprintf(w, "missing   %s  %s  kept elsewhere, in none of %s (%s makes it again)\n",
				cc.Record.Claim, cc.Record.ShortAddress(), strings.Join(elsewhere, ", "), cc.Record.Command)
		case cc.Err == nil:
			n.elsewhere++
			fmt.Fprintf(w, "verified  %s  %s  %d entries  %.2f s  %s  (kept elsewhere)%s\n",
				cc.Record.Claim, cc.Record.ShortAddress(), cc.Result.Entries, cc.Elapsed.Seconds(), cc.Path, citesNote(cc))
		}
	}
	for _, cc := range rep.Games {
		switch {
		case cc.Err != nil:
		case cc.Trusted:
			n.gameFound[cc.Game]++
		default:
			n.gameVerified[cc.Game]++
			fmt.Fprintf(w, "verified  %s  %s  %d entries  %.2f s  %s\n",
				cc.Record.Claim, cc.Record.Address[:min(12, len(cc.Record.Address))], cc.Result.Entries, cc.Elapsed.Seconds(), cc.Path)
		}
	}
	return n
}

// citesNote ends the line of a verified certificate that cites others:
// how many it cites and relies on in all, each verified once in this run
// (its time is its own: those it cites are checked before it).
func citesNote(cc corpus.CertCheck) string {
	if len(cc.Cites) == 0 {
		return ""
	}
	return fmt.Sprintf("  cites %d (relies on %d in all, verified)", len(cc.Cites), cc.Result.Cited)
}

// printCheckSummary prints check's last line: what was verified and
// found, the corpus's size and whether it checks.
func printCheckSummary(w io.Writer, c *corpus.Corpus, rep *corpus.Report, n checkTally, independent bool) {
	listed := len(c.Records) - len(rep.Certificates)
	fmt.Fprintf(w, "%s: %d of %d committed certificates verified", c.Dir, n.verified, len(rep.Certificates))
	if n.found > 0 {
		fmt.Fprintf(w, " (%d more found, not in the sample)", n.found)
	}
	fmt.Fprintf(w, ", %d listed but not committed", listed)
	if rep.Elsewhere != nil {
		fmt.Fprintf(w, " (%d verified in --dir, %d missing)", n.elsewhere, n.missing)
	}
	for _, t := range c.Games {
		if len(t.Records) == 0 {
			continue
		}
		name := t.Name()
		fmt.Fprintf(w, ", %s: %d of %d verified", t.Game.Info().Title, n.gameVerified[name], len(t.Records))
		switch found := n.gameFound[name]; {
		case found > 0 && independent:
			fmt.Fprintf(w, " (%d more found: the independent check knows only Sprouts)", found)
		case found > 0:
			fmt.Fprintf(w, " (%d more found, not in the sample)", found)
		}
	}
	fmt.Fprintf(w, ", %d literature rows, %s; ", len(c.Literature), corpus.SizeText(rep.Bytes))
	if rep.OK() {
		fmt.Fprintln(w, "no problem")
	} else {
		fmt.Fprintln(w, plural(len(rep.Problems), "problem"))
	}
}
