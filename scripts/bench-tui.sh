#!/usr/bin/env bash
# bench-tui.sh: issue 24's figures, measured on the real binary.
#
# Builds chipchat (or takes BIN), runs it in a private tmux server at
# 120×40 with a private HOME and XDG directories, drives it with keys and
# reads its CPU time from /proc (every thread's schedstat, in ns). Prints
# one line per figure: min/median/max over RUNS runs (default 3).
#
#   scripts/bench-tui.sh                 all figures
#   ONLY="idle keys" scripts/bench-tui.sh   some: idle keys review transcript stream codex
#   BIN=/path/chipchat RUNS=1 IDLE_SECS=10 scripts/bench-tui.sh
#
# When codex is on PATH, Codex runs in the same way (offline: a local
# model provider on loopback, the project trusted, in a private
# CODEX_HOME) for its per-key and idle CPU, and the ratios are printed.
# Streaming figures (CPU per byte, key latency, VmHWM) come from the e2e
# test TestEndToEndStreamingCost when the tree has it. Not part of go test.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
IDLE_SECS=${IDLE_SECS:-30}
ONLY=${ONLY:-"keys idle review transcript stream codex"}
SPACING=${SPACING:-0.04} # seconds between keys: two frame intervals and more
tmp=$(mktemp -d)
sock="chipchat-bench-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$tmp"' EXIT

want() { [[ " $ONLY " == *" $1 "* ]]; }

bin=${BIN:-}
if [ -z "$bin" ]; then
  bin="$tmp/chipchat"
  go build -o "$bin" .
fi

# tree PID: PID and its descendants (codex's launcher runs the real one).
tree() {
  local c
  echo "$1"
  for c in $(pgrep -P "$1" 2>/dev/null); do tree "$c"; done
}

# cpu_ns PID: CPU time of PID and its descendants so far, in ns: from
# every thread's schedstat for a lone process (chipchat: exact), from each
# process's stat (utime + stime, clock ticks: it counts threads that have
# ended too) for a tree (codex's launcher and the program it starts).
cpu_ns() {
  local sum=0 f v p ps
  ps=$(tree "$1")
  if [ "$(echo "$ps" | wc -l)" -gt 1 ]; then
    local hz
    hz=$(getconf CLK_TCK)
    for p in $ps; do
      v=$(awk '{sub(/^.*\) /, ""); print $12 + $13}' /proc/"$p"/stat 2>/dev/null || echo 0)
      sum=$((sum + v * 1000000000 / hz))
    done
    echo "$sum"
    return
  fi
  for f in /proc/"$1"/task/*/schedstat; do
    read -r v _ < "$f" 2>/dev/null || continue
    sum=$((sum + v))
  done
  echo "$sum"
}

# stats: min/median/max of the numbers on stdin, formatted with $1 decimals.
stats() {
  sort -g | awk -v d="${1:-2}" '{a[NR]=$1} END{
    if (NR==0) {print "n/a"; exit}
    m=(NR%2)? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2
    printf "%.*f / %.*f / %.*f", d, a[1], d, m, d, a[NR]}'
}

median() { sort -g | awk '{a[NR]=$1} END{ if (NR==0) {print 0; exit}; print (NR%2)? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# start NAME DIR CMD...: runs CMD in DIR in a new tmux session NAME with
# private HOME and XDG dirs under $tmp/NAME; sets PID.
start() {
  local name=$1 dir=$2
  shift 2
  local home="$tmp/$name/home"
  mkdir -p "$home/.config" "$home/.local/share" "$home/.cache"
  [ -f "$tmp/$name/config.toml" ] && mkdir -p "$home/.config/chipchat" && cp "$tmp/$name/config.toml" "$home/.config/chipchat/config.toml"
  local q=""
  for a in "$@"; do q+=" $(printf '%q' "$a")"; done
  tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 -s "$name" \
    "cd $(printf '%q' "$dir") && exec env HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share XDG_CACHE_HOME=$home/.cache TERM=xterm-256color ${EXTRA_ENV:-}$q"
  PID=$(tmux -L "$sock" display -p -t "$name" '#{pane_pid}')
}

stop() { tmux -L "$sock" kill-session -t "$1" 2>/dev/null || true; }

screen() { tmux -L "$sock" capture-pane -p -t "$1"; }

# wait_for NAME TEXT [SECS]: polls the screen until it shows TEXT.
wait_for() {
  local end=$((SECONDS + ${3:-30}))
  local scr
  while scr=$(screen "$1") && [[ "$scr" != *"$2"* ]]; do
    if [ $SECONDS -ge $end ]; then
      echo "timeout waiting for '$2' on $1:" >&2
      screen "$1" >&2
      return 1
    fi
    sleep 0.05
  done
}

# settle PID: waits until PID uses under 10 ms of CPU in 0.5 s (startup,
# autosave and lexing done), at most 60 s.
settle() {
  local end=$((SECONDS + 60)) a b
  while [ $SECONDS -lt $end ]; do
    a=$(cpu_ns "$1"); sleep 0.5; b=$(cpu_ns "$1")
    if [ $((b - a)) -lt 10000000 ]; then return 0; fi
  done
  echo "pid $1 never settled" >&2
}

# per_key NAME PID N KEY...: presses the keys (tmux names; -l TEXT for
# literal text) N times SPACING apart; prints the CPU per key in ms.
per_key() {
  local name=$1 pid=$2 n=$3
  shift 3
  local a b i
  a=$(cpu_ns "$pid")
  for ((i = 0; i < n; i++)); do
    tmux -L "$sock" send-keys -t "$name" "$@"
    sleep "$SPACING"
  done
  sleep 0.3
  b=$(cpu_ns "$pid")
  awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN{printf "%.3f\n", (b-a)/1e6/n}'
}

# idle_cpu PID SECS: ms of CPU per second over SECS.
idle_cpu() {
  local a b
  a=$(cpu_ns "$1"); sleep "$2"; b=$(cpu_ns "$1")
  awk -v a="$a" -v b="$b" -v s="$2" 'BEGIN{printf "%.3f\n", (b-a)/1e6/s}'
}

# paste_lines NAME N: pastes N lines of prose as one bracketed paste.
paste_lines() {
  local f="$tmp/paste-$2.txt"
  [ -f "$f" ] || awk -v n="$2" 'BEGIN{for(i=1;i<=n;i++) printf "line %d of the draft: the quick brown fox jumps over the lazy dog%s", i, (i<n?"\n":"")}' > "$f"
  tmux -L "$sock" load-buffer -b draft "$f"
  tmux -L "$sock" paste-buffer -p -d -b draft -t "$1"
}

# a session that lives as long as the script, so that the server does not
# exit between two measurements
tmux -L "$sock" -f /dev/null new-session -d -s keep "sleep 86400"

proj="$tmp/proj"
mkdir -p "$proj"
git -C "$proj" init -q
git -C "$proj" -c user.email=b@b -c user.name=b commit -q --allow-empty -m init

chipchat_config() { # pastes stay text: the draft is what is typed
  mkdir -p "$tmp/$1"
  printf 'agent = "echo"\n[limits]\npaste_chip_chars = -1\npaste_chip_lines = -1\n' > "$tmp/$1/config.toml"
}

echo "chipchat $("$bin" --version 2>/dev/null || echo '?') · $(nproc) cores · load $(cut -d' ' -f1-3 /proc/loadavg) · $RUNS runs (min / median / max)"

# ---- CPU per key, composer --------------------------------------------
if want keys; then
  : > "$tmp/k0"; : > "$tmp/k100"; : > "$tmp/k10000"
  for r in $(seq "$RUNS"); do
    for lines in 0 100 10000; do
      n="keys$lines-$r"
      chipchat_config "$n"
      start "$n" "$proj" "$bin" --data-dir "$tmp/$n/data" --new
      wait_for "$n" "enter send"
      if [ "$lines" -gt 0 ]; then
        paste_lines "$n" "$lines"
        wait_for "$n" "line $lines of the draft" 60
      fi
      settle "$PID"
      per_key "$n" "$PID" 100 -l x >> "$tmp/k$lines"
      stop "$n"
    done
  done
  echo "CPU per key, near-empty prompt: $(stats 2 < "$tmp/k0") ms"
  echo "CPU per key, 100-line draft: $(stats 2 < "$tmp/k100") ms"
  echo "CPU per key, 10,000-line draft: $(stats 2 < "$tmp/k10000") ms (ratio of medians to 100 lines: $(awk -v a="$(median < "$tmp/k10000")" -v b="$(median < "$tmp/k100")" 'BEGIN{printf "%.2f", a/b}'))"
fi

# ---- idle CPU -----------------------------------------------------------
if want idle; then
  : > "$tmp/ic"; : > "$tmp/it"
  for r in $(seq "$RUNS"); do
    n="idle-$r"
    chipchat_config "$n"
    start "$n" "$proj" "$bin" --data-dir "$tmp/$n/data" --new
    wait_for "$n" "enter send"
    settle "$PID"
    idle_cpu "$PID" "$IDLE_SECS" >> "$tmp/ic"
    # a message and its reply, then the transcript focused
    tmux -L "$sock" send-keys -t "$n" -l "hello there"
    tmux -L "$sock" send-keys -t "$n" Enter
    wait_for "$n" "Echo agent"
    tmux -L "$sock" send-keys -t "$n" Tab
    settle "$PID"
    idle_cpu "$PID" "$IDLE_SECS" >> "$tmp/it"
    stop "$n"
  done
  echo "idle CPU over ${IDLE_SECS} s, composer focused: $(stats 2 < "$tmp/ic") ms/s"
  echo "idle CPU over ${IDLE_SECS} s, transcript focused: $(stats 2 < "$tmp/it") ms/s"
fi

# ---- review pane ----------------------------------------------------------
# A repository whose working tree differs from HEAD by about 20,220 diff
# lines: Go files of 1,000 lines with every fifth line changed.
if want review; then
  rproj="$tmp/rproj"
  mkdir -p "$rproj"
  git -C "$rproj" init -q
  for f in $(seq -w 1 17); do
    awk -v f="$f" 'BEGIN{print "package mod" f; for(i=1;i<1000;i++) printf "\tvalue%d := compute(\"mod%s\", %d) // the old line\n", i, f, i}' > "$rproj/file$f.go"
  done
  git -C "$rproj" add -A
  git -C "$rproj" -c user.email=b@b -c user.name=b commit -q -m old
  for f in $(seq -w 1 17); do
    awk -v f="$f" 'BEGIN{print "package mod" f; for(i=1;i<1000;i++) if (i%5==0) printf "\tresult%d := compute(\"mod%s\", %d*2) // a new line\n", i, f, i; else printf "\tvalue%d := compute(\"mod%s\", %d) // the old line\n", i, f, i}' > "$rproj/file$f.go"
  done
  difflines=$(git -C "$rproj" diff | wc -l)
  : > "$tmp/rf"; : > "$tmp/lf"; : > "$tmp/rj"; : > "$tmp/rp"; : > "$tmp/lj"; : > "$tmp/lp"
  for r in $(seq "$RUNS"); do
    # less: the first frame from the command's Enter; j and PageDown
    n="less-$r"
    start "$n" "$rproj" bash --norc --noprofile
    sleep 0.3
    tmux -L "$sock" send-keys -t "$n" -l "git -c color.ui=always diff | less -R"
    t0=$(date +%s.%N)
    tmux -L "$sock" send-keys -t "$n" Enter
    wait_for "$n" "diff --git a/file01.go"
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{printf "%.4f\n", $2-$1}' >> "$tmp/lf"
    lpid=$(pgrep -P "$PID" -x less)
    settle "$lpid"
    per_key "$n" "$lpid" 200 j >> "$tmp/lj"
    per_key "$n" "$lpid" 50 PageDown >> "$tmp/lp"
    stop "$n"

    n="review-$r"
    chipchat_config "$n"
    start "$n" "$rproj" "$bin" --data-dir "$tmp/$n/data" --new
    wait_for "$n" "enter send"
    settle "$PID"
    tmux -L "$sock" send-keys -t "$n" -l "/review"
    wait_for "$n" "/review"
    t0=$(date +%s.%N)
    tmux -L "$sock" send-keys -t "$n" Enter
    wait_for "$n" "the old line"
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{printf "%.4f\n", $2-$1}' >> "$tmp/rf"
    settle "$PID"
    per_key "$n" "$PID" 200 j >> "$tmp/rj"
    per_key "$n" "$PID" 50 PageDown >> "$tmp/rp"
    stop "$n"
  done
  echo "review pane, $difflines-line diff: first frame $(stats 3 < "$tmp/rf") s (git diff | less -R: $(stats 3 < "$tmp/lf") s; ratio of medians $(awk -v a="$(median < "$tmp/rf")" -v b="$(median < "$tmp/lf")" 'BEGIN{printf "%.2f", a/b}'))"
  echo "review pane, j: $(stats 2 < "$tmp/rj") ms per key (less: $(stats 2 < "$tmp/lj") ms)"
  echo "review pane, PageDown: $(stats 2 < "$tmp/rp") ms per key (less: $(stats 2 < "$tmp/lp") ms)"
fi

# ---- transcript scroll at 10,000 messages --------------------------------
if want transcript; then
  tdata="$tmp/tdata"
  go run ./scripts/benchseed -data "$tdata" -project "$proj" -n 10000 > "$tmp/thread"
  thread=$(cat "$tmp/thread")
  : > "$tmp/tpc"; : > "$tmp/tpw"; : > "$tmp/tj"; : > "$tmp/tg"
  for r in $(seq "$RUNS"); do
    n="transcript-$r"
    chipchat_config "$n"
    rm -rf "$tmp/$n-data" && cp -r "$tdata" "$tmp/$n-data"
    start "$n" "$proj" "$bin" --data-dir "$tmp/$n-data" --thread "$thread"
    wait_for "$n" "Reply 9999" 60
    tmux -L "$sock" send-keys -t "$n" Tab # the transcript focused
    settle "$PID"
    per_key "$n" "$PID" 60 PageUp >> "$tmp/tpc"   # first sight: each page rendered
    per_key "$n" "$PID" 60 PageDown > /dev/null
    per_key "$n" "$PID" 60 PageUp >> "$tmp/tpw"   # the same pages again: cached
    per_key "$n" "$PID" 200 j >> "$tmp/tj"
    per_key "$n" "$PID" 10 g G >> "$tmp/tg"
    stop "$n"
  done
  echo "transcript, 10,000 messages, PageUp over pages drawn before: $(stats 2 < "$tmp/tpw") ms per key"
  echo "transcript, 10,000 messages, PageUp over pages never drawn: $(stats 2 < "$tmp/tpc") ms per key"
  echo "transcript, 10,000 messages, j: $(stats 2 < "$tmp/tj") ms per key"
  echo "transcript, 10,000 messages, g then G: $(stats 2 < "$tmp/tg") ms per pair"
fi

# ---- streaming: CPU per byte, key latency, VmHWM (the e2e test) ----------
if want stream; then
  if grep -q 'func TestEndToEndStreamingCost' e2e_*_test.go 2>/dev/null; then
    go test -run '^TestEndToEndStreamingCost$' -count=1 -v . 2>&1 | sed -n 's/^ *e2e_[a-z_]*\.go:[0-9]*: /streaming: /p'
  else
    echo "streaming: n/a (no TestEndToEndStreamingCost in this tree)"
  fi
fi

# ---- Codex, same run ------------------------------------------------------
if want codex; then
  if command -v codex > /dev/null; then
    n=codex
    chome="$tmp/codex-home"
    mkdir -p "$chome"
    cat > "$chome/config.toml" <<TOML
model = "bench-model"
model_provider = "local"
[model_providers.local]
name = "local"
base_url = "http://127.0.0.1:9/v1"
wire_api = "responses"
[projects."$proj"]
trust_level = "trusted"
TOML
    : > "$tmp/ck0"; : > "$tmp/ck100"; : > "$tmp/cidle"
    for r in $(seq "$RUNS"); do
      EXTRA_ENV="CODEX_HOME=$chome OPENAI_API_KEY=offline " start "$n-$r" "$proj" codex
      sleep 3
      settle "$PID"
      idle_cpu "$PID" "$IDLE_SECS" >> "$tmp/cidle"
      per_key "$n-$r" "$PID" 100 -l x >> "$tmp/ck0"
      # 100 typed lines: shift+enter is a newline in codex's composer
      for ((i = 0; i < 100; i++)); do
        tmux -L "$sock" send-keys -t "$n-$r" -l "line $i of the draft: the quick brown fox jumps over the lazy dog"
        tmux -L "$sock" send-keys -t "$n-$r" C-j
      done
      settle "$PID"
      per_key "$n-$r" "$PID" 100 -l x >> "$tmp/ck100"
      stop "$n-$r"
    done
    # codex leaves an app-server daemon behind, started from its home
    pkill -f "^$chome/" 2>/dev/null || true
    echo "codex: CPU per key, near-empty prompt: $(stats 2 < "$tmp/ck0") ms"
    echo "codex: CPU per key, 100 typed lines: $(stats 2 < "$tmp/ck100") ms"
    echo "codex: idle CPU over ${IDLE_SECS} s: $(stats 2 < "$tmp/cidle") ms/s"
    if want keys; then
      echo "chipchat/codex per key, near-empty: $(awk -v a="$(median < "$tmp/k0")" -v b="$(median < "$tmp/ck0")" 'BEGIN{printf "%.2f", a/b}'); at 100 lines: $(awk -v a="$(median < "$tmp/k100")" -v b="$(median < "$tmp/ck100")" 'BEGIN{printf "%.2f", a/b}')"
    fi
    if want idle; then
      echo "chipchat/codex idle: composer $(awk -v a="$(median < "$tmp/ic")" -v b="$(median < "$tmp/cidle")" 'BEGIN{printf "%.2f", a/b}'), transcript $(awk -v a="$(median < "$tmp/it")" -v b="$(median < "$tmp/cidle")" 'BEGIN{printf "%.2f", a/b}')"
    fi
  else
    echo "codex: not on PATH"
  fi
fi
