package main

import "github.com/spots-dev/spots/corpus"

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
