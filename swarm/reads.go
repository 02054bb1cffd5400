package swarm

import "github.com/spots-dev/spots/solve"

// What a group read of the values it was sent. A group's value can rest
// only on values its solvers looked up before it sent it, so when an audit
// finds a lie, an honest group that was sent the lie but never looked it
// up (nor a value resting on it) keeps every value it sent; only those it
// sent after it read one are taken to rest on it (blame's taint). A group
// reports its reads with each exchange (ExchangeRequest.Read, from
// solve.NimberDB.TrackReads); one that does not, or reports more than it
// was sent, is taken to rest on everything it was sent.
//
// A report is the group's word: a liar can claim reads it never made, but
// only of values it was sent, which it could have read. That excuses a
// lie of more lives no more than the deliveries would, and taints only
// the liar's own values.

// readLog is what one group reported reading in the current epoch.
type readLog struct {
	// tracked: the group's requests of the epoch, of which there was at
	// least one, all reported reads, and no more of them than it was sent
	// values. untracked: one did not. Neither: it made none yet, and is
	// taken to rest on all it was sent.
	tracked, untracked bool
	sent               int               // the values the group was sent in the epoch
	first              map[uint64]uint64 // readHash of a value read → the exchange that first reported it
}

// readHash is the hash by which a group names a value it read, and the
// master a value it dropped: FNV-1a, 64 bits, of the key and the Grundy
// value. Two values of one hash make the audit take a group to have read
// both, which can only drop more of its values, never keep one that rests
// on a lie.
func readHash(e solve.NimberEntry) uint64 {
	// FNV-1a written out: the DAG hashes every value it looks up, and
	// hash/fnv would copy the key to write it.
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i := 0; i < len(e.Key); i++ {
		h = (h ^ uint64(e.Key[i])) * prime
	}
	for _, b := range [4]byte{byte(e.G >> 24), byte(e.G >> 16), byte(e.G >> 8), byte(e.G)} {
		h = (h ^ uint64(b)) * prime
	}
	return h
}

// readHashes returns the readHash of each entry.
func readHashes(entries []solve.NimberEntry) []uint64 {
	if len(entries) == 0 {
		return nil
	}
	out := make([]uint64, len(entries))
	for i, e := range entries {
		out[i] = readHash(e)
	}
	return out
}

// readLogOf returns group's read log of the epoch, made on first use.
// With mu held.
func (t *trail) readLogOf(group string) *readLog {
	r := t.reads[group]
	if r == nil {
		r = &readLog{first: map[uint64]uint64{}}
		t.reads[group] = r
	}
	return r
}

// noteReads records the reads of a request of the current epoch, made at
// exchange seq. A request that does not report them, or one that reports
// more reads than the group was sent values (a group reports each value
// once an epoch), leaves the group taken to rest on all it was sent. With
// mu held.
func (t *trail) noteReads(group string, req ExchangeRequest, seq uint64) {
	r := t.readLogOf(group)
	if r.untracked {
		return
	}
	if !req.TracksReads || len(r.first)+len(req.Read) > r.sent {
		r.tracked, r.untracked, r.first = false, true, nil
		return
	}
	r.tracked = true
	for _, h := range req.Read {
		if _, ok := r.first[h]; !ok {
			r.first[h] = seq
		}
	}
}

// readAt says when group may have begun to rest on the value e, sent to
// it at exchange sent: what it sent after the exchange returned. A group
// that reports its reads rests on it only once it read it: what it sent
// with the report of the read and after. ok is false when it never read
// it.
func (r *readLog) readAt(e solve.NimberEntry, sent uint64) (after uint64, ok bool) {
	if r == nil || !r.tracked {
		return sent, true
	}
	seq, ok := r.first[readHash(e)]
	if !ok {
		return 0, false
	}
	return max(sent, seq-1), true
}

// readAny reports whether any of read is in set.
func readAny(read []uint64, set map[uint64]bool) bool {
	for _, h := range read {
		if set[h] {
			return true
		}
	}
	return false
}

// restartEpoch makes group alone start afresh: its jobs are taken back,
// it has an epoch of its own, so that what it sends before it hears of it
// is ignored, and it is sent every value (restart). With the locks of the
// roster, the work, the sharing and the trail held.
func (m *Master) restartEpoch(group string) {
	if c := m.work.crews[group]; c != nil {
		for id, j := range c.jobs {
			m.release(id, j)
		}
	}
	if g := m.members.members[group]; g != nil {
		m.members.restartEpoch(g)
	}
	all, arrived := m.work.allValues()
	m.share.resend(m.share.boxOf(group), all, arrived)
	delete(m.trail.reads, group)
}

// hashSet returns hashes as a set.
func hashSet(hashes []uint64) map[uint64]bool {
	set := make(map[uint64]bool, len(hashes))
	for _, h := range hashes {
		set[h] = true
	}
	return set
}
