// Package swarm solves a Sprouts position with PNS-PDFPN across machines,
// the distributed proof-number search of Čížek, Balko and Schmid: one
// master keeps a proof-number DAG of the top of the game and hands its
// leaves out as jobs; worker groups search them with DFPN (PDFPN with
// Params.Threads) and send back what they found, with every Grundy value
// they proved; the master grows its DAG from their reports and passes
// the values on to the other groups.
//
// # Who is who
//
// The master (Master) is one process. A worker group (Group) is one
// process too, usually one machine: Params.Grouping solvers that share a
// nimber database and one conversation with the master. Membership goes
// by gossip (StartMember, memberlist, encrypted with the swarm's key): a
// worker joins at the master's gossip address, learns the master's HTTP
// address from the gossip, and the master hears when a worker dies.
//
// # The exchange
//
// A group and the master talk only in exchanges, each an
// ExchangeRequest from the group answered by an ExchangeReply (HTTP:
// POST /v1/exchange, signed both ways with an HMAC of the swarm's key and
// bound to the master's run, a UUID new at every start of a master, which
// a group learns from a signed 409 reply; the body is a JSON header
// followed by the Grundy values as an Arrow IPC stream).
//
// The request carries the group's name, its solvers (Slots) and their
// threads, the epoch it last heard of, the reports of the jobs that ended
// a cycle since its last exchange (Completed), the jobs whose cycles still
// run (Running), the Grundy values its solvers proved since then
// (Nimbers), and which of the values it was sent its solvers looked up
// for the first time since then (Read, each by a hash of its key).
//
// The reply carries the master's run, the epoch, the jobs the group is to
// run (the next cycle of each job it reported on that goes on, and new
// jobs for its idle solvers), the running jobs it is to drop because the
// master no longer holds them for it (Drop), the values the group has not
// seen yet (Delta), the share of a cycle the master asks it to gather for
// (Gather), once the solve is over, Done, and at the start of an epoch
// whether the group may keep what it holds (Kept, with the values to
// forget), and whether the master did not take in the group's values
// (Unheard: the group is on probation, see Newcomers). After each
// exchange the two
// agree on the group's jobs: a group stopped past its lease drops the
// jobs the master took back and goes on with new ones, and a job whose
// reply was lost is taken back at the group's next exchange.
//
// A group exchanges when one of its solvers ends a cycle, after waiting up
// to Gather of that cycle for its other solvers (their reports then share
// one exchange); at least every third of Params.Lease otherwise, so that
// the master knows it is alive; and soon when it has no job. The master
// holds the request of a group it has no job for (Park)
// until a report frees a leaf, and then hands it out to the waiting
// groups first come, first served.
//
// # Jobs
//
// A job (JobSpec) is a leaf of the master's DAG, a position plus a nim
// heap, given to one solver of one group. It runs in cycles of at most
// MaxIterations iterations; after each the group reports the leaf's proof
// and disproof numbers, or its outcome, and its children as the solver
// expanded them (Report: a solve.Expansion with positions as text). The
// job goes on, under the same id, until it has run Params.Iterations or
// its leaf is solved (by the job, or by a value from elsewhere). Then the
// master expands the leaf with the reported children, and the group gets
// new jobs.
//
// The master chooses the leaves it hands out in this order:
//
//   - the leaves of its plan: the one proof of the outcome the root looks
//     like having that the proof numbers, taken as if no job ran, make the
//     most likely: one move of a couple the proof needs won, its move of
//     least disproof number as DFPN would take, and every move of a couple
//     it needs lost;
//   - once running jobs cover the plan, the most-proving leaf by the
//     lock-aware proof numbers of the paper: a leaf held by a job is
//     locked, and a couple takes its proof number from its unlocked
//     children only, so that busy parts stop attracting jobs.
//
// The length of jobs follows the size of the swarm. A small swarm runs
// the paper's long jobs, Params.Iterations (100,000) reported every
// Params.Updates (1,000): a solver's table pays off over a long job, and
// each report costs the master an exchange. From Params.LargeSwarm cores
// (256: the groups' solvers times their threads, counted as groups join
// and leave) so many long jobs spread over alternatives the proof never
// needs: jobs last Params.LargeIterations (500), and a group's next job is
// taken below the leaf of the job it ended (JobSpec.After), where its
// solver's table knows the positions, while that part still bears on the
// root. On a few cores such short jobs that follow dig into one part of
// the tree and multiply the work, which is why they wait for a large
// swarm.
//
// Each report costs the master time under the lock its exchanges take in
// turn (the work's: the DAG and the jobs; see Master), and a thousand
// solvers can ask for more than all of it. So the master paces the
// reports to its load (Params.Pace): past a high mark it first asks
// groups of several solvers to gather their reports, then makes cycles
// longer (and with them a large swarm's short jobs), for the part of its
// load that reports at cycles' ends make; under a low mark it makes them
// shorter again.
//
// # Newcomers
//
// Anyone who holds the swarm's key can join under a new name at every
// moment, take jobs and never report them (holding the leaves the proof
// needs next, those handed out first) or send lies. So a group is on
// probation until the master takes in a report of one of the jobs it
// holds for it (probation.go). Till then its jobs are trials: a trial's
// first cycle runs at an idle master's pace, and its lease
// (Params.Probation, 5 s, doubled after each trial the group let run out,
// up to Params.Lease) runs from when it was handed out, whatever the
// group says meanwhile; trials are at most as many as the jobs of the
// groups that proved themselves (and 4 while those hold fewer), a
// newcomer that finds no room waiting for a trial to end; and the master
// does not take in the values the group sends but with such a report
// (told so, the group sends them again with its next report). A
// stream of newcomers that take jobs and say no more, or only that they
// still run them, thus holds a bounded share of the leaves for a few
// seconds each, and one that joins only to lie is not heard; an honest
// group proves itself with its first cycle. Params.Probation 0 trusts
// every group from its first exchange.
//
// # Values
//
// Every Grundy value a group proves reaches the master with the group's
// next exchange (a group on probation sends it again with its first
// report). The master merges it into its database, settles the
// couples of its DAG that it decides, and sends it once to every other
// group, never back to its sender; a group that joins late is sent
// everything the master knows. A group that finds another master
// answering (the master restarted, perhaps from saved state) sends it all
// its values again.
//
// # What a master guarantees
//
//   - It believes nothing before it checks it. A request is authenticated
//     by its headers (HMAC, time stamp, a nonce accepted once) before its
//     body is read; bodies and the values in them are bounded, and a
//     malformed report costs the master nothing but its leaf, which is
//     handed out again.
//   - A request signed for an earlier run of the master (captured and
//     replayed after a restart) is refused before its body is read.
//   - A leaf is held by at most one job at a time, and a job by one
//     group. A group silent for longer than Params.Lease, or that the
//     gossip declares dead, loses its jobs, and their leaves are handed
//     out again; its late reports are ignored. So does a group on
//     probation that does not report a trial within its lease, silent
//     or not.
//   - Every join, expiry, loss, re-synchronisation and ban is an Event:
//     logged (Master.Log), kept (the status page) and
//     counted (MasterStats.Events, /metrics).
//   - A value records where it came from. The master looks for wrong
//     values while the solve goes on (its checks): a value that contradicts
//     the values of its position's children, or another group's value of
//     the same position, is settled by solving the position itself.
//   - An outcome a job reports settles its leaf at once, and is checked
//     later: an honest group sends the values that back it (its solvers
//     record the value of every atomic couple they prove lost), so a group
//     whose reported outcome the master's values do not back, or that it
//     finds wrong by solving the couple, is banned as a liar, and what
//     the master derived from its claims is dropped.
//   - It reports an outcome only once it is proved (its audit): a certificate
//     built from its values must pass the independent checker (package
//     verify). When it does not, the master drops the wrong values, every
//     value their senders sent and every value that may rest on them,
//     bans every sender that could not have taken its wrong value from
//     another's (ErrBanned; blame.go decides, testdata/blame shows how),
//     rebuilds its DAG and starts a new
//     epoch: a group that sees a new epoch forgets what it learned and its
//     jobs, and starts afresh, and what a group of an old epoch sends is
//     ignored. A value rests only on the values its group read before it
//     sent it (reads.go): of a group that reports its reads, the values
//     dropped are those it sent after it read a lie, and a group that read
//     none of what was dropped, nor sent any, keeps its values and tables
//     through the new epoch (ExchangeReply.Kept), stopping only its jobs.
//     When the DAG used none of the values dropped and no group that may
//     rest on them had an outcome taken into it, there is no new epoch
//     for all: the DAG and the jobs go on, the groups that keep what they
//     hold forget the values (ExchangeReply.Forget), and each of the
//     others starts afresh in an epoch of its own; so does a group that
//     reports reading a value dropped.
//     Supervise runs these checks for a master's whole solve.
//   - A master may draw on certificates (WithPool): their values are
//     input, not truth. The audit cites them instead of deriving them,
//     and checks every certificate its proof cites before it believes the
//     outcome; one that does not hold ends the solve (ErrCited). Groups
//     may draw on them too (WithGroupPool).
//   - Once the outcome is proved every group is told at its next
//     exchange, and a waiting group at once, that the solve is over.
//
// The master's DAG, its jobs and its values live in its memory; a
// master restarted from saved state (its database) starts a new DAG,
// under a new run, and hands out new jobs. Status serves what the master shows of a solve: a
// status page, JSON and Prometheus metrics, copied under the master's
// lock and rendered outside it.
package swarm
