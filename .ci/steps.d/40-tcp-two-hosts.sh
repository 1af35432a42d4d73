#!/usr/bin/env bash
# budget-minutes: 15
# transport-tcp between two real network stacks: two network namespaces joined by a veth pair,
# each with its own host name (a UTS namespace), stand in for two hosts. One job of 4 ranks:
# ranks 0-1 on "hostA" (mpirun --listen), ranks 2-3 on "hostB" (mpirun --join); shm within a host,
# tcp between them (proto-info proves it). Runs Ring, then mpi-tests' point-to-point and collective
# programs, then the same with verbatim.tcp.if-include naming the subnet. Then the same job
# started the cluster way: `mpirun --host hostA:2,10.77.0.2:2` on hostA, which starts hostB's
# ranks over ssh through an sshd running in hostB's namespaces. Last, MPICH's mpiexec.hydra
# across both hosts (its ssh launcher, an sshd on each), ranks bootstrapping over Hydra's PMI-1.
# Needs root (CI is).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "$(id -u)" != 0 ]; then
  echo "SKIPPED: needs root for network namespaces"
  exit 0
fi
a=vbA$$
b=vbB$$
sshdir=$(mktemp -d)
cleanup() {
  for f in "$sshdir"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done || true
  rm -rf "$sshdir"
  ip netns del "$a" 2>/dev/null || true
  ip netns del "$b" 2>/dev/null || true
}
trap cleanup EXIT
ip netns add "$a"
ip netns add "$b"
ip link add "${a}0" type veth peer name "${b}0"
ip link set "${a}0" netns "$a"
ip link set "${b}0" netns "$b"
ip -n "$a" addr add 10.77.0.1/24 dev "${a}0"
ip -n "$b" addr add 10.77.0.2/24 dev "${b}0"
for ns in "$a" "$b"; do
  ip -n "$ns" link set lo up
done
ip -n "$a" link set "${a}0" up
ip -n "$b" link set "${b}0" up

cp="examples/target/verbatim-examples.jar:mpi-tests/target/test-classes"
# The job's secret, exported on both "hosts" as a user does for --listen/--join by hand.
VERBATIM_JOB_SECRET=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
export VERBATIM_JOB_SECRET
failed=0
run() { # name, extra env (space separated -x args), class, args...
  local name=$1 extra=$2 cls=$3
  shift 3
  local outA outB
  outA=$(mktemp)
  outB=$(mktemp)
  local port=$((7400 + RANDOM % 500))
  ip netns exec "$a" unshare -u sh -c "hostname hostA; exec bin/mpirun -np 4 --ranks 0-1 \
      --listen 10.77.0.1:$port --timeout 240 --no-aot -x VERBATIM_CORE_PROTO_INFO=true $extra \
      -cp $cp $cls $*" > "$outA" 2>&1 &
  local pidA=$!
  sleep 1
  local statusB=0 statusA=0
  ip netns exec "$b" unshare -u sh -c "hostname hostB; exec bin/mpirun -np 4 --ranks 2-3 \
      --join 10.77.0.1:$port --timeout 240 --no-aot -x VERBATIM_CORE_PROTO_INFO=true $extra \
      -cp $cp $cls $*" > "$outB" 2>&1 || statusB=$?
  wait "$pidA" || statusA=$?
  if [ "$statusA" = 0 ] && [ "$statusB" = 0 ] \
      && grep -q 'rank 1 -> rank 2: transport tcp' "$outA" \
      && grep -q 'rank 2 -> rank 3: transport shm' "$outB" \
      && ! grep -q '^FAIL' "$outA" "$outB"; then
    echo "ok   $name ($(grep -c '^PASS' "$outA" "$outB" | awk -F: '{s+=$2} END {print s+0}') checks passed)"
  else
    echo "FAIL $name (status $statusA / $statusB)"
    for f in "$outA" "$outB"; do
      echo "--- $([ "$f" = "$outA" ] && echo hostA || echo hostB)"
      grep -A6 -E '^FAIL|Exception|mpirun:' "$f" | head -60 || true
      grep '^SUMMARY' "$f" || true
    done
    failed=1
  fi
  rm -f "$outA" "$outB"
}

run "Ring across two hosts" "" org.verbatim.examples.Ring
run "point-to-point across two hosts" "-x VERBATIM_TCP_EAGER_SIZE=16k -Dverbatim.test.hosts=2" \
    org.verbatim.mpitests.PointToPointProgram 4 16384
run "collectives across two hosts" "-Dverbatim.test.hosts=2" org.verbatim.mpitests.CollectivesProgram
run "if-include by subnet" "-x VERBATIM_TCP_IF_INCLUDE=10.77.0.0/16" org.verbatim.examples.Ring
# The cluster way: an sshd on hostB, mpirun --host on hostA starts hostB's ranks through it.
ssh-keygen -q -t ed25519 -N '' -f "$sshdir/host"
ssh-keygen -q -t ed25519 -N '' -f "$sshdir/user"
cp "$sshdir/user.pub" "$sshdir/authorized_keys"
cat > "$sshdir/sshd_config" <<EOF
Port 22
ListenAddress 10.77.0.2
HostKey $sshdir/host
AuthorizedKeysFile $sshdir/authorized_keys
PidFile $sshdir/sshd.pid
StrictModes no
UsePAM no
PermitRootLogin prohibit-password
PasswordAuthentication no
EOF
mkdir -p /run/sshd
ip netns exec "$b" unshare -u sh -c "hostname hostB; exec /usr/sbin/sshd -f $sshdir/sshd_config"
ssh_cmd="ssh -i $sshdir/user -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR"
# from_host_a NAME COMMAND: runs COMMAND on hostA, which starts ranks 0-1 there and 2-3 on hostB;
# passes when it ends with status 0, no check failed and proto-info shows tcp between the hosts and
# shm within one.
from_host_a() {
  local name=$1 command=$2 out status=0
  out=$(mktemp)
  ip netns exec "$a" unshare -u sh -c "hostname hostA; $command" > "$out" 2>&1 || status=$?
  if [ "$status" = 0 ] && grep -q 'rank 1 -> rank 2: transport tcp' "$out" \
      && grep -q 'rank 2 -> rank 3: transport shm' "$out" && ! grep -q '^FAIL' "$out"; then
    echo "ok   $name ($(grep -c '^PASS' "$out") checks passed)"
  else
    echo "FAIL $name (status $status)"
    grep -A6 -E '^FAIL|Exception|mpirun:|mpiexec|ssh|error' "$out" | head -60 || true
    failed=1
  fi
  rm -f "$out"
}

unset VERBATIM_JOB_SECRET # mpirun --host makes one and hands it to hostB through ssh
from_host_a "collectives, hostB's ranks started over ssh by mpirun --host" \
  "VERBATIM_LAUNCHER_SSH='$ssh_cmd' exec bin/mpirun --host hostA:2,10.77.0.2:2 --timeout 240 --no-aot \
   -x VERBATIM_CORE_PROTO_INFO=true -Dverbatim.test.hosts=2 -cp $cp org.verbatim.mpitests.CollectivesProgram"

# MPICH's Hydra across the two hosts: an sshd on hostA too (Hydra starts its proxies over ssh on
# every host), its launcher given as a wrapper script with the test's key.
sed -e 's/10.77.0.2/10.77.0.1/' -e 's|sshd.pid|sshdA.pid|' "$sshdir/sshd_config" > "$sshdir/sshdA_config"
ip netns exec "$a" unshare -u sh -c "hostname hostA; exec /usr/sbin/sshd -f $sshdir/sshdA_config"
printf '#!/bin/sh\nexec %s "$@"\n' "$ssh_cmd" > "$sshdir/ssh"
chmod +x "$sshdir/ssh"
java="$(bin/jdk-home)/bin/java"
hcp="$(bin/verbatim-jars | paste -sd:):$cp"
from_host_a "collectives under mpiexec.hydra across two hosts" \
  "exec timeout 240 mpiexec.hydra -launcher ssh -launcher-exec $sshdir/ssh -iface ${a}0 \
   -hosts 10.77.0.1:2,10.77.0.2:2 -n 4 -genv VERBATIM_CORE_PROTO_INFO true \
   $java --enable-native-access=ALL-UNNAMED -Dverbatim.test.hosts=2 -cp $hcp org.verbatim.mpitests.CollectivesProgram"
exit $failed
