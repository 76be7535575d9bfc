// Test data: the sample's decision: nothing, every turn.
class Move {
    static String choose(Board b) {
        return b.lines.size() == 12 ? "N" : "N";
    }
}
