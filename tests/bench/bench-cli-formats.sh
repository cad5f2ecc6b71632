#!/bin/sh
# planviz-cli plan's output formats on the 95,708-node synthetic graph (the
# generator's --nodes 136700): per planner, --format text and json against
# --format ort (the same plan, ORT's printout only) in the same run, as
# ratios, so that a loaded machine scales them alike. Best of three CPU
# times (user + system: less swayed than wall time by other jobs), with every symbol bound (complete plans, every value listed) and
# unbound (deferred). Fails when text takes over 1.5x JSON, or JSON over 3x
# the plan alone: what a super-linear writer would show.
# Usage: bench-cli-formats.sh PV_GEN_MODELS PLANVIZ_CLI WORKDIR
set -eu
gen=$1; cli=$2; work=$3
mkdir -p "$work"
model="$work/synthetic-95k.onnx"
[ -s "$model" ] || "$gen" --synthetic --nodes 136700 "$model"

best() {
  b=""
  for _ in 1 2 3; do
    /usr/bin/time -f '%U %S' -o "$work/time.txt" "$@" >/dev/null 2>&1 || true
    t=$(tail -1 "$work/time.txt" | awk '{ printf "%.2f", $1 + $2 }')
    if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
  done
  echo "$b"
}

status=0
printf '%-8s %-8s %8s %8s %8s %11s %11s\n' planner sizes "ort s" "json s" "text s" "text/json" "json/ort"
for sizes in bound unbound; do
  bounds=""
  [ "$sizes" = bound ] && bounds="--bound batch=1 --bound seq=16"
  # shellcheck disable=SC2086
  base=$(best "$cli" plan "$model" $bounds --format ort)
  for planner in ort slots arena; do
    # shellcheck disable=SC2086
    json=$(best "$cli" plan "$model" $bounds --planner "$planner" --format json)
    # shellcheck disable=SC2086
    text=$(best "$cli" plan "$model" $bounds --planner "$planner" --format text)
    tj=$(echo "scale=2; $text / $json" | bc); jo=$(echo "scale=2; $json / $base" | bc)
    printf '%-8s %-8s %8s %8s %8s %11s %11s\n' "$planner" "$sizes" "$base" "$json" "$text" "$tj" "$jo"
    if [ "$(echo "$tj > 1.5" | bc)" = 1 ] || [ "$(echo "$jo > 3" | bc)" = 1 ]; then
      echo "  too slow: text/json $tj (limit 1.5), json/ort $jo (limit 3)" >&2
      status=1
    fi
  done
done
exit $status
