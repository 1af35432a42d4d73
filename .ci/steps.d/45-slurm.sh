#!/usr/bin/env bash
# budget-minutes: 10
# Verbatim under Slurm: a one-node Slurm (munged, slurmctld and slurmd from Debian's packages,
# configured in a temporary directory) runs `srun --mpi=pmi2 -n N java ...`, where the ranks
# bootstrap over Slurm's own PMI-2 (Pmi2Client). Ring, then mpi-tests' point-to-point and
# collective programs at 4 ranks, then a rank killed mid-job (the step must end, not hang).
# Needs root (CI is).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "$(id -u)" != 0 ] || ! command -v slurmctld > /dev/null; then
  echo "SKIPPED: needs root and slurm-wlm"
  exit 0
fi
dir=$(mktemp -d)
export SLURM_CONF=$dir/slurm.conf
cleanup() {
  for d in slurmd slurmctld; do
    [ -f "$dir/$d.pid" ] && kill "$(cat "$dir/$d.pid")" 2>/dev/null || true
  done
  # the munged this step started (one that ran before it is left alone): it outlives the step
  # otherwise, holding whatever descriptors it inherited
  [ -n "${munged_started:-}" ] && pkill -x munged 2>/dev/null || true
  sleep 1
  rm -rf "$dir"
}
trap cleanup EXIT
mkdir -p "$dir/spool" "$dir/state" /run/munge
host=$(hostname)
cat > "$SLURM_CONF" <<CONF
ClusterName=verbatim
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$((16800 + RANDOM % 100))
SlurmdPort=$((16900 + RANDOM % 100))
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmdSpoolDir=$dir/spool
StateSaveLocation=$dir/state
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SchedulerType=sched/builtin
SelectType=select/linear
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
if [ ! -s /etc/munge/munge.key ]; then
  mungekey --create --force 2> /dev/null || dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2> /dev/null
  chown munge:munge /etc/munge/munge.key 2> /dev/null || true
  chmod 400 /etc/munge/munge.key
fi
chown munge:munge /run/munge 2> /dev/null || true
if ! pgrep -x munged > /dev/null; then
  # its own descriptors only: a daemon that inherits a caller's (a lock, a pipe) holds them
  (exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; munged --force 2> /dev/null || munged)
  munged_started=1
fi
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
  sinfo -h -o %t 2> /dev/null | grep -qE '^idle' && break
  sleep 1
done
sinfo

java="$(bin/jdk-home)/bin/java --enable-native-access=ALL-UNNAMED"
cp="$(bin/verbatim-jars | paste -sd:):examples/target/verbatim-examples.jar:mpi-tests/target/test-classes"
failed=0
run() { # name, expected status, srun args...
  local name=$1 expect=$2
  shift 2
  local out status=0
  out=$(mktemp)
  timeout 300 srun -O --mpi=pmi2 "$@" > "$out" 2>&1 || status=$?
  if [ "$status" = "$expect" ] && ! grep -q '^FAIL' "$out" && { [ "$expect" != 0 ] || ! grep -q Exception "$out"; }; then
    echo "ok   $name (status $status, $(grep -c '^PASS' "$out") checks passed)"
  else
    echo "FAIL $name (status $status, expected $expect)"
    grep -v '^\s*at ' "$out" | tail -30
    failed=1
  fi
  rm -f "$out"
}
run "Ring, 3 ranks" 0 -n 3 $java -cp "$cp" org.verbatim.examples.Ring
run "point-to-point, 4 ranks" 0 -n 4 $java -cp "$cp" org.verbatim.mpitests.PointToPointProgram 4 16384
run "collectives, 4 ranks" 0 -n 4 $java -cp "$cp" org.verbatim.mpitests.CollectivesProgram
# A rank that dies: srun reports it and ends the step (status 137 from the killed task, or the
# abort code of a rank that saw it die); what matters is that the step ends.
out=$(mktemp)
status=0
timeout 120 srun -O --mpi=pmi2 -n 3 $java -cp "$cp:launcher/target/test-classes" org.verbatim.launcher.MpiProbe kill 2 \
    > "$out" 2>&1 || status=$?
if [ "$status" != 0 ] && [ "$status" != 124 ]; then
  echo "ok   a killed rank ends the step (status $status)"
else
  echo "FAIL a killed rank: status $status"
  tail -20 "$out"
  failed=1
fi
rm -f "$out"
exit $failed
