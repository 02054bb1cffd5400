// Package corpus keeps the known outcomes of n-spot Sprouts (the games 0*n)
// in the repository, backed by certificates anyone can re-check.
//
// # Layout
//
// The corpus is a directory (corpus/ at the root of the repository) holding
// this package's source and its data:
//
//	literature.csv  the published table, n = 1…105, copied verbatim from the
//	                paper's data (columns n, outcome, first_solved_by,
//	                proof_size_grundy_numbers; outcome "?" and first_solved_by
//	                "unsolved" for open cases)
//	index.csv       one row per certificate we produced (see Record), sorted
//	                by n, then outcome claims before Grundy claims; its last
//	                columns, iterations and cites, are those of rows that
//	                fill them (older files, without them, still read)
//	certs/          the committed certificates, each named <address>.arrow
//	                by its content address (see package format)
//	<game>.csv      for each other registered game (package game) with a
//	                table: one row per certificate of one of its
//	                positions (see GameTable, GameRecord)
//	<game>/         their certificates, each named <address>.arrow
//	OUTCOMES.md     the generated table (Render), one row per n, and a
//	                section per game table
//	outcomes.svg    the generated plot: proof size (entries) beside the
//	                published proof sizes, certificate bytes, solve and
//	                verify times, against n
//	README.md       the same layout, for readers of the repository
//
// A certificate may be listed in the index without being committed: kept
// elsewhere, because it is over the size rule (MaxCertBytes for one
// certificate, MaxCorpusBytes for the whole directory) or by choice. Its
// row records its address, claim, entries, bytes and the command that
// makes it, and its committed column says no. Check verifies it when it is
// in one of the directories of CheckOptions.Elsewhere, as <address>.arrow,
// and reports it missing otherwise (which is not a problem).
//
// A certificate may cite others by content address (format
// spots-certificate/2) and rely on their entries: the corpus is then a DAG
// of citations, each certificate citing certificates of the corpus made
// before it (spots-corpus add draws on them). Its row's cites column lists
// the addresses it cites.
//
// # What it guarantees
//
// Check verifies every committed certificate with verify.File (so it trusts
// what package verify trusts: the rules in package sprouts and the decoders
// of package format), and reports as a Problem anything in which the files
// disagree: a listed certificate that is missing or invalid, a file in certs/
// that the index does not list, an address, claim, entry count or size that
// differs from the index, a certified claim that contradicts the literature
// or the Sprouts conjecture, a literature outcome that contradicts the
// conjecture, a committed certificate or a corpus over the size rule, a
// row whose cites differ from its certificate's, a citation of an address
// the index does not list (citations never point outside the corpus), and
// a committed certificate citing one kept elsewhere. A citing certificate
// is valid only with every certificate it cites, directly or not, each
// verified once per Check through one verify.Library. (CheckOptions.Sample
// verifies only a sample of the committed certificates, with all they
// cite, and finds the others.) The conjecture is that 0*n is a first-player win
// exactly when n mod 6 is 3, 4 or 5; in its extended form, that the Grundy
// value of 0*n is 0 when n mod 6 is 0, 1 or 2 and 1 otherwise.
//
// Generate builds OUTCOMES.md and outcomes.svg from the literature table,
// the index and a Check that found no problem, so only verified
// certificates contribute outcomes and Grundy values. A Check with
// CheckOptions.NoVerify trusts the certificates it finds as listed, for
// comparing the generated files right after a full Check, as
// spots-corpus regenerate --check --no-verify does. The times in them are
// those recorded in the index when each certificate was added, never
// measured again: generating from the same corpus twice gives the same
// bytes (Render, WriteMarkdown and WriteSVG depend only on their input).
//
// The games' tables are checked with the rest: every certificate of
// <game>/ is verified (with Sample, those within GameSampleSeconds) and
// compared with its row, every file of <game>/ must be listed, and every
// claim must agree with the game's strategy (game.Table.Strategy: for
// empty boards, the symmetry strategies) and with the other claims about
// the same position.
//
// The solving itself (spots-corpus add) is done by the command, not here:
// this package does not import the solver, so a check of the corpus depends
// only on the independent checker.
package corpus
