// Test data: the turn's lines as the sample reads them.
import java.util.ArrayList;
import java.util.List;

class Board {
    final List<String> lines = new ArrayList<>();

    void read(String line) {
        lines.add(line);
    }
}
