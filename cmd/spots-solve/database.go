package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// loadDB reads a [Positions+Nimber] database into db, re-keying its
// positions under the canonical form. Positions may be in our notation or
// GLOP's. The file must be a regular file (format.OpenInput); it is read
// entry by entry, a line at most format.MaxSPRLine long, and the end of
// ctx stops the read. Two values for one position are refused.
func loadDB(ctx context.Context, db *solve.NimberDB, path string, lenient bool, stderr io.Writer) error {
	f, err := format.OpenInput(path)
	if err != nil {
		return err
	}
	defer f.Close()
	warn := func(e *format.LineError) { fmt.Fprintf(stderr, "spots-solve: --db-in %s: skipping %v\n", path, e) }
	sr := format.NewSPRReader(format.NewBoundedReader(f, path, format.Bounds{Ctx: ctx}), format.SPROptions{Lenient: lenient, Warn: warn})
	return sr.Each(func(e format.SPREntry) error {
		text, err := fromGLOP(e.Position)
		var p sprouts.Position
		if err == nil {
			p, err = sprouts.Parse(text)
		}
		if err != nil {
			le := &format.LineError{Line: e.Line, Text: e.Position, Reason: err.Error()}
			if lenient {
				warn(le)
				return nil
			}
			return le
		}
		if p.NumLands() != 1 {
			warn(&format.LineError{Line: e.Line, Text: e.Position, Reason: fmt.Sprintf("%s is not one land", p)})
			return nil
		}
		if g, ok := db.Get(p.Key()); ok && g != e.Grundy {
			return &format.LineError{Line: e.Line, Text: e.Position,
				Reason: fmt.Sprintf("gives %s the Grundy value %d, but an earlier line gives it %d", p, e.Grundy, g)}
		}
		db.Put(p.Key(), e.Grundy)
		return nil
	})
}

// saveDB writes db as a [Positions+Nimber] text file, as a checkpoint
// holds it.
func saveDB(db *solve.NimberDB, path string) error {
	entries, err := checkpoint.DBEntries(db)
	if err != nil {
		return err
	}
	return format.WriteSPRFile(path, entries)
}
