package swarm

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestDeadWorkerEvents: a worker group that dies does not vanish from the
// status page unsaid. One the gossip declares dead (DropGroup) is a loss,
// one silent past its lease an expiry; each event names the group and the
// jobs taken back, and the page lists both and counts them, while the
// groups themselves are gone from its table of workers.
func TestDeadWorkerEvents(t *testing.T) {
	m, p, now := clockedMaster(t)
	for _, g := range []string{"dead", "silent"} {
		if reply, err := m.Exchange(ExchangeRequest{Group: g, Slots: 2, Resync: true}); err != nil || len(reply.Jobs) != 2 {
			t.Fatalf("%s: %d jobs, %v", g, len(reply.Jobs), err)
		}
	}
	if n := m.DropGroup("dead"); n != 2 {
		t.Fatalf("DropGroup took %d jobs back, want 2", n)
	}
	*now = now.Add(p.Lease + time.Second)
	if n := m.expire(); n != 2 {
		t.Fatalf("Expire took %d jobs back, want 2", n)
	}
	events := m.eventsNow()
	if len(events) != 4 || events[2].Kind != eventLoss || events[2].Group != "dead" || events[2].Jobs != 2 ||
		events[3].Kind != eventExpire || events[3].Group != "silent" || events[3].Jobs != 2 {
		t.Fatalf("events %+v, want two joins, the loss of dead and the expiry of silent, 2 jobs each", events)
	}
	rec := httptest.NewRecorder()
	NewStatus(m, StatusOptions{}).servePage(rec, httptest.NewRequest(http.MethodGet, statusPath, nil))
	page := rec.Body.String()
	for _, want := range []string{
		"join 2, expire 1, loss 1",
		"<td class=\"l\">loss</td><td class=\"l\">dead</td><td class=\"l\">the gossip says it left or died; 2 jobs taken back</td>",
		"<td class=\"l\">expire</td><td class=\"l\">silent</td><td class=\"l\">silent for 1m1s, longer than its lease of 1m0s; 2 jobs taken back</td>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the status page lacks %q:\n%s", want, page)
		}
	}
	if r := NewStatus(m, StatusOptions{}).report(); len(r.Workers) != 0 {
		t.Errorf("workers %+v: the dead groups are still listed", r.Workers)
	}
}
