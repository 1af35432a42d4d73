#!/usr/bin/env bash
# budget-minutes: 8
# Keeps the OSU-style collective benchmarks working: runs OsuCollective once per collective
# (barrier, bcast, reduce, allreduce, gather, scatter, allgather, alltoall, reduce_scatter), tiny
# (--quick: 5 timed iterations per size), on 2 ranks through bin/mpirun, after the build that
# .ci/run has done; with arrays, and with direct buffers for allreduce and bcast. Checks that
# every size from 4 B to 1 MiB (one row for the barrier) got a figure. Benchmarks are not tests:
# the figures themselves are not judged here (benchmarks/compare-collectives measures them; see
# docs/benchmarks.md).
set -euo pipefail
cd "$(dirname "$0")/../.."

jar=""
for f in benchmarks/target/verbatim-benchmarks-*.jar; do
  case "$f" in *-sources.jar|*-tests.jar|*-javadoc.jar) continue ;; esac
  [ -f "$f" ] && jar="$f" && break
done
if [ -z "$jar" ]; then
  echo "benchmarks jar not built (benchmarks/target/verbatim-benchmarks-*.jar)"
  exit 1
fi

failed=0
run() { # op buffer
  local op=$1 buffer=$2 out start rows want=19 last=1048576
  [ "$op" = barrier ] && want=1 last=0
  out=$(mktemp)
  start=$(date +%s)
  if bin/mpirun -np 2 --timeout 120 -cp "$jar" org.verbatim.benchmarks.OsuCollective --op "$op" \
      --quick --buffer "$buffer" > "$out" 2>&1; then
    rows=$(grep -cE '^[0-9]+ +[0-9.]+$' "$out" || true)
    if [ "$rows" -eq "$want" ] && grep -qE "^$last " "$out"; then
      echo "ok   OsuCollective --op $op --buffer $buffer ($rows sizes, $(( $(date +%s) - start )) s)"
    else
      echo "FAIL OsuCollective --op $op --buffer $buffer: $rows sizes instead of $want"
      cat "$out"
      failed=1
    fi
  else
    echo "FAIL OsuCollective --op $op --buffer $buffer: exit status $?"
    cat "$out"
    failed=1
  fi
  rm -f "$out"
}
for op in barrier bcast reduce allreduce gather scatter allgather alltoall reduce_scatter; do
  run "$op" array
done
run allreduce direct
run bcast direct
exit $failed
