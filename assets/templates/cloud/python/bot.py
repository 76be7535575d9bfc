#!/usr/bin/env python3
"""A starting point for a Cloud Contest bot (Ringside game "cloud").

Python 3, standard library only. Run it as Ringside does:

    python3 bot.py {host} {port} {user_token} {game_token}

or with RINGSIDE_HOST, RINGSIDE_PORT, RINGSIDE_USER_TOKEN and
RINGSIDE_GAME_TOKEN in the environment. Without a port it speaks over
stdin/stdout instead (the "stdio" transport).

The protocol, in short (docs/cloud.md has every detail). One JSON object per
line, lines end with "\\n":

  server: {"status":"ok", "message":"ready to login"}
  bot:    {"message_type":"login","user_token":"…","game_token":"…"}
  server: {"status":"ok", "message":"logged in"}
          (or {"status":"error", "message":"invalid user"} and the end)
  server: {"user_id":"you","width":30,"height":30,"bricks":[[x,y],…]}
  then every turn:
  server: {"turn_no":1,"players":{"you":0,…},
           "bots":{"bot1":{"player":"you","position":[x,y],"health":3,
                           "time":0,"can_shoot":[[x,y],…]},…},
           "empty":[[x,y],…]}
  bot:    {"turn_no":1,"bot1":{"move":"u","fire":[x,y]},"bot2":{"move":"s","fire":[]}}

Moves: u (0,-1), d (0,+1), l (-1,0), r (+1,0), s stay; x is the column,
y the row, (0,0) the top-left corner. Shots are fired from where a bot
stands before it moves, at any cell listed in its can_shoot. You see your
own bots always and other bots only near yours. Answer within 250 ms, or
all your bots stay that turn. Lines with "status" are messages (errors,
timeouts): log them and carry on. Write to stderr for debugging, never to
stdout when using stdio.
"""

import json
import os
import random
import socket
import sys

MOVES = {"u": (0, -1), "d": (0, 1), "l": (-1, 0), "r": (1, 0)}


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def decide(state, me, width, height, walls, rng=random):
    """Return the commands for one turn: {bot_id: {"move": m, "fire": [x, y] or []}}.

    Fires at the weakest enemy each bot can hit (without wasting shots on a
    bot already doomed this turn), then steps towards the nearest enemy it
    sees, or wanders when it sees none.
    """
    bots = state.get("bots", {})
    mine = {i: b for i, b in bots.items() if b["player"] == me and b["health"] > 0}
    enemies = {i: b for i, b in bots.items() if b["player"] != me and b["health"] > 0}
    occupied = {tuple(b["position"]) for b in bots.values() if b["health"] > 0}
    lives_left = {i: b["health"] for i, b in enemies.items()}

    commands = {}
    taken = set()  # cells my bots will stand on after this turn
    for bot_id in sorted(mine, key=lambda s: int(s[3:]) if s[3:].isdigit() else 0):
        bot = mine[bot_id]
        x, y = bot["position"]
        reach = {tuple(c) for c in bot["can_shoot"]}

        # Fire at the weakest enemy in reach that is not already finished off.
        fire = []
        targets = [i for i in enemies if tuple(enemies[i]["position"]) in reach and lives_left[i] > 0]
        if targets:
            target = min(targets, key=lambda i: (lives_left[i], i))
            lives_left[target] -= 1
            fire = list(enemies[target]["position"])

        # Walk towards the nearest enemy; wander when none is visible.
        move = "s"
        if enemies:
            ex, ey = min((tuple(e["position"]) for e in enemies.values()),
                         key=lambda p: abs(p[0] - x) + abs(p[1] - y))
            here = abs(ex - x) + abs(ey - y)
            if here > 2:
                options = []
                for m, (dx, dy) in MOVES.items():
                    nx, ny = x + dx, y + dy
                    if free(nx, ny, width, height, walls, occupied, taken):
                        options.append((abs(ex - nx) + abs(ey - ny), m))
                options.sort()
                if options and options[0][0] < here:
                    move = options[0][1]
        else:
            options = [m for m, (dx, dy) in MOVES.items()
                       if free(x + dx, y + dy, width, height, walls, occupied, taken)]
            if options:
                move = rng.choice(options)
        dx, dy = MOVES.get(move, (0, 0))
        taken.add((x + dx, y + dy))
        commands[bot_id] = {"move": move, "fire": fire}
    return commands


def free(x, y, width, height, walls, occupied, taken):
    return (0 <= x < width and 0 <= y < height and (x, y) not in walls
            and (x, y) not in occupied and (x, y) not in taken)


def setting(args, index, env):
    if len(args) > index and args[index] != "":
        return args[index]
    return os.environ.get(env, "")


def main():
    args = sys.argv[1:]
    host = setting(args, 0, "RINGSIDE_HOST") or "127.0.0.1"
    port = setting(args, 1, "RINGSIDE_PORT")
    user_token = setting(args, 2, "RINGSIDE_USER_TOKEN")
    game_token = setting(args, 3, "RINGSIDE_GAME_TOKEN")

    if port:
        sock = socket.create_connection((host, int(port)))
        reader = sock.makefile("r", encoding="utf-8", newline="\n")
        writer = sock.makefile("w", encoding="utf-8", newline="\n")
    else:
        reader, writer = sys.stdin, sys.stdout

    def send(obj):
        writer.write(json.dumps(obj, separators=(",", ":")) + "\n")
        writer.flush()

    greeting = json.loads(reader.readline() or "{}")
    if greeting.get("status") != "ok":
        log("unexpected greeting:", greeting)
        return 1
    send({"message_type": "login", "user_token": user_token, "game_token": game_token})
    answer = json.loads(reader.readline() or "{}")
    if answer.get("status") != "ok":
        log("login refused:", answer.get("message"))
        return 1

    me, width, height, walls = None, 0, 0, set()
    # Randomness from RINGSIDE_SEED, which Ringside sets for each game and
    # seat: the same game plays the same way every time, so when you
    # compare two revisions the difference is your change, not luck. Keep
    # it so: draw only from rng, never from the clock.
    rng = random.Random(os.environ.get("RINGSIDE_SEED"))
    for line in reader:
        try:
            msg = json.loads(line)
        except ValueError:
            log("not JSON:", line.strip())
            continue
        if "status" in msg:
            log("server says:", msg.get("message"))
        elif "user_id" in msg:
            me, width, height = msg["user_id"], msg["width"], msg["height"]
            walls = {tuple(b) for b in msg["bricks"]}
        elif "turn_no" in msg:
            commands = decide(msg, me, width, height, walls, rng)
            commands["turn_no"] = msg["turn_no"]
            send(commands)
    return 0


if __name__ == "__main__":
    sys.exit(main())
