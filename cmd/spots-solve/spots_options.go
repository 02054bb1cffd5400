package main

import "github.com/spots-dev/spots/internal/cmdline"

// spotsForeign are the options of SPOTS (the reference solver) that
// spots-solve has no flag of its own for: accepted where they mean what
// spots-solve does anyway, refused otherwise with what to use instead, so
// that a script written for SPOTS fails with a message that helps.
// (--workers is an alias of --workers-local: spotsAliases.)
var spotsForeign = []cmdline.Foreign{
	{Name: "verbose", Bool: true, Accept: []string{"true"},
		Instead: "progress is shown without it (--progress text; --progress json for programs)"},
	{Name: "no_sharing", Bool: true,
		Instead: "the swarm's workers always share the Grundy values they find, through the master; leave the option out"},
	{Name: "state_level", Accept: []string{"0"},
		Instead: "workers keep their whole state between jobs, as SPOTS's --state_level 0 does; there are no other levels: leave the option out"},
	{Name: "address",
		Instead: "spots runs no Ray cluster: the master listens on --listen and --gossip, and workers join it with spots-solve worker --join HOST:PORT (spots-solve --algorithm swarm --help)"},
}
