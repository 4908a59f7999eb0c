#!/bin/sh
# slurm_test.sh - a study run as a Slurm array job on a one-node cluster this
# test starts itself: munged and slurmctld + slurmd on localhost (configured
# in a scratch directory, no init system; proctrack/linuxproc, task/none), an
# array of 8 shards waited for with `sbatch --wait`, one task failing and
# noticed, that shard run again alone, the merge equal to the unsharded study
# byte for byte, and missing, duplicated and foreign shards refused. Stops
# its daemons when it ends, whatever happens.
#
# It installs nothing: it needs Debian's slurm-wlm and munge (.ci/run
# installs them) and root (slurmd starts jobs as their user). Run from the
# project root, bounded in time:
#   timeout 300 env CARC=$PWD/build/carc CARC_DATA=$PWD sh tests/slurm_test.sh
set -u

CARC=${CARC:-$(pwd)/build/carc}
CARC_DATA=${CARC_DATA:-$(pwd)}
export CARC CARC_DATA
case $CARC in /*) ;; *) CARC=$(pwd)/$CARC ;; esac

PASSED=0
FAILED=0
for cmd in munged slurmctld slurmd sbatch squeue sinfo; do
    if ! command -v "$cmd" >/dev/null 2>&1 && ! [ -x "/usr/sbin/$cmd" ]; then
        echo "FAIL slurm: $cmd not found: install Debian's slurm-wlm and munge (.ci/run does)"
        exit 1
    fi
done
PATH=$PATH:/usr/sbin
if [ "$(id -u)" != 0 ]; then
    echo "FAIL slurm: run as root (slurmd starts the jobs as their user)"
    exit 1
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/carc-slurm.XXXXXX") || exit 1
chmod 755 "$T" # munged wants its socket's directory searchable by all
PIDS=
stop() {
    for p in $PIDS; do kill "$p" 2>/dev/null; done
    for p in $PIDS; do
        i=0
        while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        kill -9 "$p" 2>/dev/null
    done
    rm -rf "$T"
}
trap stop EXIT
trap 'exit 1' INT TERM
# pass, fail, run, check, lacks.
. "$(dirname "$0")/checks.sh"


# Two free TCP ports for slurmctld and slurmd (other clusters may run here),
# below Linux's ephemeral range (32768 up), where an outgoing connection of
# another program could take the port between this check and the bind.
free_port() {
    p=$1
    while ss -ltn 2>/dev/null | awk '{ print $4 }' | grep -q ":$p\$"; do p=$((p + 1)); done
    echo "$p"
}
CTLD_PORT=$(free_port $((20000 + $$ % 12000)))
SLURMD_PORT=$(free_port $((CTLD_PORT + 1)))

# ---- the cluster ---------------------------------------------------------------------------------
mkdir -p /run/munge "$T/state" "$T/spool" "$T/shards"
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$T/munge.key"
munged -F --force -S "$T/munge.sock" --key-file="$T/munge.key" --pid-file="$T/munged.pid" \
    --log-file="$T/munged.log" --seed-file="$T/munged.seed" >"$T/munged.out" 2>&1 &
PIDS="$!"
HOST=$(hostname -s)
cat >"$T/slurm.conf" <<EOF
ClusterName=carctest
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge.sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
InactiveLimit=0
MinJobAge=300
KillWait=5
Waittime=0
NodeName=carcnode NodeHostname=$HOST NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=carc Nodes=carcnode Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$T/slurm.conf"
i=0
while [ ! -S "$T/munge.sock" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
slurmctld -D -i >"$T/slurmctld.out" 2>&1 &
PIDS="$PIDS $!"
slurmd -D -N carcnode >"$T/slurmd.out" 2>&1 &
PIDS="$PIDS $!"
i=0
until [ "$(sinfo -h -n carcnode -o %t 2>/dev/null)" = idle ] || [ $i -ge 60 ]; do sleep 0.5; i=$((i + 1)); done
if [ "$(sinfo -h -n carcnode -o %t 2>/dev/null)" = idle ]; then
    pass "slurm: a one-node cluster up (slurmctld port $CTLD_PORT, slurmd $SLURMD_PORT)"
else
    fail "slurm: the cluster did not come up" "$(tail -n 5 "$T/slurmctld.log" "$T/slurmd.log" "$T/munged.out" 2>&1)"
    echo "$PASSED passed, $FAILED failed"
    exit 1
fi

# ---- the study as an array job -------------------------------------------------------------------
STUDY="base --option-b farm-scoring=none --players greedy,random --games 64 --seed 7"
# The job script as docs/house-rules.md shows it; task 5 fails while the
# file break-5 exists (carc refuses an option that does not exist).
cat >"$T/study.sh" <<EOF
#!/bin/sh
#SBATCH --array=1-8
#SBATCH --cpus-per-task=1
extra=
[ -e "$T/break-\$SLURM_ARRAY_TASK_ID" ] && extra="--option no-such-option=1"
exec "$CARC" compare $STUDY \$extra --shard \${SLURM_ARRAY_TASK_ID}/8 --out "$T/shards/shard-\${SLURM_ARRAY_TASK_ID}.jsonl"
EOF
touch "$T/break-5"
# An older shard 5 of another study lies where the new one goes: the failed
# task must not leave it there to be merged.
"$CARC" compare $(echo "$STUDY" | sed 's/--seed 7/--seed 8/') --shard 5/8 --out "$T/shards/shard-5.jsonl" 2>/dev/null
run timeout 120 sbatch --wait --array=1-8 --chdir="$T" -o "$T/task-%a.log" "$T/study.sh"
job=$(sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' "$T/out")
[ "$RC" -ne 0 ] && [ -n "$job" ] && pass "slurm: sbatch --wait returns when the array ends, not 0 when a task failed (exit $RC)" ||
    fail "slurm: sbatch --wait notices the failed task" "exit $RC: $(cat "$T/out" "$T/err")"
squeue -h -j "$job" -t all -o "%K %T" >"$T/states" 2>&1
failed=$(awk '$2 != "COMPLETED" { print $1 }' "$T/states" | tr '\n' ' ')
[ "$failed" = "5 " ] && pass "slurm: squeue names the failed task (5)" || fail "slurm: squeue names the failed task" "$(cat "$T/states")"
[ ! -e "$T/shards/shard-5.jsonl" ] && pass "slurm: the failed task left no shard file (the older one removed)" ||
    fail "slurm: the failed task left no shard file" "$(head -c 200 "$T/shards/shard-5.jsonl")"
check "slurm: the merge refuses the study without shard 5" 1 "1 of the 8 shards missing: K = 5 of --shard K/8" \
    "$CARC" stats merge "$T"/shards/shard-*.jsonl
rm -f "$T/break-5"
run timeout 120 sbatch --wait --array=5 --chdir="$T" -o "$T/task-%a.log" "$T/study.sh"
[ "$RC" = 0 ] && [ -s "$T/shards/shard-5.jsonl" ] && pass "slurm: shard 5 run again alone (sbatch --array=5)" ||
    fail "slurm: shard 5 run again alone" "exit $RC: $(cat "$T/err" "$T/task-5.log" 2>/dev/null | head -c 300)"

for fmt in table csv json; do
    flag=; [ $fmt = table ] || flag=--$fmt
    "$CARC" compare $STUDY $flag >"$T/whole.$fmt" 2>/dev/null
    "$CARC" stats merge $flag "$T"/shards/shard-*.jsonl >"$T/merged.$fmt" 2>"$T/err"
    same "slurm: 8 shards from the array merged are the unsharded study ($fmt)" "$T/whole.$fmt" "$T/merged.$fmt"
done

# ---- what does not belong ------------------------------------------------------------------------
cp "$T/shards/shard-3.jsonl" "$T/shard-3-again.jsonl"
check "slurm: a shard given twice is refused" 1 "shard 3/8 is also in" \
    "$CARC" stats merge "$T"/shards/shard-*.jsonl "$T/shard-3-again.jsonl"
check "slurm: a shard missing is refused" 1 "K = 8 of --shard K/8" "$CARC" stats merge "$T"/shards/shard-[1-7].jsonl
"$CARC" compare $(echo "$STUDY" | sed 's/--games 64/--games 72/') --shard 8/8 --out "$T/foreign-8.jsonl" 2>/dev/null
check "slurm: a shard of another --games is refused" 1 "games: 72 here, 64 there" \
    "$CARC" stats merge "$T"/shards/shard-[1-7].jsonl "$T/foreign-8.jsonl"

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
