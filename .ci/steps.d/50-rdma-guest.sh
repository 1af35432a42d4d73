#!/usr/bin/env bash
# budget-minutes: 80
# CI step: the RDMA test bed (docs/rdma-guest.md). Prepares the QEMU guest from Debian packages
# (idempotent: the cache in scripts/rdma-guest/cache/ is reused when present), then runs inside
# one guest: ibv_devices (must list rxe0 and siw0), the verbs-binding availability probe (must
# report both), the perftest baseline, and the JUnit tests tagged "rdma" (built on the host, run in
# the guest by scripts/rdma-guest/junit-direct without Maven); then two guests: a smoke test (rxe and siw across the QEMU socket network) and a true two-host MPI run
# (scripts/rdma-guest/mpi-two-hosts: PointToPointProgram and CollectivesProgram with ib forced and
# with iwarp forced (the iwarp collectives job by hand: see below), hybrid shm + ib, shm + tcp and
# shm + iwarp, each one job over both guests
# through mpirun --listen / --join). Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd -P)

rdma_modules() { # the modules that have test classes tagged "rdma"
  grep -rlE '@Tag\("rdma"\)' --include='*.java' */src/test 2>/dev/null | sed -n 's|^\([^/]*\)/src/test/.*|\1|p' | sort -u
}
# Test classes left out (simple class names, space-separated; run them by hand with
# scripts/rdma-guest/junit-direct). Empty by default. IwarpPointToPointTest was left out while
# its jobs took about 5 minutes each on a loaded host; alone in the single-threaded TCG guest a
# job took 92-100 s (2026-11-27), so it runs again (docs/transport-iwarp.md, Runs).
RDMA_CI_SKIP=${RDMA_CI_SKIP-}
rdma_classes() { # $1 = module: its test classes tagged "rdma", less RDMA_CI_SKIP
  local skip c
  for c in $(grep -rlE '@Tag\("rdma"\)' --include='*.java' "$1/src/test/java" \
      | sed 's|^.*/src/test/java/||; s|\.java$||; s|/|.|g' | sort); do
    skip=0
    for s in $RDMA_CI_SKIP; do [ "${c##*.}" = "$s" ] && skip=1; done
    [ "$skip" -eq 0 ] && echo "$c"
  done
}

if [ "${1:-}" = --in-guest ]; then
  # ---- inside the guest (started below through scripts/rdma-guest/run) ----
  passed=0 failed=0
  check() { # $1 = name, then the command; prints its output and a verdict line
    local name=$1 t0=$SECONDS rc
    shift
    echo "--- [$name]"
    "$@"
    rc=$?
    if [ "$rc" -eq 0 ]; then
      passed=$((passed + 1)); echo "--- [$name] ok ($((SECONDS - t0)) s)"
    else
      failed=$((failed + 1)); echo "--- [$name] FAILED, status $rc ($((SECONDS - t0)) s)"
    fi
  }
  devices() {
    local out
    out=$(ibv_devices) || return 1
    echo "$out"
    grep -qw rxe0 <<< "$out" && grep -qw siw0 <<< "$out"
  }
  probe() {
    local jdk slf out
    jdk=$(bin/jdk-home) || return 1
    slf=$(sed -n 's:.*<slf4j.version>\(.*\)</slf4j.version>.*:\1:p' pom.xml | head -n 1)
    out=$(timeout 300 "$jdk/bin/java" --enable-native-access=ALL-UNNAMED \
      -cp "verbs-binding/target/classes:$HOME/.m2/repository/org/slf4j/slf4j-api/$slf/slf4j-api-$slf.jar" \
      org.verbatim.verbs.VerbsAvailability 2>&1)
    echo "$out"
    grep -q '^devices:.*rxe0' <<< "$out" && grep -q '^devices:.*siw0' <<< "$out"
  }
  rdma_tests() {
    # Maven under TCG recompiled the reactor for 25 minutes before the first test, so the host
    # built the test classes and class paths (scripts/rdma-guest/junit-direct) and JUnit runs
    # here straight on them: one JVM per module, only the tests tagged "rdma", each module
    # within its share of the time.
    local mods mod rc=0 t0
    mods=$(rdma_modules)
    if [ -z "$mods" ]; then
      echo "no tests tagged rdma yet: nothing to run"
      return 0
    fi
    for mod in $mods; do
      t0=$SECONDS
      echo "--- $mod: $(rdma_classes "$mod" | sed 's/.*\.//' | paste -sd' ' -)"
      JUNIT_DIRECT_TAGS=rdma timeout "${RDMA_MODULE_LIMIT:-2700}" scripts/rdma-guest/junit-direct "$mod" \
        $(rdma_classes "$mod") || { rc=$?; echo "--- $mod: FAILED, status $rc"; }
      echo "--- $mod: $((SECONDS - t0)) s"
    done
    return $rc
  }
  diagnose() { # $1 = result file; after a failed test run: what the tail of a CI log must show (printed last)
    local f
    echo "=== diagnostics of the failed rdma-tests run"
    free -m
    dmesg 2>/dev/null | grep -iE 'out of memory|oom|killed process|segfault|general protection' | tail -n 20
    # what the soft RDMA drivers said (siw and rxe warn about the protocol errors they end a connection for)
    dmesg 2>/dev/null | grep -iE 'siw|rxe|rdma' | tail -n 30
    [ -f "$1.log" ] && grep -E '^(FAIL|CONTAINER FAILED|SUMMARY|  cause|    at )' "$1.log" | head -c 12000
    for f in */hs_err_pid*.log; do
      [ -f "$f" ] && { echo "--- $f"; head -n 60 "$f"; }
    done
  }
  rdma_tests_diagnosed() {
    rm -f */hs_err_pid*.log
    rdma_tests 2>&1 | tee "$1.log"
    local rc=${PIPESTATUS[0]}
    [ "$rc" -eq 0 ] && return 0
    diagnose "$1" > "$1.diag" 2>&1
    return $rc
  }
  check ibv_devices devices
  if [ -f verbs-binding/src/main/java/org/verbatim/verbs/VerbsAvailability.java ]; then
    check verbs-availability probe
  else
    echo "--- [verbs-availability] skipped: verbs-binding has no VerbsAvailability yet"
  fi
  check perftest-baseline env PERFTEST_LAT_ITERS=300 PERFTEST_BW_ITERS=200 \
    scripts/rdma-guest/perftest-baseline
  check rdma-tests rdma_tests_diagnosed "$2"
  echo "$passed $failed" > "$2"
  [ "$failed" -eq 0 ]
  exit
fi

if [ "${1:-}" = --in-guest-pair ]; then
  # ---- in each of two guests: guest 0 serves, guest 1 connects across the socket network ----
  rc=0
  # Each device has its own port, and both sides retry until one deadline: a server that
  # saw a half-made connection exits, and under TCG one side can start tens of seconds late.
  port=18600
  for dev in rxe0 siw0; do
    if [ "$dev" = rxe0 ]; then conn=(-x 1) peer=$RDMA_GUEST_PEER_RXE_IP; else conn=(-R) peer=$RDMA_GUEST_PEER_SIW_IP; fi
    port=$((port + 1))
    if [ "$RDMA_GUEST_INDEX" -eq 0 ]; then
      deadline=$((SECONDS + 150))
      while [ "$SECONDS" -lt "$deadline" ]; do
        timeout $((deadline - SECONDS + 1)) ib_send_lat -d "$dev" "${conn[@]}" -n 100 -F -p "$port" > /dev/null 2>&1 && break
        sleep 1
      done
    else
      ok=0 out= deadline=$((SECONDS + 320))
      while [ "$SECONDS" -lt "$deadline" ]; do
        if out=$(timeout 120 ib_send_lat -d "$dev" "${conn[@]}" -n 100 -F -p "$port" "$peer" 2>&1); then
          ok=1; break
        fi
        sleep 1
      done
      if [ "$ok" -eq 1 ]; then
        echo "$dev across guests: $(awk '/#bytes/ { h = 1; next } h && $1 ~ /^[0-9]+$/ { print "2 B typical " $5 " us"; exit }' <<< "$out")"
      else
        echo "$dev across guests FAILED:"; echo "$out" | tail -n 5; rc=1
      fi
    fi
  done
  # MPI jobs over both guests, ib or iwarp forced, and hybrid (guest 0 serves PMI, guest 1 joins).
  # iwarp-coll (4 ranks, all connections at once) is left out: it took 575 s of the part's
  # 1500 s on a loaded host (2026-11-27); it passed there, run it by hand with
  # scripts/rdma-guest/run --hosts 2 -- scripts/rdma-guest/mpi-two-hosts iwarp-coll
  scripts/rdma-guest/mpi-two-hosts p2p coll hybrid tcp rma-hybrid iwarp-p2p iwarp-hybrid || rc=1
  exit $rc
fi

# ---- on the CI host ----
run=scripts/rdma-guest/run
passed=0 failed=0
t=$SECONDS
echo "--- [prepare] packages, kernel, siw, initramfs"
if $run --prepare -v; then
  echo "--- [prepare] ok ($((SECONDS - t)) s)"
else
  echo "--- [prepare] FAILED ($((SECONDS - t)) s)"
  echo "rdma-guest: 0 passed, 1 failed"
  exit 1
fi

# The guest runs the rdma-tagged tests with JUnit straight on classes built here
# (scripts/rdma-guest/junit-direct: test classes, class path and its runner per module).
t=$SECONDS
for mod in $(rdma_modules); do
  JUNIT_DIRECT_PREPARE_ONLY=1 scripts/rdma-guest/junit-direct "$mod" \
    || echo "--- [build $mod] FAILED: its rdma tests will fail in the guest"
done
echo "--- [build] rdma test classes ($((SECONDS - t)) s)"

# The probe needs verbs-binding compiled (the README build did it; compile if it is missing).
if [ -d verbs-binding ] && [ ! -f verbs-binding/target/classes/org/verbatim/verbs/VerbsAvailability.class ] \
   && [ -f verbs-binding/src/main/java/org/verbatim/verbs/VerbsAvailability.java ]; then
  ./mvnw -q -B -pl verbs-binding -am -DskipTests compile || true
fi

result=$(mktemp /tmp/rdma-guest-ci.XXXXXX)
t=$SECONDS
# Single-threaded TCG for the test run: multi-threaded TCG crashed a test JVM now and then
# (scripts/rdma-guest/run, start_guest). The two-guest run has one vCPU per guest.
RDMA_GUEST_TCG_THREAD=single RDMA_CI_SKIP="$RDMA_CI_SKIP" $run -v --mem 4096 --timeout 3300 -- bash "$root/.ci/steps.d/50-rdma-guest.sh" --in-guest "$result"
rc=$?
echo "--- one-guest run: status $rc ($((SECONDS - t)) s)"
if read -r p f < "$result" 2>/dev/null && [ -n "${p:-}" ]; then
  passed=$((passed + p)) failed=$((failed + f))
else
  failed=$((failed + 1))
fi
rm -f "$result"

# The two-host MPI run starts bin/mpirun and the mpi-tests programs: build them if missing.
if [ ! -f mpi-tests/target/test-classes/org/verbatim/mpitests/CollectivesProgram.class ] \
   || ! ls launcher/target/lib/verbatim-mpi-core-*.jar > /dev/null 2>&1; then
  ./mvnw -q -B -DskipTests install || true
fi
t=$SECONDS
echo "--- [two-guests] rxe and siw across two QEMU guests, and one MPI job over both"
if $run -v --hosts 2 --timeout 1500 -- bash "$root/.ci/steps.d/50-rdma-guest.sh" --in-guest-pair; then
  passed=$((passed + 1)); echo "--- [two-guests] ok ($((SECONDS - t)) s)"
else
  failed=$((failed + 1)); echo "--- [two-guests] FAILED ($((SECONDS - t)) s)"
fi

# The CI log keeps only its tail: a failed guest test run's diagnostics come last.
if [ -s "$result.diag" ]; then
  cat "$result.diag"
fi
rm -f "$result.diag" "$result.log"
echo "rdma-guest: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
