package swarm

import (
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"strings"
)

// The paths of the status pages.
const (
	statusPath     = "/status"      // the HTML page
	statusJSONPath = "/status.json" // StatusReport as JSON
	metricsPath    = "/metrics"     // Prometheus metrics
)

// routeStatus adds the status pages of st to mux, each wrapped by guard.
// The patterns name GET (which also answers HEAD): the mux refuses other
// methods with 405 Method Not Allowed.
func routeStatus(mux *http.ServeMux, st *Status, guard func(http.Handler) http.Handler) {
	mux.Handle("GET "+statusPath, guard(http.HandlerFunc(st.servePage)))
	mux.Handle("GET "+statusJSONPath, guard(http.HandlerFunc(st.serveJSON)))
	mux.Handle("GET "+metricsPath, guard(st.MetricsHandler()))
}

// requireToken passes on the requests that carry the status token of key
// (Authorization: Bearer TOKEN, or Basic with the token as password) and
// refuses the others with 401, asking a browser for a password.
func requireToken(key Key, h http.Handler) http.Handler {
	want := []byte(key.statusToken())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var got string
		if _, pass, ok := r.BasicAuth(); ok {
			got = pass
		} else if a := r.Header.Get("Authorization"); len(a) > 7 && strings.EqualFold(a[:7], "bearer ") {
			got = strings.TrimSpace(a[7:])
		}
		if len(want) == 0 || subtle.ConstantTimeCompare([]byte(got), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Basic realm="spots swarm status (password: the status token)"`)
			http.Error(w, "unauthorized: the status pages need the swarm's status token (see spots-solve --help, --status-listen)", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// LoopbackStatusHandler serves the status pages of st without a key, for a
// listener bound to a loopback address (--status-listen): GET / (the page),
// /status, /status.json and /metrics. As a second fence it refuses (403)
// a request from an address that is not loopback, and one whose Host is
// not a loopback name or address (a web page that rebinds its own name to
// 127.0.0.1 cannot read it through a browser). Other methods get 405.
func LoopbackStatusHandler(st *Status) http.Handler {
	mux := http.NewServeMux()
	page := http.HandlerFunc(st.servePage)
	mux.Handle("GET /{$}", page)
	routeStatus(mux, st, func(h http.Handler) http.Handler { return h })
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopbackHostPort(r.RemoteAddr) {
			http.Error(w, fmt.Sprintf("forbidden: %s is not a loopback address", r.RemoteAddr), http.StatusForbidden)
			return
		}
		if !loopbackHostPort(r.Host) {
			http.Error(w, fmt.Sprintf("forbidden: host %q is not a loopback name", r.Host), http.StatusForbidden)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// IsLoopback reports whether host (a name or an address, without a port)
// is "localhost" or a loopback address.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	return ip != nil && ip.IsLoopback()
}

// loopbackHostPort is IsLoopback of a "host:port" or a bare host.
func loopbackHostPort(hp string) bool {
	if host, _, err := net.SplitHostPort(hp); err == nil {
		return IsLoopback(host)
	}
	return IsLoopback(hp)
}
