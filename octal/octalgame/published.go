package octalgame

import (
	"bufio"
	"embed"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/spots-dev/spots/octal"
)

// The published values: Grundy sequences of the OEIS, typed into
// published/ with their sources named, which no one here computed. The
// corpus holds every certificate of an octal game to them
// (game.Table.Published), and package octal's tests hold the rules and
// the searches to them.

//go:embed published/*.txt
var publishedFiles embed.FS

// publishedName names the tables, as the corpus's check and status say.
const publishedName = "OEIS A002186/A002187"

// sequence is the published values of one game: value i is the heap of
// first+i tokens.
type sequence struct {
	first  int
	values []uint32
}

var published = sync.OnceValues(readPublished)

// readPublished reads every file of published/: '#' comments, lines
// "game CODE HEAP" naming a game whose values the file lists from the heap
// of HEAP tokens on, and the values, separated by commas.
func readPublished() (map[string]sequence, error) {
	out := map[string]sequence{}
	files, err := publishedFiles.ReadDir("published")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		b, err := publishedFiles.ReadFile("published/" + f.Name())
		if err != nil {
			return nil, err
		}
		type game struct {
			code  string
			first int
		}
		var games []game
		var values []uint32
		sc := bufio.NewScanner(strings.NewReader(string(b)))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			switch {
			case line == "" || strings.HasPrefix(line, "#"):
			case strings.HasPrefix(line, "game "):
				var g game
				if _, err := fmt.Sscanf(line, "game %s %d", &g.code, &g.first); err != nil {
					return nil, fmt.Errorf("published/%s: %q: %w", f.Name(), line, err)
				}
				c, err := octal.ParseCode(g.code)
				if err != nil {
					return nil, fmt.Errorf("published/%s: %w", f.Name(), err)
				}
				g.code = c.String()
				games = append(games, g)
			default:
				for _, v := range strings.Split(strings.TrimSuffix(line, ","), ",") {
					n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 32)
					if err != nil {
						return nil, fmt.Errorf("published/%s: %q: %w", f.Name(), line, err)
					}
					values = append(values, uint32(n))
				}
			}
		}
		for _, g := range games {
			out[g.code] = sequence{first: g.first, values: values}
		}
	}
	return out, nil
}

// Published returns the Grundy value the published tables give the
// position written text: a heap's is the table's, a sum's the xor of its
// heaps' (Sprague–Grundy), when the tables give every heap's. The empty
// position, and a text that is not a position, get none.
func Published(text string) (uint32, bool) {
	p, err := octal.Parse(text)
	if err != nil || p.NumHeaps() == 0 {
		return 0, false
	}
	tables, err := published()
	if err != nil {
		return 0, false
	}
	x := uint32(0)
	for _, h := range p.Heaps() {
		c, n, ok := h.Heap()
		if !ok {
			return 0, false
		}
		s, ok := tables[c.String()]
		if !ok || n < s.first || n-s.first >= len(s.values) {
			return 0, false
		}
		x ^= s.values[n-s.first]
	}
	return x, true
}
