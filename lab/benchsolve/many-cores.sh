#!/usr/bin/env bash
# The scaling benchmark on a machine of many cores, from static binaries
# that `make bench-many-cores-build` put in bin/static (carry that folder to
# the machine; it needs no Go there). About 7 minutes on 16 cores:
#
#   1. 0*20: dfpn, dfpn on every core at once, plain spots-solve, pdfpn
#      with 8 and 16 threads and one-machine swarms of 3×5 and 15×1
#      solvers, one run each, with the targets' verdicts (benchsolve);
#   2. 0*21: plain spots-solve once. Its dfpn takes ten minutes and more
#      there, so its speedup is left to the reader: DFPN's iterations on
#      0*21 are the same on every machine (2,671,862 with the 10⁶-entry
#      table), and step 1 gives dfpn's CPU per iteration on 0*20 there.
#
# Every figure goes to standard output; keep it whole. Override with
# POS, THREADS, WORKERS, RUNS and LARGE (LARGE= skips step 2), e.g. on 2
# cores: POS=0*12 THREADS=2 WORKERS=2x1 LARGE=0*13 lab/benchsolve/many-cores.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=bin/static
POS=${POS-0*20}
THREADS=${THREADS-8,16}
WORKERS=${WORKERS-3x5,15x1}
RUNS=${RUNS-1}
LARGE=${LARGE-0*21}
for f in spots-solve spots-verify benchsolve; do
	[ -x "$bin/$f" ] || { echo "many-cores.sh: $bin/$f is missing: run make bench-many-cores-build first" >&2; exit 2; }
done
echo "# $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(free -g | awk '/Mem:/{print $2}') GiB; $(cat $bin/version.txt)"
echo "# load average before: $(cat /proc/loadavg)"
"$bin/benchsolve" -bin "$bin/spots-solve" -n "${POS#0\*}" -threads "$THREADS" -workers "$WORKERS" -runs "$RUNS"
if [ -n "$LARGE" ]; then
	echo
	echo "# $LARGE, plain spots-solve (the default mode on $(nproc) CPUs), with its --stats row:"
	stats=$(mktemp)
	start=$(date +%s.%N)
	"$bin/spots-solve" --progress none --json --stats "$stats" "$LARGE"
	echo "# wall $(echo "$(date +%s.%N) - $start" | bc) s"
	cat "$stats"
	rm -f "$stats"
fi
echo "# load average after: $(cat /proc/loadavg)"
