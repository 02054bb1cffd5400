package corpus

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/game"
	_ "github.com/spots-dev/spots/game/all" // the games a corpus has tables of
	"github.com/spots-dev/spots/outcome"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/verify"
)

// GameTable is the table of a game other than the default one (Sprouts,
// whose table is index.csv) in a corpus: its index <name>.csv and its
// certificates in <name>/, apart from the Sprouts ones (see the package
// documentation). Every registered game may have one.
type GameTable struct {
	Game    game.Game
	Records []GameRecord // in the order of EncodeGameIndex
}

// Name returns the name of the table's game.
func (t *GameTable) Name() string { return t.Game.Info().Name }

// GameIndexFile returns the file name of the index of the named game's
// table: <name>.csv.
func GameIndexFile(name string) string { return name + ".csv" }

// GameCertsDir returns the directory of the certificates of the named
// game's table: <name>.
func GameCertsDir(name string) string { return name }

// gameHeader is the first line of a game's index; its first column is
// named by the game's noun for a position ("board").
func gameHeader(g game.Game) []string {
	return []string{g.Info().Noun, "claim", "address", "entries", "bytes", "algorithm",
		"solve_seconds", "verify_seconds", "added", "producer", "machine", "command"}
}

// GameRecord is one row of a game's index: a certificate of a claim about
// a position of the game, committed in <name>/ as <Address>.arrow.
type GameRecord struct {
	Position      string       // the claim's root in canonical text, e.g. "4x5"
	Claim         format.Claim // an outcome without heap, or a Grundy value
	Address       string
	Entries       int
	Bytes         int64
	Algorithm     solve.Algorithm // dfpn, pdfpn or pns
	SolveSeconds  float64
	VerifySeconds float64
	Added         string // YYYY-MM-DD
	Producer      string
	Machine       string
	Command       string // the command that makes it again
	Line          int    // line of the index, 1-based; 0 for a new record
}

// FileName returns the certificate's file name, <Address>.arrow.
func (r GameRecord) FileName() string { return r.Address + ".arrow" }

// ReadGameIndex reads the index of g's table. A malformed row is an error
// naming its line and field.
func ReadGameIndex(g game.Game, r io.Reader) ([]GameRecord, error) {
	return readIndex(r, gameHeader(g), func(row indexRow) (GameRecord, error) { return parseGameRecord(g, row) })
}

// parseGameRecord makes the record of a row of g's index.
func parseGameRecord(g game.Game, row indexRow) (GameRecord, error) {
	f, field := row.f, row.bad
	claim, err := row.claim()
	if err != nil {
		return GameRecord{}, err
	}
	r := GameRecord{Position: f[0], Claim: claim, Line: row.line}
	if r.Claim.Kind != format.ClaimGrundy && r.Claim.N != 0 {
		return r, field(1, fmt.Sprintf("has a heap: the table lists %ss alone", g.Info().Noun))
	}
	p, err := g.Parse(r.Position)
	switch {
	case err != nil:
		return r, field(0, err.Error())
	case p.String() != r.Position:
		return r, field(0, fmt.Sprintf("is not in canonical form (%s)", p))
	case r.Claim.Root != r.Position:
		return r, field(0, fmt.Sprintf("is not the root of the claim %s", r.Claim))
	}
	m, err := row.made(solve.SearchDFPN, solve.SearchPDFPN, solve.SearchPNS)
	if err != nil {
		return r, err
	}
	r.Address, r.Entries, r.Bytes, r.Algorithm, r.Producer, r.Machine = m.address, m.entries, m.bytes, m.algorithm, m.producer, m.machine
	r.SolveSeconds, r.VerifySeconds, r.Added = m.solve, m.verify, m.added
	r.Command = f[11]
	return r, nil
}

// sortGameRecords orders records as g's index holds them: positions in
// the game's order (game.Table.Order; by text without one), outcome claims
// before Grundy claims.
func sortGameRecords(g game.Game, rs []GameRecord) {
	order := g.Info().Table.Order
	if order == nil {
		order = strings.Compare
	}
	slices.SortStableFunc(rs, func(a, b GameRecord) int {
		return cmp.Or(order(a.Position, b.Position), cmp.Compare(kindOrder(a.Claim), kindOrder(b.Claim)), strings.Compare(a.Address, b.Address))
	})
}

// EncodeGameIndex returns the index of g's table for the records, sorted:
// the same records always give the same bytes.
func EncodeGameIndex(g game.Game, records []GameRecord) []byte {
	rs := slices.Clone(records)
	sortGameRecords(g, rs)
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(gameHeader(g))
	for _, r := range rs {
		w.Write([]string{r.Position, r.Claim.String(), r.Address, strconv.Itoa(r.Entries), strconv.FormatInt(r.Bytes, 10),
			r.Algorithm.String(), seconds(r.SolveSeconds), seconds(r.VerifySeconds), r.Added, r.Producer, r.Machine, r.Command})
	}
	w.Flush()
	return b.Bytes()
}

// readGames reads the table of every registered game but the default one
// that the corpus in c.Dir has.
func (c *Corpus) readGames() error {
	for _, g := range game.List() {
		if g == game.Default() {
			continue
		}
		name := g.Info().Name
		recs, err := readOptional(c.Path(GameIndexFile(name)), func(r io.Reader) ([]GameRecord, error) { return ReadGameIndex(g, r) })
		if err != nil {
			return err
		}
		if recs == nil {
			continue
		}
		sortGameRecords(g, recs)
		c.Games = append(c.Games, GameTable{Game: g, Records: recs})
	}
	return nil
}

// GameTable returns the table of the named game, nil when the corpus has
// none.
func (c *Corpus) GameTable(name string) *GameTable {
	for i := range c.Games {
		if c.Games[i].Name() == name {
			return &c.Games[i]
		}
	}
	return nil
}

// GamePath returns where the corpus keeps the certificate of r, a record
// of the table of the named game.
func (c *Corpus) GamePath(name string, r GameRecord) string {
	return filepath.Join(c.Dir, GameCertsDir(name), r.FileName())
}

// GameCheck is the verification of one certificate of a game's table.
type GameCheck struct {
	Game    string // the table's game
	Record  GameRecord
	Path    string
	Result  verify.Result // what the checker found (with CheckOptions.NoVerify, what the record says)
	Elapsed time.Duration
	Err     error // nil when the file verified and agrees with its record
	Trusted bool  // the checker was skipped (CheckOptions.NoVerify, or a sample that leaves it out)
}

// GameSampleSeconds bounds the certificates of the games' tables that a
// sampled check verifies (CheckOptions.Sample set, as spots-corpus check
// --budget does when the corpus is large): those whose recorded verify
// time is at most this many seconds; the others are only found, present
// with their size. A check without Sample verifies them all.
const GameSampleSeconds = 2.0

// checkGames checks every game's table into rep (checkGame).
func (c *Corpus) checkGames(rep *Report, opt CheckOptions) {
	for i := range c.Games {
		c.checkGame(&c.Games[i], rep, opt)
	}
}

// checkGame checks the table t into rep: every certificate verified
// (with CheckOptions.Sample, those recorded to verify within
// GameSampleSeconds) and as listed, every file of its directory listed,
// every claim consistent with the others about its position and with the
// game's strategy (game.Table.Strategy).
func (c *Corpus) checkGame(t *GameTable, rep *Report, opt CheckOptions) {
	info := t.Game.Info()
	indexName, certsDir := GameIndexFile(info.Name), GameCertsDir(info.Name)
	index := c.Path(indexName)
	problem := func(file, msg string, a ...any) {
		rep.Problems = append(rep.Problems, Problem{File: file, What: info.Title + ": " + fmt.Sprintf(msg, a...)})
	}
	byClaim, byAddress := map[string]GameRecord{}, map[string]GameRecord{}
	implied := map[string]GameRecord{}
	for _, r := range t.Records {
		if o, ok := byClaim[r.Claim.String()]; ok {
			problem(index, "lines %d and %d both list the claim %s; keep one", o.Line, r.Line, r.Claim)
		}
		byClaim[r.Claim.String()] = r
		if o, ok := byAddress[r.Address]; ok {
			problem(index, "lines %d and %d both list the address %s", o.Line, r.Line, r.Address)
		}
		byAddress[r.Address] = r
		out, _ := r.Claim.RootOutcome()
		if o, ok := implied[r.Position]; ok {
			if oo, _ := o.Claim.RootOutcome(); oo != out {
				problem(index, "the claims %s (line %d) and %s (line %d) contradict each other", o.Claim, o.Line, r.Claim, r.Line)
			}
		}
		implied[r.Position] = r
		if want := strategyOutcome(info, r.Position); want != outcome.Unknown && want != out {
			problem(index, "line %d: %s says %s is %s, but the %s strategy proves %s", r.Line, r.Claim, r.Position, out.Mark(), info.Table.StrategyName, want.Mark())
		}
		if g, known, agrees := Published(info, r); known && !agrees {
			problem(index, "line %d: %s, but %s gives gn(%s) = %d", r.Line, r.Claim, info.Table.PublishedName, r.Position, g)
		}
	}
	dir := filepath.Join(c.Dir, certsDir)
	names, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		problem(dir, "cannot list the certificates: %v", err)
	}
	for _, e := range names {
		if _, listed := byAddress[strings.TrimSuffix(e.Name(), ".arrow")]; !listed || !strings.HasSuffix(e.Name(), ".arrow") {
			problem(filepath.Join(dir, e.Name()), "is in %s/ but not listed in %s (add it, or remove it)", certsDir, indexName)
		}
	}
	for _, r := range t.Records {
		o := opt
		// The independent check knows only Sprouts: with it, the other
		// games' certificates are only found.
		o.NoVerify = opt.NoVerify || opt.Verify.Independent || opt.Sample != nil && r.VerifySeconds > GameSampleSeconds
		cc := checkGameCertificate(indexName, r, c.GamePath(info.Name, r), o)
		cc.Game = info.Name
		if cc.Err != nil {
			problem(cc.Path, "%v", cc.Err)
		}
		rep.Games = append(rep.Games, cc)
	}
}

// Published returns the Grundy value the published table of the game of
// info gives the position of r (game.Table.Published), whether it gives
// one, and whether r's claim agrees with it: a Grundy value the same, an
// outcome a win exactly when the value is not 0.
func Published(info game.Info, r GameRecord) (g uint32, known, agrees bool) {
	if info.Table.Published == nil {
		return 0, false, false
	}
	if g, known = info.Table.Published(r.Position); !known {
		return 0, false, false
	}
	out, claimed := r.Claim.RootOutcome()
	if claimed != nil {
		return g, true, *claimed == g
	}
	return g, true, out == Win && g != 0 || out == Loss && g == 0
}

// strategyOutcome returns what the strategy of the game of info proves of
// the position written text, Unknown when it has none or proves nothing.
func strategyOutcome(info game.Info, text string) Outcome {
	if info.Table.Strategy == nil {
		return Unknown
	}
	switch info.Table.Strategy(text) {
	case "W":
		return Win
	case "L":
		return Loss
	}
	return Unknown
}

// checkGameCertificate verifies the certificate of r, listed in the index
// indexName, at path and compares it with r; with opt.NoVerify it only
// checks that the file is there with the size r gives.
func checkGameCertificate(indexName string, r GameRecord, path string, opt CheckOptions) (cc GameCheck) {
	cc = GameCheck{Record: r, Path: path}
	start := time.Now()
	defer func() { cc.Elapsed = time.Since(start) }()
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		cc.Err = fmt.Errorf("missing: %s line %d lists the certificate of %s, but there is no such file", indexName, r.Line, r.Claim)
		return cc
	case err != nil:
		cc.Err = fmt.Errorf("unreadable: %w", err)
		return cc
	case st.Size() != r.Bytes:
		cc.Err = fmt.Errorf("the file has %d bytes, but %s line %d says %d", st.Size(), indexName, r.Line, r.Bytes)
		return cc
	}
	if opt.NoVerify {
		cc.Result, cc.Trusted = verify.Result{Claim: r.Claim, Address: r.Address, Entries: r.Entries}, true
		return cc
	}
	res, err := verify.File(path, opt.Verify)
	cc.Result = res
	cc.Err = unlike(res, err, indexName, r.Line, r.Claim, r.Address, r.Entries)
	return cc
}

// writeGameMarkdown writes the section of t in OUTCOMES.md: one row per
// certificate of the table, with what the check found of it.
func writeGameMarkdown(b *strings.Builder, t *GameTable, rep *Report) {
	if len(t.Records) == 0 {
		return
	}
	info := t.Game.Info()
	status := map[string]string{}
	for _, cc := range rep.Games {
		if cc.Game != info.Name {
			continue
		}
		if cc.Err != nil {
			status[cc.Record.Address] = StatusFailed
		} else {
			status[cc.Record.Address] = StatusVerified
		}
	}
	strategy := info.Table.Strategy != nil
	fmt.Fprintf(b, "\n## %s\n\n", info.Title)
	fmt.Fprintf(b, "Certificates of %s %ss (%s, certificates in %s/; the game and its notation: `go doc %s`). ",
		info.Title, info.Noun, GameIndexFile(info.Name), GameCertsDir(info.Name), info.Doc)
	b.WriteString(info.Table.Rules)
	b.WriteString("*entries*, *bytes*, *solve*, *verify*: as above.\n\n")
	published := info.Table.Published != nil
	head, rule := "", ""
	if strategy {
		head, rule = " "+info.Table.StrategyName+" |", ":---:|"
	}
	if published {
		head, rule = head+" published |", rule+":---:|"
	}
	fmt.Fprintf(b, "| %s | claim | outcome | Grundy |%s certificate | status | entries | bytes | solve | verify |\n", info.Noun, head)
	fmt.Fprintf(b, "|---|---|:---:|:---:|%s---|---|---:|---:|---:|---:|\n", rule)
	for _, r := range t.Records {
		out, g := r.Claim.RootOutcome()
		gs := ""
		if g != nil {
			gs = strconv.FormatUint(uint64(*g), 10)
		}
		st := status[r.Address]
		if st == "" {
			st = StatusUnchecked
		}
		fmt.Fprintf(b, "| `%s` | `%s` | %s | %s |", cell(r.Position), cell(r.Claim.String()), out.Mark(), gs)
		if strategy {
			sym := ""
			if s := strategyOutcome(info, r.Position); s != Unknown {
				sym = s.Mark()
			}
			fmt.Fprintf(b, " %s |", sym)
		}
		if published {
			pub := ""
			if g, known, _ := Published(info, r); known {
				pub = strconv.FormatUint(uint64(g), 10)
			}
			fmt.Fprintf(b, " %s |", pub)
		}
		fmt.Fprintf(b, " [`%s`](%s/%s) | %s | %d | %s | %s | %s |\n",
			r.Address[:12], GameCertsDir(info.Name), r.FileName(), st,
			r.Entries, SizeText(r.Bytes), duration(r.SolveSeconds), duration(r.VerifySeconds))
	}
}
