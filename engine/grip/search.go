package grip

import (
	"iter"
	"math"
	"math/rand/v2"
	"strings"
)

// BotSearch is the name of the searching built-in bot.
const BotSearch = "search"

// SearchBot looks a few turns ahead with the game's own rules. For each of
// its commands it plays the game on: the other players move as the greedy
// bot would in their place (without its random tie-breaks), and on its own
// next turns it tries every command again, searchDepth own turns deep
// (duelDepth when only one opponent is left).
// Each line of play then runs on for some more global turns with
// everybody playing greedy, and the position is valued by who fell (when),
// who is doomed on a falling block with no way off (worked out exactly:
// every way the player could walk while the blocks fall, the others
// standing still) and the greedy bot's judgement of the squares.
//
// The model of the others can be wrong, so every step of a line is also
// charged for the attacks the others could make at once instead: one
// along the line each faces, or one after a single move, which turns it
// and may take it into a line with the bot. A step from which the bot
// could not walk off in time costs it, whatever the model predicts.
//
// With one opponent left it first looks for a trap (see trap): up to two
// moves and an attack, once or twice, that the opponent cannot survive
// whatever it does. The first attack can leave holes beside the
// opponent's block, so that the second finds it with no side to leave
// by. The first command of such a plan wins unless the search sees the
// bot itself fall. Against greedy, greedy and random (200 games, seats
// rotated) it took search from 82 to 86 games ahead of both greedy bots,
// against three greedy bots from 59 to 65: a small gain, within the
// spread of 200 games. Greedy rarely lets itself be cornered that way.
//
// What does corner it is its own attack: it then sits out two turns. So
// in a duel search also hunts (see hunt): a plan of a few moves or waits
// and an attack that kills the opponent as the greedy bot would play,
// with its random tie-breaks, in every one of several draws; the bot
// keeps to the plan while it still works. In 80 duels against greedy
// (TestSearchDuels) hunting took search from 23 wins (57 at the turn
// limit) to 29 (51), none lost; in 200 four-player games from 86 to 99
// ahead of both greedy bots with greedy, greedy and random, from 65 to 82
// against three greedy bots.
//
// Most of the games search still did not win ended in a standoff: the
// two bots a few squares apart, neither moving for hundreds of turns. So
// with three players left or fewer search is charged for standing still
// and for its distance to the nearest opponent, and a command for each
// time it played it before in the same position (see stir): it keeps
// moving close to the opponent, whose reactions give the hunt its
// chances. That took it from 29 to 74 of 80 duels won (none lost), and
// in 200 four-player games from 99 to 146 ahead of both greedy bots
// with greedy, greedy and random, from 82 to 135 against three greedy
// bots.
//
// With three players left (now four too), two opponents attacking one
// after the other also count as a risk (see pairExposure), and a duel's
// hunt tries plans of up to seven commands within a budget: in 200
// four-player games from 146 to 153 ahead of both greedy bots with
// greedy, greedy and random, from 135 to 141 against three greedy bots;
// 75 of 80 duels won (was 74).
//
// The hunt's kills come where the opponent's block has the board edge
// or a fallen block beside it: of the 78 plans it found in 80 duels from
// the start, 76 found the opponent so. So every line is also valued by
// how closed the sides of the opponents' blocks are at its end
// (valueHemmed), which steers search to lines that leave an opponent by
// the edge or beside the holes of an attack. In 400 four-player games
// (greedy, greedy, random) it took search from 293 to 344 ahead of both
// greedy bots, duels at the turn limit from 66 to 14 (on games 0 to 199,
// 153 to 170; against three greedy bots 141 to 158). 75 or 150 a side
// instead of 100 gave 336 and 333, the edge counted three times 329,
// the same valued in duels only 336. Of 80 duels from the start it won
// 79 (was 75), none at the turn limit (was 5), and lost one.
//
// Games 0 to 199 are those most of this was chosen on (183 ahead of both
// greedy bots with greedy, greedy and random): on games 2000 to 2199 it
// is 179, on 3000 to 3199 165, against three greedy bots on 2000 to 2199
// 164 (TestSearchStrength, -strength.first). Most duels it does not win
// are a standoff in open ground that no hunt breaks: a hunt that takes a
// plan dropping the opponent in 3 of its 4 draws, and skips moves after
// which the attack cannot pass the opponent's block, found a plan in
// about one duel turn of a hundred there; it won 4 more of those 800
// games (none more on 3000 to 3199) for some 20 ms more CPU time in the
// slowest turn, and was not kept.
//
// The 13 duels at the turn limit of games 3000 to 3199: search had a
// hunt plan on 1 of its 1,540 duel turns; greedy attacked 0 to 7
// times in a duel (most often once or twice), which is when a hunt
// works, search 0 to 19 times; the two stood 4.6 to 7.8 squares apart on
// average, and greedy's block had on average 0.1 to 1.4 closed sides (as
// valueHemmed counts them). Six of the 13 duels began after turn 650,
// with 18 to 87 own turns left: the standoff before them was one of
// three players (in five of them search and both greedy bots). Greedy's threat check ignores that another player can
// bar a square (the distance rule), but that does not help an attack
// where one move takes it off the block: the square it steps to is one
// further from an attacker in line with its block than the square it
// stands on, so the attacker never bars it.
//
// Hunting with three players left too (commit 59204e7, reverted then
// and kept since, see below: a plan that drops either opponent, both
// modelled as greedy with tie-breaks in every draw, within 4,000
// commands a turn) took the games ahead of both greedy bots on 2000 to
// 2199 from 179 to 185, on 3000 to 3199 from 165 to 171 and on 4000 to
// 4199 from 168 to 180 (turn-limit games 31 to 23 on 3000 to 3199), but
// on 0 to 199 from 183 to 173: 709 of 800 against 695. Most CPU time in
// a turn 67-72 ms, as without. It also lost duels, which search had not
// done in these sets (1, 1, 3 and 2 falls with two players left on 0,
// 2000, 3000 and 4000). Not kept then, for the games it was tuned on.
//
// Measured further (session 29, ahead of both greedy bots of 200, with
// greedy, greedy and random): on 5000 to 8199 it got 182, 176, 178 and
// 178 (today's search 174, 181, 177, 175), so 1,250 of the 1,400 games of
// the seven sets it was not tuned on (89.3 %) against 1,219 (87.1 %); on
// 0 to 99, which TestSearchAgainstGreedy holds to 90 %, 86 against 92.
// Its duel falls were traced: in games 5112, 6019 and 6091 search
// followed a plan that dropped an opponent, and sat its attack out in
// that opponent's line; the opponent, doomed, scores all its commands
// alike as the greedy bot does, and its tie-break made it attack back
// as it fell (the plan's check drew 4 tie-breaks without an attack). In
// 5022 and 5131 search made an attack that passed no opponent's block
// nor one beside it, and sat it out in a diagonal standoff's reach.
// Giving the plan no bonus where the bot is exposed once it has played
// the plan's command (exposure) kept search standing in those three
// games, but turned wins into draws at the turn limit: 5000 to 5199
// 180, games 0 to 199 170 (86 of 0 to 99), 2 duels lost in 5000 to
// 5199. Charging such idle attacks 500 as well: 186, 174, 179 and 178
// on 5000 to 8199, no duel lost in 5000 to 6199 (4 with the hunt alone),
// 85 of 0 to 99. On today's search alone
// the exposure rule changed nothing on 0 to 99 (92), and the idle charge
// took it to 81, with 18 games at the turn limit against 7: its idle
// attacks are what breaks its standoffs. None kept: the counts move
// within the spread of 200 games and none reaches 90 % on fresh sets.
// Nor was a stir bonus (150) in a duel for standing in line with the
// opponent's block two or more blocks away, to draw greedy's attack,
// which leaves it sitting out: 176 of 0 to 199 (21 games at the turn
// limit), 163 of 3000 to 3199.
//
// Nor was a focus on the strongest opponent (commit 051b7c6, reverted):
// each own turn search rebuilt the round from its last input (its own
// command, then each other seat's as read from its line: a new facing a
// move, a wait of 2 an attack, a new square a move forward, else N),
// which matched the next input in every round seen, and charged each
// seat the greedy model's regret of its command (above greedyNoise,
// capped at 20, averaged over at least 4 commands). A greedy bot's stays
// at 0, a random bot's comes to 5 to 20; the weight of an opponent's
// terms in value (kill, doom, pressure, hemmed, shot) went from 1 down
// to w_min at an average of 6. Ahead of both greedy bots with greedy,
// greedy and random, without it / with w_min 0.5 / 0.3: games 0 to 199
// 183 / 176 / 173, 2000 to 2199 179 / 180 / 177, 3000 to 3199 165 / 172
// / 172, 4000 to 4199 168 / 167 / not run; three greedy bots on 2000 to
// 2199 164 / 163 (0.5). 695 of 800 both ways with 0.5: noise. The random
// bot mostly falls in the first 20 to 40 turns, before it has played
// more than a few commands, and in almost every game search does not win
// it fell first: the weights only matter in the opening. (Slowest turn
// 64-73 ms of CPU time, as without; the rebuilding costs nothing to
// speak of.)
//
// Nor was a charge for search's own block's closed sides, as value
// credits an opponent's (valueHemmed): 100 a side, the edge twice, with
// three players left or more. Of the 19 falls of games 3000 to 3199,
// every block search fell with was set by a greedy bot, most by an
// attack from the neighbouring block three turns before, where a bot
// hemmed in by the edge, fallen blocks and another player had one way
// off or none. Ahead of both greedy bots, without / with it: 0 to 199
// 183 / 175, 2000 to 2199 179 / 178, 3000 to 3199 165 / 182, 4000 to
// 4199 168 / 180, 5000 to 5199 174 / 174, 6000 to 6199 181 / 179, 7000
// to 7199 177 / 175, 8000 to 8199 175 / 165: 1,233 of the 1,400 games
// of the seven new sets against 1,219, within the spread (the sets
// alone swing by 17 either way). Charged in duels too, it left more
// duels at the turn limit (29 of games 0 to 199, 168 ahead); 200 a side
// (duels too), 173 of 3000 to 3199 and 171 of 2000 to 2199. Without it
// (today's search), search is ahead of both greedy bots in
// 1,219 of those 1,400 games, 87.1 %: short of issue 18's 90 % on games
// it was not tuned on.
//
// One fall of those 19 (game 3053) came from the coords order: on
// search's first turn, before a move has told it the order, a command
// that falls under the unlikely reading (weight 1 - orderPrior) weighs
// some 200,000, more than any charge for risk under the likely one, so
// search stepped into the line of a greedy bot that had only to turn.
//
// What did move search was a stronger pull toward the opponent in a
// duel (stirDuelDistance, 200 a square where it had been 30 as with
// three players left; see stir): duels end sooner, so fewer of those
// that begin late reach the turn limit. In 320 duels against greedy
// from the start the average duel ended by turn 198 instead of 261.
// Ahead of both greedy bots with greedy, greedy and random, on games 0
// to 199 it took search from 183 to 184, on 7000 to 7199 from 177 to
// 183 (200 a square with three players left too: 178 and 178, but 189,
// 176, 174, 185, 182 and 184 on 2000 to 6199 and 8000 to 8199). On
// seven sets that none of this was chosen on, 9000 to 9199 up to 15000
// to 15199, it is ahead of both in 170, 176, 177, 182, 184, 181 and 181:
// 1,251 of 1,400 (89.4 %). Of the 149 others, 56 are falls with three
// players left, 25 with four, 36 three-player standoffs and 31 duels at
// the turn limit, and 1 a fall in a duel.
//
// Tried in the same session and not kept (ahead of both greedy bots of
// 200 games, greedy, greedy and random; 30 a square in duels unless
// said): a doomed greedy bot's tie-break attacking back in the model
// (its scores are all alike, so it may attack as it falls), in hunt's
// draws with the three-player hunt, 175 of 5000 to 5199 (the hunt alone
// 182), and in every line of today's search 175 (174); hunt plans that
// drop the opponent in 2 of 4 draws, the bot standing in all, 173 (174)
// for 80 ms of CPU time in the slowest turn; a pull toward the squares
// from which an attack would doom an opponent that had not moved for
// 60 turns (two greedy bots held by the distance rule, facing each
// other, can stand so for 600 turns) instead of toward the nearest
// opponent, 175 and 182 of 5000 to 6199 (174 and 181), most of the
// three-player standoffs it broke became duels at the turn limit; the
// same with 200 a square with three players left too, 178 and 184 of
// 0 to 199 and 7000 to 7199 (178 and 178 without it); charging an
// attack after one move in full while search sits out its own, with
// the three-player hunt and that pull, 177 and 180 of 5000 to 6199.
//
// What took search past 90 % was the three-player hunt, with a blind
// spot of pairExposure closed. Falls with three players left were the
// largest group of games lost. Traced, most were of two kinds: two
// opponents that each turned toward search's block and then attacked
// one after the other (pairExposure tried the first attack only where
// that opponent already faced; now also after one move), and a third
// player that stepped onto the square an escape from the other's attack
// needed, or close enough to bar it (the distance rule). Seeing the
// pair after a turn took the falls with three players left in six of
// the sets 9000 to 15199 from 50 to 37, but the games it saved ended at
// the turn limit: 1,246 of the seven sets' 1,400 (1,251 before). The
// three-player hunt turns those into wins: with both, 1,281 (91.5 %);
// the hunt alone, 1,273 (90.9 %; falls with three players left 30). On
// seven sets chosen on nothing, 16000 to 16199 up to 22000 to 22199,
// search is ahead of both greedy bots in 192, 190, 179, 178, 182, 185
// and 191 games: 1,297 of 1,400 (92.6 %), where the search before got
// 1,258 (89.9 %) of the same games. Of the 103 others, 32 are falls
// with four players left (some from a start square already in a greedy
// bot's line), 15 with three and 7 in a duel (the three-player hunt's:
// see above), 40 three-player games and 9 duels at the turn limit.
// Games 0 to 199: 183 (184 before); three greedy bots, 2000 to 2199:
// 176 (171). Most CPU time in one turn, in 40 games on an idle machine:
// 72 to 76 ms, against 57 ms before (the hunt, and the pairs of attacks
// with four players left). Escapes that count a third player stepping
// closer (a square a round, up to two, so that it bars more squares)
// changed nothing: 1,282 of 9000 to 15199, with the rest.
//
// Like the greedy bot it works out the coords order from its own moves;
// it also learns it from a move that the board edge, a fallen block or
// another player cancels under one reading and not under the other.
type SearchBot struct {
	g   *GreedyBot // parses the input and learns the coords order
	rng *rand.Rand
	// own turns searched and global turns rolled out after them, by how
	// many players are left
	depths   [Seats + 1]int
	rolls    [Seats + 1]int
	curRoll  int
	win      float64 // what everybody else fallen is worth: valueWin in a duel, else nothing more than the kills
	pressure float64 // valuePressure
	lines    []string
	// the last input (as read then) and the answer to it, to learn the
	// coords order from
	prev    view
	prevCmd byte
	// seen marks the (turn, square) points escape has been at, those
	// stamped with stamp in the current call.
	seen  [trapWindow * Size * Size]uint32
	stamp uint32
	plan  attackPlan // escape's script for the attacker
	// A second opponent's attack for escape (see pairExposure), noAttack
	// unless pairExposure sets it.
	plan2 attackPlan
	// tt holds the values of the positions of this turn's search where
	// the bot decides, by stateKey.
	tt map[uint64]float64
	// Scratch states: for each search depth, and for each own turn of
	// escape (it branches on those only).
	scratch [maxDepth + 1]State
	esc     [trapWindow/Seats + 2]State
	// hunt's states, for each command of a plan and one for sure
	hunts [huntMoves + 2]State
	// The plan being followed (see follow), the next step of it, and the
	// one hunt and sure work on.
	hunting, hpath []byte
	step           int
	// Tie-breaks for the model of the opponent: hunt's and sure's.
	noise, verify         *rand.PCG
	noiseRand, verifyRand *rand.Rand
	window                int // escape's look-ahead in this call: escapeWindow or trapWindow
	// seenAt counts the commands played in each position (stateKey at
	// turn 0) where search stirs.
	seenAt map[uint64][len(Commands)]uint8
	// huntSeen holds the positions hunt has tried at each plan length,
	// by stateKey; huntNodes counts the commands it played this turn.
	huntSeen  map[uint64]struct{}
	huntNodes int
	// nodes counts the lines weighed this turn, against budget
	// (nodeBudget; tests set less).
	nodes, budget int
	maxNodes      int // the most of any turn so far, for calibration
}

// nodeBudget bounds the lines (line calls) search weighs in one turn:
// once it is spent choose and the search below it stop weighing further
// commands, choose plays the best of those it weighed, and a line cut
// short is worth no more than its best command weighed, so it is never
// valued above what search saw. A budget of work, never of the clock:
// the same input gives the same answer on any machine at any load, and
// a busy machine's wait for a CPU is given back by the runner instead.
//
// It is set just above the most any turn took in the calibration games
// (search against greedy, greedy and random, seats rotated, games
// 3000-3099, not used for tuning): 5,614 lines, 60.7 ms of CPU time on a
// 2-core Xeon shared with other work, about what the 60 ms wall-clock
// budget it replaces allowed there. So it binds only on a turn longer
// than any of those: strength is the unbounded search's, and the slowest
// turn stays where it was.
const nodeBudget = 6000

// late reports whether the turn's budget is spent.
func (b *SearchBot) late() bool {
	return b.nodes >= b.budget
}

// Search parameters: own turns searched, and global turns of greedy play
// after the last of them. A default turn (depth 3) plays at most 216
// lines, each some 50 global turns long. Longer rollouts judge an attack
// by what it leads to a few own turns later (blocks falling next to a
// dodging opponent, an opponent stuck waiting after its own attack): 40
// turns instead of 16 took search from 46 to 64 of 200 games ahead of
// both greedy bots, for about twice the time. With three players left a
// global turn costs less and a fall needs a longer plan, so the rollouts
// grow to 1.5 times as long. With two left (most games that search does
// not win end at the turn limit with one greedy bot left, often the two
// of them alone) it searches duelDepth own turns deep with short
// rollouts instead: in 40
// duels against greedy from the start position, depth 5 with 20-turn
// rollouts won 11 and lost 1, depth 3 with 100-turn rollouts won 4 and
// lost 6. Positions reached by different lines share one value (stateKey),
// which took a depth-5 turn from about 95 to about 32 ms of CPU time.
const (
	searchDepth  = 3
	rolloutTurns = 40
	duelDepth    = 5
	duelRollout  = 20
	maxDepth     = duelDepth // the deepest any line goes, for the scratch states
)

// NewSearchBot returns a searching bot seeded with seed (for breaking
// ties between equal lines).
func NewSearchBot(seed int64) *SearchBot {
	noise, verify := rand.NewPCG(1, 2), rand.NewPCG(3, 4)
	return &SearchBot{
		plan2:      noAttack,
		budget:     nodeBudget,
		huntSeen:   make(map[uint64]struct{}),
		noise:      noise,
		verify:     verify,
		noiseRand:  rand.New(noise),
		verifyRand: rand.New(verify),
		g:          NewGreedyBot(seed),
		rng:        rand.New(rand.NewPCG(uint64(seed), 0x736561726368)), // "search"
		pressure:   valuePressure,
		depths:     [Seats + 1]int{2: duelDepth, 3: searchDepth, 4: searchDepth},
		rolls:      [Seats + 1]int{2: duelRollout, 3: rolloutTurns * 3 / 2, 4: rolloutTurns},
	}
}

// Hello returns the READY line.
func (*SearchBot) Hello() string { return "READY\n" }

// Feed collects input lines and answers at EOD.
func (b *SearchBot) Feed(line string) string {
	return feedInput(b.g, &b.lines, line, b.decide)
}

// Values of a position at the end of a line of play.
const (
	valueFallen  = -1000000.0 // the bot itself fell, plus valueLater a turn: later is better
	valueLater   = 100.0      // so far apart that no risk charge makes a later fall look worse
	valueWin     = 20000.0    // everybody else fell, in a duel (see choose)
	valueKill    = 3000.0     // per opponent fallen
	valueDoomed  = 2000.0     // per opponent on a falling block it cannot leave
	valueMyDoom  = -50000.0   // the bot itself stands on such a block
	valueShot    = 1500.0     // per opponent an attack now would doom
	valueExposed = 4000.0     // per opponent that could doom the bot by attacking
	// A move whose effect differs between the two coords orders teaches
	// the order; until then every line is judged under both readings,
	// one of which is wrong (see orderPrior). The bonus picks a probe
	// among commands of about the same value; it once was 60,000 and so
	// outweighed every charge for risk, and search walked into an attack
	// on its first turn to learn what its next move would have taught.
	valueProbe = 1000.0
	// The first command of a plan that dooms the last opponent whatever
	// it does (trap) outweighs every charge for risk.
	valueTrap = 30000.0
	// Per side of an opponent's block that is closed at the end of a
	// line: twice for the board edge, once for a neighbour block fallen
	// or about to fall (see SearchBot).
	valueHemmed = 100.0
)

// orderPrior is the weight of the documented coords order (row first)
// while search has not yet seen which order its input uses; the other
// reading, column first (the 2015 referee's, an option), weighs the rest.
// Both still count: a fall under either reading outweighs anything else
// the other could offer. With the two readings weighed alike and a probe
// bonus of 60,000, search fell in its first few turns in games where its
// first command, judged by the right reading alone, would have kept it
// safe (games 126 and 196 of the diagnostic sort): with 0.8 and a bonus
// of 1,000 it won both.
const orderPrior = 0.8

// valuePressure weighs the opponents' own view of their squares: an
// opponent hemmed in by lines of attack, edges and fallen blocks is
// closer to a fall.
const valuePressure = 0.3

func (b *SearchBot) decide(v view) byte {
	b.nodes = 0
	defer func() { b.maxNodes = max(b.maxNodes, b.nodes) }()
	b.learnOrder(&v)
	cmd := b.choose(v)
	b.prev, b.prevCmd = v, cmd
	return cmd
}

// learnOrder works the coords order out from the effect of the bot's last
// command while it is unknown: the greedy bot learns it when a move
// changes one number, and search also when the move would have succeeded
// under one reading of the last input and been cancelled under the other
// (say against the board edge). It turns v round when it is xy.
func (b *SearchBot) learnOrder(v *view) {
	if b.g.xy != 0 || b.prev.turn >= v.turn || strings.IndexByte(Directions, b.prevCmd) < 0 {
		return
	}
	me := v.players[v.id]
	if !me.alive || !b.prev.players[v.id].alive {
		return
	}
	rc := rawAfter(b.prev, b.prevCmd, false)
	xy := rawAfter(swapped(b.prev), b.prevCmd, true)
	got := [2]int{me.r, me.c}
	switch {
	case rc == xy:
	case got == rc:
		b.g.xy = 1
	case got == xy:
		b.g.xy = 2
		*v = swapped(*v)
	}
}

// rawAfter is where the bot stands after the move cmd in v, as the two
// numbers of its input line; v is the input read the other way round when
// turned.
func rawAfter(v view, cmd byte, turned bool) [2]int {
	me := v.players[v.id]
	r, c := me.r, me.c
	dr, dc := step(cmd)
	if canEnter(&v, v.id, r+dr, c+dc) {
		r, c = r+dr, c+dc
	}
	if turned {
		return [2]int{c, r}
	}
	return [2]int{r, c}
}

func (b *SearchBot) choose(v view) byte {
	me := v.players[v.id]
	if !me.alive || me.wait > 0 {
		return 'N'
	}
	// Until the coords order is known, search both readings, weigh the
	// value of each command by orderPrior and favour a move whose effect
	// differs between them, which teaches the order.
	unsure := b.g.xy == 0
	roots := []*State{stateOf(&v)}
	var alt view
	if unsure {
		alt = swapped(v)
		roots = append(roots, stateOf(&alt))
	}
	if b.tt == nil {
		b.tt = make(map[uint64]float64)
	}
	clear(b.tt)
	depth := b.depths[roots[0].left]
	b.curRoll = b.rolls[roots[0].left]
	// valueWin counts only when search decides in a duel. With three or
	// four players left, a line in which everybody else falls is the
	// model's guess at how two or three opponents play for up to 60
	// turns, and valueWin (worth five charges for risk) made search attack
	// where an opponent could doom it while it sat out. Of the 12 games it
	// fell in with three players left (games 0 to 399 against greedy,
	// greedy and random), in 4 the fatal command was such an attack,
	// valued some 20,000 above the best safe one. Without it, the games search ended
	// alone went from 361 to 368 on games 0 to 399 and from 346 to 347 on
	// games 400 to 799 (6,000 instead of nothing: 364 and 349); with
	// orderPrior, 370 and 351 (was 707 of 800, now 721, 90.1 %). On games
	// 800 to 1199, which none of this was chosen on, 336 became 338: the
	// gain is real but smaller than the tuned sets show.
	b.win = valueWin
	if roots[0].left > 2 {
		b.win = 0
	}
	if unsure {
		depth = min(depth, searchDepth)
	}
	trapCmd, trapped := byte(0), false
	if !unsure {
		trapCmd, trapped = b.trapOrFollow(roots[0], v.id)
	}
	// With few players left the game can come back to a position it has
	// been in, and search would answer as it did then: charge each
	// command for the times it was played here before.
	stirring := !unsure && roots[0].left <= stirPlayers
	var posKey uint64
	var played [len(Commands)]uint8
	if stirring {
		posKey, played = b.playedHere(roots[0])
	}
	best, bestI, bestVal := byte('N'), 0, math.Inf(-1)
	for i := range len(Commands) {
		if i > 0 && b.late() {
			break
		}
		cmd := Commands[i]
		val := b.rootsValue(roots, v.id, cmd, depth)
		if trapped && cmd == trapCmd && val > valueMyDoom/2 {
			val += valueTrap
		}
		if unsure && strings.IndexByte(Directions, cmd) >= 0 && rawAfter(v, cmd, false) != rawAfter(alt, cmd, true) {
			val += valueProbe
		}
		if stirring && val > valueMyDoom/2 {
			val -= stir(roots[0], v.id, cmd) + stirRepeat*float64(min(played[i], stirRepeats))
		}
		val += b.rng.Float64() * 0.01
		if val > bestVal {
			best, bestI, bestVal = cmd, i, val
		}
	}
	if trapped && best != trapCmd {
		b.hunting = b.hunting[:0] // the plan would have the bot fall
	}
	if stirring {
		played[bestI] = min(played[bestI]+1, stirRepeats)
		b.seenAt[posKey] = played
	}
	return best
}

// trapOrFollow returns the command that starts a trap of the last opponent
// or follows a hunt, when there is one: with two players left a trap (or
// else a hunt), with three a hunt.
func (b *SearchBot) trapOrFollow(root *State, me int) (byte, bool) {
	switch root.left {
	case 2:
		if plan, ok := b.trap(root, me, 2); ok {
			return plan.script[0].cmd, true
		}
		return b.follow(root, me)
	case 3:
		// With three players left there is no exact trap (two
		// opponents move), but a hunt still drops one of them.
		return b.follow(root, me)
	}
	return 0, false
}

// playedHere returns the key of root's position (whoever's turn it is)
// and how often each command was played in it before.
func (b *SearchBot) playedHere(root *State) (uint64, [len(Commands)]uint8) {
	c := *root
	c.turn = 0
	posKey := stateKey(&c, 0)
	if b.seenAt == nil {
		b.seenAt = make(map[uint64][len(Commands)]uint8)
	}
	return posKey, b.seenAt[posKey]
}

// rootsValue is cmd's value searched from each root: with two roots (the
// coords order still unknown) weighed by orderPrior, the first reading's.
func (b *SearchBot) rootsValue(roots []*State, me int, cmd byte, depth int) float64 {
	val := 0.0
	for k, root := range roots {
		s := *root
		w := 1.0
		if len(roots) > 1 {
			w = orderPrior
			if k == 1 {
				w = 1 - orderPrior
			}
		}
		val += b.line(&s, me, cmd, depth) * w
	}
	return val
}

// trapWindow is escape's look-ahead for a trap: its last attack comes
// up to 28 turns from now and hits blocks up to 5 away (20 more turns).
const trapWindow = 52

// trap looks for a short plan against the last opponent that it cannot
// survive whatever it does (escape, exactly): up to two moves and an
// attack, once or twice. The first attack can make holes beside the
// opponent's block (a line parallel to its own), so that the second
// finds it with no side to leave by. It returns the plan, of at most
// attacks attacks.
func (b *SearchBot) trap(s *State, me, attacks int) (attackPlan, bool) {
	opp := opponent(s, me)
	o := s.players[opp]
	obr, obc := o.Row/BlockSize, o.Col/BlockSize
	plan := attackPlan{who: me, moveAt: -1, attackAt: -1}
	// gen extends the script from c, where me is free on turn c.turn, by
	// up to two moves and an attack, for attacks more attacks.
	var gen func(c *State, moves, attacks int) bool
	gen = func(c *State, moves, attacks int) bool {
		for _, cmd := range [...]byte{'A', 'U', 'R', 'D', 'L'} {
			if cmd != 'A' && moves == 2 {
				continue
			}
			n := *c
			p := n.players[me]
			if cmd == 'A' && !inLine(p.Row/BlockSize, p.Col/BlockSize, p.Dir, obr, obc, 1) {
				continue // an attack that does not pass the opponent's block or one beside it
			}
			at := n.turn
			n.play(cmd)
			plan.script[plan.n] = planStep{at: at, cmd: cmd, r: n.players[me].Row, c: n.players[me].Col}
			plan.n++
			// Play on to me's next free turn, the opponent standing still.
			for !n.done && (n.turn%Seats != me || n.players[me].Wait > 0) {
				n.play('N')
			}
			if n.players[me].Fallen {
				plan.n--
				continue
			}
			if cmd == 'A' {
				if !b.escapes(s, opp, plan) {
					return true
				}
				if attacks > 1 && gen(&n, 0, attacks-1) {
					return true
				}
			} else if gen(&n, moves+1, attacks) {
				return true
			}
			plan.n--
		}
		return false
	}
	c := *s
	if gen(&c, 0, attacks) {
		return plan, true
	}
	return noAttack, false
}

// line plays cmd for me on s, then the others until me's next turn, and
// returns the value of the best continuation.
func (b *SearchBot) line(s *State, me int, cmd byte, depth int) float64 {
	b.nodes++
	s.play(cmd)
	if s.players[me].Fallen {
		return b.value(s, me)
	}
	// The model of the others may be wrong (ties, a random bot): an
	// attack they could make on their next turns counts against every
	// step of the line, not only its end.
	risk := b.exposure(s, me)
	val := b.others(s, me, depth)
	if val <= valueMyDoom/2 {
		// A fall that the model sees coming is worse than any risk:
		// the risk must not make a later fall look worse than an
		// earlier one.
		return val
	}
	return val - risk
}

// others plays the other players' turns up to me's next one as the model
// has them, and goes on from there: the position's value at the last
// depth, every command of me's otherwise.
func (b *SearchBot) others(s *State, me int, depth int) float64 {
	for !s.done && !s.players[me].Fallen && s.turn%Seats != me {
		s.play(modelCommand(s, nil))
	}
	if s.done || s.players[me].Fallen {
		return b.value(s, me)
	}
	if s.players[me].Wait > 0 {
		// Sitting out after an attack is no decision: it costs no depth,
		// so the search sees an attack, the wait and the next attack.
		return b.line(s, me, 'N', depth)
	}
	// Lines that reach the same position (moves in another order, a
	// cancelled move and N) share its value: the model of the others
	// depends on the position only.
	key := stateKey(s, depth)
	if v, ok := b.tt[key]; ok {
		return v
	}
	v := b.decision(s, me, depth)
	b.tt[key] = v
	return v
}

// decision is the value of s, where me is free to act, depth own turns
// deep.
func (b *SearchBot) decision(s *State, me int, depth int) float64 {
	if depth <= 1 {
		for range b.curRoll {
			if s.done || s.players[me].Fallen {
				break
			}
			s.play(modelCommand(s, nil))
		}
		return b.value(s, me)
	}
	best := math.Inf(-1)
	// Depth falls by one at every branching, so each depth has its own
	// scratch state (a copy on the stack would move to the heap).
	c := &b.scratch[depth]
	for i := range len(Commands) {
		if i > 0 && b.late() {
			break // a lower bound: the commands weighed so far
		}
		*c = *s
		best = max(best, b.line(c, me, Commands[i], depth-1))
	}
	return best
}

// stateKey hashes what the rest of a line depends on: the turn, the
// blocks and the players, and the depth left to search.
func stateKey(s *State, depth int) uint64 {
	h := uint64(depth)*0x9e3779b97f4a7c15 ^ uint64(s.turn)
	mix := func(v int) {
		h ^= uint64(v) + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	}
	for r := range s.blocks {
		for _, v := range s.blocks[r] {
			mix(v)
		}
	}
	for _, p := range s.players {
		w := p.Wait<<1 | int(p.Dir)<<8
		if p.Fallen {
			w |= 1
		}
		mix(p.Row<<8 | p.Col)
		mix(w)
	}
	return h
}

// value judges s for player me, whose turn it is unless it fell or the
// game is over.
func (b *SearchBot) value(s *State, me int) float64 {
	p := s.players[me]
	if p.Fallen {
		return valueFallen + valueLater*float64(p.FellAt)
	}
	val := 0.0
	left := 0
	for i, o := range s.players {
		if i == me {
			continue
		}
		if o.Fallen {
			val += valueKill
			continue
		}
		left++
		if !b.escapes(s, i, noAttack) {
			val += valueDoomed
			continue
		}
		ov := viewOf(s, i)
		val -= b.pressure * greedyBest(&ov)
		edges, closed := sides(&s.blocks, o.Row/BlockSize, o.Col/BlockSize)
		val += valueHemmed * float64(2*edges+closed)
	}
	if left == 0 {
		return b.win + val
	}
	if !b.escapes(s, me, noAttack) {
		return valueMyDoom + val
	}
	val += b.shot(s, me)
	// The greedy bot's judgement of the square: lines of attack, edges,
	// fallen neighbours.
	v := viewOf(s, me)
	return val + greedyBest(&v)
}

// shot is what an attack right now would be worth to me: the opponents in
// its line that could not get away from it, everybody else standing still.
func (b *SearchBot) shot(s *State, me int) float64 {
	p := s.players[me]
	if p.Wait > 0 || s.turn%Seats != me {
		return 0
	}
	v := viewOf(s, me)
	if targets(&v, p.Row, p.Col, p.Dir) == 0 {
		return 0
	}
	c := *s
	c.play('A')
	val := 0.0
	for i, o := range c.players {
		if i != me && !o.Fallen && !b.escapes(&c, i, noAttack) {
			val += valueShot
		}
	}
	if val > 0 {
		val -= b.exposure(&c, me)
	}
	return val
}

// exposure is the risk me runs where it stands: for every opponent,
// whether me could still get off the falling blocks if that opponent
// attacked on its next free turn (where it faces now), or moved one square
// then and attacked facing that way on the turn after (a move turns it
// and may take it into a line with me or next to it), everybody else
// standing still. The model of the others may not see such an attack
// coming: a tie it breaks the other way, a random bot.
//
// While me sits out its own attack it cannot answer an opponent's first
// steps, so there exposure also tries attacks after up to slowCommands
// moves (slowAttacks), charged in full, with two opponents or more. In
// games the bot lost, an opponent walked into line while it sat out and
// attacked before it could get off (games 50 and 250 of the diagnostic
// sort). Against greedy, greedy and random, the games it ended alone went
// from 349 to 361 on games 0 to 399 and from 338 to 346 on games 400 to
// 799 (with duels in, two commands gave 355 and 345, three charged at
// half 358 and 339). In duels it took the most CPU time in a turn from 44 to 88 ms
// (the five-turn search has many lines that attack), and a duel's search
// sees such attacks itself: duels are left out.
func (b *SearchBot) exposure(s *State, me int) float64 {
	p := s.players[me]
	br, bc := p.Row/BlockSize, p.Col/BlockSize
	risk := 0.0
	for i, o := range s.players {
		if i == me || o.Fallen {
			continue
		}
		at := nextFree(s, i)
		worst := 0.0
		obr, obc := o.Row/BlockSize, o.Col/BlockSize
		if s.blocks[br][bc] == 0 && inLine(obr, obc, o.Dir, br, bc, 0) {
			if !b.escapes(s, me, attackPlan{who: i, moveAt: -1, attackAt: at}) {
				worst = 1
			}
		}
		if worst == 0 && b.doomedBy(s, me, moveAttacks(s, i, br, bc, 1)) {
			worst = 0.5
		}
		// Sitting out its own attack, the bot cannot answer the first
		// commands of a slower attack: as sure as a direct one. (A duel's
		// search is five own turns deep: it sees them.)
		if worst == 0 && p.Wait > 0 && s.left > 2 && b.doomedBy(s, me, slowAttacks(s, i, br, bc)) {
			worst = 1
		}
		risk += valueExposed * worst
	}
	if risk == 0 {
		risk = b.pairExposure(s, me)
	}
	return risk
}

// doomedBy reports whether any of plans leaves me no way off.
func (b *SearchBot) doomedBy(s *State, me int, plans iter.Seq[attackPlan]) bool {
	for plan := range plans {
		if !b.escapes(s, me, plan) {
			return true
		}
	}
	return false
}

// pairExposure is the risk me runs from two opponents together (none in
// a duel): one attacks on its next free turn, where it faces now or after
// one move, and the other on its own next free turn, where it faces or
// after one move.
// Each attack alone may leave me a way off, and the first can drive me
// onto the blocks of the second (a fall seen in one game: an opponent's
// attack along a row, the dodge onto the row of the other, whose attack
// followed). Two greedy bots caught search that way: on games 0 to 199
// against greedy, greedy and random it fell with three players left in
// 17; charging the pair (at valueExposed; half of that did less) made it
// 11, and the games it ended alone 155 (was 152; both with hunts of up
// to 20,000 commands). Charged with four players left too, it took the
// games ended alone from 344 to 349 on games 0 to 399 and from 333 to
// 338 on games 400 to 799 (valueHemmed in both): each within the spread,
// both the same way. TestSearchStrength: 170 to 174 with greedy, greedy
// and random, 158 to 162 against three greedy bots.
//
// The first attack may also come after one move that turns its opponent
// toward me's block: in games 9004 and 9161 two greedy bots each turned
// toward search and then attacked one after the other, and search saw
// neither attack alone as a risk. Trying such first attacks too took
// the falls with three players left in six sets of 200 games from 50
// to 37 (see SearchBot for what it took to win those games).
func (b *SearchBot) pairExposure(s *State, me int) float64 {
	p := s.players[me]
	br, bc := p.Row/BlockSize, p.Col/BlockSize
	if s.blocks[br][bc] != 0 {
		return 0
	}
	for i, o := range s.players {
		if i == me || o.Fallen {
			continue
		}
		if inLine(o.Row/BlockSize, o.Col/BlockSize, o.Dir, br, bc, 0) {
			first := attackPlan{who: i, moveAt: -1, attackAt: nextFree(s, i)}
			if b.pairedWith(s, me, i, first) {
				return valueExposed
			}
		}
		// The first attack may also come after a move that turns the
		// opponent toward me's block.
		for first := range moveAttacks(s, i, br, bc, 0) {
			if b.pairedWith(s, me, i, first) {
				return valueExposed
			}
		}
	}
	return 0
}

// pairedWith reports whether an attack by another opponent than i, where
// it faces or after one move, on its next free turn, leaves me no way
// off once i has attacked as first says.
func (b *SearchBot) pairedWith(s *State, me, i int, first attackPlan) bool {
	p := s.players[me]
	br, bc := p.Row/BlockSize, p.Col/BlockSize
	for j, q := range s.players {
		if j == me || j == i || q.Fallen {
			continue
		}
		// The second attack must pass me's block or one beside it,
		// where the first may drive me.
		now := attackPlan{who: j, moveAt: -1, attackAt: nextFree(s, j)}
		if inLine(q.Row/BlockSize, q.Col/BlockSize, q.Dir, br, bc, 1) && !b.escapesBoth(s, me, first, now) {
			return true
		}
		for second := range moveAttacks(s, j, br, bc, 1) {
			if !b.escapesBoth(s, me, first, second) {
				return true
			}
		}
	}
	return false
}

// escapesBoth is escapes with a second attacker following second.
func (b *SearchBot) escapesBoth(s *State, who int, first, second attackPlan) bool {
	b.plan2 = second
	ok := b.escapes(s, who, first)
	b.plan2 = noAttack
	return ok
}

// moveAttacks yields opponent i's attacks after one move: it moves on its
// next free turn (a move turns it, and may take it into a line) and
// attacks facing that way on the turn after; only those whose line passes
// within slack blocks of block (br, bc) (see inLine).
func moveAttacks(s *State, i, br, bc, slack int) iter.Seq[attackPlan] {
	return func(yield func(attackPlan) bool) {
		o := s.players[i]
		at := nextFree(s, i)
		v := viewOf(s, i)
		for _, d := range []byte(Directions) {
			dr, dc := step(d)
			r, c := o.Row, o.Col
			if canEnter(&v, i, r+dr, c+dc) {
				r, c = r+dr, c+dc
			}
			if inLine(r/BlockSize, c/BlockSize, d, br, bc, slack) && !yield(attackPlan{who: i, moveAt: at, move: d, attackAt: at + Seats}) {
				return
			}
		}
	}
}

// slowAttacks yields opponent i's attacks after two to slowCommands
// commands (after one they are moveAttacks'), each a move or N, the last
// a move (it turns the player even where it is cancelled), on its next
// free turns; only those whose line passes block (br, bc) or one beside
// it, and one plan for each number of commands, square and direction it
// attacks from. An opponent has that long while the bot sits out its own
// attack.
func slowAttacks(s *State, i, br, bc int) iter.Seq[attackPlan] {
	return func(yield func(attackPlan) bool) {
		o := s.players[i]
		v := viewOf(s, i)
		plan := attackPlan{who: i, moveAt: -1, attackAt: -1}
		var tried [slowCommands][Size][Size][4]bool
		var walk func(k, r, c int) bool
		walk = func(k, r, c int) bool {
			at := nextFree(s, i) + k*Seats
			for _, d := range []byte("N" + Directions) {
				if d == 'N' && k == slowCommands-1 {
					continue
				}
				r2, c2 := r, c
				if d != 'N' {
					dr, dc := step(d)
					if canEnter(&v, i, r+dr, c+dc) {
						r2, c2 = r+dr, c+dc
					}
				}
				plan.script[k] = planStep{at: at, cmd: d, r: r2, c: c2}
				di := strings.IndexByte(Directions, d)
				if d != 'N' && k > 0 && !tried[k][r2][c2][di] && inLine(r2/BlockSize, c2/BlockSize, d, br, bc, 1) {
					tried[k][r2][c2][di] = true
					plan.script[k+1] = planStep{at: at + Seats, cmd: 'A', r: r2, c: c2}
					plan.n = k + 2
					if !yield(plan) {
						return false
					}
				}
				if k+1 < slowCommands && !walk(k+1, r2, c2) {
					return false
				}
			}
			return true
		}
		walk(0, o.Row, o.Col)
	}
}

// slowCommands is how many commands slowAttacks lets an opponent play
// before its attack.
const slowCommands = 3

// nextFree is the global turn on which player i can next act: its next
// own turn, then the turns it must sit out.
func nextFree(s *State, i int) int {
	return s.turn + (i-s.turn%Seats+Seats)%Seats + Seats*s.players[i].Wait
}

// inLine reports whether an attack from block (obr, obc) facing d passes
// within slack blocks (sideways) of block (br, bc).
func inLine(obr, obc int, d byte, br, bc, slack int) bool {
	dr, dc := step(d)
	if dr == 0 {
		return abs(obr-br) <= slack && (bc-obc)*dc > 0
	}
	return abs(obc-bc) <= slack && (br-obr)*dr > 0
}

// attackPlan is what escape has one opponent do: move on turn moveAt (-1:
// no move), attack on turn attackAt (-1: no attack), or follow script
// (the first n steps; then moveAt and attackAt are -1); N otherwise.
type attackPlan struct {
	who              int
	moveAt, attackAt int
	move             byte
	n                int
	script           [maxScript]planStep
}

// planStep is one command of a scripted plan, the turn it is played on
// and the square it leads to.
type planStep struct {
	at   int
	cmd  byte
	r, c int
}

// maxScript is the longest script a trap plays: two moves and an attack,
// twice.
const maxScript = 6

// last is the turn of the plan's last command (-1: none).
func (p *attackPlan) last() int {
	if p.n > 0 {
		return p.script[p.n-1].at
	}
	return p.attackAt
}

// command is what the plan has its player do on turn t, and the step of
// the script it is (nil: none).
func (p *attackPlan) command(t int) (byte, *planStep) {
	switch t {
	case p.moveAt:
		return p.move, nil
	case p.attackAt:
		return 'A', nil
	}
	for i := range p.script[:p.n] {
		if st := &p.script[i]; st.at == t {
			return st.cmd, st
		}
	}
	return 'N', nil
}

// noAttack is the plan of nobody doing anything.
var noAttack = attackPlan{who: -1, moveAt: -1, attackAt: -1}

// escapes reports whether player who can stay on the board while the
// blocks now falling fall, moving as it likes on its own turns while the
// others stand still, except that player attacker attacks on global turn
// at (attacker -1: nobody).
func (b *SearchBot) escapes(s *State, who int, plan attackPlan) bool {
	p := s.players[who]
	if p.Fallen {
		return false
	}
	if plan.who < 0 && s.blocks[p.Row/BlockSize][p.Col/BlockSize] == 0 {
		return true
	}
	b.stamp++
	if b.stamp == 0 {
		clear(b.seen[:])
		b.stamp = 1
	}
	c := &b.esc[0]
	*c = *s
	b.plan = plan
	b.window = escapeWindow
	if plan.n > 0 {
		b.window = trapWindow
	}
	return b.escape(c, who, s.turn, 1)
}

// escapeWindow is how many global turns escape looks ahead: the longest
// timer (a block five away), a wait and a turn before the attack.
const escapeWindow = 40

func (b *SearchBot) escape(s *State, who, from, level int) bool {
	plan := &b.plan
	for {
		p := &s.players[who]
		if p.Fallen {
			return false
		}
		if s.done || s.turn-from >= b.window {
			return true
		}
		if s.turn > max(plan.last(), b.plan2.last()) && s.blocks[p.Row/BlockSize][p.Col/BlockSize] == 0 {
			return true
		}
		seat := s.turn % Seats
		if seat != who || p.Wait > 0 {
			cmd, st := byte('N'), (*planStep)(nil)
			switch seat {
			case plan.who:
				cmd, st = plan.command(s.turn)
			case b.plan2.who:
				cmd, _ = b.plan2.command(s.turn)
			}
			s.play(cmd)
			if st != nil && (s.players[plan.who].Row != st.r || s.players[plan.who].Col != st.c) {
				// The player got in the way of a scripted move: the
				// plan is off. (This also keeps everything but the
				// player's square and the turn fixed, as seen needs.)
				return true
			}
			continue
		}
		k := ((s.turn-from)*Size+p.Row)*Size + p.Col
		if b.seen[k] == b.stamp {
			return false
		}
		b.seen[k] = b.stamp
		r, col := p.Row, p.Col
		c := &b.esc[level]
		for _, cmd := range [...]byte{'N', 'U', 'R', 'D', 'L'} {
			*c = *s
			c.play(cmd)
			if cmd != 'N' && c.players[who].Row == r && c.players[who].Col == col {
				continue // the move was cancelled: the same as N
			}
			if b.escape(c, who, from, level+1) {
				return true
			}
		}
		return false
	}
}

// modelCommand is what the turn player of s is taken to do: the greedy
// bot's choice, with tie-breaks drawn from r as the greedy bot draws its
// own, or without them when r is nil.
func modelCommand(s *State, r *rand.Rand) byte {
	seat := s.turn % Seats
	p := s.players[seat]
	if p.Fallen || p.Wait > 0 {
		return 'N'
	}
	v := viewOf(s, seat)
	best, bestScore := byte('N'), math.Inf(-1)
	for i := range len(Commands) {
		sc := modelGreedy.score(&v, Commands[i])
		if r != nil {
			sc += r.Float64() * greedyNoise
		}
		if sc > bestScore {
			best, bestScore = Commands[i], sc
		}
	}
	return best
}

// greedyBest is the greedy bot's value of its best command in v.
func greedyBest(v *view) float64 {
	best := math.Inf(-1)
	for i := range len(Commands) {
		best = max(best, modelGreedy.score(v, Commands[i]))
	}
	return best
}

// modelGreedy scores commands for the model; its score does not touch its
// random source.
var modelGreedy = &GreedyBot{}

// stateOf builds a state to play on from a turn input. The turn limit is
// unknown to a bot and far away most of the game, so lines play as if
// there were none.
func stateOf(v *view) *State {
	s := &State{cfg: config{maxTurns: math.MaxInt}, turn: v.turn, ready: true}
	s.blocks = v.blocks
	for r := range s.blocks {
		for _, k := range s.blocks[r] {
			if k != 0 {
				s.busy++
			}
		}
	}
	for i, p := range v.players {
		s.players[i] = Player{Piece: Piece{Row: p.r, Col: p.c, Dir: p.dir}, Wait: p.wait, Fallen: !p.alive, FellAt: -1, Last: 'N'}
		if p.alive {
			s.left++
		} else {
			s.players[i].Row, s.players[i].Col = -100, -100
		}
	}
	return s
}

// viewOf is the input player seat would get from s, already parsed.
func viewOf(s *State, seat int) view {
	v := view{id: seat, turn: s.turn, blocks: s.blocks}
	for i, p := range s.players {
		v.players[i] = botPlayer{r: p.Row, c: p.Col, dir: p.Dir, wait: p.Wait, alive: !p.Fallen}
	}
	return v
}

// A hunt plays up to huntMoves commands (moves, or N to let the
// opponent act first) and then an attack through the opponent's block,
// and plays on huntTail global turns after it; it must work in all
// huntSamples draws of the opponent's tie-breaks. Against greedy in 80
// duels (seeds 40 to 119) it took search from 23 wins to 29, none lost.
// Plans of three moves and two attacks won 27; six commands won 30 but
// took up to 30 ms of CPU time in a turn, against 7 ms.
//
// Once search stirred, duels on a board worn by the earlier fights still
// ended at the turn limit more often than those from the start: 28 of
// 200 games against greedy, greedy and random. Positions that plans of
// different commands reach alike are now tried once per plan length, and
// a hunt plays at most huntBudget commands a turn, so plans of up to
// seven commands cost what five did without it. On games 0 to 199 that
// took the games search ended alone from 146 to 152 (duels at the limit
// 28 to 22). Plans of eight or nine commands found no more. A budget of
// 20,000 commands found 2 more kills than 10,000 for up to 55 ms of CPU
// time in a duel turn against 48 (38 before): not worth the margin to
// the 100 ms limit.
const (
	huntMoves   = 7
	huntTail    = 24
	huntSamples = 4
	huntBudget  = 10000
	huntBudget3 = 4000 // with three players left
)

// opponent is the one other player on the board in a duel (-1: none).
func opponent(s *State, me int) int {
	for i, o := range s.players {
		if i != me && !o.Fallen {
			return i
		}
	}
	return -1
}

// hunt looks for a plan that makes an opponent fall (the last one in a
// duel, either of two with three players left) as the greedy bot would
// play it, random tie-breaks and all, every opponent so modelled. A
// typical one: the opponent has just attacked and sits out its next two
// turns, and an attack finds it unable to leave its block in time. A
// plan is up to huntMoves moves or waits and an attack whose line passes
// the block of an opponent on a stable block; it must see an opponent
// fall and the bot stand in every one of huntSamples draws of the
// tie-breaks (the greedy bot's ties are many: in a duel the model
// without them names its command only 45 % of the time). hunt leaves
// the plan in b.hpath.
func (b *SearchBot) hunt(s *State, me int) bool {
	budget := huntBudget
	if s.left > 2 {
		budget = huntBudget3
	}
	b.noise.Seed(1, 2)
	b.hpath = b.hpath[:0]
	var gen func(c *State, depth, limit int) bool
	gen = func(c *State, depth, limit int) bool {
		for _, cmd := range [...]byte{'A', 'U', 'R', 'D', 'L', 'N'} {
			if cmd != 'A' && depth == limit {
				continue
			}
			p := c.players[me]
			if cmd == 'A' && !huntable(c, me) {
				continue
			}
			if b.huntNodes >= budget {
				return false
			}
			b.huntNodes++
			n := &b.hunts[depth]
			*n = *c
			n.play(cmd)
			if q := n.players[me]; strings.IndexByte(Directions, cmd) >= 0 && q.Row == p.Row && q.Col == p.Col && q.Dir == p.Dir {
				continue // the same as N
			}
			untilFree(n, me, b.noiseRand)
			if cmd != 'A' && depth < limit {
				// Plans that reach the same position with as many
				// commands left go on alike.
				k := stateKey(n, limit-depth)
				if _, ok := b.huntSeen[k]; ok {
					continue
				}
				b.huntSeen[k] = struct{}{}
			}
			b.hpath = append(b.hpath[:depth], cmd)
			switch {
			case n.players[me].Fallen:
			case oppFell(s, n, me) || cmd == 'A':
				if b.sure(s, me) {
					return true
				}
			case depth < limit && gen(n, depth+1, limit):
				return true
			}
		}
		return false
	}
	// The shortest plan first: it leaves the opponent the fewest turns
	// to do what the model does not foresee.
	b.huntNodes = 0
	for limit := range huntMoves + 1 {
		clear(b.huntSeen)
		if gen(s, 0, limit) {
			return true
		}
	}
	return false
}

// sure plays b.hpath from s in huntSamples draws of the tie-breaks, the
// others playing the greedy bot and the bot too once the plan is over,
// and reports whether in each an opponent falls and me stands.
func (b *SearchBot) sure(s *State, me int) bool {
	t := &b.hunts[huntMoves+1]
	for k := range huntSamples {
		b.verify.Seed(uint64(k)+7, 11)
		*t = *s
		for _, cmd := range b.hpath {
			untilFree(t, me, b.verifyRand)
			if t.done || t.players[me].Fallen {
				break
			}
			t.play(cmd)
		}
		for end := t.turn + huntTail; !t.done && t.turn < end; {
			t.play(modelCommand(t, b.verifyRand))
		}
		if t.players[me].Fallen || !oppFell(s, t, me) {
			return false
		}
	}
	return true
}

// oppFell reports whether an opponent of me on the board in s has fallen
// in t.
func oppFell(s, t *State, me int) bool {
	for i, o := range s.players {
		if i != me && !o.Fallen && t.players[i].Fallen {
			return true
		}
	}
	return false
}

// huntable reports whether an attack by me in s passes the block of an
// opponent standing on a stable block.
func huntable(s *State, me int) bool {
	p := s.players[me]
	for i, o := range s.players {
		if i == me || o.Fallen {
			continue
		}
		obr, obc := o.Row/BlockSize, o.Col/BlockSize
		if s.blocks[obr][obc] == 0 && inLine(p.Row/BlockSize, p.Col/BlockSize, p.Dir, obr, obc, 0) {
			return true
		}
	}
	return false
}

// untilFree plays s on to me's next turn on which it may act, the others
// playing the greedy bot with tie-breaks drawn from r.
func untilFree(s *State, me int, r *rand.Rand) {
	for !s.done && !s.players[me].Fallen && (s.turn%Seats != me || s.players[me].Wait > 0) {
		s.play(modelCommand(s, r))
	}
}

// follow goes on with the hunt being followed while what is left of it
// still works, and looks for a new one otherwise. It returns the
// command to play.
func (b *SearchBot) follow(s *State, me int) (byte, bool) {
	if b.step < len(b.hunting) {
		b.hpath = append(b.hpath[:0], b.hunting[b.step:]...)
		if b.sure(s, me) {
			b.step++
			return b.hunting[b.step-1], true
		}
	}
	b.hunting = b.hunting[:0]
	if !b.hunt(s, me) {
		return 0, false
	}
	b.hunting = append(b.hunting, b.hpath...)
	b.step = 1
	return b.hunting[0], true
}

// The greedy bot is not cornered in open ground: from positions where
// search and greedy had stood still in a duel for hundreds of turns, a
// search for a kill that greedy could not avoid whatever its tie-breaks
// found none within nine own turns, and the best chance of a kill within
// five was nil. What drops it is its reaction to a bot close by that
// keeps moving: an attack that leaves it sitting out, a dodge into a
// corner. So with stirPlayers players left or fewer, search's choice of
// command is charged stir: for standing still and for each square
// between it and the nearest opponent. Measured on the first 100 games
// against greedy, greedy and random (ahead of both greedy bots, was 51):
// charging only in a duel, for standing still alone 57, with 5, 20, 30,
// 50 or 150 a square 62, 69, 69, 70 and 57; with three players left too
// 70 (and 57 against three greedy bots, 50 with the duel alone); with
// four 60. In 40 duels (seeds 40 to 79): 16 wins, 24 standing still
// alone, 33 with 30 a square. A search for a forced kill over greedy's
// tie-breaks (the bot's answer may depend on greedy's choice), tried
// before the hunt, found no more kills than the hunt does and was left
// out.
//
// Stirring, the two bots could still go round one loop of positions to
// the turn limit (one game came back to the same position every 200
// turns, greedy attacking and search dodging). So each command is also
// charged stirRepeat for every time search played it before in the same
// position (blocks, squares, facings and waits): 70 became 75 of the
// first 100 games, and 57 became 66 against three greedy bots.
//
// Once search had learnt to hunt and to hem an opponent in, a stronger
// pull in a duel made the duels shorter. In 320 duels against greedy
// from the start (seeds 1000 to 1319; TestSearchDuels plays such duels),
// 30 a square won 314, on average by turn 261 (197 of them by turn 250);
// 100 a square 318, by turn 230; 200 all 320, by turn 198 (231 by turn
// 250); 300 all, by 204; 500 319, by 218. Most games search did not
// win ended at the turn limit, many of them in a duel that began late,
// so a shorter duel wins games. 200 a square with three players left
// too left more three-player standoffs at the turn limit: ahead of both
// greedy bots of 200 games with greedy, greedy and random, on games 0 to
// 199 and 7000 to 7199, 30 a square 183 and 177, 200 178 and 178, 200
// in duels only (stirDuelDistance) 184 and 183. See TestSearchStrength
// for the other sets.
//
// Stirring only chooses between commands the search judges safe: it is
// not charged where the search sees the bot doomed. What sways the
// choice is the difference between two commands' charges, at most 100
// (standing still) + 2·200 (one command a square closer, another a
// square further) + 1200 (stirRepeats times stirRepeat): below one
// exposure, so stirring can never push search into a line an opponent
// could attack it along.
const (
	stirStill        = 100.0
	stirDistance     = 30.0  // a square, with three players left
	stirDuelDistance = 200.0 // a square, in a duel
	stirPlayers      = 3     // stir with this many players left or fewer
	stirRepeat       = 300.0
	stirRepeats      = 4
)

// stir is the charge for me playing cmd in s: stirStill if it stays on
// its square, and stirDistance (stirDuelDistance in a duel) for every
// square between it and the nearest opponent after it.
func stir(s *State, me int, cmd byte) float64 {
	c := *s
	c.play(cmd)
	p, q := s.players[me], c.players[me]
	charge := 0.0
	if q.Row == p.Row && q.Col == p.Col {
		charge += stirStill
	}
	near := math.MaxInt
	for i, o := range c.players {
		if i != me && !o.Fallen {
			near = min(near, manhattan(q.Row, q.Col, o.Row, o.Col))
		}
	}
	perSquare := stirDistance
	if s.left <= 2 {
		perSquare = stirDuelDistance
	}
	if near < math.MaxInt {
		charge += perSquare * float64(near)
	}
	return charge
}
