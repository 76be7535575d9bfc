// Test data: the shape of a Grip (JavaChallenge2015) Java sample as a
// student copies it: one class and the contest's compile.sh and run.sh.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class SampleAI {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println("READY");
        System.out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            if (line.trim().equals("EOD")) {
                System.out.println("N");
                System.out.flush();
            }
        }
    }
}
