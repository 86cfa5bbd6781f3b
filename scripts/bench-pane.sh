#!/usr/bin/env bash
# bench-pane.sh: compare the terminal pane's ingest throughput with tmux.
# Generates 64 MiB of `ls -l --color`-like lines, then alternately times
# tmux (cat of the file in a detached 120x40 session) and the pane's ingest
# (BenchmarkPaneIngest on the same bytes), ROUNDS times each, and prints the
# ratio of the medians on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
tmp=$(mktemp -d)
sock="chipchat-bench-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$tmp"' EXIT
file="$tmp/ls.txt"
BENCH_PANE_OUT="$file" go test ./terminal -run '^TestWriteBenchData$' -count=1 >/dev/null
size=$(stat -c %s "$file")
go test -c -o "$tmp/terminal.test" ./terminal >/dev/null

tmux_rate() {
  local t0 t1
  tmux -L "$sock" kill-server 2>/dev/null || true
  t0=$(date +%s.%N)
  tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 "cat '$file'; tmux -L '$sock' wait-for -S done"
  tmux -L "$sock" wait-for done
  t1=$(date +%s.%N)
  tmux -L "$sock" kill-server 2>/dev/null || true
  awk -v s="$size" -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", s/1e6/(b-a)}'
}

pane_rate() {
  # the pane sees pty output, where LF has become CRLF
  local crlf="$tmp/ls-crlf.txt"
  [ -f "$crlf" ] || sed 's/$/\r/' "$file" | head -c "$size" > "$crlf"
  BENCH_PANE_FILE="$crlf" "$tmp/terminal.test" -test.run '^$' -test.bench '^BenchmarkPaneIngest$' \
    -test.benchtime 1x | awk '/BenchmarkPaneIngest/{for(i=1;i<=NF;i++) if($(i+1)=="MB/s") print $i}'
}

median() { sort -n | awk '{a[NR]=$1} END{print (NR%2)? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

: > "$tmp/tmux"; : > "$tmp/pane"
for i in $(seq "$ROUNDS"); do
  t=$(tmux_rate); p=$(pane_rate)
  echo "round $i: tmux $t MB/s, pane $p MB/s"
  echo "$t" >> "$tmp/tmux"; echo "$p" >> "$tmp/pane"
done
mt=$(median < "$tmp/tmux"); mp=$(median < "$tmp/pane")
echo "median: tmux $mt MB/s, pane $mp MB/s"
awk -v p="$mp" -v t="$mt" 'BEGIN{printf "pane/tmux throughput ratio: %.2f\n", p/t}'
