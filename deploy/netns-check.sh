#!/usr/bin/env bash
# Runs the README's "Running on several machines" commands, read from the
# README itself, on three hosts of their own: Linux network namespaces on
# one bridge, with the README's addresses (master 10.0.0.1, workers
# 10.0.0.2 and 10.0.0.3), so that the swarm crosses a network that is not
# loopback. Then verifies the certificate the master wrote. Needs root and
# iproute2; removes what it made. Usage: deploy/netns-check.sh [POSITION]
# (default 0*12; the README's 0*20 takes a while on a small machine).
set -euo pipefail
cd "$(dirname "$0")/.."
pos=${1:-0*12}
[ "$(id -u)" = 0 ] || { echo "netns-check: needs root (ip netns)" >&2; exit 2; }
master=$(grep -m1 '^bin/spots-solve --algorithm swarm --listen 10.0.0.1' README.md)
worker=$(grep -m1 '^bin/spots-solve worker --join 10.0.0.1' README.md)
[ -n "$master" ] && [ -n "$worker" ] || { echo "netns-check: README.md has no master or worker command" >&2; exit 2; }
make -s build
work=$(mktemp -d)
tag=spn$$
cleanup() {
	for i in 1 2 3; do ip netns pids "$tag$i" 2>/dev/null | xargs -r kill 2>/dev/null || true; ip netns del "$tag$i" 2>/dev/null || true; done
	ip link del "$tag" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
ip link add "$tag" type bridge
ip link set "$tag" up
for i in 1 2 3; do
	ip netns add "$tag$i"
	ip link add "$tag-v$i" type veth peer name eth0 netns "$tag$i"
	ip link set "$tag-v$i" master "$tag" up
	ip -n "$tag$i" addr add "10.0.0.$i/24" dev eth0
	ip -n "$tag$i" link set eth0 up
	ip -n "$tag$i" link set lo up
done
(umask 077; openssl rand -hex 32 > "$work/swarm.key")
bin=$PWD/bin
# The README's position is the last word of the master's command.
master=${master% *}
(cd "$work" && ip netns exec "${tag}1" timeout 600 ${master/bin\//$bin/} "$pos" >master.out 2>master.err) &
mpid=$!
sleep 1
wpids=()
for i in 2 3; do
	cmd=${worker//10.0.0.2:/10.0.0.$i:}
	(cd "$work" && ip netns exec "$tag$i" timeout 600 ${cmd/bin\//$bin/} >"w$i.out" 2>"w$i.err") &
	wpids+=($!)
done
status=0
wait "$mpid" || status=$?
for p in "${wpids[@]}"; do wait "$p" || status=$?; done
cat "$work/master.out"
if [ "$status" != 0 ]; then
	tail -n 5 "$work"/*.err >&2
	exit "$status"
fi
"$bin/spots-verify" "$work"/certs/*.arrow
