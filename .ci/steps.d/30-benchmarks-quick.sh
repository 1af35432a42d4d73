#!/usr/bin/env bash
# budget-minutes: 10
# Keeps the OSU-style benchmarks working: runs OsuLatency, OsuBandwidth and OsuBiBandwidth once
# each, tiny (--quick: 5 timed iterations per size), with byte[] and with direct buffers, on 2
# ranks through bin/mpirun, after the build that .ci/run has done. Checks that every size from
# 0 B to 4 MiB got a figure. Benchmarks are not tests: the figures themselves are not judged here
# (benchmarks/compare-openmpi measures them; see docs/benchmarks.md).
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
for program in OsuLatency OsuBandwidth OsuBiBandwidth; do
  for buffer in array direct; do
    out=$(mktemp)
    start=$(date +%s)
    if bin/mpirun -np 2 --timeout 180 -cp "$jar" "org.verbatim.benchmarks.$program" --quick \
        --buffer "$buffer" > "$out" 2>&1; then
      rows=$(grep -cE '^[0-9]+ +[0-9.]+$' "$out" || true)
      if [ "$rows" -eq 24 ] && grep -qE '^4194304 ' "$out"; then
        echo "ok   $program --buffer $buffer ($rows sizes, $(( $(date +%s) - start )) s)"
      else
        echo "FAIL $program --buffer $buffer: $rows sizes instead of 24 (0 B .. 4 MiB)"
        cat "$out"
        failed=1
      fi
    else
      echo "FAIL $program --buffer $buffer: exit status $?"
      cat "$out"
      failed=1
    fi
    rm -f "$out"
  done
done

# The plain programs of issue 17 (as a user writes them), tiny, and the per-message JMH benchmark
# for one short iteration: they must keep running (their figures come from compare-coldstart and
# benchmarks/per-message, not from here).
plain() { # expected-pattern, program and arguments
  local want=$1 out; shift
  out=$(mktemp)
  if bin/mpirun -np 2 --timeout 180 -cp "$jar" "org.verbatim.benchmarks.plain.$@" > "$out" 2>&1 \
      && grep -q "$want" "$out"; then
    echo "ok   plain $*"
  else
    echo "FAIL plain $*"; cat "$out"; failed=1
  fi
  rm -f "$out"
}
plain "first 1000:" PlainPingPong 8 100 1000 direct trace
plain "per half round trip" PlainPingPong 65536 10 20 array
plain "messages/s" PlainWindow 8 64 20 2
plain "per message" PhasedWindow 20 2
out=$(mktemp)
if benchmarks/per-message -f 1 -wi 0 -i 1 -r 200ms > "$out" 2>&1 \
    && grep -q "PerMessageOverhead.window:gc.alloc.rate.norm" "$out"; then
  echo "ok   per-message (JMH)"
else
  echo "FAIL per-message (JMH)"; tail -n 30 "$out"; failed=1
fi
rm -f "$out"
# compare-coldstart's yardstick: the machine's own core-to-core round trip (CPUs 0 and 1).
probe=$(mktemp)
if ! cc -O2 -Wall -pthread -o "$probe" benchmarks/src/main/c/core_latency.c; then
  echo "FAIL core_latency does not compile"; failed=1
elif probed=$("$probe" 2000 2>&1) && grep -qE '^core_latency_ns [0-9.]+ [0-9.]+ [0-9.]+$' <<< "$probed"; then
  echo "ok   core_latency ($probed)"
elif grep -q "not both available" <<< "$probed"; then
  echo "skip core_latency: $probed"
else
  echo "FAIL core_latency: $probed"; failed=1
fi
rm -f "$probe"
exit $failed
