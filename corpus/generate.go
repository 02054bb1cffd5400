package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/spots-dev/spots/format"
)

// Generated is the content of the generated files of a corpus.
type Generated struct {
	Outcomes []byte // OUTCOMES.md
	Plot     []byte // outcomes.svg
}

// Render returns the generated files for the table rows (see Table).
// The same rows give the same bytes.
func Render(rows []Row) (Generated, error) {
	var md, svg bytes.Buffer
	if err := WriteMarkdown(&md, rows); err != nil {
		return Generated{}, err
	}
	if err := WriteSVG(&svg, rows); err != nil {
		return Generated{}, err
	}
	return Generated{Outcomes: md.Bytes(), Plot: svg.Bytes()}, nil
}

// Generate renders the corpus as rep found it. It refuses (with an error
// naming the first problem) a report with problems: the generated files are
// built from verified certificates only.
func (c *Corpus) Generate(rep *Report) (Generated, error) {
	if rep == nil {
		return Generated{}, errors.New("corpus: generating needs a check of the certificates")
	}
	if !rep.OK() {
		return Generated{}, fmt.Errorf("corpus: %d problems, the first: %s", len(rep.Problems), rep.Problems[0])
	}
	g, err := Render(c.Table(rep))
	if err != nil {
		return g, err
	}
	for i := range c.Games {
		var b strings.Builder
		writeGameMarkdown(&b, &c.Games[i], rep)
		g.Outcomes = append(g.Outcomes, b.String()...)
	}
	return g, nil
}

// Write writes the generated files into the corpus directory, each through
// a temporary file renamed into place.
func (c *Corpus) Write(g Generated) error {
	if err := writeFile(c.Path(OutcomesFile), g.Outcomes); err != nil {
		return err
	}
	return writeFile(c.Path(PlotFile), g.Plot)
}

// Stale returns the paths of the generated files in the corpus directory
// that differ from g (or are missing), in the order OUTCOMES.md,
// outcomes.svg.
func (c *Corpus) Stale(g Generated) []string {
	var stale []string
	for _, f := range []struct {
		name string
		want []byte
	}{{OutcomesFile, g.Outcomes}, {PlotFile, g.Plot}} {
		path := c.Path(f.name)
		if refuseLink(path) != nil {
			stale = append(stale, path)
		} else if have, err := format.ReadInput(path, int64(len(f.want))); err != nil || !bytes.Equal(have, f.want) {
			stale = append(stale, path)
		}
	}
	return stale
}
