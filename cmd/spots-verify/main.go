// Command spots-verify checks proofs of Sprouts and Cram results.
//
// Usage:
//
//	spots-verify [--independent] [--json] FILE.arrow...
//	spots-verify --spr DB --claim CLAIM [--convert DIR | --independent] [--json]
//	spots-verify --dump FILE.arrow > rows.jsonl
//
// The first form checks certificates written by spots (hinted: one pass,
// no search), each with the rules of the game its header names (sprouts or
// cram). The second checks a GLOP/SPOTS [Positions+Nimber] text
// database against a claim such as '0*12=L', '0*12+*1=W' or 'gn(0*9)=1',
// searching for the witnesses the database leaves out; with --convert it
// then writes them, with only the entries the claim needs, as a certificate
// in DIR.
//
// By default the checker trusts package sprouts, the rules the solver
// uses too. --independent checks Sprouts certificates and databases with a
// second implementation of the rules (package verify/sprouts2), written
// apart and sharing no code with it, and ignores the hints (they name
// children in package sprouts' order): it searches for every witness, one
// or two moves deep, on every core. A single bug in the rules can then no
// longer make a false proof pass: it would have to be made twice, in two
// different ways. Verdicts, exit statuses and limits are those of the
// default check.
//
// Each input gives one line:
//
//	VALID    0*12=L  350383a8d4a2…  885 entries  0.10 s  certs/3503….arrow
//	INVALID  certs/bad.arrow: row 17 (0.AB|AB): reach: value 1: child 3 (…) has the value 0
//
// or with --json one object. With --dump the one certificate given is
// checked, and if valid its rows are written on standard output as JSON
// lines (format.Dump), for readers without Arrow. Exit status: 0 when everything is valid, 1
// when something is invalid, 2 for bad usage, an input that cannot be
// read, or an input refused by a limit:
//
//	REFUSED  big.arrow: refused: claim (0*100000): 300000 lives, over the limit of 1000 on lives (raise it with --max-lives)
//
// Input is untrusted, so before generating the children of any position
// (an entry, the claim's root, a land a hint names) the checker measures
// it and refuses it if it is over a limit: --max-lives, --max-boundaries,
// --max-letters (Sprouts), --max-cells (Cram), --max-moves (estimated
// moves to generate) and --max-work (estimated moves × bytes, for one
// generation and, for certificates, for all those of one entry). 0 keeps a default (verify.DefaultLimits; every
// certificate of the corpus passes them with a wide margin), -1 removes a
// limit.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/internal/cmdout"
	"github.com/spots-dev/spots/internal/cpuprofile"
	"github.com/spots-dev/spots/internal/interrupt"
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
	"github.com/spots-dev/spots/verify/sprouts2"
)

const usage = `usage: spots-verify [--independent] [--json] FILE.arrow...
       spots-verify --spr DB --claim CLAIM [--convert DIR | --independent] [--json]

Checks certificates of Sprouts or Cram results (the game is read from each
certificate's header), or a [Positions+Nimber] database of Sprouts
positions (GLOP, SPOTS) against a claim: POS=W, POS=L, POS+*N=W, POS+*N=L or
gn(POS)=N.

The default check trusts package sprouts (the rules the solver also uses)
and follows the certificate's hints. --independent (Sprouts only) trusts
instead a second implementation of the rules written apart from it
(verify/sprouts2), ignores the hints and searches for every witness, one
or two moves deep, on every core: a bug in one implementation of the rules
can no longer make a false proof pass.

Before expanding any position the checker measures it; a position over a
limit is refused (exit 2) with a message naming the limit and the --max-…
flag that raises it. 0 keeps the default, -1 removes the limit.

Examples:
  spots-verify certs/*.arrow
  spots-verify --independent certs/*.arrow
  spots-verify --dump certs/eacf849c….arrow > rows.jsonl   # rows without Arrow
  spots-verify --spr glop-db.txt --claim '0*12=L' --convert certs
  spots-verify --spr glop-db.txt --claim '0*12=L' --independent

Flags:
`

// exitCodes is the end of --help.
const exitCodes = `  0    every input valid
  1    an input invalid
  2    bad usage, an input that cannot be read, an input refused by a limit,
       or (--independent) a certificate of another game than Sprouts
  130  interrupted (SIGINT, SIGTERM): no partial file is left
`

// report is what is printed for one input.
type report struct {
	Input     string  `json:"path"`  // the file, as given
	OldInput  string  `json:"input"` // deprecated: path's former key (docs/json.md)
	Valid     bool    `json:"valid"`
	Claim     string  `json:"claim,omitempty"`
	Address   string  `json:"address,omitempty"`
	Entries   int     `json:"entries,omitempty"`
	Seconds   float64 `json:"seconds"`
	Converted string  `json:"converted,omitempty"`
	Error     string  `json:"error,omitempty"`
	Row       int     `json:"row,omitempty"`
	Position  string  `json:"position,omitempty"`
	Rule      string  `json:"rule,omitempty"`
	Refused   bool    `json:"refused,omitempty"` // a limit refused the input: neither valid nor invalid
	Limit     string  `json:"limit,omitempty"`   // the limit, e.g. "lives"
	// Independent: checked with the second implementation of the rules
	// (--independent); for a database, Entries counts those read and
	// Valid those found valid.
	Independent bool `json:"independent,omitempty"`
	ValidCount  int  `json:"valid_entries,omitempty"`
	// Cites is the number of certificates the certificate cites, Cited
	// the number it relies on, directly or not: all were checked, valid.
	Cites int `json:"cites,omitempty"`
	Cited int `json:"cited,omitempty"`

	unreadable  bool
	unsupported bool // --independent and a game it does not know
}

func main() { os.Exit(runMain()) }

// runMain is main without the exit: SIGINT and SIGTERM end the run with
// status 130 and no partial file, a failed write to standard output makes
// the status at least 1.
func runMain() int {
	stop := interrupt.ExitOnSignal("spots-verify", os.Stderr)
	defer stop()
	out := cmdout.New(os.Stdout)
	status := cmdline.JSONErrors("spots-verify", cmdline.WantsJSON(os.Args[1:]), out, os.Stderr, func(stdout, stderr io.Writer) int {
		return run(os.Args[1:], stdout, stderr)
	})
	return out.Status("spots-verify", status, os.Stderr)
}

func run(args []string, stdout, stderr io.Writer) int {
	c, status := parseArgs(args, stdout, stderr)
	if c == nil {
		return status
	}
	if msg := c.usageError(); msg != "" {
		return c.bad("%s", msg)
	}
	opt := verify.Options{Limits: c.limits, Independent: c.independent, Library: verify.NewLibrary(c.cites...)}
	p := &printer{w: stdout, json: c.json, prog: showProgress(c.progress.Unless(c.noProgress), stderr, &opt)}
	if err := c.checkOutputs(); err != nil {
		return c.bad("%v", err)
	}
	prof, err := cpuprofile.Start(c.profile)
	if err != nil {
		return c.bad("%v", err)
	}
	defer func() {
		if err := prof.Stop(); err != nil {
			fmt.Fprintf(stderr, "spots-verify: %v\n", err)
		}
	}()
	switch {
	case c.dump:
		return dump(c.flags.Args(), c.spr != "", opt, c.json, stdout, stderr)
	case c.bundle != "" || c.inline != "":
		p.prog.Clear()
		return export(c.flags.Args(), c.bundle+c.inline, c.inline != "", opt, c.json, stdout, stderr)
	case c.spr != "":
		claim, err := canonicalClaim(c.claim, c.independent)
		if err != nil {
			return c.bad("--claim: %v", err)
		}
		p.emit(checkDatabase(c.spr, claim, c.convert, c.lenient, opt, p.prog))
	case c.flags.NArg() == 0:
		fmt.Fprintln(stderr, "spots-verify: nothing to check: give certificate files, or --spr DB --claim CLAIM")
		c.flags.Usage()
		return 2
	default:
		var want *format.Claim
		if c.claim != "" {
			claim, err := canonicalClaim(c.claim, c.independent)
			if err != nil {
				return c.bad("--claim: %v", err)
			}
			want = &claim
		}
		for _, path := range c.flags.Args() {
			p.emit(expect(checkFile(path, opt), want, c.independent))
		}
	}
	return p.status
}

// checkOutputs refuses, before any work, a --cpuprofile that would
// overwrite an input (a certificate, --spr's database) or cannot be written.
func (c *commandLine) checkOutputs() error {
	inputs := []cmdline.File{{Flag: "--spr", Path: c.spr}}
	for _, a := range c.flags.Args() {
		inputs = append(inputs, cmdline.File{Path: a})
	}
	return cmdline.CheckOutputs(inputs, []cmdline.File{{Flag: "--cpuprofile", Path: c.profile}})
}

// commandLine is what the command line asks for.
type commandLine struct {
	flags                                  *pflag.FlagSet
	stderr                                 io.Writer
	spr, claim, convert, profile           string
	cites                                  []string // --cites
	bundle, inline                         string
	lenient, json, independent, noProgress bool
	dump                                   bool
	progress                               statusline.Mode
	limits                                 verify.Limits
}

// parseArgs reads the command line; it returns nil and the exit status
// when the run ends there (--help, --version, a flag it does not know).
func parseArgs(args []string, stdout, stderr io.Writer) (*commandLine, int) {
	c := &commandLine{flags: pflag.NewFlagSet("spots-verify", pflag.ContinueOnError), stderr: stderr}
	flags := c.flags
	flags.SetOutput(stderr)
	flags.StringVar(&c.spr, "spr", "", "check the [Positions+Nimber] database `DB` (needs --claim)")
	flags.StringVar(&c.claim, "claim", "", "the claim the database must prove, e.g. '0*12=L' or 'gn(0*9)=1'; with certificate files, the claim each must prove: a valid certificate of another claim is rejected")
	flags.StringVar(&c.convert, "convert", "", "with --spr: write the proof as a hinted certificate into `DIR` (made if missing)")
	flags.BoolVar(&c.lenient, "lenient", false, "with --spr: skip malformed lines with a warning")
	flags.BoolVar(&c.json, "json", false, "print one JSON object per input")
	flags.BoolVar(&c.independent, "independent", false, "check Sprouts inputs with the second, independent implementation of the rules (verify/sprouts2), searching for the witnesses instead of following the hints")
	flags.BoolVar(&c.noProgress, "no-progress", false, "do not show progress on standard error")
	_ = flags.MarkHidden("no-progress") // --progress none says it; kept for the scripts that use it
	flags.StringVar(&c.profile, "cpuprofile", "", "write a CPU profile of the run to `FILE` (for go tool pprof)")
	flags.BoolVar(&c.dump, "dump", false, dumpUsage)
	flags.StringArrayVar(&c.cites, "cites", nil, "look for the certificates a certificate cites in `DIR` too (after the certificate's own directory; repeatable)")
	flags.StringVar(&c.bundle, "bundle", "", "verify the one certificate given, then copy it and every certificate it cites, directly or not, into `DIR` (made if missing): the files a stranger needs")
	flags.StringVar(&c.inline, "inline", "", "verify the one certificate given, then write into `DIR` one self-contained certificate of its claim holding the rows of every certificate it cites (another address), and verify it alone")
	flags.Var(&c.progress, "progress", statusline.FlagUsage)
	limitFlags(flags, &c.limits)
	std := buildinfo.AddStd(flags)
	flags.Usage = func() { buildinfo.Usage(stderr, usage, flags, exitCodes) }
	if err := cmdline.Parse(flags, args); err != nil {
		fmt.Fprintf(stderr, "spots-verify: %v\n", err)
		return nil, 2
	}
	if std.Handle("spots-verify", stdout, func(w io.Writer) { buildinfo.Usage(w, usage, flags, exitCodes) }) {
		return nil, 0
	}
	return c, 0
}

// limitFlags binds the --max-… flags to l.
func limitFlags(flags *pflag.FlagSet, l *verify.Limits) {
	cmdline.LimitFlags(flags, l)
	flags.IntVar(&l.Entries, "max-entries", 0, fmt.Sprintf("with --spr: refuse a database of more entries than `N`, which bounds its memory (0: default %d, -1: no limit)", verify.DefaultLimits.Entries))
}

// usageError says what is wrong with the command line ("" if nothing).
func (c *commandLine) usageError() string {
	l := c.limits
	for _, f := range []struct {
		name string
		v    int64
	}{{"max-lives", int64(l.Lives)}, {"max-boundaries", int64(l.Boundaries)}, {"max-letters", int64(l.Letters)}, {"max-cells", int64(l.Cells)}, {"max-moves", l.Moves}, {"max-work", l.Work}, {"max-entries", int64(l.Entries)}} {
		if f.v < -1 {
			return fmt.Sprintf("--%s %d: want a positive number, 0 for the default or -1 for no limit", f.name, f.v)
		}
	}
	switch {
	case c.bundle != "" && c.inline != "":
		return "--bundle and --inline are two ways to write one proof: give one"
	case (c.bundle != "" || c.inline != "") && (c.dump || c.spr != ""):
		return "--bundle and --inline write the proof of a certificate file, not with --dump or --spr"
	case c.dump:
	case c.spr != "" && c.flags.NArg() > 0:
		return fmt.Sprintf("--spr checks one database; certificate files (%s) are checked without it", c.flags.Arg(0))
	case c.spr != "" && c.claim == "":
		return "--spr needs --claim, e.g. --claim '0*12=L'"
	case c.spr != "" && c.independent && c.convert != "":
		return "--convert writes the hints of package sprouts; --independent does not make them (check without --independent to convert)"
	case c.spr == "" && c.convert != "":
		return "--convert goes with --spr"
	}
	return ""
}

// bad reports a usage error: exit status 2.
func (c *commandLine) bad(msg string, a ...any) int {
	fmt.Fprintf(c.stderr, "spots-verify: "+msg+"\n", a...)
	return 2
}

// printer prints each verdict as soon as it is known (a long run shows
// its results as it goes) and keeps the exit status they make.
type printer struct {
	w      io.Writer
	json   bool
	prog   *statusline.Line
	status int
}

func (p *printer) emit(r report) {
	p.prog.Clear()
	print(p.w, r, p.json)
	switch {
	case r.unreadable:
		p.status = 2
	case !r.Valid && p.status == 0:
		p.status = 1
	}
}

// showProgress returns the status line of mode (nil for none) and makes
// opt.Progress show on it how many entries are checked.
func showProgress(mode statusline.Mode, stderr io.Writer, opt *verify.Options) *statusline.Line {
	prog := mode.New(stderr)
	if prog != nil {
		opt.Progress = func(done, total int) {
			of := ""
			if total > 0 {
				of = fmt.Sprintf(" of %d", total)
			}
			prog.Report(false, "verifying", progressFigures{Entries: int64(done), Of: int64(total)}, fmt.Sprintf("%d%s entries checked", done, of))
		}
	}
	return prog
}

// progressFigures are the figures of --progress json: entries checked
// (verifying) or bytes read (reading a database), of how many.
type progressFigures struct {
	Entries int64 `json:"entries,omitempty"`
	Bytes   int64 `json:"bytes,omitempty"`
	Of      int64 `json:"of,omitempty"`
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

// canonicalClaim parses a claim and writes its root in canonical form, so
// users may type any notation of the position. With independent the root
// is read by the second implementation of the rules and left as typed (it
// has no canonical form).
func canonicalClaim(s string, independent bool) (format.Claim, error) {
	c, err := format.ParseClaim(s)
	if err != nil {
		return c, err
	}
	if independent {
		_, err := sprouts2.Parse(c.Root)
		return c, err
	}
	p, err := sprouts.Parse(c.Root)
	if err != nil {
		return c, err
	}
	c.Root = p.String()
	return c, nil
}

func checkFile(path string, opt verify.Options) report {
	start := time.Now()
	res, err := verify.File(path, opt)
	r := report{Input: path, Claim: res.Claim.String(), Address: res.Address, Entries: res.Entries, Seconds: time.Since(start).Seconds(),
		Independent: opt.Independent, Cites: res.Cites, Cited: res.Cited}
	if res.Claim.Kind == 0 {
		r.Claim = ""
	}
	return finish(r, err)
}

func checkDatabase(path string, claim format.Claim, convert string, lenient bool, opt verify.Options, prog *statusline.Line) report {
	start := time.Now()
	r := report{Input: path, Claim: claim.String()}
	file, err := format.OpenInput(path)
	if err != nil {
		r.unreadable, r.Error = true, err.Error()
		return r
	}
	defer file.Close()
	f := &readProgress{r: file, path: path, prog: prog}
	if st, err := file.Stat(); err == nil {
		f.size = st.Size()
	}
	warn := func(e *format.LineError) { fmt.Fprintf(os.Stderr, "spots-verify: %s: skipping %v\n", path, e) }
	if opt.Independent {
		entries, err := readEntries(f, format.SPROptions{Lenient: lenient, Warn: warn}, opt.Limits)
		if verify.IsLimit(err) {
			r.Seconds = time.Since(start).Seconds()
			return finish(r, err)
		}
		if err != nil {
			r.unreadable, r.Error = true, fmt.Sprintf("%s: %v", path, err)
			return r
		}
		res, err := verify.CheckIndependent(entries, claim, opt)
		r.Seconds, r.Independent, r.Entries, r.ValidCount = time.Since(start).Seconds(), true, res.Entries, res.Valid
		if err != nil && !verify.IsInvalid(err) && !verify.IsLimit(err) {
			r.unreadable, r.Error = true, fmt.Sprintf("%s: %v", path, err)
			return r
		}
		return finish(r, err)
	}
	// Entries are measured against the limits as they are read: a file of
	// positions over them is refused at its first, not held whole.
	db, err := verify.ReadDatabase(f, format.SPROptions{Lenient: lenient, Warn: warn}, opt)
	if err != nil {
		r.Seconds = time.Since(start).Seconds()
		if verify.IsInvalid(err) || verify.IsLimit(err) {
			return finish(r, err)
		}
		r.unreadable, r.Error = true, fmt.Sprintf("%s: %v", path, err)
		return r
	}
	proof, err := db.Check(claim, opt)
	r.Seconds = time.Since(start).Seconds()
	if err != nil {
		return finish(r, err)
	}
	cert := proof.Certificate("spots-verify", buildinfo.Version())
	cert.Created = time.Now().UTC() // provenance, like the version: outside the address
	r.Entries, r.Address = len(cert.Entries), cert.Address()
	if convert != "" {
		out, err := "", os.MkdirAll(convert, 0o755) // as spots-solve --cert makes its DIR
		if err == nil {
			out, err = format.WriteCertificate(convert, cert, format.WriteOptions{})
		}
		if err != nil {
			r.unreadable, r.Error = true, fmt.Sprintf("--convert: %v", err)
			return r
		}
		if _, err := verify.File(out, opt); err != nil {
			return finish(r, fmt.Errorf("the converted certificate %s does not verify: %w", out, err))
		}
		r.Converted = out
	}
	return finish(r, nil)
}

// readEntries reads the entries of a database for the independent check,
// held to the limit on entries as verify.ReadDatabase holds them.
func readEntries(r io.Reader, opt format.SPROptions, l verify.Limits) ([]format.SPREntry, error) {
	var entries []format.SPREntry
	err := format.NewSPRReader(r, opt).Each(func(e format.SPREntry) error {
		if err := l.CheckEntries(e.Line, len(entries)+1); err != nil {
			return err
		}
		entries = append(entries, e)
		return nil
	})
	return entries, err
}

// finish records the verdict: valid, invalid (with the failing row), or an
// input that could not be read.
func finish(r report, err error) report {
	if err == nil {
		r.Valid = true
		return r
	}
	r.Error = err.Error()
	var f *verify.Failure
	if errors.As(err, &f) {
		r.Row, r.Position, r.Rule = f.Row, f.Position, f.Rule
	}
	var l *verify.LimitError
	if errors.As(err, &l) {
		r.Refused, r.Limit, r.Row, r.Position = true, l.Limit, l.Row, l.Position
		r.Error += fmt.Sprintf(" (raise it with --max-%s)", l.Limit)
	}
	if !verify.IsInvalid(err) {
		r.unreadable = true
	}
	r.unsupported = errors.Is(err, verify.ErrUnsupported)
	return r
}

func print(w io.Writer, r report, asJSON bool) {
	if asJSON {
		r.OldInput = r.Input
		b, _ := json.Marshal(r)
		fmt.Fprintf(w, "%s\n", b)
		return
	}
	switch {
	case r.Valid && r.Independent && r.Address == "":
		fmt.Fprintf(w, "VALID    %s  %d entries (%d valid)  %.2f s  %s  (independent rules)\n", r.Claim, r.Entries, r.ValidCount, r.Seconds, r.Input)
	case r.Valid && r.Independent:
		fmt.Fprintf(w, "VALID    %s  %s  %d entries  %.2f s  %s  (independent rules)%s\n", r.Claim, r.Address, r.Entries, r.Seconds, r.Input, citesNote(r))
	case r.Valid:
		fmt.Fprintf(w, "VALID    %s  %s  %d entries  %.2f s  %s%s\n", r.Claim, r.Address, r.Entries, r.Seconds, r.Input, citesNote(r))
		if r.Converted != "" {
			fmt.Fprintf(w, "         written as %s\n", r.Converted)
		}
	case r.unsupported:
		fmt.Fprintf(w, "UNSUPPORTED  %s: %s\n", r.Input, r.Error)
	case r.Refused:
		fmt.Fprintf(w, "REFUSED  %s: %s\n", r.Input, r.Error)
	case r.unreadable:
		// The reader's error may already begin with the path.
		fmt.Fprintf(w, "UNREADABLE  %s: %s\n", r.Input, strings.TrimPrefix(r.Error, r.Input+": "))
	default:
		fmt.Fprintf(w, "INVALID  %s: %s\n", r.Input, r.Error)
	}
}
