#!/bin/sh
# check-mpi-hosts.sh - `make check-mpi-hosts`: the MPI layer across two hosts for real, on one machine.
# Two network namespaces joined by a veth pair are the hosts (10.231.0.1 and .2, each with its own host
# name); mpirun starts in the first and reaches the second through scripts/netns-agent.sh, as it would
# through ssh; the ranks talk over Open MPI's TCP transport only (shared memory off). It asserts that
#   - the MPI examples print, on 2 ranks (one per host) and 4 ranks (two per host), the same line as on
#     one host (which the mpi suite checks against plain C),
#   - the test worker's groups pass on 4 ranks across the hosts (every rank checks its result),
#   - a rank on the second host whose device fails (GPUC_DEVICE=9 for that rank only) fails the call on
#     every rank, with the message naming that rank (the worker's open group checks each rank's error).
# Needs root and `ip netns`; without them it says so and exits 0 (skipped). The namespaces are removed
# on every exit. Environment (the Makefile sets it): MPIRUN (the launcher), GPUC_MPIRUN (the one-host
# launch as make check runs it), GPUC_MPIRUN_HOSTS_FLAGS (the flags for the two-host launch),
# GPUC_EXAMPLES_DIR, GPUC_MPI_WORKER.
set -eu
cd "$(dirname "$0")/.."
here=$(pwd)

skip() {
    echo "check-mpi-hosts: skipped: $*"
    exit 0
}
fail() {
    echo "check-mpi-hosts: FAILED: $*" >&2
    exit 1
}

[ "$(id -u)" -eq 0 ] || skip "network namespaces need root"
command -v ip >/dev/null 2>&1 || skip "no ip command (Debian's iproute2)"
command -v unshare >/dev/null 2>&1 || skip "no unshare command (util-linux)"
: "${MPIRUN:?set MPIRUN (run through make check-mpi-hosts)}" "${GPUC_MPIRUN:?}" "${GPUC_EXAMPLES_DIR:?}" "${GPUC_MPI_WORKER:?}"
: "${GPUC_MPIRUN_HOSTS_FLAGS:=}"
command -v "$MPIRUN" >/dev/null 2>&1 || skip "Open MPI is not installed (make deps installs it)"

# Names of this run's own: a second run at the same time makes its own pair (the addresses live only
# inside the namespaces, so they never meet the machine's network).
ns_a=gpuc-$$-a
ns_b=gpuc-$$-b
cleanup() {
    ip netns del "$ns_a" 2>/dev/null || true
    ip netns del "$ns_b" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
ip netns add "$ns_a" 2>/dev/null || skip "ip netns add failed (no network namespaces here)"
ip netns add "$ns_b"
ip link add "gpuc$$a" netns "$ns_a" type veth peer name "gpuc$$b" netns "$ns_b"
ip -n "$ns_a" addr add 10.231.0.1/24 dev "gpuc$$a"
ip -n "$ns_b" addr add 10.231.0.2/24 dev "gpuc$$b"
for ns in "$ns_a" "$ns_b"; do ip -n "$ns" link set lo up; done
ip -n "$ns_a" link set "gpuc$$a" up
ip -n "$ns_b" link set "gpuc$$b" up

export GPUC_NETNS_HOSTS="10.231.0.1=$ns_a=gpuc-host-a 10.231.0.2=$ns_b=gpuc-host-b"
# TCP between the hosts' addresses only: no shared memory (vader), no other transport or interface.
net="--mca plm_rsh_agent $here/scripts/netns-agent.sh --mca plm_rsh_no_tree_spawn 1 --mca pml ob1 --mca btl tcp,self
     --mca btl_tcp_if_include 10.231.0.0/24 --mca oob_tcp_if_include 10.231.0.0/24"

# hosts_run SLOTS ARGS...: mpirun on host a with SLOTS ranks on each host; its output (both streams).
hosts_run() {
    slots=$1
    shift
    # shellcheck disable=SC2086
    timeout 300 ip netns exec "$ns_a" unshare --uts sh -c 'hostname gpuc-host-a && shift && exec "$@"' sh - \
        "$MPIRUN" $GPUC_MPIRUN_HOSTS_FLAGS $net --host "10.231.0.1:$slots,10.231.0.2:$slots" "$@" 2>&1
}

# Where each rank ran: the hosts must be the two namespaces, or nothing below crosses a host.
# shellcheck disable=SC2016 # expanded by each rank's shell
placed=$(hosts_run 1 -np 2 sh -c 'echo "$OMPI_COMM_WORLD_RANK $(hostname) $(ip -o -4 addr show | grep -o "10\.231\.0\.[0-9]*")"' | sort)
[ "$placed" = "0 gpuc-host-a 10.231.0.1
1 gpuc-host-b 10.231.0.2" ] || fail "the ranks did not run one on each host: $placed"
echo "check-mpi-hosts: rank 0 on gpuc-host-a (10.231.0.1), rank 1 on gpuc-host-b (10.231.0.2), TCP only"

checks=0
# 2 ranks: the README's data; 4 ranks: thousands of values per rank, and fewer values than ranks.
for slots in 1 2; do
    ranks=$((2 * slots))
    datasets="--n_1000_--seed_1"
    [ "$slots" -eq 2 ] && datasets="--n_20011_--seed_3 --n_3_--seed_2"
    for example in topk sort compact; do
        for dataset in $datasets; do
            data=$(printf '%s' "$dataset" | tr _ ' ')
            args="$data"
            [ "$example" = topk ] && args="$data --k 8"
            # shellcheck disable=SC2086
            want=$($GPUC_MPIRUN -np "$ranks" "$GPUC_EXAMPLES_DIR/mpi-$example" $args 2>&1) ||
                fail "mpi-$example $args on one host, $ranks ranks: $want"
            # shellcheck disable=SC2086
            got=$(hosts_run "$slots" -np "$ranks" "$GPUC_EXAMPLES_DIR/mpi-$example" $args) ||
                fail "mpi-$example $args across 2 hosts, $ranks ranks: exit $?: $got"
            [ "$got" = "$want" ] || fail "mpi-$example $args on $ranks ranks: across hosts \"$got\", on one host \"$want\""
            echo "   mpi-$example $args, $ranks ranks on 2 hosts: $got: ok"
            checks=$((checks + 1))
        done
    done
done

for group in open topk sort compact scan; do
    got=$(hosts_run 2 -np 4 "$GPUC_MPI_WORKER" "$group") || fail "worker $group across 2 hosts: $got"
    printf '%s\n' "$got" | grep -qx "ok $group on 4 ranks" || fail "worker $group across 2 hosts printed: $got"
    echo "   worker $group, 4 ranks on 2 hosts: ok"
    checks=$((checks + 1))
done

# Rank 1, alone on host b, asks for a device that does not exist: the open fails on every rank, rank 0
# (host a) prints the error naming rank 1 (node-local rank 0 on its host), and mpirun exits non-zero.
args="--n 1000 --seed 1 --k 4"
# shellcheck disable=SC2086
if got=$(hosts_run 1 -np 1 "$GPUC_EXAMPLES_DIR/mpi-topk" $args : -np 1 env GPUC_DEVICE=9 "$GPUC_EXAMPLES_DIR/mpi-topk" $args); then
    fail "a rank with a bad device: mpirun exited 0: $got"
fi
printf '%s\n' "$got" | grep -q '^gpuc_mpi_open: rank 1: device "9" (node-local rank 0)' ||
    fail "a rank with a bad device: rank 0 did not report rank 1's error: $got"
echo "   a bad device on host b's rank: every rank failed, rank 0 printed: $(printf '%s\n' "$got" | head -n 1)"
checks=$((checks + 1))

echo "check-mpi-hosts: $checks checks across 2 network-namespace hosts passed"
