/* The no-peek player's policy playout in Spider (issue 34).
 *
 * This mirrors rollout() in src/pasyans/hints/player.py step for step (the Python is the
 * reference; tests/solver/test_hints_player.py checks the two agree along random
 * playouts). The policy scores a position by an evaluation of its face-up cards (value()
 * below, the weights PL_* of csrc/abi.toml) and plays:
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
#include "player.h"

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

/* A column's worth: its first n cards, the first down of them face down. */
static int value(const uint8_t *col, int n, int down)
{
    if (!n)
        return PL_EMPTY;
    int v = -PL_DOWN * down - (down ? PL_DIRTY : 0);
    for (int j = down; j < n - 1; j++) {
        int a = col[j], b = col[j + 1];
        if (a - b == 4)
            v += PL_INSUIT;
        else if ((a >> 2) - (b >> 2) == 1)
            v -= PL_OFFSUIT;
        else
            v -= PL_BREAK;
    }
    return v;
}

/* The evaluation's gain by st (a move, not the deal); *reveals: it turns a card up or
 * completes a run. Reads only face-up cards: the column a move uncovers keeps one
 * face-up card, which adds no pair. */
static int gain(const SPos *p, const int *off, Step st, int *reveals)
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
    return value(src, left, ds) + value(to, tn, dd) + PL_RUN * run -
           value(src, n, p->down[i]) - value(dst, dn, p->down[c]);
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
static int lookahead(const SpiderGame *g, const SPos *p, Step *first, Step *second)
{
    Step a[MAXSTEPS], b[MAXSTEPS];
    int off[MAXW + 1], qoff[MAXW + 1], best = 0, r;
    SPos q;
    int n = sp_steps(g, p, a);
    sp_offsets(g, p, off);
    for (int s = 0; s < n; s++) {
        if (!a[s].cards || sp_shuffle(p, off, a[s]))
            continue;
        int d1 = gain(p, off, a[s], &r);
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
            int d = d1 + gain(&q, qoff, st, &r);
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
static int fill(const SpiderGame *g, const SPos *p, Step *out)
{
    Step a[MAXSTEPS];
    int off[MAXW + 1], have = 0, best = 0, r;
    int n = sp_steps(g, p, a);
    sp_offsets(g, p, off);
    for (int s = 0; s < n; s++) {
        if (!a[s].cards || p->len[a[s].dst])
            continue;
        int d = gain(p, off, a[s], &r);
        if (!have || d > best) {
            best = d;
            *out = a[s];
            have = 1;
        }
    }
    return have;
}

int pl_walk(const SpiderGame *g, const SPos *start, uint64_t seed, int limit, SPos *end)
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
            int v = 8 * gain(&pos, off, st, &r) + (int)(next(&x) & 7);
            if (v >= 8 && v > best_value) {
                best_value = v;
                line[0] = st;
                k = 1;
            }
        }
        if (!k && lookahead(g, &pos, &line[0], &line[1]))
            k = 2;
        if (!k) {
            if (!pos.left)
                break;
            /* Fill the empty columns on a copy: the deal needs them all filled. */
            SPos q = pos;
            for (int e = empties(g, &q); e > 0; e--) {
                if (!fill(g, &q, &line[k]))
                    break;
                sp_play(g, &q, line[k++], &after);
                q = after;
            }
            if (empties(g, &q))
                break;
            line[k++] = (Step){0, 0, 0};
        }
        for (int j = 0; j < k && t < limit; j++, t++) {
            sp_play(g, &pos, line[j], &after);
            pos = after;
        }
    }
    *end = pos;
    return t;
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
static int plan(const SpiderGame *g, const SPos *start, uint64_t *x, int cap, int bonus,
                Node *queue, Step *out, int *n)
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
            int score = node->gain + gain(&node->pos, off, st, &r);
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
        if (!plan(g, &pos, &x, cap, bonus, queue, line, &k)) {
            if (!pos.left)
                break;
            SPos q = pos;
            for (int e = empties(g, &q); e > 0; e--) {
                if (!fill(g, &q, &line[k]))
                    break;
                sp_play(g, &q, line[k++], &after);
                q = after;
            }
            if (empties(g, &q))
                break;
            line[k++] = (Step){0, 0, 0};
        }
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
