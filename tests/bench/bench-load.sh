#!/bin/sh
# Load time and peak RSS of planviz-cli on the 100k-node synthetic graph and a
# ~500 MB model, next to Python's onnx.load on the same files.
# Usage: bench-load.sh PV_GEN_MODELS PLANVIZ_CLI WORKDIR
# Budget (issue 2): peak RSS < 2.5 x file size + 50 MB.
set -eu
gen=$1; cli=$2; work=$3
mkdir -p "$work"
synthetic="$work/synthetic-100k.onnx"
big="$work/big-500mb.onnx"
[ -s "$synthetic" ] || "$gen" --synthetic --nodes 100000 "$synthetic"
[ -s "$big" ] || "$gen" --big-weights 500 "$big"

# Prints "seconds max_rss_kb" of a command, from GNU time.
measure() {
  /usr/bin/time -f '%e %M' -o "$work/time.txt" "$@" >/dev/null
  cat "$work/time.txt"
}

# Best of three wall times; RSS is the same each run. Prints "seconds rss_kb".
best() {
  best_s=""; rss=""
  for _ in 1 2 3; do
    r=$(measure "$@")
    s=${r% *}; rss=${r#* }
    if [ -z "$best_s" ] || [ "$(echo "$s < $best_s" | bc)" = 1 ]; then best_s=$s; fi
  done
  echo "$best_s $rss"
}

status=0
printf '%-22s %10s | %-28s | %-28s | %s\n' model "size MB" "planviz-cli info: s, RSS MB" "python onnx.load: s, RSS MB" "RSS budget MB"
for model in "$synthetic" "$big"; do
  size=$(stat -c %s "$model")
  size_mb=$(echo "scale=1; $size / 1048576" | bc)
  r=$(best "$cli" info "$model")
  pv_s=${r% *}; pv_rss=$(echo "scale=1; ${r#* } / 1024" | bc)
  if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import onnx' 2>/dev/null; then
    r=$(best /usr/bin/python3 -c "import onnx; onnx.load('$model')")
    py="${r% *} s, $(echo "scale=1; ${r#* } / 1024" | bc) MB"
  else
    py="(python3-onnx not installed)"
  fi
  budget=$(echo "scale=1; 2.5 * $size_mb + 50" | bc)
  printf '%-22s %10s | %-28s | %-28s | %s\n' "$(basename "$model")" "$size_mb" "$pv_s s, $pv_rss MB" "$py" "$budget"
  if [ "$(echo "$pv_rss > $budget" | bc)" = 1 ]; then
    echo "  over budget: $pv_rss MB > $budget MB" >&2
    status=1
  fi
done
exit $status
