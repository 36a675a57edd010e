/* Spider's shorter wins: a found line's detours cut (src/pasyans/solver/shorten.py is the
 * reference, over the engine's positions).
 *
 * The line's positions are the nodes; an edge joins position i to a later position j that
 * one legal move reaches. The shortest path over that DAG, computed back from the end, is
 * the new line. Positions are told apart whole (every column in its place, face-down
 * counts, the stock's size, the cards put away): a 64-bit key finds them, a comparison
 * confirms. A staged search's line can be tens of thousands of moves long; the Python
 * engine tries about 13 µs a move, this about a microsecond.
 */
#define _DEFAULT_SOURCE /* clock_gettime (clock.h) */
#include "clock.h"
#include "grow.h"
#include "spider.h"

#include <stdlib.h>
#include <string.h>

/* The key of a position with its columns in place (sp_hash forgets their places once the
 * stock is empty, and the line's later steps name columns by place). */
static uint64_t placed_key(const SpiderGame *g, const SPos *p)
{
    int o = 0;
    uint64_t h = sp_mix64(0x2545f4914f6cdd1dULL + p->left + ((uint64_t)p->done << 8));
    for (int j = 0; j < g->width; j++) {
        h += sp_column_term(p->cards + o, p->len[j], p->down[j], j);
        o += p->len[j];
    }
    return h ? h : 1;
}

static int same(const SpiderGame *g, const SPos *a, const SPos *b)
{
    int cards = 0;
    for (int j = 0; j < g->width; j++)
        cards += a->len[j];
    return a->left == b->left && a->done == b->done &&
           !memcmp(a->len, b->len, (size_t)g->width) &&
           !memcmp(a->down, b->down, (size_t)g->width) && !memcmp(a->cards, b->cards, (size_t)cards);
}

typedef struct {
    const SpiderGame *g;
    const SPos *pos; /* the line's positions, n + 1 */
    uint64_t *keys;
    int32_t *at; /* the latest index of the position in each slot */
    size_t cap;
} Index;

/* The latest index of the line's position equal to ``p`` (-1: none). */
static int32_t index_of(const Index *x, const SPos *p, uint64_t key)
{
    for (size_t s = key & (x->cap - 1); x->keys[s]; s = (s + 1) & (x->cap - 1))
        if (x->keys[s] == key && same(x->g, &x->pos[x->at[s]], p))
            return x->at[s];
    return -1;
}

static void index_put(Index *x, int32_t i, uint64_t key)
{
    size_t s = key & (x->cap - 1);
    for (; x->keys[s]; s = (s + 1) & (x->cap - 1))
        if (x->keys[s] == key && same(x->g, &x->pos[x->at[s]], &x->pos[i]))
            break;
    x->keys[s] = key;
    x->at[s] = i; /* later visits overwrite earlier ones */
}

static int legal(const SpiderGame *g, const SPos *p, Step st)
{
    Step all[MAXSTEPS];
    int n = sp_steps(g, p, all);
    for (int k = 0; k < n; k++)
        if (all[k].cards == st.cards && (!st.cards || (all[k].src == st.src && all[k].dst == st.dst)))
            return 1;
    return 0;
}

typedef struct {
    int32_t to;
    Step st;
} Edge;

long sp_shortest(const SpiderGame *g, const SPos *root, const Step *line, size_t n,
                 double deadline, Step *out)
{
    long result = SP_SHORT_NOMEMORY;
    Index x = {g, NULL, NULL, NULL, 16};
    while (x.cap < 2 * (n + 1))
        x.cap *= 2;
    SPos *pos = big_alloc((n + 1) * sizeof *pos);
    int32_t *last = malloc((n + 1) * sizeof *last), *steps = malloc((n + 1) * sizeof *steps);
    int32_t *next = malloc((n + 1) * sizeof *next), *first = malloc((n + 2) * sizeof *first);
    uint64_t *key = malloc((n + 1) * sizeof *key);
    Step *by = malloc((n + 1) * sizeof *by);
    Edge *edges = NULL;
    size_t ne = 0, ce = 0;
    x.keys = big_calloc(x.cap, sizeof *x.keys);
    x.at = big_alloc(x.cap * sizeof *x.at);
    x.pos = pos;
    if (!pos || !last || !steps || !next || !first || !key || !by || !x.keys || !x.at)
        goto done;
    pos[0] = *root;
    for (size_t i = 0; i < n; i++) {
        if (!legal(g, &pos[i], line[i])) {
            result = SP_SHORT_ILLEGAL - (long)i;
            goto done;
        }
        sp_play(g, &pos[i], line[i], &pos[i + 1]);
    }
    for (size_t i = 0; i <= n; i++)
        index_put(&x, (int32_t)i, key[i] = placed_key(g, &pos[i]));
    for (size_t i = 0; i <= n; i++)
        last[i] = index_of(&x, &pos[i], key[i]);
    /* Each position's moves to a position further on than the next (the shortcuts), in
     * sp_steps' order; past the deadline, none (the line's own move stays). */
    int late = 0;
    for (size_t i = 0; i < n; i++) {
        first[i] = (int32_t)ne;
        late = late || (deadline > 0 && i % 64 == 0 && now() > deadline);
        if (late || last[i] > (int32_t)i)
            continue;
        Step all[MAXSTEPS];
        int k = sp_steps(g, &pos[i], all);
        for (int a = 0; a < k; a++) {
            SPos q;
            sp_play(g, &pos[i], all[a], &q);
            int32_t j = index_of(&x, &q, placed_key(g, &q));
            if (j <= (int32_t)i + 1)
                continue;
            if (GROW_ARRAY(edges, ce, ne + 1, 1024))
                goto done;
            edges[ne++] = (Edge){j, all[a]};
        }
    }
    first[n] = (int32_t)ne;
    /* The fewest moves from each position to the end, back from the end. */
    steps[n] = 0;
    next[n] = -1;
    for (long i = (long)n - 1; i >= 0; i--) {
        if (last[i] > i) { /* the line comes back here: go on as from its last visit */
            steps[i] = steps[last[i]];
            next[i] = next[last[i]];
            by[i] = by[last[i]];
            continue;
        }
        steps[i] = steps[i + 1] + 1;
        next[i] = (int32_t)i + 1;
        by[i] = line[i];
        for (int32_t e = first[i]; e < first[i + 1]; e++)
            if (steps[edges[e].to] + 1 < steps[i]) {
                steps[i] = steps[edges[e].to] + 1;
                next[i] = edges[e].to;
                by[i] = edges[e].st;
            }
    }
    result = 0;
    for (int32_t i = 0; next[i] >= 0; i = next[i])
        out[result++] = by[i];
done:
    free(pos);
    free(last);
    free(steps);
    free(next);
    free(first);
    free(key);
    free(by);
    free(edges);
    free(x.keys);
    free(x.at);
    return result;
}
