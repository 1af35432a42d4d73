#!/usr/bin/env bash
# budget-minutes: 30
# Scale: one job of 64 ranks on this host runs mpi-tests' collectives program to the end, over shm
# and again with every pair over tcp (4,032 connections opened on demand); every rank must pass
# every check, and the job must end cleanly (no file left in /dev/shm). Prints the wall time and
# the profiler's communication memory per rank.
set -euo pipefail
cd "$(dirname "$0")/../.."

cp="mpi-tests/target/test-classes"
failed=0
for transport in shm tcp; do
  out=$(mktemp)
  start=$(date +%s)
  status=0
  env=(-x VERBATIM_CORE_PROFILE=true)
  [ "$transport" = tcp ] && env+=(-x VERBATIM_CORE_TRANSPORTS=tcp)
  bin/mpirun -np 64 --timeout 1200 "${env[@]}" -Xmx96m -cp "$cp" \
      org.verbatim.mpitests.CollectivesProgram > "$out" 2>&1 || status=$?
  seconds=$(( $(date +%s) - start ))
  passed=$(grep -cE '^SUMMARY rank [0-9]+ passed=[0-9]+ failed=0$' "$out" || true)
  memory=$(grep -oE 'communication memory +[0-9]+ bytes \(avg [0-9]+' "$out" | grep -oE '[0-9]+$' || true)
  left=$(ls /dev/shm | grep -c '^verbatim-' || true)
  if [ "$status" = 0 ] && [ "$passed" = 64 ]; then
    echo "ok   64 ranks over $transport: ${seconds} s, communication memory ${memory:-?} bytes per rank"
  else
    echo "FAIL 64 ranks over $transport: status $status, $passed of 64 ranks passed every check"
    grep -E '^FAIL|Exception|mpirun:' "$out" | head -40 || true
    failed=1
  fi
  if [ "$left" != 0 ]; then
    echo "FAIL $left verbatim files left in /dev/shm"
    failed=1
  fi
  rm -f "$out"
done
exit $failed
