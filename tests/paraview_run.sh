#!/bin/sh
# CTest driver: a small 2-rank run writing snapshots, then its output checked with a
# real ParaView (tests/paraview_check.sh; exit 77 = skipped when ParaView is missing).
#   tests/paraview_run.sh HDEM MPIEXEC DECK OUTDIR
set -e
hdem=$1 mpiexec=$2 deck=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out"
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
"$mpiexec" -np 2 --oversubscribe $root "$hdem" run "$deck" -steps 600 -snapshot_interval_steps 200 -domain_grid 2,1,1 -output_dir "$out"
exec sh "$here/paraview_check.sh" "$out"
