package main

import (
	"fmt"
	"io"

	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/verify"
)

// showProgress returns the status line of mode (nil for none) and makes
// opt.Progress show on it how many entries are checked.
func showProgress(mode statusline.Mode, stderr io.Writer, opt *verify.Options) *statusline.Line {
	prog := mode.New(stderr)
	if prog != nil {
		cert := "" // the cited certificate being checked, if one is
		opt.CitedProgress = func(k, n int, address string) {
			if k == 0 {
				cert = ""
				return
			}
			cert = fmt.Sprintf("cited certificate %d of %d (%s…): ", k, n, address[:min(12, len(address))])
			prog.Report(false, "verifying", progressFigures{Certificate: k, Certificates: n}, cert+"reading")
		}
		opt.Progress = func(done, total int) {
			of := ""
			if total > 0 {
				of = fmt.Sprintf(" of %d", total)
			}
			prog.Report(false, "verifying", progressFigures{Entries: int64(done), Of: int64(total)}, fmt.Sprintf("%s%d%s entries checked", cert, done, of))
		}
		opt.UsedProgress = func(done, found int) {
			if found == 0 {
				prog.Report(false, "citations", progressFigures{}, "reading the certificates cited")
				return
			}
			prog.Report(false, "citations", progressFigures{Entries: int64(done), Of: int64(found)},
				fmt.Sprintf("entries of cited certificates the claim uses: %d checked of %d found so far", done, found))
		}
	}
	return prog
}

// progressFigures are the figures of --progress json: entries checked
// (verifying) or bytes read (reading a database), of how many.
type progressFigures struct {
	// Certificate is the cited certificate being checked, the k-th of
	// Certificates.
	Certificate  int   `json:"certificate,omitempty"`
	Certificates int   `json:"certificates,omitempty"`
	Entries      int64 `json:"entries,omitempty"`
	Bytes        int64 `json:"bytes,omitempty"`
	Of           int64 `json:"of,omitempty"`
}

// readProgress passes the reads of a database through, showing on prog
// how much of its size has been read: reading a large one takes minutes.
type readProgress struct {
	r          io.Reader
	path       string
	done, size int64
	prog       *statusline.Line
}

func (rp *readProgress) Read(b []byte) (int, error) {
	n, err := rp.r.Read(b)
	rp.done += int64(n)
	rp.prog.Report(false, "reading", progressFigures{Bytes: rp.done, Of: rp.size},
		fmt.Sprintf("reading %s: %.1f of %.1f MB", rp.path, float64(rp.done)/1e6, float64(rp.size)/1e6))
	return n, err
}
