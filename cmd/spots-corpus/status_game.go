package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/game"
)

// gameRowJSON is a row of status --game: a certificate of the game's
// table, with what its claim says and what the game's strategy proves.
type gameRowJSON struct {
	Position     string  `json:"position"`
	Claim        string  `json:"claim"`
	Outcome      string  `json:"outcome"`
	Grundy       *uint32 `json:"grundy"`
	Strategy     string  `json:"strategy,omitempty"`  // what the game's strategy proves (W or L), when it proves something
	Published    *uint32 `json:"published,omitempty"` // the Grundy value the game's published table gives, when it gives one
	Address      string  `json:"address"`
	Path         string  `json:"path"`
	Status       string  `json:"status"`
	Entries      int     `json:"entries"`
	SolveSeconds float64 `json:"solve_seconds"`
	VerifySecs   float64 `json:"verify_seconds"`
}

// gameStatus is status --game: the table of a game other than Sprouts, a
// row per certificate, each found (not verified: check verifies), and a
// last line counting the positions with a known value.
func (e *env) gameStatus(c *corpus.Corpus) int {
	g, ok := game.Lookup(e.opt.game)
	if !ok || g == game.Default() {
		var others []string
		for _, h := range game.List() {
			if h != game.Default() {
				others = append(others, h.Info().Name)
			}
		}
		return e.fail(2, "--game %q: want a game with a table of its own: %s (Sprouts's table is status without --game)", e.opt.game, strings.Join(others, ", "))
	}
	info := g.Info()
	rep := e.check(c, corpus.CheckOptions{})
	t := c.GameTable(info.Name)
	var recs []corpus.GameRecord
	if t != nil {
		recs = t.Records
	}
	status := map[string]string{}
	for _, cc := range rep.Games {
		if cc.Game == info.Name && cc.Err != nil {
			status[cc.Record.Address] = corpus.StatusFailed
		}
	}
	values, agree := map[string]bool{}, map[string]bool{}
	rows := make([]gameRowJSON, 0, len(recs))
	for _, r := range recs {
		out, grundy := r.Claim.RootOutcome()
		row := gameRowJSON{Position: r.Position, Claim: r.Claim.String(), Outcome: out.Mark(), Grundy: grundy, Address: r.Address,
			Path: c.GamePath(info.Name, r), Status: corpus.StatusFound, Entries: r.Entries, SolveSeconds: r.SolveSeconds, VerifySecs: r.VerifySeconds}
		if s := status[r.Address]; s != "" {
			row.Status = s
		}
		if info.Table.Strategy != nil {
			row.Strategy = info.Table.Strategy(r.Position)
		}
		if grundy != nil {
			values[r.Position] = true
		}
		if g, known, agrees := corpus.Published(info, r); known {
			row.Published = &g
			if agrees && grundy != nil {
				agree[r.Position] = true
			}
		}
		rows = append(rows, row)
	}
	if e.opt.json {
		for _, row := range rows {
			b, _ := json.Marshal(row)
			fmt.Fprintf(e.stdout, "%s\n", b)
		}
	} else {
		e.printGameTable(info, rows, recs, len(values), len(agree))
	}
	if !rep.OK() {
		printProblems(e.stderr, rep)
		return e.fail(1, "%s does not check (%s)", c.Dir, plural(len(rep.Problems), "problem"))
	}
	return 0
}

// printGameTable prints the rows of status --game as a table, and a line
// counting the certificates, the positions, the Grundy values and those
// of them the game's published table agrees with.
func (e *env) printGameTable(info game.Info, rows []gameRowJSON, recs []corpus.GameRecord, values, agree int) {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	strategy := ""
	if info.Table.Strategy != nil {
		strategy = "\t" + info.Table.StrategyName
	}
	if info.Table.Published != nil {
		strategy += "\tpublished"
	}
	fmt.Fprintf(tw, "%s\toutcome\tGrundy%s\tcertificate\tstatus\tentries\tsolve\tverify\n", info.Noun, strategy)
	for _, row := range rows {
		g := ""
		if row.Grundy != nil {
			g = strconv.FormatUint(uint64(*row.Grundy), 10)
		}
		s := ""
		if info.Table.Strategy != nil {
			s = "\t" + row.Strategy
		}
		if info.Table.Published != nil {
			s += "\t"
			if row.Published != nil {
				s += strconv.FormatUint(uint64(*row.Published), 10)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s%s\t%s  %.12s\t%s\t%d\t%.2f s\t%.2f s\n", row.Position, row.Outcome, g, s, row.Claim, row.Address,
			row.Status, row.Entries, row.SolveSeconds, row.VerifySecs)
	}
	tw.Flush()
	published := ""
	if info.Table.Published != nil {
		published = fmt.Sprintf(", %d of them as %s gives", agree, info.Table.PublishedName)
	}
	fmt.Fprintf(e.stdout, "%s: %s of %s, %s%s (%s)\n", info.Title, plural(len(rows), "certificate"), plural(len(positions(recs)), info.Noun),
		plural(values, "Grundy value"), published, corpus.GameIndexFile(info.Name))
}

// positions returns the positions the records are about, each once.
func positions(recs []corpus.GameRecord) map[string]bool {
	out := map[string]bool{}
	for _, r := range recs {
		out[r.Position] = true
	}
	return out
}
