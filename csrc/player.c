/* The no-peek player's policy playout in Spider (issue 34).
 *
 * This mirrors rollout() in src/pasyans/hints/player.py step for step (the Python is the
 * reference; tests/hints/test_player.py checks the two agree along random playouts): each
 * move the legal step of highest order() (spider.py's order) times 8 plus a jitter of 0-7
 * from a splitmix64 stream, never a "shuffle" (a unit off its same-suit parent), never
 * back to a position of this playout; the deal instead of a move worth less than 0, and
 * after STILL moves that turned nothing up. The policy reads no face-down card: the
 * steps, order() and the shuffle test look only at face-up cards, and the stock only by
 * its size until a deal hands its cards out.
 */
#include "player.h"

#include <string.h>

#define WIN 1000
#define STILL 40
#define SEEN_BITS 11 /* the seen table: 2048 slots, for playouts of at most 1024 moves */

static inline uint64_t next(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

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

/* spider.py's shuffle() and order(); col points at the column's first card. */
static int shuffle(const uint8_t *src, int n, int down, int m)
{
    int left = n - m;
    if (left == 0 || down >= left)
        return 0;
    return src[left - 1] - src[left] == 4;
}

static int order(const SPos *p, const int *off, Step st)
{
    int i = st.src, c = st.dst, m = st.cards;
    const uint8_t *src = p->cards + off[i];
    int left = p->len[i] - m, lowest = src[left], value = 0;
    if (p->len[c]) {
        const uint8_t *dst = p->cards + off[c];
        if (dst[p->len[c] - 1] - lowest == 4)
            value += 60 + 3 * (m + sp_run_length(dst, p->len[c], p->down[c]));
        else
            value += 10;
    } else {
        value -= 30;
    }
    if (left == 0) {
        value += 40;
    } else if (p->down[i] >= left) {
        value += 50 - 2 * p->down[i];
    } else {
        int below = src[left - 1];
        if (below - lowest == 4)
            value -= 60;
        else if ((below >> 2) - (lowest >> 2) == 1)
            value -= 20;
    }
    return value;
}

static int total_down(const SpiderGame *g, const SPos *p)
{
    int d = 0;
    for (int j = 0; j < g->width; j++)
        d += p->down[j];
    return d;
}

int pl_rollout(const SpiderGame *g, const SPos *start, uint64_t seed, int limit)
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
        int n = sp_steps(g, &pos, steps), off[MAXW + 1], o = 0, deal = 0, have = 0;
        int best_value = -(1 << 30);
        Step best = {0, 0, 0};
        for (int j = 0; j < g->width; j++) {
            off[j] = o;
            o += pos.len[j];
        }
        for (int s = 0; s < n; s++) {
            Step st = steps[s];
            if (!st.cards) {
                deal = 1;
                continue;
            }
            if (shuffle(pos.cards + off[st.src], pos.len[st.src], pos.down[st.src], st.cards))
                continue;
            int value = 8 * order(&pos, off, st) + (int)(next(&x) & 7);
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
