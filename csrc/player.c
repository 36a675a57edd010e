/* The no-peek player's policy playout in Spider (issue 34).
 *
 * This mirrors rollout() in src/pasyans/hints/player.py step for step (the Python is the
 * reference; tests/solver/test_hints_player.py checks the two agree along random
 * playouts). The policy scores a position by an evaluation of its face-up cards (value()
 * below, the weights PL_* of csrc/abi.toml, or others a thread sets by pl_weigh) and plays:
 *
 * 1. the move that raises the evaluation most (8 times the gain plus a jitter of 0-7 from
 *    a splitmix64 stream), never a "shuffle" (a unit off its same-suit parent, the Spider
 *    domain's sp_shuffle);
 * 2. else the best two-move line whose first move turns nothing up and whose sum is a
 *    gain (the one-step reveal-free lookahead);
 * 3. else, with cards in the stock, fills the empty columns (the least harmful move into
 *    each) and deals; else it stops.
 *
 * Each gain is exact for the position after the move, and a card turned up adds no pair
 * (the only face-up card of its column), so the gain never reads a face-down card and the
 * evaluation rises along the playout: no position comes back, no table of seen positions
 * is needed. The stock is read only by its size until a deal hands its cards out.
 */
#define _DEFAULT_SOURCE /* clock_gettime (clock.h) */
#include "clock.h"
#include "grow.h"
#include "player.h"

#include <stdlib.h>
#include <string.h>

#define WIN 1000
#define STILL 40     /* pl_felt: moves without a reveal before it deals */
#define SEEN_BITS 11 /* pl_felt's seen table: 2048 slots, playouts of at most 1024 moves */

static inline uint64_t next(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The product's weights, PL_* of csrc/abi.toml (static: the compiler folds them into the
 * greedy playout's own copy, see pl_walk). */
static const PlWeights DEFAULT = {PL_DOWN, PL_DIRTY, PL_EMPTY, PL_INSUIT,
                                  PL_OFFSUIT, PL_BREAK, PL_RUN};

/* The evaluation's weights of this thread's playouts (pl_weigh). */
static _Thread_local const PlWeights *W = &DEFAULT;

void pl_weigh(const PlWeights *w)
{
    W = w ? w : &DEFAULT;
}

#define INLINE static inline __attribute__((always_inline))

/* A column's worth: its first n cards, the first down of them face down. */
INLINE int value(const PlWeights *w, const uint8_t *col, int n, int down)
{
    if (!n)
        return w->empty;
    int v = -w->down * down - (down ? w->dirty : 0);
    for (int j = down; j < n - 1; j++) {
        int a = col[j], b = col[j + 1];
        if (a - b == 4)
            v += w->insuit;
        else if ((a >> 2) - (b >> 2) == 1)
            v -= w->offsuit;
        else
            v -= w->brk;
    }
    return v;
}

/* The evaluation's gain by st (a move, not the deal); *reveals: it turns a card up or
 * completes a run. Reads only face-up cards: the column a move uncovers keeps one
 * face-up card, which adds no pair. */
INLINE int gain(const PlWeights *w, const SPos *p, const int *off, Step st, int *reveals)
{
    int i = st.src, c = st.dst, m = st.cards;
    const uint8_t *src = p->cards + off[i], *dst = p->cards + off[c];
    int n = p->len[i], left = n - m, ds = p->down[i], dn = p->len[c], dd = p->down[c];
    uint8_t to[MAXCARDS + 13];
    int up = left && ds >= left;
    if (up)
        ds = left - 1;
    memcpy(to, dst, (size_t)dn);
    memcpy(to + dn, src + left, (size_t)m);
    int tn = dn + m, run = sp_complete(to, tn, dd);
    if (run) {
        tn -= 13;
        if (tn && dd >= tn)
            dd = tn - 1;
    }
    *reveals = up || run;
    return value(w, src, left, ds) + value(w, to, tn, dd) + w->run * run -
           value(w, src, n, p->down[i]) - value(w, dst, dn, p->down[c]);
}

static int empties(const SpiderGame *g, const SPos *p)
{
    int e = 0;
    for (int j = 0; j < g->width; j++)
        e += !p->len[j];
    return e;
}

static int total_down(const SpiderGame *g, const SPos *p)
{
    int d = 0;
    for (int j = 0; j < g->width; j++)
        d += p->down[j];
    return d;
}

/* Step 2: the best two-move line (first in order on ties) whose first move reveals
 * nothing and whose gains sum above 0; 0 when none. */
INLINE int lookahead(const SpiderGame *g, const PlWeights *w, const SPos *p, Step *first,
                     Step *second)
{
    Step a[MAXSTEPS], b[MAXSTEPS];
    int off[MAXW + 1], qoff[MAXW + 1], best = 0, r;
    SPos q;
    int n = sp_steps(g, p, a);
    sp_offsets(g, p, off);
    for (int s = 0; s < n; s++) {
        if (!a[s].cards || sp_shuffle(p, off, a[s]))
            continue;
        int d1 = gain(w, p, off, a[s], &r);
        if (r)
            continue;
        sp_play(g, p, a[s], &q);
        sp_offsets(g, &q, qoff);
        int k = sp_steps(g, &q, b);
        for (int t = 0; t < k; t++) {
            Step st = b[t];
            if (!st.cards || sp_shuffle(&q, qoff, st))
                continue;
            if (st.src == a[s].dst && st.dst == a[s].src && st.cards == a[s].cards)
                continue;
            int d = d1 + gain(w, &q, qoff, st, &r);
            if (d > best) {
                best = d;
                *first = a[s];
                *second = st;
            }
        }
    }
    return best > 0;
}

/* Step 3's fill: the move into an empty column of highest gain (first on ties). */
INLINE int fill(const SpiderGame *g, const PlWeights *w, const SPos *p, Step *out)
{
    Step a[MAXSTEPS];
    int off[MAXW + 1], have = 0, best = 0, r;
    int n = sp_steps(g, p, a);
    sp_offsets(g, p, off);
    for (int s = 0; s < n; s++) {
        if (!a[s].cards || p->len[a[s].dst])
            continue;
        int d = gain(w, p, off, a[s], &r);
        if (!have || d > best) {
            best = d;
            *out = a[s];
            have = 1;
        }
    }
    return have;
}

/* With no move to play and cards in the stock: fills the empty columns (the least harmful
 * move into each, played on a copy: the deal needs them all filled) and deals, the steps
 * appended to line from *k. 0 when it cannot (no stock, or a column stays empty). */
INLINE int fill_and_deal(const SpiderGame *g, const PlWeights *w, const SPos *p, Step *line,
                         int *k)
{
    if (!p->left)
        return 0;
    SPos q = *p, after;
    for (int e = empties(g, &q); e > 0; e--) {
        if (!fill(g, w, &q, &line[*k]))
            break;
        sp_play(g, &q, line[(*k)++], &after);
        q = after;
    }
    if (empties(g, &q))
        return 0;
    line[(*k)++] = (Step){0, 0, 0};
    return 1;
}

/* pl_walk's body, inlined twice: once for the default weights (constants the compiler
 * folds in, as before weights could be passed: the product's playouts pay nothing for
 * them) and once for a thread's own (pl_weigh). */
INLINE int walk(const SpiderGame *g, const PlWeights *w, const SPos *start, uint64_t seed,
                int limit, SPos *end)
{
    SPos pos = *start, after;
    Step steps[MAXSTEPS], line[2 + MAXW];
    uint64_t x = seed;
    int t = 0;
    while (t < limit && pos.done < g->won) {
        int n = sp_steps(g, &pos, steps), off[MAXW + 1], r, best_value = 0, k = 0;
        sp_offsets(g, &pos, off);
        for (int s = 0; s < n; s++) {
            Step st = steps[s];
            if (!st.cards || sp_shuffle(&pos, off, st))
                continue;
            int v = 8 * gain(w, &pos, off, st, &r) + (int)(next(&x) & 7);
            if (v >= 8 && v > best_value) {
                best_value = v;
                line[0] = st;
                k = 1;
            }
        }
        if (!k && lookahead(g, w, &pos, &line[0], &line[1]))
            k = 2;
        if (!k && !fill_and_deal(g, w, &pos, line, &k))
            break;
        for (int j = 0; j < k && t < limit; j++, t++) {
            sp_play(g, &pos, line[j], &after);
            pos = after;
        }
    }
    *end = pos;
    return t;
}

int pl_walk(const SpiderGame *g, const SPos *start, uint64_t seed, int limit, SPos *end)
{
    const PlWeights *w = W; /* (read once: a thread-local costs a call in a shared object) */
    if (w == &DEFAULT)
        return walk(g, &DEFAULT, start, seed, limit, end);
    return walk(g, w, start, seed, limit, end);
}

static uint64_t key(const SpiderGame *g, const SPos *p);

/* --- The searching policy (pl_search): a shallow reveal-free search each step ----------
 *
 * Python reference: _search_walk() in src/pasyans/hints/player.py. Each step it walks
 * breadth-first over the moves among face-up cards that reveal nothing (no deal, no
 * shuffle, each position once by its 64-bit key, at most cap positions expanded), each
 * walked position carrying the evaluation's gain from the step's start (the sum of the
 * exact gains along its line). Every move out of a walked position is a line's end:
 *  - an event (a card turned up or a run completed): its gain plus bonus (the event's own
 *    gain treats the card turned up as its column's only face-up card: no face-down card
 *    is read before it is reached);
 *  - a new reveal-free position: its gain.
 * Each end is valued 8 times its score plus a jitter of 0-7 (one splitmix64 draw an end,
 * in the order found); the best end of score above 0 is played, its whole line; else the
 * empty columns are filled and the stock dealt (as pl_walk); else the playout ends.
 * Events bring a card up or a run home, and between two of them every line raises the
 * evaluation, so no position comes back. */

#define SEARCH_CAP 128    /* positions expanded a step at most */
#define TABLE_BITS 14     /* the step's seen table: 16384 slots */

typedef struct {
    SPos pos;
    int parent, gain;     /* the queue index it came from (-1: the step's start) */
    Step step;            /* the move from its parent */
} Node;

static int seen_put(uint64_t *keys, uint32_t *stamps, uint32_t stamp, uint64_t k)
{
    size_t mask = ((size_t)1 << TABLE_BITS) - 1, i = (size_t)(k >> 7) & mask;
    while (stamps[i] == stamp) {
        if (keys[i] == k)
            return 1;
        i = (i + 1) & mask;
    }
    stamps[i] = stamp;
    keys[i] = k;
    return 0;
}

/* One step's plan: its line in out (*n moves); 1 when a line of score above 0 exists.
 * About 70 lines: the walk and the read-back of its best line are one pass, kept whole to
 * mirror _plan() line for line. */
static int plan(const SpiderGame *g, const PlWeights *w, const SPos *start, uint64_t *x, int cap,
                int bonus, Node *queue, Step *out, int *n)
{
    static _Thread_local uint64_t keys[(size_t)1 << TABLE_BITS];
    static _Thread_local uint32_t stamps[(size_t)1 << TABLE_BITS];
    static _Thread_local uint32_t stamp;
    Step steps[MAXSTEPS];
    int len = 1, head = 0, best = 0, best_parent = -1, r;
    Step best_step = {0, 0, 0};
    if (++stamp == 0) {
        memset(stamps, 0, sizeof stamps);
        stamp = 1;
    }
    queue[0].pos = *start;
    queue[0].parent = -1;
    queue[0].gain = 0;
    seen_put(keys, stamps, stamp, key(g, start));
    while (head < len && head < cap) {
        const Node *node = &queue[head];
        int k = sp_steps(g, &node->pos, steps), off[MAXW + 1];
        sp_offsets(g, &node->pos, off);
        for (int s = 0; s < k; s++) {
            Step st = steps[s];
            if (!st.cards || sp_shuffle(&node->pos, off, st))
                continue;
            int score = node->gain + gain(w, &node->pos, off, st, &r);
            SPos q;
            if (r) {
                score += bonus;
            } else {
                sp_play(g, &node->pos, st, &q);
                if (seen_put(keys, stamps, stamp, key(g, &q)))
                    continue;
            }
            int v = 8 * score + (int)(next(x) & 7);
            if (score > 0 && v > best) {
                best = v;
                best_parent = head;
                best_step = st;
            }
            if (!r && len < cap) {
                queue[len].pos = q;
                queue[len].parent = head;
                queue[len].gain = score;
                queue[len].step = st;
                len++;
            }
        }
        head++;
    }
    if (!best)
        return 0;
    int m = 0;
    for (int j = best_parent; j > 0; j = queue[j].parent)
        m++;
    *n = m + 1;
    out[m] = best_step;
    for (int j = best_parent; j > 0; j = queue[j].parent)
        out[--m] = queue[j].step;
    return 1;
}

int pl_search_walk(const SpiderGame *g, const SPos *start, uint64_t seed, int limit, int cap,
                   int bonus, SPos *end)
{
    static _Thread_local Node queue[SEARCH_CAP];
    const PlWeights *w = W;
    SPos pos = *start, after;
    Step line[SEARCH_CAP + MAXW + 1];
    uint64_t x = seed;
    int t = 0;
    if (cap > SEARCH_CAP)
        cap = SEARCH_CAP;
    if (cap < 1)
        cap = 1;
    while (t < limit && pos.done < g->won) {
        int k = 0;
        if (!plan(g, w, &pos, &x, cap, bonus, queue, line, &k) &&
            !fill_and_deal(g, w, &pos, line, &k))
            break;
        for (int j = 0; j < k && t < limit; j++, t++) {
            sp_play(g, &pos, line[j], &after);
            pos = after;
        }
    }
    *end = pos;
    return t;
}

static int points(const SpiderGame *g, const SPos *end)
{
    if (end->done >= g->won)
        return WIN;
    return end->done + 2 * (44 - total_down(g, end));
}

int pl_search(const SpiderGame *g, const SPos *start, uint64_t seed, int limit, int cap,
              int bonus)
{
    SPos end;
    pl_search_walk(g, start, seed, limit, cap, bonus, &end);
    return points(g, &end);
}

int pl_rollout(const SpiderGame *g, const SPos *start, uint64_t seed, int limit)
{
    SPos end;
    pl_walk(g, start, seed, limit, &end);
    if (end.done >= g->won)
        return WIN;
    return end.done + 2 * (44 - total_down(g, &end));
}

/* --- The felt player's policy (generator version 4's difficulty, solvable/felt.py) ------
 *
 * The policy of sessions 1-2, kept unchanged because version 4's Spider bands were ranked
 * by it (a change would move layouts: a new generator version). Python reference:
 * felt_rollout() in src/pasyans/hints/player.py. Each move the legal step of highest
 * sp_order times 8 plus a jitter of 0-7, never a shuffle, never back to a position of
 * this playout; the deal instead of a move worth less than 0, and after STILL moves that
 * turned nothing up. */

/* The columns in place, their face-down counts and the stock's size (the Python key
 * (cols, down, left)), hashed. */
static uint64_t key(const SpiderGame *g, const SPos *p)
{
    uint64_t h = 0x8A5CD789635D2DFFull ^ p->left;
    int o = 0;
    for (int j = 0; j < g->width; j++) {
        h = (h ^ ((uint64_t)p->len[j] << 8 | p->down[j])) * 0x100000001B3ull;
        for (int k = 0; k < p->len[j]; k++)
            h = (h ^ p->cards[o + k]) * 0x100000001B3ull;
        h ^= h >> 29;
        o += p->len[j];
    }
    return h | 1; /* 0 marks an empty slot */
}

static int seen_add(uint64_t *table, uint64_t k) /* 1 when already there */
{
    size_t mask = ((size_t)1 << SEEN_BITS) - 1, i = (size_t)(k >> 7) & mask;
    while (table[i]) {
        if (table[i] == k)
            return 1;
        i = (i + 1) & mask;
    }
    table[i] = k;
    return 0;
}

static int seen_has(const uint64_t *table, uint64_t k)
{
    size_t mask = ((size_t)1 << SEEN_BITS) - 1, i = (size_t)(k >> 7) & mask;
    while (table[i]) {
        if (table[i] == k)
            return 1;
        i = (i + 1) & mask;
    }
    return 0;
}

int pl_felt(const SpiderGame *g, const SPos *start, uint64_t seed, int limit)
{
    static _Thread_local uint64_t table[(size_t)1 << SEEN_BITS];
    SPos pos = *start, after;
    Step steps[MAXSTEPS];
    uint64_t x = seed;
    int still = 0;
    if (limit > (1 << (SEEN_BITS - 1)))
        limit = 1 << (SEEN_BITS - 1);
    memset(table, 0, sizeof table);
    seen_add(table, key(g, &pos));
    for (int t = 0; t < limit; t++) {
        if (pos.done >= g->won)
            break;
        int n = sp_steps(g, &pos, steps), off[MAXW + 1], deal = 0, have = 0;
        int best_value = -(1 << 30);
        Step best = {0, 0, 0};
        sp_offsets(g, &pos, off);
        for (int s = 0; s < n; s++) {
            Step st = steps[s];
            if (!st.cards) {
                deal = 1;
                continue;
            }
            if (sp_shuffle(&pos, off, st))
                continue;
            int value = 8 * sp_order(&pos, off, st) + (int)(next(&x) & 7);
            if (value > best_value) {
                sp_play(g, &pos, st, &after);
                if (seen_has(table, key(g, &after)))
                    continue;
                best = st;
                best_value = value;
                have = 1;
            }
        }
        if (deal && (!have || best_value < 0 || still >= STILL))
            best = (Step){0, 0, 0};
        else if (!have || still >= STILL)
            break;
        int before_down = total_down(g, &pos), before_done = pos.done;
        sp_play(g, &pos, best, &after);
        pos = after;
        seen_add(table, key(g, &pos));
        if (!best.cards || total_down(g, &pos) < before_down || pos.done > before_done)
            still = 0;
        else
            still++;
    }
    if (pos.done >= g->won)
        return WIN;
    return pos.done + 2 * (44 - total_down(g, &pos));
}

/* --- The candidates (pl_candidates): the reveal-free lines of the player's view ---------
 *
 * Python reference: candidates_py() in src/pasyans/hints/player.py, step for step. The
 * position is the player's view: cards not seen are HIDDEN_BYTE (face down, and the
 * stock's). Breadth-first over the moves among face-up cards that reveal nothing (no
 * shuffle, no view in avoid, each view once, at most cap positions expanded); every move
 * out of a walked position that turns a card up, completes a run or deals ends a line,
 * each resulting position (columns, face-down counts, stock, runs) once, by the first line
 * found to it. The lines are ranked by the visible score after the event (view_score:
 * macro.score), then the shorter line, then the line's steps in tuple order (the deal is
 * (-1, -1, 0)); the deals only when no line turns a card up or completes a run; the width
 * best. Views and positions are compared whole (a hash finds them, never decides). */

/* A hash set of positions by index into a caller's array (open addressing). */
typedef struct {
    uint64_t *keys; /* the hash | 1; 0: empty */
    int *ids;
    size_t mask, n;
} Index;

static int index_init(Index *x, size_t want)
{
    size_t size = 64;
    while (size < 2 * want)
        size <<= 1;
    x->keys = calloc(size, sizeof *x->keys);
    x->ids = malloc(size * sizeof *x->ids);
    x->mask = size - 1;
    x->n = 0;
    return x->keys && x->ids ? 0 : -1;
}

static void index_free(Index *x)
{
    free(x->keys);
    free(x->ids);
}

/* The columns and face-down counts (a view; ``full``: the stock's size and the runs done
 * too) of two positions are the same. */
static int same(int w, const SPos *a, const SPos *b, int full)
{
    int total = 0;
    if (memcmp(a->len, b->len, (size_t)w) || memcmp(a->down, b->down, (size_t)w))
        return 0;
    if (full && (a->left != b->left || a->done != b->done))
        return 0;
    for (int j = 0; j < w; j++)
        total += a->len[j];
    return !memcmp(a->cards, b->cards, (size_t)total);
}

static uint64_t view_hash(int w, const SPos *p, int full)
{
    uint64_t h = full ? 0x51ED27A3B1C4F00Dull ^ ((uint64_t)p->left << 8 | p->done) : 0;
    int o = 0;
    for (int j = 0; j < w; j++) {
        h = (h ^ ((uint64_t)p->len[j] << 8 | p->down[j])) * 0x100000001B3ull;
        for (int k = 0; k < p->len[j]; k++)
            h = (h ^ p->cards[o + k]) * 0x100000001B3ull;
        h ^= h >> 29;
        o += p->len[j];
    }
    return sp_mix64(h) | 1;
}

/* The id of the position equal to p (hash h) among pool's, or -1. */
static int index_find(const Index *x, const SPos *pool, int w, int full, const SPos *p,
                      uint64_t h)
{
    for (size_t i = (size_t)(h >> 7) & x->mask; x->keys[i]; i = (i + 1) & x->mask)
        if (x->keys[i] == h && same(w, &pool[x->ids[i]], p, full))
            return x->ids[i];
    return -1;
}

static int index_add(Index *x, uint64_t h, int id)
{
    if (2 * (x->n + 1) > x->mask + 1) {
        Index y;
        if (index_init(&y, x->n + 1))
            return index_free(&y), -1;
        for (size_t i = 0; i <= x->mask; i++)
            if (x->keys[i]) {
                size_t k = (size_t)(x->keys[i] >> 7) & y.mask;
                while (y.keys[k])
                    k = (k + 1) & y.mask;
                y.keys[k] = x->keys[i];
                y.ids[k] = x->ids[i];
            }
        y.n = x->n;
        index_free(x);
        *x = y;
    }
    size_t i = (size_t)(h >> 7) & x->mask;
    while (x->keys[i])
        i = (i + 1) & x->mask;
    x->keys[i] = h;
    x->ids[i] = id;
    x->n++;
    return 0;
}

/* The visible score of a view (lower is better; macro.score): a pair with a hidden card
 * counts as one rank apart. */
static int view_score(int w, const SPos *p)
{
    int total = -VIEW_DONE * (p->done / 13), o = 0;
    for (int j = 0; j < w; j++) {
        int n = p->len[j], d = p->down[j];
        const uint8_t *col = p->cards + o;
        o += n;
        if (!n) {
            total -= VIEW_EMPTY;
            continue;
        }
        total += VIEW_DOWN * d;
        for (int k = d + 1; k < n; k++) {
            int a = col[k - 1], b = col[k];
            if (a - b != 4)
                total += a == HIDDEN_BYTE || b == HIDDEN_BYTE || (a >> 2) - (b >> 2) == 1 ? 3 : 4;
        }
    }
    return total;
}

typedef struct {
    int score, len, deal;
    const Step *line; /* len steps, the event last */
} Ranked;

/* A step as the Python tuple it compares as: the deal is (-1, -1, 0). */
static int step_cmp(Step a, Step b)
{
    int x[3] = {a.cards ? a.src : -1, a.cards ? a.dst : -1, a.cards};
    int y[3] = {b.cards ? b.src : -1, b.cards ? b.dst : -1, b.cards};
    for (int k = 0; k < 3; k++)
        if (x[k] != y[k])
            return x[k] < y[k] ? -1 : 1;
    return 0;
}

static int ranked_cmp(const void *pa, const void *pb)
{
    const Ranked *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score < b->score ? -1 : 1;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    for (int k = 0; k < a->len; k++) {
        int c = step_cmp(a->line[k], b->line[k]);
        if (c)
            return c;
    }
    return 0;
}

/* Positions, each with the index of the walked position it comes from, the step from
 * there and a number. Two of them: the walk's queue (from: the parent in the queue, -1 at
 * the root; num: the depth) and its events (pos: the position each event leaves; from: the
 * walked position it is played from; num: its visible score). */
typedef struct {
    SPos *pos;
    int *from;
    Step *step;
    int *num;
    int n, size;
} Rows;

static int rows_push(Rows *r, const SPos *p, int from, Step st, int num)
{
    if (r->n == r->size) {
        size_t size = r->size ? 2 * (size_t)r->size : 256;
        if (RESIZE_ARRAY(r->pos, size) || RESIZE_ARRAY(r->from, size) ||
            RESIZE_ARRAY(r->step, size) || RESIZE_ARRAY(r->num, size))
            return -1;
        r->size = (int)size;
    }
    r->pos[r->n] = *p;
    r->from[r->n] = from;
    r->step[r->n] = st;
    r->num[r->n] = num;
    r->n++;
    return 0;
}

static void rows_free(Rows *r)
{
    free(r->pos);
    free(r->from);
    free(r->step);
    free(r->num);
}

/* The lines of the ranked events, the best first, into out. */
static int rank_lines(const Rows *q, const Rows *ev, int width, PlLines *out)
{
    int total = 0, n = 0, events = 0;
    for (int k = 0; k < ev->n; k++)
        total += q->num[ev->from[k]] + 1;
    Step *all = malloc((size_t)(total ? total : 1) * sizeof *all);
    Ranked *r = malloc((size_t)(ev->n ? ev->n : 1) * sizeof *r);
    if (!all || !r) {
        free(all);
        free(r);
        return -1;
    }
    Step *at = all;
    for (int k = 0; k < ev->n; k++) {
        int len = q->num[ev->from[k]] + 1;
        at[len - 1] = ev->step[k];
        for (int j = ev->from[k], i = len - 2; j > 0; j = q->from[j], i--)
            at[i] = q->step[j];
        r[k] = (Ranked){ev->num[k], len, !ev->step[k].cards, at};
        events += ev->step[k].cards != 0;
        at += len;
    }
    qsort(r, (size_t)ev->n, sizeof *r, ranked_cmp);
    out->steps = malloc((size_t)(total ? total : 1) * sizeof *out->steps);
    out->start = malloc((size_t)(width + 1) * sizeof *out->start);
    if (!out->steps || !out->start) {
        free(all);
        free(r);
        return -1;
    }
    out->start[0] = 0;
    for (int k = 0; k < ev->n && n < width; k++) {
        if (events && r[k].deal) /* the deal only when no line turns a card up */
            continue;
        memcpy(out->steps + out->start[n], r[k].line, (size_t)r[k].len * sizeof *r[k].line);
        out->start[n + 1] = out->start[n] + r[k].len;
        n++;
    }
    out->n = n;
    free(all);
    free(r);
    return 0;
}

void pl_lines_free(PlLines *out)
{
    free(out->steps);
    free(out->start);
    out->steps = NULL;
    out->start = NULL;
    out->n = 0;
}

int pl_candidates(const SpiderGame *g, const SPos *root, const SPos *avoid, int navoid,
                  int cap, int width, PlLines *out)
{
    int w = g->width, rc = -1;
    Rows q = {0}, ev = {0}; /* the walk's queue and its events */
    Index seen = {0}, avoided = {0}, found = {0};
    Step steps[MAXSTEPS];
    out->steps = NULL;
    out->start = NULL;
    out->n = 0;
    if (width < 0)
        width = 0;
    if (index_init(&seen, 256) || index_init(&avoided, (size_t)navoid) ||
        index_init(&found, 256) || rows_push(&q, root, -1, (Step){0, 0, 0}, 0) ||
        index_add(&seen, view_hash(w, root, 0), 0))
        goto done;
    for (int k = 0; k < navoid; k++)
        if (index_add(&avoided, view_hash(w, &avoid[k], 0), k))
            goto done;
    for (int head = 0; head < q.n && head < cap; head++) {
        SPos pos = q.pos[head], after;
        int n = sp_steps(g, &pos, steps), off[MAXW + 1], down = total_down(g, &pos);
        sp_offsets(g, &pos, off);
        for (int s = 0; s < n; s++) {
            Step st = steps[s];
            if (st.cards && sp_shuffle(&pos, off, st))
                continue;
            sp_play(g, &pos, st, &after);
            uint64_t h = view_hash(w, &after, 0);
            if (navoid && index_find(&avoided, avoid, w, 0, &after, h) >= 0)
                continue;
            if (!st.cards || total_down(g, &after) < down || after.done > pos.done) {
                uint64_t k = view_hash(w, &after, 1);
                if (index_find(&found, ev.pos, w, 1, &after, k) < 0 &&
                    (rows_push(&ev, &after, head, st, view_score(w, &after)) ||
                     index_add(&found, k, ev.n - 1)))
                    goto done;
                continue;
            }
            if (index_find(&seen, q.pos, w, 0, &after, h) >= 0)
                continue;
            if (rows_push(&q, &after, head, st, q.num[head] + 1) ||
                index_add(&seen, h, q.n - 1))
                goto done;
        }
    }
    rc = rank_lines(&q, &ev, width, out);
done:
    if (rc)
        pl_lines_free(out);
    rows_free(&q);
    rows_free(&ev);
    index_free(&seen);
    index_free(&avoided);
    index_free(&found);
    return rc;
}

/* --- The sampler's draws (pl_shuffle): the project's stable shuffle ----------------------
 *
 * Python reference: shuffled() in src/pasyans/cards.py (Fisher-Yates over a splitmix64
 * stream: for i from the last index down to 1, swap item i with item below(i + 1), where
 * below(n) draws until an output falls under the largest multiple of n below 2**64). The
 * sampler (hints/sampling.py, samples) completes the hidden cards with these draws. */

static uint64_t below(uint64_t *x, uint64_t n)
{
    uint64_t r = (0 - n) % n; /* 2**64 mod n */
    for (;;) {
        uint64_t v = next(x);
        if (!r || v < 0 - r)
            return v % n;
    }
}

void pl_shuffle(int64_t *cards, int n, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)below(&x, (uint64_t)i + 1);
        int64_t t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
}

/* --- A round of the decision's bandit (pl_round): samples drawn, candidates played ------
 *
 * Python reference: the loop over a round's samples in decide() (src/pasyans/hints/
 * player.py), with sampling.samples and macro._fill. Sample j (of the view's sequence) is
 * the unseen cards shuffled by the seed base + j (pl_shuffle), card k put at hidden place
 * k (a column's row, or the stock's); each candidate's position before its event gets the
 * sample's hidden cards (the same places: nothing moved under the view's face-down cards),
 * the event is played in the sample, then the playout (pl_rollout, or pl_search with
 * cap > 0) seeded base + 0x9E3779B97F4A7C15 * (j + 1) + 7919 * id. No sample after the
 * first of the sequence starts past the deadline (CLOCK_MONOTONIC seconds, as
 * time.perf_counter). */

int pl_round(const SpiderGame *view, const PlRound *r, long long start, int count,
             double deadline, long long *totals, int *wins)
{
    SpiderGame g = *view;
    int64_t cards[MAXCARDS + MAXSTOCK];
    int off[MAXW + 1], done = 0;
    for (int c = 0; c < r->n; c++)
        totals[c] = wins[c] = 0;
    for (int k = 0; k < count; k++, done++) {
        long long j = start + k;
        if (j && now() > deadline)
            break;
        memcpy(cards, r->cards, (size_t)r->nslots * sizeof *cards);
        pl_shuffle(cards, r->nslots, r->base + (uint64_t)j);
        for (int s = 0; s < r->nslots; s++)
            if (r->slot_col[s] == g.width)
                g.stock[r->slot_row[s]] = (uint8_t)cards[s];
        for (int c = 0; c < r->n; c++) {
            SPos pos = r->before[c], after;
            sp_offsets(&g, &pos, off);
            for (int s = 0; s < r->nslots; s++)
                if (r->slot_col[s] < g.width)
                    pos.cards[off[r->slot_col[s]] + r->slot_row[s]] = (uint8_t)cards[s];
            sp_play(&g, &pos, r->event[c], &after);
            uint64_t x = r->base + 0x9E3779B97F4A7C15ull * (uint64_t)(j + 1) +
                         7919ull * (uint64_t)r->ids[c];
            int pts = r->cap > 0 ? pl_search(&g, &after, x, r->limit, r->cap, r->bonus)
                                 : pl_rollout(&g, &after, x, r->limit);
            totals[c] += pts;
            wins[c] += pts == WIN;
        }
    }
    return done;
}
