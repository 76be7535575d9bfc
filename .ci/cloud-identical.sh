#!/usr/bin/env bash
# cloud-identical.sh: plays the same Cloud games over TCP with two builds of
# Ringside and compares their replays byte for byte. A change to the runner
# (how bots are started, logged in, asked and timed) must not change one
# byte of what a game records.
#
#   .ci/cloud-identical.sh [BEFORE_REV [AFTER_REV]]
#
# BEFORE_REV defaults to 9307b70 (main when the runner's login moved into
# engine/cloud), AFTER_REV to HEAD; each is built from `git archive`, so
# the work tree is never touched. BEFORE_BIN / AFTER_BIN name ready-built
# binaries instead. GAMES (default 50) games are played, each with a fixed
# seed and built-in bots (random, hunter, squad: they decide from their
# input and seed alone, no clock), 2 to 4 players, over TCP in the sandbox,
# with --time-scale 20 so that no reply comes near its time limit.
#
# The replay's "ms" (the time each reply took, measured) is the one field
# that holds a measured time: it is set to 0 on both sides before the
# comparison; every other byte of the replay, and the whole result JSON
# printed by "ringside play", must be the same.
set -euo pipefail

top=$(git rev-parse --show-toplevel)
before_rev=${1:-9307b70}
after_rev=${2:-HEAD}
games=${GAMES:-50}
work=$(mktemp -d "${TMPDIR:-/tmp}/cloud-identical.XXXXXX")
trap 'rm -rf "$work"' EXIT

build() { # build REV OUT
	mkdir -p "$work/src-$2" "$work/bin"
	git -C "$top" archive "$1" | tar -x -C "$work/src-$2"
	(cd "$work/src-$2" && go build -o "$work/bin/$2" .)
	echo "$work/bin/$2"
}

before_bin=${BEFORE_BIN:-$(build "$before_rev" before)}
after_bin=${AFTER_BIN:-$(build "$after_rev" after)}

bots=(random hunter squad)
play() { # play BIN SIDE GAME
	local bin=$1 side=$2 i=$3
	local players=$((2 + i % 3)) seed=$((1000 + 7919 * i))
	local args=(play --game cloud --seed "$seed" --time-scale 20 --opt transport=tcp)
	for ((s = 0; s < players; s++)); do
		args+=(--bot "builtin:cloud/${bots[$(((i + s) % 3))]}")
	done
	mkdir -p "$work/$side"
	"$bin" "${args[@]}" --replay "$work/$side/$i.replay.json" >"$work/$side/$i.result.json"
	# The measured reply times are the one thing that may differ.
	sed -E -i 's/^( *"ms": )[-0-9.eE+]+(,?)$/\10\2/' "$work/$side/$i.replay.json"
}

same=0
for ((i = 1; i <= games; i++)); do
	play "$before_bin" before "$i"
	play "$after_bin" after "$i"
	if cmp -s "$work/before/$i.replay.json" "$work/after/$i.replay.json" &&
		cmp -s "$work/before/$i.result.json" "$work/after/$i.result.json"; then
		same=$((same + 1))
	else
		echo "game $i differs:"
		# The first lines that differ, each cut short (a state is one long line).
		diff "$work/before/$i.replay.json" "$work/after/$i.replay.json" | head -n 8 | cut -c 1-240 || true
		diff "$work/before/$i.result.json" "$work/after/$i.result.json" | cut -c 1-240 || true
	fi
done
echo "$same of $games identical"
[ "$same" -eq "$games" ]
