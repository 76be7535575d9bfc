// GripBot is the smallest Java Grip bot, for tests of how Ringside treats
// a Java virtual machine's start-up: READY, then a random command for
// each input, as the 2015 contest's sample AI played.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.Random;

public class GripBot {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        Random random = new Random(args.length > 0 ? Long.parseLong(args[0]) : 1);
        String[] commands = {"U", "R", "D", "L", "A", "N"};
        System.out.println("READY");
        System.out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            if (line.trim().equals("EOD")) {
                System.out.println(commands[random.nextInt(commands.length)]);
                System.out.flush();
            }
        }
    }
}
