#!/bin/bash
# hdem is built with -ffp-contract=off so that every operation rounds alone,
# the same on any processor: its code may hold no fused multiply-add (a
# vectoriser that fuses anyway changes a result's bits with the processor and
# with inlining).  Names each function that holds one.  Usage: no_fused.sh HDEM
set -euo pipefail
command -v objdump > /dev/null || { echo "no_fused: objdump (binutils) is needed" >&2; exit 1; }
found=$(objdump -d --no-show-raw-insn "$1" |
  awk '/^[0-9a-f]+ <[^>]*>:$/ { f = $2 } $2 ~ /^v?f(n?m(add|sub)|maddsub|msubadd)/ { print f }' | sort | uniq -c)
if [ -n "$found" ]; then
  echo "no_fused: fused multiply-adds in $1 (count, function):" >&2
  echo "$found" >&2
  exit 1
fi
echo "no_fused: no fused multiply-add in $1"
