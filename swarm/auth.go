package swarm

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Key is the shared secret of a swarm: it signs every HTTP request and
// response (HMAC-SHA256) and encrypts the gossip.
type Key struct {
	mac    []byte // HMAC key
	gossip []byte // memberlist's AES-256 key
	status []byte // the bearer token of the status pages (statusToken)
}

// NewKey derives the swarm's keys from a passphrase.
func NewKey(passphrase string) (Key, error) {
	if len(passphrase) < 8 {
		return Key{}, fmt.Errorf("the swarm key must be at least 8 characters")
	}
	mac := sha256.Sum256([]byte("spots-swarm-http\x00" + passphrase))
	gossip := sha256.Sum256([]byte("spots-swarm-gossip\x00" + passphrase))
	status := sha256.Sum256([]byte(statusTokenPrefix + passphrase))
	return Key{mac: mac[:], gossip: gossip[:], status: status[:]}, nil
}

// statusTokenPrefix is what statusToken hashes before the passphrase.
const statusTokenPrefix = "spots-swarm-status\x00"

// statusToken returns the token that opens the master's status pages on
// its job port (HTTP Bearer, or Basic with any user name and the token as
// password): the hexadecimal SHA-256 of "spots-swarm-status", a zero byte
// and the passphrase, which a shell computes as
//
//	printf 'spots-swarm-status\000%s' "$KEY" | sha256sum
//
// It opens only the read-only status pages. Like the signatures on the
// wire, it reveals nothing of a key that cannot be guessed: not the key,
// nor the keys that sign jobs and encrypt gossip.
func (k Key) statusToken() string { return hex.EncodeToString(k.status) }

// Limits on what the master reads from a worker and a worker from the
// master.
const (
	// maxExchangeBody bounds the body of POST /v1/exchange (a group's
	// reports and Grundy values) and of the master's reply.
	maxExchangeBody = 64 << 20
	// maxClockSkew is how far a request's X-Spots-Time may be from the
	// master's clock; its nonce is remembered for as long.
	maxClockSkew = 5 * time.Minute
	// maxNonces bounds the nonces remembered at once: beyond it (more than
	// ~3,500 signed requests a second for ten minutes) requests are
	// refused until old nonces expire.
	maxNonces = 1 << 21
)

// The headers of a signed request: the time, a fresh random nonce, the
// master's run it is meant for, the body's length and SHA-256, and
// X-Spots-Auth, the HMAC of all of them with the method and path. The
// master checks them before it reads a byte of the body, then reads
// exactly that many bytes and checks their digest.
//
// The nonces a master has seen live in its memory, so a request captured
// before the master restarts could be replayed after it, were it not for
// the run: each master process has a run of its own (a random UUID,
// Master.Run), and it refuses a request signed for another run, with a
// signed 409 reply that names its own. The group's link then signs its
// request again for that run: a capture from an earlier run is never
// accepted.
const (
	hdrTime   = "X-Spots-Time"
	hdrNonce  = "X-Spots-Nonce"
	hdrRun    = "X-Spots-Run"
	hdrLength = "X-Spots-Length"
	hdrDigest = "X-Spots-Digest"
	hdrAuth   = "X-Spots-Auth"
)

// signedHeader is what a request's signature covers.
type signedHeader struct {
	method, path, stamp, nonce, run, length, digest string
}

func (k Key) signRequest(h signedHeader) string {
	m := hmac.New(sha256.New, k.mac)
	fmt.Fprintf(m, "request\n%s\n%s\n%s\n%s\n%s\n%s\n%s", h.method, h.path, h.stamp, h.nonce, h.run, h.length, h.digest)
	return hex.EncodeToString(m.Sum(nil))
}

// signResponse signs a reply to the request with the given nonce, so a
// reply cannot be replayed to another request.
func (k Key) signResponse(path, stamp, nonce string, body []byte) string {
	m := hmac.New(sha256.New, k.mac)
	sum := sha256.Sum256(body)
	fmt.Fprintf(m, "response\n%s\n%s\n%s\n%x", path, stamp, nonce, sum)
	return hex.EncodeToString(m.Sum(nil))
}

// setRequestHeaders signs a request whose body is body, for the master's
// run (empty when the sender does not know it yet: the master then
// answers with its run).
func (k Key) setRequestHeaders(hr *http.Request, body []byte, run string, now time.Time) (nonce string) {
	var nb [16]byte
	rand.Read(nb[:])
	sum := sha256.Sum256(body)
	h := signedHeader{method: hr.Method, path: hr.URL.Path, stamp: strconv.FormatInt(now.Unix(), 10),
		nonce: hex.EncodeToString(nb[:]), run: run, length: strconv.Itoa(len(body)), digest: hex.EncodeToString(sum[:])}
	hr.Header.Set(hdrTime, h.stamp)
	hr.Header.Set(hdrNonce, h.nonce)
	hr.Header.Set(hdrRun, h.run)
	hr.Header.Set(hdrLength, h.length)
	hr.Header.Set(hdrDigest, h.digest)
	hr.Header.Set(hdrAuth, k.signRequest(h))
	return h.nonce
}

func checkStamp(stamp string, now time.Time) error {
	sec, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil {
		return fmt.Errorf("no valid %s", hdrTime)
	}
	if d := now.Sub(time.Unix(sec, 0)); d > maxClockSkew || d < -maxClockSkew {
		return fmt.Errorf("%s is %v off", hdrTime, d.Round(time.Second))
	}
	return nil
}

func checkMAC(got, want string) error {
	w, err := hex.DecodeString(want)
	if err != nil {
		return err
	}
	sig, err := hex.DecodeString(got)
	if err != nil || !hmac.Equal(sig, w) {
		return errors.New("bad signature")
	}
	return nil
}

// checkRequest checks a request's signed headers (not its body) and
// returns the body's declared length.
func (k Key) checkRequest(r *http.Request, now time.Time) (int64, error) {
	h := signedHeader{method: r.Method, path: r.URL.Path, stamp: r.Header.Get(hdrTime), nonce: r.Header.Get(hdrNonce),
		run: r.Header.Get(hdrRun), length: r.Header.Get(hdrLength), digest: r.Header.Get(hdrDigest)}
	if err := checkStamp(h.stamp, now); err != nil {
		return 0, err
	}
	if len(h.nonce) != 32 {
		return 0, fmt.Errorf("no valid %s", hdrNonce)
	}
	if err := checkMAC(r.Header.Get(hdrAuth), k.signRequest(h)); err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(h.length, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("no valid %s", hdrLength)
	}
	return n, nil
}

var errTooManyNonces = errors.New("too many requests: try again later")

// replayGuard remembers the nonces of the signed requests of the last
// 2 × maxClockSkew: a request is accepted once.
type replayGuard struct {
	mu    sync.Mutex
	seen  map[string]time.Time // nonce → when it may be forgotten
	sweep time.Time
	limit int
}

func newReplayGuard(limit int) *replayGuard {
	return &replayGuard{seen: map[string]time.Time{}, limit: limit}
}

// fresh records nonce and reports whether it was new (and room was left).
func (g *replayGuard) fresh(nonce string, now time.Time) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if now.After(g.sweep) || len(g.seen) >= g.limit {
		for n, until := range g.seen {
			if now.After(until) {
				delete(g.seen, n)
			}
		}
		g.sweep = now.Add(maxClockSkew / 10)
	}
	if _, ok := g.seen[nonce]; ok {
		return errors.New("replayed request (its nonce was seen)")
	}
	if len(g.seen) >= g.limit {
		return errTooManyNonces
	}
	g.seen[nonce] = now.Add(2 * maxClockSkew)
	return nil
}
