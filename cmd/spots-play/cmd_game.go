package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spots-dev/spots/outcome"
	"github.com/spots-dev/spots/play"
)

// playGame plays g against a human who types moves on stdin; spotsFirst says
// whether spots moves first.
func playGame(ctx context.Context, lib *play.Library, g play.Game, spotsFirst bool, stdin io.Reader, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2
	}
	a, err := lib.Analyze(ctx, g)
	if err != nil {
		return fail(err)
	}
	if !a.Outcome.Known() {
		return fail(fmt.Errorf("%s: %w: give a position a certificate proves, or another certificate", g, play.ErrNotCovered))
	}
	who := "you move first"
	if spotsFirst {
		who = "spots moves first"
	}
	fmt.Fprintf(stdout, "%s from %s: %s. Choose your move by its number (q quits).\n", g.Rules.Info().Title, g, who)
	in := newLineReader(stdin)
	spotsTurn := spotsFirst
	for {
		if spotsTurn {
			fmt.Fprintf(stdout, "\n%s  spots to move\n", g)
		} else {
			fmt.Fprintf(stdout, "\n%s  your move\n", g)
		}
		if len(a.Moves) == 0 {
			if spotsTurn {
				fmt.Fprintln(stdout, "spots has no move left: you win.")
			} else {
				fmt.Fprintln(stdout, "You have no move left: spots wins.")
			}
			return 0
		}
		var m play.Move
		if spotsTurn {
			m = spotsMove(stdout, lib, a)
		} else {
			var quit, ok bool
			if m, quit, ok = humanMove(in, stdout, stderr, a); !ok {
				fmt.Fprintln(stdout, "\nThe input ended before the game did.")
				return 2
			}
			if quit {
				fmt.Fprintln(stdout, "You quit.")
				return 0
			}
			fmt.Fprintf(stdout, "you play %s\n", m.To)
		}
		g = m.To
		if a, err = lib.Analyze(ctx, g); err != nil {
			return fail(err)
		}
		spotsTurn = !spotsTurn
	}
}

// spotsMove chooses spots's move in a and says why.
func spotsMove(stdout io.Writer, lib *play.Library, a play.Analysis) play.Move {
	if len(a.Winning) > 0 {
		m := a.Moves[a.Winning[0]]
		fmt.Fprintf(stdout, "spots plays %s  (a proven win: its value is 0)\n", m.To)
		return m
	}
	m, replies, _ := lib.Toughest(a) // a has moves
	why := "no certificate covers this position"
	if a.Outcome == outcome.Loss {
		why = "the certificate proves this position lost for spots"
	}
	fmt.Fprintf(stdout, "spots has no proven winning move (%s) and plays %s  (it leaves you the fewest proven winning replies: %d)\n", why, m.To, replies)
	return m
}

// humanMove lists the moves of a, reads the human's choice and returns
// the move, or quit, or ok false when the input ended.
func humanMove(in *lineReader, stdout, stderr io.Writer, a play.Analysis) (m play.Move, quit, ok bool) {
	texts := make([]string, len(a.Moves))
	for i, mv := range a.Moves {
		texts[i] = mv.To.String()
		fmt.Fprintf(stdout, "  %2d  %s\n", i+1, texts[i])
	}
	for {
		fmt.Fprint(stdout, "> ")
		line, err := in.next()
		switch {
		case err == errLineTooLong:
			fmt.Fprintf(stdout, "That line is longer than %d bytes: enter a move's number, from 1 to %d, or q to quit.\n", maxLine, len(texts))
			continue
		case err != nil:
			if err != io.EOF {
				fmt.Fprintf(stderr, "%s: reading standard input: %v\n", name, err)
			}
			return play.Move{}, false, false
		}
		c, err := parseChoice(line, texts)
		if err != nil {
			fmt.Fprintf(stdout, "%v.\n", capitalize(err.Error()))
			continue
		}
		if c.quit {
			return play.Move{}, true, true
		}
		return a.Moves[c.move], false, true
	}
}

func capitalize(s string) string {
	if s != "" && 'a' <= s[0] && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}
