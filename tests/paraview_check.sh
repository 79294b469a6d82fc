#!/bin/sh
# Check an hdem output directory's snapshots with a real ParaView (pvbatch under Xvfb).
#   tests/paraview_check.sh DIR [OUT.png]      (PNG default: DIR/snapshots_last.png)
# Exit 0 = all checks passed, 1 = a check failed, 77 = skipped (ParaView/Xvfb/h5py missing).
# Debian: apt-get install -y --no-install-recommends paraview python3-paraview xvfb xauth python3-h5py
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 DIR [OUT.png]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
py=${HDEM_H5_PYTHON:-/usr/bin/python3}
for tool in pvbatch xvfb-run xauth; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP  $tool not found (packages: paraview python3-paraview xvfb xauth)"
    exit 77
  fi
done
if ! "$py" -c 'import h5py, numpy' >/dev/null 2>&1; then
  echo "SKIP  $py cannot import h5py/numpy (package python3-h5py, or set HDEM_H5_PYTHON)"
  exit 77
fi
png=${2:-}
# Xvfb on a loaded machine is sometimes not accepting connections yet when
# pvbatch starts ("bad X server connection", SIGABRT): that, and only that, is
# retried, on a fresh server.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for attempt in 1 2 3; do
  if [ -n "$png" ]; then
    xvfb-run -a -s "-screen 0 1280x1024x24" pvbatch "$here/paraview_check.py" "$1" --png "$png" > "$log" 2>&1
  else
    xvfb-run -a -s "-screen 0 1280x1024x24" pvbatch "$here/paraview_check.py" "$1" > "$log" 2>&1
  fi
  rc=$?
  if [ $rc -ne 0 ] && grep -q "bad X server connection" "$log" && [ $attempt -lt 3 ]; then
    echo "NOTE  the X server was not ready (attempt $attempt); again"
    sleep 2
    continue
  fi
  cat "$log"
  exit $rc
done
