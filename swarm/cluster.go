package swarm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/memberlist"
)

// Meta is what a process of the swarm tells the others about itself
// through the membership layer.
type Meta struct {
	Role     string `json:"role"`           // "master" or "worker"
	HTTP     string `json:"http,omitempty"` // the master's job address (host:port)
	Grouping int    `json:"grouping,omitempty"`
	Threads  int    `json:"threads,omitempty"`
	Version  string `json:"version,omitempty"`
}

// Member is this process's membership of the swarm: a memberlist node with
// encrypted gossip. The master learns from it which groups die; workers
// find the master through it.
type Member struct {
	ml   *memberlist.Memberlist
	meta []byte
}

// MemberConfig configures StartMember.
type MemberConfig struct {
	Name string // unique in the swarm; a worker's name is its group's
	Bind string // host:port for gossip; port 0 picks a free one
	Key  Key
	Meta Meta
	Join []string // gossip addresses of members to join; none for the first
	// JoinWait is how long to keep trying to join while nothing answers at
	// the Join addresses (the master may not be up yet).
	JoinWait time.Duration
	OnJoin   func(name string) // called when a member joins (may be nil)
	OnDead   func(name string) // called when a member leaves or is declared dead (may be nil)
	Log      io.Writer         // memberlist's own log (nil: discarded)
}

// StartMember creates this process's node and joins the swarm. The end of
// ctx stops the wait for the Join addresses at once, with ctx's error.
func StartMember(ctx context.Context, cfg MemberConfig) (*Member, error) {
	host, portStr, err := net.SplitHostPort(cfg.Bind)
	if err != nil {
		return nil, fmt.Errorf("gossip address %q: %w", cfg.Bind, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil {
		return nil, fmt.Errorf("gossip address %q: bad port", cfg.Bind)
	}
	meta, err := json.Marshal(cfg.Meta)
	if err != nil {
		return nil, err
	}
	m := &Member{meta: meta}
	c := memberlist.DefaultLocalConfig()
	c.Name = cfg.Name
	c.BindAddr, c.BindPort = host, port
	c.AdvertiseAddr, c.AdvertisePort = host, port
	c.SecretKey = cfg.Key.gossip
	c.Delegate = m
	c.Events = &events{onJoin: cfg.OnJoin, onDead: cfg.OnDead}
	logOut := cfg.Log
	if logOut == nil {
		logOut = io.Discard
	}
	c.Logger = log.New(logOut, "memberlist: ", log.LstdFlags)
	// Notice a dead or hung process within a few seconds on a LAN.
	c.ProbeInterval = 500 * time.Millisecond
	c.ProbeTimeout = 300 * time.Millisecond
	c.SuspicionMult = 2
	ml, err := memberlist.Create(c)
	if err != nil {
		return nil, fmt.Errorf("gossip on %s: %w", cfg.Bind, err)
	}
	m.ml = ml
	if len(cfg.Join) > 0 {
		deadline := time.Now().Add(cfg.JoinWait)
		for {
			_, err := ml.Join(cfg.Join)
			if err == nil {
				break
			}
			if !unreachable(err) || time.Now().After(deadline) {
				ml.Shutdown()
				if unreachable(err) {
					return nil, fmt.Errorf("joining the swarm at %v: %w: nothing answers there: %w", cfg.Join, ErrNoMaster, err)
				}
				return nil, fmt.Errorf("joining the swarm at %v: %w (is the key right?)", cfg.Join, err)
			}
			select {
			case <-time.After(250 * time.Millisecond):
			case <-ctx.Done():
				ml.Shutdown()
				return nil, fmt.Errorf("joining the swarm at %v: %w", cfg.Join, ctx.Err())
			}
		}
	}
	if port == 0 {
		// The port the system chose, so callers can tell others.
		m.meta = meta
	}
	return m, nil
}

// unreachable reports whether a failed join found nothing to talk to (no
// process at the address, or no address yet for its name, as while a
// Kubernetes Service has no ready endpoint): the master may be starting,
// and the join is worth trying again. Any other failure (a wrong key) is
// final.
func unreachable(err error) bool {
	msg := err.Error()
	for _, s := range []string{"connection refused", "no such host", "i/o timeout", "no route to host", "server misbehaving"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// Addr returns the gossip address this node listens on.
func (m *Member) Addr() string {
	n := m.ml.LocalNode()
	return net.JoinHostPort(n.Addr.String(), strconv.Itoa(int(n.Port)))
}

// Rejoin contacts the given members again (after the master restarted).
func (m *Member) Rejoin(addrs []string) error {
	_, err := m.ml.Join(addrs)
	return err
}

// MemberInfo is one member of the swarm as this node's gossip sees it.
type MemberInfo struct {
	Name  string `json:"name"`
	Addr  string `json:"addr"`  // gossip address
	State string `json:"state"` // "alive", "suspect", "dead" or "left"
	Meta
}

// Members returns the members this node's gossip holds alive or suspect,
// itself included, in no particular order (dead and departed members are
// not kept). A member whose meta does not parse is listed with an empty
// Meta.
func (m *Member) Members() []MemberInfo {
	nodes := m.ml.Members()
	out := make([]MemberInfo, 0, len(nodes))
	for _, n := range nodes {
		info := MemberInfo{Name: n.Name, Addr: net.JoinHostPort(n.Addr.String(), strconv.Itoa(int(n.Port))), State: stateName(n.State)}
		json.Unmarshal(n.Meta, &info.Meta)
		out = append(out, info)
	}
	return out
}

func stateName(s memberlist.NodeStateType) string {
	switch s {
	case memberlist.StateAlive:
		return "alive"
	case memberlist.StateSuspect:
		return "suspect"
	case memberlist.StateDead:
		return "dead"
	case memberlist.StateLeft:
		return "left"
	}
	return "unknown"
}

// Leave tells the others this node is going and stops it.
func (m *Member) Leave() {
	m.ml.Leave(time.Second)
	m.ml.Shutdown()
}

// NodeMeta implements memberlist.Delegate.
func (m *Member) NodeMeta(limit int) []byte {
	if len(m.meta) > limit {
		return nil
	}
	return m.meta
}

// NotifyMsg implements memberlist.Delegate; the swarm sends no messages by
// gossip.
func (m *Member) NotifyMsg([]byte) {}

// GetBroadcasts implements memberlist.Delegate.
func (m *Member) GetBroadcasts(overhead, limit int) [][]byte { return nil }

// LocalState implements memberlist.Delegate.
func (m *Member) LocalState(join bool) []byte { return nil }

// MergeRemoteState implements memberlist.Delegate.
func (m *Member) MergeRemoteState(buf []byte, join bool) {}

type events struct {
	onJoin, onDead func(string)
}

func (e *events) NotifyJoin(n *memberlist.Node) {
	if e.onJoin != nil {
		e.onJoin(n.Name)
	}
}

func (e *events) NotifyLeave(n *memberlist.Node) {
	if e.onDead != nil {
		e.onDead(n.Name)
	}
}

func (e *events) NotifyUpdate(*memberlist.Node) {}
