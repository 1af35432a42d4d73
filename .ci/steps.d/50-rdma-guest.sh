#!/usr/bin/env bash
# budget-minutes: 75
# CI step: the RDMA test bed (docs/rdma-guest.md). Prepares the QEMU guest from Debian packages
# (idempotent: the cache in scripts/rdma-guest/cache/ is reused when present), then runs inside
# one guest: ibv_devices (must list rxe0 and siw0), the verbs-binding availability probe (must
# report both), the perftest baseline, and the Maven tests tagged "rdma" (profile rdma); then two
# guests: a smoke test (rxe and siw across the QEMU socket network) and a true two-host MPI run
# (scripts/rdma-guest/mpi-two-hosts: PointToPointProgram and CollectivesProgram with ib forced,
# one job over both guests through mpirun --listen / --join). Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd -P)

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
    # Maven under TCG is slow (a JVM start per module): build only the modules that have tests
    # tagged "rdma", with what they depend on.
    local mods
    mods=$(grep -rlE '@Tag\("rdma"\)' --include='*.java' */src/test 2>/dev/null | sed -n 's|^\([^/]*\)/src/test/.*|\1|p' \
      | sort -u | paste -sd, -)
    if [ -z "$mods" ]; then
      echo "no tests tagged rdma yet: nothing to run"
      return 0
    fi
    echo "modules with rdma-tagged tests: $mods"
    # C1 only for Maven's own JVM (javac runs in it): much less JIT work under TCG. The test
    # phase is enough (the reactor resolves modules to their classes); verify would also pack
    # jars and run the launcher's integration tests, which have nothing to do with RDMA.
    MAVEN_OPTS="${MAVEN_OPTS:-} -XX:TieredStopAtLevel=1" \
      timeout 2400 ./mvnw -o -q -B -Prdma -pl "$mods" -am test \
      -Dsurefire.failIfNoSpecifiedTests=false -DfailIfNoTests=false
  }
  diagnose() { # after a failed Maven run: what the tail of a CI log must show (printed last)
    local f
    echo "=== diagnostics of the failed mvn-rdma-tests run"
    free -m
    dmesg 2>/dev/null | grep -iE 'out of memory|oom|killed process|segfault|general protection' | tail -n 20
    for f in */target/surefire-reports/*.txt; do
      grep -qE 'FAILURE|ERROR' "$f" 2>/dev/null && { echo "--- $f"; head -c 6000 "$f"; echo; }
    done
    for f in */target/surefire-reports/*.dumpstream */target/surefire-reports/*-jvmRun*.dump; do
      [ -f "$f" ] && { echo "--- $f"; tail -n 40 "$f"; }
    done
    for f in */hs_err_pid*.log; do
      [ -f "$f" ] && { echo "--- $f"; head -n 60 "$f"; }
    done
  }
  rdma_tests_diagnosed() {
    rm -f */hs_err_pid*.log */target/surefire-reports/*.dumpstream */target/surefire-reports/*.dump
    rdma_tests && return 0
    local rc=$?
    diagnose > "$1.diag" 2>&1
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
  check mvn-rdma-tests rdma_tests_diagnosed "$2"
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
  # One MPI job over both guests, ib forced (guest 0 serves PMI, guest 1 joins).
  scripts/rdma-guest/mpi-two-hosts || rc=1
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

# The probe needs verbs-binding compiled (the README build did it; compile if it is missing).
if [ -d verbs-binding ] && [ ! -f verbs-binding/target/classes/org/verbatim/verbs/VerbsAvailability.class ] \
   && [ -f verbs-binding/src/main/java/org/verbatim/verbs/VerbsAvailability.java ]; then
  ./mvnw -q -B -pl verbs-binding -am -DskipTests compile || true
fi

result=$(mktemp /tmp/rdma-guest-ci.XXXXXX)
t=$SECONDS
# Single-threaded TCG for the test run: multi-threaded TCG crashed a test JVM now and then
# (scripts/rdma-guest/run, start_guest). The two-guest run has one vCPU per guest.
RDMA_GUEST_TCG_THREAD=single $run -v --mem 4096 --timeout 2700 -- bash "$root/.ci/steps.d/50-rdma-guest.sh" --in-guest "$result"
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
rm -f "$result.diag"
echo "rdma-guest: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
