#!/usr/bin/env bash
# Runs every fuzz target of fuzz/, litebyte/fuzz/, multiplayer/fuzz/ and debugger/fuzz/ for N executions each,
# one after the other (a single libFuzzer job, under `nice`), each from a fresh corpus seeded
# with the committed seeds, and prints executions, time and any crash per target.
#
# usage: scripts/fuzz-all.sh [RUNS] [TARGET...]
#   RUNS     executions per target (libFuzzer -runs=RUNS), default 1000000
#   TARGET   only these targets (names as in the table below, e.g. decode_variant session)
# environment:
#   FUZZ_WORK        where the corpora, crash artifacts and logs go (default target/fuzz-all;
#                    each target's corpus is wiped at its start)
#   FUZZ_NICE        nice level (default 10)
#   FUZZ_EXTRA       extra libFuzzer flags appended to every run (e.g. -max_total_time=600)
#
# Builds with `cargo fuzz build -a -s none` (optimised, debug assertions and overflow checks on,
# no sanitizer: the crates have no `unsafe`) on the stable toolchain (RUSTC_BOOTSTRAP=1 for the
# coverage flags). Exits non-zero when any target crashed, timed out or failed to build.
# See docs/fuzzing.md.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

runs=${1:-1000000}
[ $# -gt 0 ] && shift
case "$runs" in '' | *[!0-9]*) echo "RUNS must be a whole number, got '$runs'" >&2; exit 2 ;; esac
only=("$@")
work=${FUZZ_WORK:-$root/target/fuzz-all}
nice_level=${FUZZ_NICE:-10}
extra=${FUZZ_EXTRA:-}
triple=x86_64-unknown-linux-gnu

command -v cargo-fuzz >/dev/null || [ -x "$HOME/.cargo/bin/cargo-fuzz" ] || {
  echo "cargo-fuzz is not installed (cargo install cargo-fuzz)" >&2
  exit 2
}

# crate directory | target dir (shared where the dependencies are the same build) | target |
# seed directories (colon-separated, relative to the crate) | libFuzzer flags.
# The Godot targets take inputs up to 1 MiB from the first execution (-len_control=0) so that
# the classes that need size show (see docs/fuzzing.md); the LiteByte target decodes each input
# some twenty ways, so it keeps libFuzzer's default length control and replays the 64 KiB seeds
# (its 1 MiB seeds in litebyte/fuzz/seeds take seconds each: run them by hand).
big="-len_control=0 -max_len=1048576 -timeout=60 -rss_limit_mb=4096"
table=()
for t in decode_variant typed slice_vs_reader roundtrip_variant parse_text roundtrip_text \
  json_native container_encrypted container_compressed pck resource_text; do
  table+=("fuzz|fuzz/target|$t|seeds/$t|$big")
done
table+=("litebyte/fuzz|litebyte/fuzz/target|decode|../tests/fixtures/fuzz_seeds|-max_len=1048576 -timeout=300 -rss_limit_mb=4096")
table+=("multiplayer/fuzz|fuzz/target|session|seeds/session|$big")
table+=("multiplayer/fuzz|fuzz/target|godot3|seeds/godot3|$big")
table+=("debugger/fuzz|fuzz/target|frames|seeds/frames|$big")

wanted() {
  [ ${#only[@]} -eq 0 ] && return 0
  local o
  for o in "${only[@]}"; do [ "$o" = "$1" ] && return 0; done
  return 1
}

# Check that every target named on the command line exists.
for o in "${only[@]}"; do
  found=0
  for row in "${table[@]}"; do
    IFS='|' read -r _ _ t _ _ <<<"$row"
    [ "$t" = "$o" ] && found=1
  done
  [ $found -eq 1 ] || { echo "unknown target '$o'" >&2; exit 2; }
done

mkdir -p "$work"
failed=0
built=()
results=()
for row in "${table[@]}"; do
  IFS='|' read -r crate tdir target seeds flags <<<"$row"
  wanted "$target" || continue
  # Build each crate's targets once.
  if [[ " ${built[*]-} " != *" $crate "* ]]; then
    echo "--- building $crate"
    if ! (cd "$crate" && RUSTC_BOOTSTRAP=1 nice -n "$nice_level" cargo fuzz build -a -s none \
      --target-dir "$root/$tdir"); then
      echo "build of $crate failed" >&2
      exit 1
    fi
    built+=("$crate")
  fi
  bin="$root/$tdir/$triple/release/$target"
  name=${crate%/fuzz}
  [ "$name" = fuzz ] && name=godot-serde
  dir="$work/$name-$target"
  rm -rf "$dir"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  seed_dirs=()
  IFS=':' read -ra parts <<<"$seeds"
  for s in "${parts[@]}"; do seed_dirs+=("$root/$crate/$s"); done
  echo "--- $name $target: $runs executions (log $dir/log)"
  start=$(date +%s)
  # shellcheck disable=SC2086 # flags are word lists
  (cd "$crate" && nice -n "$nice_level" "$bin" -runs="$runs" -artifact_prefix="$dir/artifacts/" \
    $flags $extra "$dir/corpus" "${seed_dirs[@]}") >"$dir/log" 2>&1
  rc=$?
  secs=$(($(date +%s) - start))
  done_line=$(grep -E '^Done [0-9]+ runs' "$dir/log" | tail -1)
  execs=$(sed -E 's/^Done ([0-9]+) runs.*/\1/' <<<"$done_line")
  [ -n "$execs" ] || execs=$(grep -oE '^#[0-9]+' "$dir/log" | tail -1 | tr -d '#')
  crash=$(find "$dir/artifacts" -type f | head -1)
  if [ $rc -eq 0 ] && [ -z "$crash" ]; then
    status=ok
  else
    failed=1
    status="FAILED (exit $rc${crash:+, input $crash})"
    grep -m1 -E 'panicked at|ERROR: libFuzzer|SUMMARY' "$dir/log" | sed 's/^/    /'
  fi
  line=$(printf '%-12s %-22s %12s execs %7s s  %s' "$name" "$target" "${execs:-?}" "$secs" "$status")
  echo "$line"
  results+=("$line")
done

echo
echo "=== fuzz-all: $runs executions per target"
printf '%s\n' "${results[@]}"
exit $failed
