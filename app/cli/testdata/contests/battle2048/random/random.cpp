// A starting point for a Battle 2048 bot (Ringside game "battle2048"), in
// C++17 with the standard library only. Ringside builds it with
// "g++ -O2 -o bot *.cpp" and runs ./bot.
//
// The protocol, in short (docs/battle2048.md has every detail). Read stdin,
// write stdout, one line at a time, and flush after every line (std::endl
// does).
//
//   opening:  one line "0" or "1", your player number. Answer "r c": the
//             cell (rows and columns 1..5) of the OPPONENT's board that
//             starts with a 2.
//   turn:     11 lines: "Turn TimeLeft MyScore OpponentScore", your 5 x 5
//             board, the opponent's 5 x 5 board. A cell is an exponent: 0 is
//             empty, 3 is an 8. (With protocol=beta the first line is left
//             out; this bot tells the two apart by counting numbers.)
//   answer:   "Command M V r1 c1 ... rM cM" in one line, single spaces:
//             Command is U R D or L and must change your board. X is the
//             number of merges your slide makes; you then drop M tiles of
//             2^V on EMPTY cells of the opponent's board with
//             M * 2^V = 2^(X+1) exactly (X = 0: always "1 1 r c").
//
// Any mistake (no change, wrong sum, an occupied cell, a late answer: 1 s
// per turn, 100 s in all) loses at once. A board that cannot move loses too.
// Debug output goes to stderr (std::cerr), never to stdout.
#include <array>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

const int N = 5;
using Board = std::array<std::array<int, N>, N>;

std::vector<int> numbers(const std::string& line) {
    std::istringstream in(line);
    std::vector<int> out;
    int v;
    while (in >> v) out.push_back(v);
    return out;
}

// The cell of position j on line i for a slide toward d, counted from the
// side the tiles move to.
void cellOf(char d, int i, int j, int& r, int& c) {
    switch (d) {
        case 'L': r = i; c = j; break;
        case 'R': r = i; c = N - 1 - j; break;
        case 'U': r = j; c = i; break;
        default:  r = N - 1 - j; c = i; break;
    }
}

// Slides b toward d; returns the number of merges.
int slide(const Board& b, char d, Board& out) {
    int merges = 0;
    for (int i = 0; i < N; i++) {
        std::vector<int> tiles, result;
        for (int j = 0; j < N; j++) {
            int r, c;
            cellOf(d, i, j, r, c);
            if (b[r][c] != 0) tiles.push_back(b[r][c]);
        }
        for (size_t k = 0; k < tiles.size(); k++) {
            if (k + 1 < tiles.size() && tiles[k] == tiles[k + 1]) {
                result.push_back(tiles[k] + 1);  // a merged tile does not merge again
                merges++;
                k++;
            } else {
                result.push_back(tiles[k]);
            }
        }
        for (int j = 0; j < N; j++) {
            int r, c;
            cellOf(d, i, j, r, c);
            out[r][c] = j < (int)result.size() ? result[j] : 0;
        }
    }
    return merges;
}

// The slide with the most merges, then the most free cells. Some slide
// changes the board: Ringside does not ask otherwise.
char chooseSlide(const Board& b, int& bestMerges) {
    char best = 'U';
    int bestKey = -1;
    bestMerges = 0;
    for (char d : std::string("URDL")) {
        Board after{};
        int merges = slide(b, d, after);
        if (after == b) continue;
        int free = 0;
        for (auto& row : after)
            for (int v : row) free += v == 0;
        int key = merges * 100 + free;
        if (key > bestKey) {
            best = d;
            bestKey = key;
            bestMerges = merges;
        }
    }
    return best;
}

// One tile of 2^(merges+1) on an empty cell where it merges with nothing: a
// big lone tile is junk the opponent cannot use. (Many small tiles are legal
// too, M * 2^V = 2^(merges+1), but 2s merge easily.)
std::string attack(const Board& opp, int merges) {
    int v = merges + 1, bestR = 0, bestC = 0, bestEq = 5;
    const int dr[4] = {1, -1, 0, 0}, dc[4] = {0, 0, 1, -1};
    for (int r = 0; r < N; r++) {
        for (int c = 0; c < N; c++) {
            if (opp[r][c] != 0) continue;
            int eq = 0;
            for (int k = 0; k < 4; k++) {
                int rr = r + dr[k], cc = c + dc[k];
                if (rr >= 0 && rr < N && cc >= 0 && cc < N && opp[rr][cc] == v) eq++;
            }
            if (eq < bestEq) {
                bestR = r; bestC = c; bestEq = eq;
            }
        }
    }
    return "1 " + std::to_string(v) + " " + std::to_string(bestR + 1) + " " + std::to_string(bestC + 1);
}

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    if (!std::getline(std::cin, line)) return 0;
    std::cout << "3 3" << std::endl;  // the opening: the centre of the opponent's board
    while (std::getline(std::cin, line)) {
        std::vector<std::vector<int>> rows;
        std::vector<int> head = numbers(line);
        if ((int)head.size() == N) rows.push_back(head);  // protocol=beta: no header line
        while ((int)rows.size() < 2 * N && std::getline(std::cin, line)) rows.push_back(numbers(line));
        if ((int)rows.size() < 2 * N) return 0;
        Board mine{}, opp{};
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N && j < (int)rows[i].size(); j++) mine[i][j] = rows[i][j];
            for (int j = 0; j < N && j < (int)rows[N + i].size(); j++) opp[i][j] = rows[N + i][j];
        }
        int merges;
        char d = chooseSlide(mine, merges);
        std::cout << d << ' ' << attack(opp, merges) << std::endl;
    }
    return 0;
}
