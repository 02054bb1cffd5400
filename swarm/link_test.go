package swarm

import "context"

// localLink connects a group to a master in the same process.
type localLink struct{ Master *Master }

// Exchange calls the master directly; a group left without a job waits
// there for one, as over HTTP.
func (l localLink) Exchange(ctx context.Context, req ExchangeRequest) (ExchangeReply, error) {
	return l.Master.exchangeWait(ctx, req, parkFor)
}
