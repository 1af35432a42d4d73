#!/usr/bin/env bash
# budget-minutes: 10
# Keeps OsuOneSided working: every test under every epoch kind, on a created and an allocated
# window, tiny (--iterations 5, up to 64 KiB), on 2 ranks through bin/mpirun after the build that
# .ci/run has done. Checks that every size got a figure. The figures are not judged here. Then
# OneSidedPatterns (overlap, halo, ping-pong) the same way: every size of every design a row.
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
for test in put-latency get-latency put-bw get-bw acc-latency fop-latency cas-latency; do
  for sync in lock flush fence pscw; do
    for win in create allocate; do
      out=$(mktemp)
      want=14 # 8 B .. 64 KiB
      case "$test" in fop-*|cas-*) want=1 ;; esac
      if bin/mpirun -np 2 --timeout 120 -cp "$jar" org.verbatim.benchmarks.OsuOneSided "$test" \
          --sync "$sync" --win "$win" --max 64k --iterations 5 --window 4 > "$out" 2>&1; then
        rows=$(grep -cE '^[0-9]+ +[0-9.]+$' "$out" || true)
        if [ "$rows" -eq "$want" ]; then
          echo "ok   OsuOneSided $test --sync $sync --win $win ($rows sizes)"
        else
          echo "FAIL OsuOneSided $test --sync $sync --win $win: $rows sizes instead of $want"
          cat "$out"; failed=1
        fi
      else
        echo "FAIL OsuOneSided $test --sync $sync --win $win: exit status $?"
        cat "$out"; failed=1
      fi
      rm -f "$out"
    done
  done
done
patterns() { # want args...: runs OneSidedPatterns, expects $want figure rows
  local want=$1 out rows
  shift
  out=$(mktemp)
  if bin/mpirun -np 2 --timeout 120 -cp "$jar" org.verbatim.benchmarks.OneSidedPatterns "$@" \
      --iterations 5 --warmup 5 > "$out" 2>&1; then
    rows=$(grep -cE '^[0-9]+ +[a-z0-9.-]+' "$out" || true)
    if [ "$rows" -eq "$want" ]; then
      echo "ok   OneSidedPatterns $* ($rows rows)"
    else
      echo "FAIL OneSidedPatterns $*: $rows rows instead of $want"
      cat "$out"; failed=1
    fi
  else
    echo "FAIL OneSidedPatterns $*: exit status $?"
    cat "$out"; failed=1
  fi
  rm -f "$out"
}
patterns 8 overlap --min 1K --max 4K   # 2 sizes x 4 designs
patterns 8 halo --neighbours 4 --compute 1 --min 1K --max 4K
patterns 8 halo --neighbours 8 --compute 1 --min 1K --max 4K --win allocate
for op in put get; do
  patterns 4 pingpong --op "$op" --aggregate false --min 8 --max 64
done
exit $failed
