#!/usr/bin/env python3
"""A starting point for a Battle 2048 bot (Ringside game "battle2048").

Python 3, standard library only. Ringside runs it as: python3 bot.py

The protocol, in short (docs/battle2048.md has every detail). Read stdin,
write stdout, one line at a time, and flush after every line.

  opening:  one line "0" or "1", your player number. Answer "r c": the cell
            (rows and columns 1..5) of the OPPONENT's board that starts with
            a 2.
  turn:     11 lines: "Turn TimeLeft MyScore OpponentScore", your 5 x 5
            board, the opponent's 5 x 5 board. A cell is an exponent: 0 is
            empty, 3 is an 8. (With protocol=beta the first line is left out;
            this bot tells the two apart by counting numbers.)
  answer:   "Command M V r1 c1 ... rM cM" in one line, single spaces:
            Command is U R D or L and must change your board. X is the number
            of merges your slide makes; you then drop M tiles of 2^V on EMPTY
            cells of the opponent's board with M * 2^V = 2^(X+1) exactly
            (X = 0: always "1 1 r c").

Any mistake (no change, wrong sum, an occupied cell, a late answer: 1 s per
turn, 100 s in all) loses at once. A board that cannot move loses too.
Debug output goes to stderr, never to stdout.
"""

import sys

N = 5
DIRS = "URDL"


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def lines_of(board, d):
    """The cell coordinates of each line, starting from the side tiles move to."""
    out = []
    for i in range(N):
        if d == "L":
            out.append([(i, j) for j in range(N)])
        elif d == "R":
            out.append([(i, j) for j in reversed(range(N))])
        elif d == "U":
            out.append([(j, i) for j in range(N)])
        else:
            out.append([(j, i) for j in reversed(range(N))])
    return out


def slide(board, d):
    """Returns (new board, merges, changed)."""
    new = [row[:] for row in board]
    merges = 0
    for cells in lines_of(board, d):
        tiles = [board[r][c] for r, c in cells if board[r][c] != 0]
        result = []
        i = 0
        while i < len(tiles):
            if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
                result.append(tiles[i] + 1)  # a merged tile does not merge again
                merges += 1
                i += 2
            else:
                result.append(tiles[i])
                i += 1
        result += [0] * (N - len(result))
        for (r, c), v in zip(cells, result):
            new[r][c] = v
    return new, merges, new != board


def neighbours_equal(board, r, c, v):
    n = 0
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < N and 0 <= cc < N and board[rr][cc] == v:
            n += 1
    return n


def choose_slide(mine):
    """The slide with the most merges, then the most free cells."""
    best = None
    for d in DIRS:
        new, merges, changed = slide(mine, d)
        if not changed:
            continue
        free = sum(v == 0 for row in new for v in row)
        key = (merges, free, d == "D" or d == "L")
        if best is None or key > best[0]:
            best = (key, d, merges)
    return best[1], best[2]


def choose_attack(opp, merges):
    """One tile of 2^(merges+1) on an empty cell where it merges with
    nothing: a big lone tile is junk the opponent cannot use. (Many small
    tiles are legal too, M * 2^V = 2^(merges+1), but 2s merge easily and
    feed the opponent's attacks.)"""
    v = merges + 1
    empty = [(r, c) for r in range(N) for c in range(N) if opp[r][c] == 0]
    if not empty:  # a full board: no attack is legal, the game is lost anyway
        return 1, v, [(0, 0)]
    cell = min(empty, key=lambda p: (neighbours_equal(opp, p[0], p[1], v), p))
    return 1, v, [cell]


def main():
    first = sys.stdin.readline()
    if not first:
        return
    print("3 3", flush=True)  # the opening: the centre of the opponent's board
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        head = line.split()
        rows = []
        if len(head) == N:  # protocol=beta: no header line
            rows.append([int(x) for x in head])
        while len(rows) < 2 * N:
            more = sys.stdin.readline()
            if not more:
                return
            rows.append([int(x) for x in more.split()])
        mine, opp = rows[:N], rows[N:]
        d, merges = choose_slide(mine)
        m, v, cells = choose_attack(opp, merges)
        words = [d, str(m), str(v)]
        for r, c in cells:
            words += [str(r + 1), str(c + 1)]
        print(" ".join(words), flush=True)


if __name__ == "__main__":
    main()
