// Test data: a second sample in the same folder, with its own main; it
// attacks whenever it may.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class SampleAIL {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println("READY");
        System.out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            if (line.trim().equals("EOD")) {
                System.out.println("A");
                System.out.flush();
            }
        }
    }
}
