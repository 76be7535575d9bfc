#!/usr/bin/env bash
# Windows smoke test under Wine (issue 36), called by .ci/run after the
# cross-build. The Windows CLI (cross-built, no cgo) plays each game with
# the built-in bots and must print the same result and write the same
# replay as the Linux binary for the same seeds; it creates, runs and
# ranks an event in a database of its own; and a bot that never ends by
# itself (runner/testdata/hangbot, cross-built) must not hang its game nor
# outlive it. Every wine call runs under timeout; the Wine server is
# stopped at the end whatever happens.
#
# MinGW builds the stand-in below; its g++ also serves the runner/build
# test that cross-builds the Windows guesses (TestWindowsGuessesBuildWhatTheyRun).
#
# Wine 8.0 (Debian 12) has no bcryptprimitives.dll, which programs built
# with Go 1.24 and later load at start-up; .ci/wine/bcryptprimitives.c is
# a stand-in built with MinGW and put in the Wine prefix's system32.
# Windows 10 and 11 have the real one.
set -euo pipefail
export LANG=C.UTF-8
cd "$(dirname "$0")/.."
repo=$(pwd)

pkgs="wine wine64 gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 procps"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ] && command -v apt-get >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

work=$(mktemp -d)
export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEARCH=win64
# No Mono or Gecko install dialogs: nothing here needs them.
export WINEDLLOVERRIDES="mscoree=;mshtml="
finish() {
  timeout 30 wineserver -k >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap finish EXIT

# winpath turns a path of this machine into the one Windows programs see
# (Wine maps / to drive Z:).
winpath() { printf 'Z:%s' "${1//\//\\}"; }

# w runs a Windows program under Wine, never longer than its first
# argument in seconds.
w() {
  local secs=$1
  shift
  timeout "$secs" wine "$@"
}

start=$(date +%s)
echo "-- build: ringside.exe, hangbot.exe, bcryptprimitives.dll, and the Linux CLI to compare with"
CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go build -tags ci -o "$work/ringside.exe" .
CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go build -o "$work/hangbot.exe" ./runner/testdata/hangbot
CGO_ENABLED=0 go build -tags ci -o "$work/ringside" .
x86_64-w64-mingw32-gcc -O2 -shared -o "$work/bcryptprimitives.dll" \
  .ci/wine/bcryptprimitives.c .ci/wine/bcryptprimitives.def -ladvapi32

echo "-- wine prefix"
timeout 300 wineboot -i >/dev/null 2>&1
cp "$work/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/"
wine --version

# The time limits are scaled by 20 on both sides: a loaded CI machine
# must not turn a built-in's answer into a timeout on one side only.
scale=20
fail=0

# untimed prints a replay without what measures time, which differs from
# run to run on any machine: each answer's "ms", and Battle 2048's
# TimeLeft (the second number of a turn's input: its time bank).
untimed() {
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for step in r.get("steps", []):
    for seat in step.get("seats", []):
        seat.pop("ms", None)
        if r["game"] == "battle2048" and step.get("turn", 0) > 0 and "input" in seat:
            first, _, rest = seat["input"].partition("\n")
            f = first.split(" ")
            if len(f) == 4:
                f[1] = "T"
            seat["input"] = " ".join(f) + "\n" + rest
print(json.dumps(r, indent=1, sort_keys=True))
PY
}

# same compares one play under Wine with the Linux binary's: the printed
# result and the replay, but for times. Both play trusted, so the seats'
# containment words match (untrusted, a Windows seat's replay note names
# its Job Object, a Linux one's the sandbox).
same() {
  local name=$1
  shift
  "$work/ringside" play --trusted --time-scale $scale --replay "$work/$name.linux.json" "$@" \
    >"$work/$name.linux.out" 2>"$work/$name.linux.err"
  local t0=$(date +%s)
  if ! w 300 "$work/ringside.exe" play --trusted --time-scale $scale --replay "$(winpath "$work/$name.wine.json")" "$@" \
    >"$work/$name.wine.out" 2>"$work/$name.wine.err"; then
    echo "FAIL $name: ringside.exe play failed:"
    cat "$work/$name.wine.err"
    fail=1
    return
  fi
  untimed "$work/$name.linux.json" >"$work/$name.linux.untimed"
  untimed "$work/$name.wine.json" >"$work/$name.wine.untimed"
  if cmp -s "$work/$name.linux.out" "$work/$name.wine.out" &&
    cmp -s "$work/$name.linux.untimed" "$work/$name.wine.untimed"; then
    echo "ok   $name: result and replay ($(wc -c <"$work/$name.wine.json") bytes) identical to Linux's but for times ($(($(date +%s) - t0)) s under Wine)"
  else
    echo "FAIL $name: Wine's result or replay differs from Linux's"
    echo "  linux: $(head -c 400 "$work/$name.linux.out")"
    echo "  wine:  $(head -c 400 "$work/$name.wine.out")"
    diff "$work/$name.linux.untimed" "$work/$name.wine.untimed" | head -20 || true
    fail=1
  fi
}

echo "-- play: each game with its built-ins, fixed seeds, Wine against Linux"
same grip --game grip --seed 7 \
  --bot builtin:grip/greedy --bot builtin:grip/random --bot builtin:grip/search --bot builtin:grip/greedy
same battle2048 --game battle2048 --seed 11 --bot builtin:battle2048/greedy --bot builtin:battle2048/search
same cloud-tcp --game cloud --seed 3 --opt transport=tcp --opt turns=100 \
  --bot builtin:cloud/hunter --bot builtin:cloud/squad --bot builtin:cloud/random
same cloud-stdio --game cloud --seed 3 --opt transport=stdio --opt turns=100 \
  --bot builtin:cloud/hunter --bot builtin:cloud/squad --bot builtin:cloud/random

echo "-- event: create, run, standings in a database of its own"
event() {
  local bin=$1 db=$2
  shift 2
  local id
  id=$($bin event create --db "$db" --game battle2048 --format league --seed 5 --games 1 \
    --time-scale $scale --trusted --name smoke \
    --entry builtin:battle2048/greedy --entry builtin:battle2048/random --entry builtin:battle2048/search |
    tr -d '\r' | sed -n 's/^event \([0-9][0-9]*\):.*/\1/p')
  $bin event run "$id" --db "$db" --concurrency 1 --quiet >/dev/null
  $bin event standings "$id" --db "$db" --csv | tr -d '\r'
}
event "$work/ringside" "$work/linux.db" >"$work/standings.linux"
if event "w 300 $work/ringside.exe" "$(winpath "$work/wine.db")" >"$work/standings.wine" 2>"$work/event.err" &&
  cmp -s "$work/standings.linux" "$work/standings.wine"; then
  echo "ok   event: standings identical to Linux's:"
  sed 's/^/       /' "$work/standings.wine"
else
  echo "FAIL event: Wine's standings differ from Linux's (or the event failed)"
  cat "$work/event.err"
  diff "$work/standings.linux" "$work/standings.wine" || true
  fail=1
fi

# alive lists the hang bot's processes still running (Wine runs each
# Windows process as a Linux one whose command line is the program's;
# "wine tasklist" prints nothing on Wine 8.0). Zombies are gone already.
alive() { ps -eo stat=,pid=,args= | awk '$1 !~ /^Z/ && /hangbot\.exe/ && !/awk/'; }

# left waits up to 10 s for the hang bot's processes to be gone (a killed
# process that held 2 GiB takes a moment to exit) and prints those that
# are still there.
left() {
  local i
  for i in $(seq 50); do
    [ -z "$(alive)" ] && return
    sleep 0.2
  done
  alive
}

echo "-- a bot that never ends by itself is stopped with its game"
for mode in deaf eof tree; do
  t0=$(date +%s)
  # 40 turns of Grip (10 each) at 100 ms a turn: the game lasts seconds
  # unless a bot holds it. Unscaled: the hang bot must lose its turns.
  if w 120 "$work/ringside.exe" play --game grip --seed 7 --opt max_turns=40 \
    --bot "$(winpath "$work/hangbot.exe") -mode $mode" \
    --bot builtin:grip/greedy --bot builtin:grip/random --bot builtin:grip/greedy \
    >"$work/hang-$mode.out" 2>"$work/hang-$mode.err"; then
    secs=$(($(date +%s) - t0))
    left=$(left)
    if [ -n "$left" ]; then
      echo "FAIL hang bot ($mode): its processes outlived the game:"
      echo "$left"
      fail=1
    elif ! grep -q '"turns":40' "$work/hang-$mode.out"; then
      echo "FAIL hang bot ($mode): the game did not play its 40 turns: $(cat "$work/hang-$mode.out")"
      fail=1
    else
      echo "ok   hang bot ($mode): the game ended in $secs s, no hangbot.exe left"
    fi
  else
    echo "FAIL hang bot ($mode): the game did not end within 120 s (or failed):"
    tail -5 "$work/hang-$mode.err"
    fail=1
  fi
done

echo "-- an event whose every game has the hang bot (with a child): each game ends its processes"
# Counted while the event runs, not after Ringside exits (its exit closes
# every Job Object anyway): a game that left its hang bot behind would
# make the count grow by two with each game.
db=$(winpath "$work/hang.db")
id=$(w 60 "$work/ringside.exe" event create --db "$db" --game grip --format league --games 1 --seed 9 \
  --trusted --opt max_turns=40 --concurrency 1 --name hang \
  --entry "hang=$(winpath "$work/hangbot.exe") -mode tree" \
  --entry builtin:grip/greedy --entry builtin:grip/random --entry builtin:grip/search |
  tr -d '\r' | sed -n 's/^event \([0-9][0-9]*\):.*/\1/p')
w 300 "$work/ringside.exe" event run "$id" --db "$db" --quiet >"$work/hang-event.out" 2>&1 &
runner=$!
most=0
while kill -0 $runner 2>/dev/null; do
  n=$(alive | wc -l)
  [ "$n" -gt "$most" ] && most=$n
  sleep 0.2
done
if wait $runner; then
  games=$(w 60 "$work/ringside.exe" event standings "$id" --db "$db" --csv | tr -d '\r' | awk -F, '$2=="hang"{print $3}')
  left=$(left)
  if [ -z "$left" ] && [ "$most" -le 2 ] && [ "${games:-0}" -ge 2 ]; then
    echo "ok   hang event: $games games, at most $most hangbot.exe processes at once (one game's), none left"
  else
    echo "FAIL hang event: $games games, at most $most hangbot.exe processes at once, left: $left"
    fail=1
  fi
else
  echo "FAIL hang event: the event did not finish within 300 s:"
  tail -5 "$work/hang-event.out"
  fail=1
fi

echo "-- a memory hog under a 256 MiB cap (the Job Object's ProcessMemoryLimit and JobMemoryLimit)"
# Windows fails an allocation past the job's limit; the hog (a Go
# program) then dies of "out of memory". Wine 8.0 accepts the limits but
# does not hold them: there the hog takes its 2 GiB and is only stopped by
# its turn's timeout. The step says which happened; it fails only if the
# game does not end.
if w 120 "$work/ringside.exe" play --game grip --seed 7 --opt max_turns=8 --opt turn_ms=10000 \
  --limits memory=256M --replay "$(winpath "$work/hog.json")" \
  --bot "$(winpath "$work/hangbot.exe") -mode hog -max 2048" \
  --bot builtin:grip/greedy --bot builtin:grip/random --bot builtin:grip/greedy \
  >"$work/hog.out" 2>"$work/hog.err"; then
  held=$(grep -o 'holding [0-9]* MiB' "$work/hog.json" | tail -1)
  if grep -q '"crashed":1' "$work/hog.out" && grep -qi 'out of memory' "$work/hog.json"; then
    echo "ok   memory hog: stopped by the Job Object's cap (last: $held)"
  else
    echo "note memory hog: this Wine does not hold Job Object memory limits (the hog got to $held under a 256 MiB cap; its turn's timeout stopped it). Windows holds them."
  fi
  left=$(left)
  if [ -n "$left" ]; then
    echo "FAIL memory hog: its process outlived the game: $left"
    fail=1
  fi
else
  echo "FAIL memory hog: the game did not end within 120 s (or failed)"
  tail -5 "$work/hog.err"
  fail=1
fi

echo "-- runner's Windows-only tests under Wine (the Job Object's limits)"
# The runner's test binary cross-built for Windows. Its TestMain builds
# the Linux test bots unless RINGSIDE_TEST_BINS names them; these tests
# use none, and there is no Go under Wine, so empty stand-ins are named.
CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go test -c -tags ci -o "$work/runner.test.exe" ./runner
mkdir -p "$work/bins"
touch "$work/bins/fakebot" "$work/bins/hostile"
# The tests start their bots through a built Ringside (runner.BotsEnv);
# under Wine that is ringside.exe, as there is no go to build one with.
if RINGSIDE_TEST_BINS=$(winpath "$work/bins") RINGSIDE_BOTS_BINARY=$(winpath "$work/ringside.exe") w 120 "$work/runner.test.exe" -test.run '^TestJobLimits$' -test.v \
  >"$work/runner-test.out" 2>&1 && grep -q '^--- PASS: TestJobLimits' "$work/runner-test.out"; then
  echo "ok   TestJobLimits passes under Wine"
else
  echo "FAIL TestJobLimits under Wine:"
  tail -20 "$work/runner-test.out"
  fail=1
fi

echo "-- the Wine smoke test took $(($(date +%s) - start)) s"
exit $fail
