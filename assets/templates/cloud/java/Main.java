// A starting point for a Cloud Contest bot (Ringside game "cloud"), in Java
// with the standard library only. Ringside builds it with
// "javac -d out *.java" and runs "java -cp out Main", which reads
// RINGSIDE_HOST, RINGSIDE_PORT, RINGSIDE_USER_TOKEN and RINGSIDE_GAME_TOKEN
// from the environment; the same values may be given as arguments:
// java -cp out Main {host} {port} {user_token} {game_token}. Without a port
// it talks over stdin/stdout (transport=stdio).
//
// The protocol, in short (docs/cloud.md has every detail). One JSON object
// per line, lines end with "\n":
//
//   server: {"status":"ok", "message":"ready to login"}
//   bot:    {"message_type":"login","user_token":"...","game_token":"..."}
//   server: {"status":"ok", "message":"logged in"}
//           (or {"status":"error", "message":"invalid user"} and the end)
//   server: {"user_id":"you","width":30,"height":30,"bricks":[[x,y],...]}
//   then every turn:
//   server: {"turn_no":1,"players":{"you":0,...},
//            "bots":{"bot1":{"player":"you","position":[x,y],"health":3,
//                            "time":0,"can_shoot":[[x,y],...]},...},
//            "empty":[[x,y],...]}
//   bot:    {"turn_no":1,"bot1":{"move":"u","fire":[x,y]},"bot2":{"move":"s","fire":[]}}
//
// Moves: u (0,-1), d (0,+1), l (-1,0), r (+1,0), s stay; x is the column,
// y the row, (0,0) the top-left corner. Shots are fired from where a bot
// stands before it moves, at any cell listed in its can_shoot; three hits
// kill. You see your own bots always and other bots only near yours. Answer
// within 250 ms, or all your bots stay that turn. Lines with "status" are
// messages (errors, timeouts): log them and carry on. Debug output goes to
// System.err, never to System.out.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

public class Main {
    // seed is RINGSIDE_SEED, which Ringside sets for each game and seat:
    // the same game plays the same way every time, so when you compare two
    // revisions the difference is your change, not luck. Keep it so: draw
    // only from rng, never from the clock.
    static Random seeded() {
        try {
            return new Random(Long.parseLong(System.getenv("RINGSIDE_SEED")));
        } catch (NumberFormatException e) {
            return new Random(); // run by hand: any seed does
        }
    }
    static final String MOVES = "udlr";
    static final int[] DX = {0, 0, -1, 1};
    static final int[] DY = {-1, 1, 0, 0};

    public static void main(String[] args) throws IOException {
        String host = setting(args, 0, "RINGSIDE_HOST");
        String port = setting(args, 1, "RINGSIDE_PORT");
        String user = setting(args, 2, "RINGSIDE_USER_TOKEN");
        String game = setting(args, 3, "RINGSIDE_GAME_TOKEN");
        if (host.isEmpty()) host = "127.0.0.1";
        BufferedReader in;
        PrintWriter out;
        if (!port.isEmpty()) {
            Socket s = new Socket(host, Integer.parseInt(port));
            in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            out = new PrintWriter(new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8));
        } else {
            in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        }
        Map<String, Object> msg = read(in);
        if (msg == null || !"ok".equals(msg.get("status"))) {
            System.err.println("unexpected greeting: " + msg);
            System.exit(1);
        }
        send(out, "{\"message_type\":\"login\",\"user_token\":" + quote(user) + ",\"game_token\":" + quote(game) + "}");
        msg = read(in);
        if (msg == null || !"ok".equals(msg.get("status"))) {
            System.err.println("login refused: " + msg);
            System.exit(1);
        }
        String me = "";
        int width = 0, height = 0;
        Set<Long> walls = new HashSet<>();
        Random rng = seeded();
        while ((msg = read(in)) != null) {
            if (msg.containsKey("status")) {
                System.err.println("server says: " + msg.get("message"));
            } else if (msg.containsKey("user_id")) {
                me = (String) msg.get("user_id");
                width = ((Number) msg.get("width")).intValue();
                height = ((Number) msg.get("height")).intValue();
                for (Object b : (List<?>) msg.get("bricks")) walls.add(key(cell(b)));
            } else if (msg.containsKey("turn_no")) {
                send(out, decide(msg, me, width, height, walls, rng));
            }
        }
    }

    static String setting(String[] args, int i, String env) {
        if (args.length > i && !args[i].isEmpty()) return args[i];
        String v = System.getenv(env);
        return v == null ? "" : v;
    }

    static void send(PrintWriter out, String line) {
        out.print(line + "\n");
        out.flush();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> read(BufferedReader in) throws IOException {
        String line;
        while ((line = in.readLine()) != null) {
            try {
                Object v = new Json(line).value();
                if (v instanceof Map) return (Map<String, Object>) v;
            } catch (RuntimeException e) {
                System.err.println("not JSON: " + line);
            }
        }
        return null;
    }

    static int[] cell(Object o) {
        List<?> l = (List<?>) o;
        return new int[] {((Number) l.get(0)).intValue(), ((Number) l.get(1)).intValue()};
    }

    static long key(int[] c) { return key(c[0], c[1]); }

    static long key(int x, int y) { return ((long) x << 32) | (y & 0xffffffffL); }

    static String quote(String s) { return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""; }

    static class Bot {
        String id, player;
        int x, y, health;
        Set<Long> canShoot = new HashSet<>();

        int number() { return Integer.parseInt(id.substring(3)); }
    }

    // Fires each bot at the weakest enemy it can hit (no shots wasted on a
    // bot already doomed this turn) and walks it towards the nearest enemy
    // it sees, or wanders when it sees none.
    @SuppressWarnings("unchecked")
    static String decide(Map<String, Object> state, String me, int width, int height, Set<Long> walls, Random rng) {
        List<Bot> mine = new ArrayList<>(), enemies = new ArrayList<>();
        Set<Long> occupied = new HashSet<>();
        for (Map.Entry<String, Object> e : ((Map<String, Object>) state.get("bots")).entrySet()) {
            Map<String, Object> b = (Map<String, Object>) e.getValue();
            Bot bot = new Bot();
            bot.id = e.getKey();
            bot.player = (String) b.get("player");
            int[] p = cell(b.get("position"));
            bot.x = p[0];
            bot.y = p[1];
            bot.health = ((Number) b.get("health")).intValue();
            if (bot.health <= 0) continue;
            for (Object c : (List<?>) b.get("can_shoot")) bot.canShoot.add(key(cell(c)));
            occupied.add(key(bot.x, bot.y));
            (bot.player.equals(me) ? mine : enemies).add(bot);
        }
        mine.sort(Comparator.comparingInt(Bot::number));
        enemies.sort(Comparator.comparingInt(Bot::number));
        Map<String, Integer> livesLeft = new HashMap<>();
        for (Bot e : enemies) livesLeft.put(e.id, e.health);
        Set<Long> taken = new HashSet<>();
        StringBuilder reply = new StringBuilder("{\"turn_no\":" + ((Number) state.get("turn_no")).intValue());
        for (Bot b : mine) {
            String fire = "[]";
            Bot target = null;
            for (Bot e : enemies) {
                if (b.canShoot.contains(key(e.x, e.y)) && livesLeft.get(e.id) > 0
                        && (target == null || livesLeft.get(e.id) < livesLeft.get(target.id))) target = e;
            }
            if (target != null) {
                livesLeft.put(target.id, livesLeft.get(target.id) - 1);
                fire = "[" + target.x + "," + target.y + "]";
            }
            int move = -1, x = b.x, y = b.y;
            if (!enemies.isEmpty()) {
                Bot near = null;
                int dist = -1;
                for (Bot e : enemies) {
                    int d = Math.abs(e.x - x) + Math.abs(e.y - y);
                    if (dist < 0 || d < dist) {
                        dist = d;
                        near = e;
                    }
                }
                if (dist > 2) {
                    for (int k = 0; k < 4 && move < 0; k++) {
                        int nx = x + DX[k], ny = y + DY[k];
                        if (free(nx, ny, width, height, walls, occupied, taken)
                                && Math.abs(near.x - nx) + Math.abs(near.y - ny) < dist) move = k;
                    }
                }
            } else {
                List<Integer> options = new ArrayList<>();
                for (int k = 0; k < 4; k++) {
                    if (free(x + DX[k], y + DY[k], width, height, walls, occupied, taken)) options.add(k);
                }
                if (!options.isEmpty()) move = options.get(rng.nextInt(options.size()));
            }
            if (move >= 0) {
                x += DX[move];
                y += DY[move];
            }
            taken.add(key(x, y));
            String m = move >= 0 ? String.valueOf(MOVES.charAt(move)) : "s";
            reply.append(',').append(quote(b.id)).append(":{\"move\":\"").append(m).append("\",\"fire\":").append(fire).append('}');
        }
        return reply.append('}').toString();
    }

    static boolean free(int x, int y, int width, int height, Set<Long> walls, Set<Long> occupied, Set<Long> taken) {
        long k = key(x, y);
        return x >= 0 && x < width && y >= 0 && y < height && !walls.contains(k) && !occupied.contains(k) && !taken.contains(k);
    }

    // A small JSON reader: objects become maps, arrays lists, numbers Doubles.
    static class Json {
        final String s;
        int i;

        Json(String s) { this.s = s; }

        void space() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        }

        void expect(char c) {
            space();
            if (i >= s.length() || s.charAt(i) != c) throw new IllegalArgumentException("expected " + c + " at " + i);
            i++;
        }

        Object value() {
            space();
            if (i >= s.length()) throw new IllegalArgumentException("unexpected end");
            char c = s.charAt(i);
            if (c == '{') {
                Map<String, Object> m = new LinkedHashMap<>();
                i++;
                space();
                if (s.charAt(i) == '}') { i++; return m; }
                while (true) {
                    space();
                    String k = string();
                    expect(':');
                    m.put(k, value());
                    space();
                    if (s.charAt(i++) == '}') return m;
                }
            }
            if (c == '[') {
                List<Object> l = new ArrayList<>();
                i++;
                space();
                if (s.charAt(i) == ']') { i++; return l; }
                while (true) {
                    l.add(value());
                    space();
                    if (s.charAt(i++) == ']') return l;
                }
            }
            if (c == '"') return string();
            if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
            if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
            if (s.startsWith("null", i)) { i += 4; return null; }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            return Double.parseDouble(s.substring(start, i));
        }

        String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (s.charAt(i) != '"') {
                char c = s.charAt(i++);
                if (c == '\\') {
                    char e = s.charAt(i++);
                    switch (e) {
                        case 'n': b.append('\n'); break;
                        case 't': b.append('\t'); break;
                        case 'u': b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
                        default: b.append(e);
                    }
                } else {
                    b.append(c);
                }
            }
            i++;
            return b.toString();
        }
    }
}
