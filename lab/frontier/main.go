// Command frontier says where a long search of the frontier stands and
// what the corpus knows around it. It is a lab tool: it trusts its inputs
// (a local checkpoint, the repository's corpus) and proves nothing.
//
//	go run ./lab/frontier table /work/runs/s45 80000000 '0*45' '0*43.1a1a'
//	go run ./lab/frontier replies corpus '0*43.1a1a'
//	go run ./lab/frontier analog corpus '0*37.1a1a' '0*43.1a1a' 6
//
// table loads a DFPN checkpoint (--state) into a table of the given
// capacity (give the search's: a smaller one drops entries) and prints
// each position's unsolved children with the proof and disproof numbers
// the table holds, least disproof first: where the search works.
//
// replies prints each child K of a position and a child of K whose lands
// all have values in the corpus's certificates and lemmas with xor 0 (a
// move that wins K), or says that none is known.
//
// analog proposes, for each child of BIG with no known winning reply, the
// reply that wins the same child of SMALL (BIG with SHIFT fewer spots in
// one region), with the spots put back in each region in turn: positions
// whose loss would win those children.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

const usage = `usage: frontier table STATE CAPACITY POS...
       frontier replies CORPUS POS...
       frontier analog CORPUS SMALL BIG SHIFT`

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "frontier:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	if len(args) < 3 {
		return errors.New(usage)
	}
	switch args[0] {
	case "table":
		capacity, err := strconv.Atoi(args[2])
		if err != nil {
			return fmt.Errorf("capacity %q: %w", args[2], err)
		}
		return table(args[1], capacity, args[3:])
	case "replies":
		k, err := loadKnown(args[1])
		if err != nil {
			return err
		}
		for _, p := range args[2:] {
			if err := k.replies(p); err != nil {
				return err
			}
		}
		return nil
	case "analog":
		if len(args) != 5 {
			return errors.New(usage)
		}
		shift, err := strconv.Atoi(args[4])
		if err != nil {
			return fmt.Errorf("shift %q: %w", args[4], err)
		}
		k, err := loadKnown(args[1])
		if err != nil {
			return err
		}
		return k.analog(args[2], args[3], shift)
	}
	return errors.New(usage)
}

// table prints the children of each position as the checkpoint's table
// holds them.
func table(dir string, capacity int, positions []string) error {
	m, err := checkpoint.Load(dir)
	if err != nil {
		return err
	}
	db := solve.NewNimberDB()
	rules := sprouts.Rules{Cache: sprouts.NewCache(sprouts.DefaultCacheBytes)}
	d := solve.NewDFPN[sprouts.Position](rules, db, solve.Options{Capacity: capacity})
	if err := checkpoint.Restore(context.Background(), dir, m, d); err != nil {
		return err
	}
	fmt.Printf("%s: %d iterations, %d Grundy values\n", dir, m.Iterations, db.Len())
	for _, text := range positions {
		p, err := sprouts.Parse(text)
		if err != nil {
			return err
		}
		// One iteration, then the couple as the table holds it.
		e := d.Job(context.Background(), p, 0, 1)
		fmt.Printf("%s: pn %d dn %d %v, %d unsolved children\n", text, e.PN, e.DN, e.Outcome, len(e.Children))
		kids := e.Children
		sort.SliceStable(kids, func(i, j int) bool { return kids[i].DN < kids[j].DN })
		for _, k := range kids {
			fmt.Printf("  pn %10d  dn %10d  %s+*%d\n", k.PN, k.DN, k.Pos, k.N)
		}
	}
	return nil
}

// known is the Grundy value of every land of the corpus's certificates
// and lemmas, by canonical text.
type known map[string]uint32

func loadKnown(corpusDir string) (known, error) {
	k := known{}
	for _, sub := range []string{"certs", "lemmas"} {
		files, err := filepath.Glob(filepath.Join(corpusDir, sub, "*.arrow"))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			c, err := format.ReadCertificate(f)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			if c.Game != "sprouts" {
				continue
			}
			for _, e := range c.Entries {
				k[e.Position] = e.Grundy
			}
		}
	}
	fmt.Fprintf(os.Stderr, "frontier: %d values from %s\n", len(k), corpusDir)
	return k, nil
}

// value returns the xor of the values of p's lands, if all are known.
func (k known) value(p sprouts.Position) (uint32, bool) {
	x := uint32(0)
	for _, l := range p.Lands() {
		g, ok := k[l.String()]
		if !ok {
			return 0, false
		}
		x ^= g
	}
	return x, true
}

// reply returns a child of p of known value 0: a move that wins p.
func (k known) reply(p sprouts.Position) (sprouts.Position, int, bool) {
	for i, g := range p.Children() {
		if v, ok := k.value(g); ok && v == 0 {
			return g, i, true
		}
	}
	return sprouts.Position{}, 0, false
}

func (k known) replies(text string) error {
	p, err := sprouts.Parse(text)
	if err != nil {
		return err
	}
	fmt.Println(p)
	open := 0
	for i, c := range p.Children() {
		if v, ok := k.value(c); ok && v != 0 {
			fmt.Printf("  %3d %-36s won: value %d\n", i, c, v)
			continue
		}
		if g, j, ok := k.reply(c); ok {
			fmt.Printf("  %3d %-36s won by its move %d to %s\n", i, c, j, g)
			continue
		}
		open++
		fmt.Printf("  %3d %-36s no winning move known\n", i, c)
	}
	fmt.Printf("%d of %d children with no winning move known\n", open, len(p.Children()))
	return nil
}

var spots = regexp.MustCompile(`0\*(\d+)`)

// shifted returns s with shift spots added to each of its "0*m" in turn.
func shifted(s string, shift int) []string {
	var out []string
	for _, l := range spots.FindAllStringSubmatchIndex(s, -1) {
		m, _ := strconv.Atoi(s[l[2]:l[3]])
		if m+shift >= 2 {
			out = append(out, s[:l[0]]+"0*"+strconv.Itoa(m+shift)+s[l[1]:])
		}
	}
	return out
}

func (k known) analog(smallText, bigText string, shift int) error {
	small, err := sprouts.Parse(smallText)
	if err != nil {
		return err
	}
	big, err := sprouts.Parse(bigText)
	if err != nil {
		return err
	}
	smallKids := map[string]sprouts.Position{}
	for _, c := range small.Children() {
		smallKids[c.String()] = c
	}
	for _, c := range big.Children() {
		if v, ok := k.value(c); ok && v != 0 {
			continue
		}
		if _, _, ok := k.reply(c); ok {
			continue
		}
		moves := map[string]bool{}
		for _, g := range c.Children() {
			moves[g.String()] = true
		}
		proposed := 0
		for _, text := range shifted(c.String(), -shift) {
			q, err := sprouts.Parse(text)
			if err != nil {
				continue
			}
			sc, ok := smallKids[q.String()]
			if !ok {
				continue
			}
			g, _, ok := k.reply(sc)
			if !ok {
				fmt.Printf("%s: its analog %s has no winning move known\n", c, sc)
				continue
			}
			for _, t := range shifted(g.String(), shift) {
				r, err := sprouts.Parse(t)
				if err == nil && moves[r.String()] {
					fmt.Printf("%s: %s won its analog %s; try %s\n", c, g, sc, r)
					proposed++
				}
			}
		}
		if proposed == 0 {
			fmt.Printf("%s: no analog\n", c)
		}
	}
	return nil
}
