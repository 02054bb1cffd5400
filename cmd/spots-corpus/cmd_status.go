package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/outcome"
)

// foundRows returns the rows of status, made from a check that verified
// nothing (corpus.CheckOptions.NoVerify): each committed certificate that
// the check found as the index lists it is marked found, not verified. Its
// claim still gives the row's outcome: spots-corpus add verified it when
// it was made, and check verifies it again.
func foundRows(rows []corpus.Row) []corpus.Row {
	for i := range rows {
		for j := range rows[i].Certificates {
			if c := &rows[i].Certificates[j]; c.Status == corpus.StatusVerified {
				c.Status = corpus.StatusFound
			}
		}
	}
	return rows
}

func statusFlags(f *pflag.FlagSet, o *options) {
	f.BoolVar(&o.json, "json", false, "print one JSON object per n")
	f.BoolVar(&o.noVerify, "no-verify", false, "deprecated: status verifies nothing (spots-corpus check does)")
	f.Lookup("no-verify").Hidden = true
	f.StringVar(&o.game, "game", "", "the table of `GAME`, a game other than Sprouts (spots-solve --game list): one row per certificate of its positions, from GAME.csv")
	f.StringVar(&o.state, "state-root", "", "where add keeps its checkpoints (`DIR`/0*N, DIR/gn(0*N)): each found is listed as an unfinished solve with its iterations (default: spots/corpus in the user's cache directory)")
}

type rowJSON struct {
	N                int             `json:"n"`
	Outcome          outcome.Outcome `json:"outcome"`
	Grundy           *uint32         `json:"grundy"`
	Conjecture       outcome.Outcome `json:"conjecture"`
	ConjectureGrundy uint32          `json:"conjecture_grundy"`
	Literature       *literatureJSON `json:"literature"`
	Certificates     []certJSON      `json:"certificates"`
	Unfinished       []unfinished    `json:"unfinished,omitempty"`
	Lemmas           []lemmaJSON     `json:"lemmas,omitempty"`
}

// lemmaJSON is a certificate of lemmas of a search not yet finished, as
// status prints it.
type lemmaJSON struct {
	Claim      string  `json:"claim"`
	Address    string  `json:"address"`
	Path       string  `json:"path"`
	Entries    int     `json:"entries"`
	Bytes      int64   `json:"bytes"`
	Seconds    float64 `json:"solve_seconds"` // the search's time up to the lemmas, all runs
	Iterations uint64  `json:"iterations"`
}

// lemmasOf returns the lemmas of 0*n in c, for status.
func lemmasOf(c *corpus.Corpus, n int) []lemmaJSON {
	var out []lemmaJSON
	for _, r := range c.LemmasOf(n) {
		out = append(out, lemmaJSON{Claim: r.Claim.String(), Address: r.Address, Path: c.LemmaPath(r), Entries: r.Entries,
			Bytes: r.Bytes, Seconds: r.SolveSeconds, Iterations: r.Iterations})
	}
	return out
}

// unfinished is a solve of add that stopped before its certificate, as its
// checkpoint describes it.
type unfinished struct {
	Claim      string    `json:"claim"` // 0*n or gn(0*n): what the search is after
	Checkpoint string    `json:"checkpoint"`
	Seconds    float64   `json:"seconds"`
	Iterations uint64    `json:"iterations"`
	Nimbers    int       `json:"grundy_numbers"`
	Runs       int       `json:"runs"`
	Saved      time.Time `json:"saved"`
}

// unfinishedOf returns the checkpoints of add --solve n (with and without
// --nimber) found in the state directories under root.
func unfinishedOf(root string, n int) []unfinished {
	if root == "" {
		return nil
	}
	var out []unfinished
	for _, nimber := range []bool{false, true} {
		name := corpus.StartText(n)
		if nimber {
			name = "gn(" + name + ")"
		}
		dir := filepath.Join(root, name)
		m, err := checkpoint.Load(dir)
		if err != nil || m.Position != corpus.StartText(n) || m.Nimber != nimber {
			continue
		}
		out = append(out, unfinished{Claim: name, Checkpoint: dir, Seconds: millis(m.Seconds), Iterations: m.Iterations,
			Nimbers: m.Nimbers, Runs: m.Runs, Saved: m.Saved})
	}
	return out
}

type literatureJSON struct {
	Outcome       outcome.Outcome `json:"outcome"`
	FirstSolvedBy string          `json:"first_solved_by"`
	Who           string          `json:"who"`
	Year          string          `json:"year"`
	ProofSize     string          `json:"proof_size_grundy_numbers"`
}

func runStatus(e *env) int {
	c, status := e.open()
	if c == nil {
		return status
	}
	// From the index: each certificate found, none verified (check does).
	e.opt.noVerify = true
	if e.opt.game != "" {
		return e.gameStatus(c)
	}
	rep := e.check(c, corpus.CheckOptions{})
	rows := foundRows(c.Table(rep))
	root, err := stateRoot(e.opt.state)
	if err != nil {
		root = "" // no cache directory: no checkpoints to show
	}
	if e.opt.json {
		for _, r := range rows {
			j := rowJSON{N: r.N, Outcome: r.Outcome, Grundy: r.Grundy, Conjecture: r.ConjectureOutcome,
				ConjectureGrundy: r.ConjectureGrundy, Certificates: []certJSON{}, Unfinished: unfinishedOf(root, r.N),
				Lemmas: lemmasOf(c, r.N)}
			if k := r.Known; k != nil {
				who, year := k.Solver()
				j.Literature = &literatureJSON{Outcome: k.Outcome, FirstSolvedBy: k.FirstSolvedBy, Who: who, Year: year, ProofSize: k.ProofSize}
			}
			for _, cert := range r.Certificates {
				cj := recordJSON(cert.Record)
				cj.Status = cert.Status
				if cert.Committed {
					cj.Path = c.CertPath(cert.Record)
				}
				j.Certificates = append(j.Certificates, cj)
			}
			b, _ := json.Marshal(j)
			fmt.Fprintf(e.stdout, "%s\n", b)
		}
	} else {
		tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "n\toutcome\tGrundy\tconj.\tfirst solved by\tyear\tcertificate\tstatus\tentries\tsolve\tverify")
		for _, r := range rows {
			who, year := "", ""
			if r.Known != nil {
				who, year = r.Known.Solver()
				if r.Known.Open() {
					who = "open"
				}
			}
			g := ""
			if r.Grundy != nil {
				g = strconv.FormatUint(uint64(*r.Grundy), 10)
			}
			lead := fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s", r.N, r.Outcome.Mark(), g, r.ConjectureOutcome.Mark(), who, year)
			if len(r.Certificates) == 0 {
				fmt.Fprintf(tw, "%s\t\t\t\t\t\n", lead)
			}
			for i, cert := range r.Certificates {
				if i > 0 {
					lead = "\t\t\t\t\t"
				}
				fmt.Fprintf(tw, "%s\t%s  %s\t%s\t%d\t%.2f s\t%.2f s\n", lead, cert.Claim, cert.ShortAddress(),
					cert.Status, cert.Entries, cert.SolveSeconds, cert.VerifySeconds)
			}
			for _, u := range unfinishedOf(root, r.N) {
				fmt.Fprintf(tw, "\t\t\t\t\t\t%s\tunfinished\t\t%.0f s\t\t%d iterations, %d Grundy values, %d run(s); checkpoint %s\n",
					u.Claim, u.Seconds, u.Iterations, u.Nimbers, u.Runs, u.Checkpoint)
			}
			for _, l := range lemmasOf(c, r.N) {
				fmt.Fprintf(tw, "\t\t\t\t\t\t%s  %.12s\tlemmas\t%d\t%.0f s\t\t%d iterations so far; add --solve %d goes on from them\n",
					l.Claim, l.Address, l.Entries, l.Seconds, l.Iterations, r.N)
			}
		}
		tw.Flush()
		printFrontier(e.stdout, corpus.FrontierOf(rows))
	}
	if rep != nil && !rep.OK() {
		printProblems(e.stderr, rep)
		return e.fail(1, "%s does not check (%s)", c.Dir, plural(len(rep.Problems), "problem"))
	}
	return 0
}

// printFrontier prints, after status's table, how far the certified
// outcomes reach: every n up to the frontier, those beyond it, and those
// of corpus.GoalFrom … corpus.GoalTo certified and open.
func printFrontier(w io.Writer, f corpus.Frontier) {
	beyond := ""
	if len(f.Beyond) > 0 {
		beyond = "; certified beyond it: " + corpus.Spans(f.Beyond)
	}
	if f.Complete == 0 {
		fmt.Fprintf(w, "frontier  the outcome of 0*1 is not certified%s\n", beyond)
	} else {
		fmt.Fprintf(w, "frontier  every outcome of 0*1 … 0*%d certified%s\n", f.Complete, beyond)
	}
	late := ""
	if len(f.Late) > 0 {
		late = fmt.Sprintf(" (GLOP 2010–2011 first solved %s)", corpus.Spans(f.Late))
	}
	fmt.Fprintf(w, "%d … %d   certified: %s; open: %s%s\n", corpus.GoalFrom, corpus.GoalTo, corpus.Spans(f.Goal), corpus.Spans(f.Open), late)
}
