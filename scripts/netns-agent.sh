#!/bin/sh
# netns-agent.sh - the remote-shell agent of `make check-mpi-hosts` (scripts/check-mpi-hosts.sh): Open MPI
# starts its daemon on "host" ADDRESS as `netns-agent.sh ADDRESS COMMAND...`, the way it would call ssh;
# this runs COMMAND inside the network namespace that owns ADDRESS, under that host's own host name (a
# UTS namespace of its own), as ssh's remote shell would: the words joined into one shell command line.
# The address-to-host table is GPUC_NETNS_HOSTS, "ADDRESS=NAMESPACE=HOSTNAME ..." (the check sets it).
set -eu
[ $# -ge 2 ] || { echo "usage: netns-agent.sh ADDRESS COMMAND..." >&2; exit 2; }
address=$1
shift
for entry in ${GPUC_NETNS_HOSTS:-}; do
    case $entry in
    "$address"=*)
        rest=${entry#*=}
        # shellcheck disable=SC2016 # expanded by the shell inside the namespace
        exec ip netns exec "${rest%%=*}" unshare --uts sh -c 'hostname "$1" && shift && eval "$*"' sh "${rest#*=}" "$*"
        ;;
    esac
done
echo "netns-agent.sh: no namespace has address $address (GPUC_NETNS_HOSTS: ${GPUC_NETNS_HOSTS:-unset})" >&2
exit 255
