// Test data: the shape of the Grip (JavaChallenge2015) SampleAIs folder —
// four Java files, two of them with main, and two C++ test programs with a
// main each. This bot says READY and then stays put.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class SampleAI {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println("READY");
        System.out.flush();
        Board board = new Board();
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (!line.equals("EOD")) {
                board.read(line);
                continue;
            }
            System.out.println(Move.choose(board));
            System.out.flush();
            board = new Board();
        }
    }
}
