/* Spider's packed rules and its staged best-first search, in C.
 *
 * This mirrors src/pasyans/domains/spider.py move for move: the same move generator (in
 * the same order), the same apply with its automatic follow-ups, the same distance, the
 * same search order. The Python module is the reference; tests/solver/test_core.py
 * checks the two against each other along random playouts and on whole searches.
 *
 * A position: the columns' lengths and face-down counts, the cards left in the stock
 * (the stock's order never changes, so a count is enough), the cards in completed runs,
 * and the columns' cards one after the other (bottom to top). A card is the project's
 * int, (rank - 1) * 4 + suit, in a byte.
 */
#define _DEFAULT_SOURCE /* clock_gettime (clock.h), madvise */
#include "clock.h"
#include "grow.h"
#include "spider.h"

#include <stdlib.h>
#include <string.h>

/* --- Rules ---------------------------------------------------------------------------- */

int sp_complete(const uint8_t *col, int n, int down)
{
    if (n - down < 13 || col[n - 1] >= 4 || col[n - 13] != col[n - 1] + 48)
        return 0;
    for (int j = n - 13; j < n - 1; j++)
        if (col[j] - col[j + 1] != 4)
            return 0;
    return 1;
}

void sp_offsets(const SpiderGame *g, const SPos *p, int *off)
{
    int o = 0;
    for (int j = 0; j < g->width; j++) {
        off[j] = o;
        o += p->len[j];
    }
    off[g->width] = o;
}

int sp_run_length(const uint8_t *col, int n, int down)
{
    if (n <= down)
        return 0;
    int i = n - 1;
    while (i > down && col[i - 1] - col[i] == 4)
        i--;
    return n - i;
}

int sp_shuffle(const SPos *p, const int *off, Step st)
{
    int i = st.src, left = p->len[i] - st.cards;
    const uint8_t *src = p->cards + off[i];
    return st.cards && left && p->down[i] < left && src[left - 1] - src[left] == 4;
}

int sp_steps(const SpiderGame *g, const SPos *p, Step *out)
{
    int w = g->width, off[MAXW + 1], nout = 0;
    int by_rank[15][MAXW], nrank[15] = {0}, empty[MAXW], nempty = 0;
    sp_offsets(g, p, off);
    for (int c = 0; c < w; c++) {
        if (p->len[c]) {
            int r = p->cards[off[c] + p->len[c] - 1] >> 2;
            by_rank[r][nrank[r]++] = c;
        } else {
            empty[nempty++] = c;
        }
    }
    for (int i = 0; i < w; i++) {
        int n = p->len[i], free_ = n - p->down[i];
        if (free_ <= 0)
            continue;
        const uint8_t *col = p->cards + off[i];
        int k = 1;
        while (k < free_ && col[n - k - 1] - col[n - k] == 4)
            k++;
        for (int m = 1; m <= k; m++) {
            int r = (col[n - m] >> 2) + 1;
            for (int x = 0; x < nrank[r]; x++)
                out[nout++] = (Step){(uint8_t)i, (uint8_t)by_rank[r][x], (uint8_t)m};
            if (m != n)
                for (int x = 0; x < nempty; x++)
                    out[nout++] = (Step){(uint8_t)i, (uint8_t)empty[x], (uint8_t)m};
        }
    }
    if (p->left && !nempty)
        out[nout++] = (Step){0, 0, 0};
    return nout;
}

void sp_play(const SpiderGame *g, const SPos *p, Step st, SPos *q)
{
    int w = g->width, off[MAXW + 1], o = 0, left = p->left;
    int i = st.src, c = st.dst, m = st.cards;
    sp_offsets(g, p, off);
    for (int j = 0; j < w; j++) {
        int n = p->len[j];
        if (m && j == i)
            n -= m;
        memcpy(q->cards + o, p->cards + off[j], (size_t)n);
        o += n;
        if (m && j == c) {
            memcpy(q->cards + o, p->cards + off[i] + p->len[i] - m, (size_t)m);
            o += m;
            n += m;
        }
        if (!m && left) {
            q->cards[o++] = g->stock[--left];
            n++;
        }
        q->len[j] = (uint8_t)n;
        q->down[j] = p->down[j];
    }
    q->left = (uint8_t)left;
    q->done = p->done;
    int total = o;
    o = 0;
    for (int j = 0; j < w; j++) {
        int n = q->len[j];
        int touched = !m || j == i || j == c;
        if (touched) {
            uint8_t *col = q->cards + o;
            if (n && col[n - 1] < 4 && sp_complete(col, n, q->down[j])) {
                memmove(col + n - 13, col + n, (size_t)(total - (o + n)));
                n -= 13;
                total -= 13;
                q->len[j] = (uint8_t)n;
                q->done = (uint8_t)(q->done + 13);
            }
            if (n && q->down[j] >= n)
                q->down[j] = (uint8_t)(n - 1);
        }
        o += n;
    }
}


const int sp_weights_v1[SP_NWEIGHTS] = {SP_BREAK, SP_OFFSUIT, SP_TANGLE, SP_DOWN, SP_EMPTY,
                                        SP_STOCK, 0,        0,         1,       SP_SHAPE};

/* How far one column looks from done (see spider.column_cost): the column of the ``na``
 * cards at ``a`` with the ``nb`` at ``b`` on top (a unit moved onto it, read where both
 * lie; nb = 0: ``a`` alone). */
static inline int joined_cost(const uint8_t *a, int na, const uint8_t *b, int nb, int down,
                              const int *w)
{
    int n = na + nb;
    if (!n)
        return -w[W_EMPTY];
    int cost = w[W_DOWN] * down + (down ? w[W_BURIED] : 0), breaks = 0;
    for (int j = 1; j < n; j++) {
        int hi = j - 1 < na ? a[j - 1] : b[j - 1 - na], lo = j < na ? a[j] : b[j - na];
        if (hi - lo != 4) {
            breaks++;
            cost += ((hi >> 2) - (lo >> 2) == 1) ? w[W_OFFSUIT] : w[W_BREAK];
        }
    }
    return cost + w[W_TANGLE] * breaks * (breaks - 1) / 2;
}

static int column_cost(const uint8_t *col, int n, int down, const int *w)
{
    return joined_cost(col, n, col, 0, down, w);
}

int sp_distance_by(const SpiderGame *g, const SPos *p, const int *w)
{
    int off[MAXW + 1], score = w[W_STOCK] * p->left - w[W_DONE] * (p->done / 13);
    sp_offsets(g, p, off);
    for (int j = 0; j < g->width; j++)
        score += column_cost(p->cards + off[j], p->len[j], p->down[j], w);
    return score;
}

int sp_distance(const SpiderGame *g, const SPos *p)
{
    return sp_distance_by(g, p, sp_weights_v1);
}



uint64_t sp_hash(const SpiderGame *g, const SPos *p)
{
    int off[MAXW + 1];
    sp_offsets(g, p, off);
    uint64_t h = sp_mix64(0x2545f4914f6cdd1dULL + p->left);
    for (int j = 0; j < g->width; j++)
        h += sp_column_term(p->cards + off[j], p->len[j], p->down[j], p->left ? j : -1);
    return h ? h : 1;
}

int sp_order(const SPos *p, const int *off, Step st)
{
    int i = st.src, c = st.dst, m = st.cards;
    if (!m)
        return -100;
    const uint8_t *src = p->cards + off[i];
    int left = p->len[i] - m, lowest = src[left], value = 0;
    if (p->len[c]) {
        const uint8_t *dst = p->cards + off[c];
        int dn = p->len[c];
        if (dst[dn - 1] - lowest == 4)
            value += 60 + 3 * (m + sp_run_length(dst, dn, p->down[c]));
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

int sp_children(const SpiderGame *g, const SPos *p, int prune, Step *out, int *dropped)
{
    Step steps[MAXSTEPS];
    int values[MAXSTEPS], off[MAXW + 1], first_empty = -1, nkept = 0;
    int n = sp_steps(g, p, steps);
    sp_offsets(g, p, off);
    for (int c = 0; c < g->width; c++)
        if (!p->len[c]) {
            first_empty = c;
            break;
        }
    for (int x = 0; x < n; x++) {
        Step st = steps[x];
        int m = st.cards;
        if (m && !p->len[st.dst] && st.dst != first_empty) {
            /* One unit into several empty columns: one is enough (proven once the stock
             * is empty; a guess before). */
            if (!p->left)
                continue;
            if (prune) {
                *dropped = 1;
                continue;
            }
        } else if (prune && sp_shuffle(p, off, st)) {
            *dropped = 1; /* a shuffle: the unit sits on its same-suit parent */
            continue;
        }
        /* Insertion sort, higher first, stable. */
        int v = sp_order(p, off, st), y = nkept;
        while (y > 0 && values[y - 1] < v) {
            values[y] = values[y - 1];
            out[y] = out[y - 1];
            y--;
        }
        values[y] = v;
        out[y] = st;
        nkept++;
    }
    return nkept;
}

/* --- Search --------------------------------------------------------------------------- */

typedef struct {
    uint64_t key; /* priority: distance in the high bits, the tie order below */
    uint32_t idx;
} HeapItem;

typedef struct {
    HeapItem *a;
    size_t n, cap;
} Heap;

static int heap_push(Heap *h, uint64_t key, uint32_t idx)
{
    if (GROW_ARRAY(h->a, h->cap, h->n + 1, 64))
        return -1;
    size_t i = h->n++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (h->a[up].key <= key)
            break;
        h->a[i] = h->a[up];
        i = up;
    }
    h->a[i] = (HeapItem){key, idx};
    return 0;
}

static HeapItem heap_pop(Heap *h)
{
    HeapItem top = h->a[0], last = h->a[--h->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= h->n)
            break;
        if (l + 1 < h->n && h->a[l + 1].key < h->a[l].key)
            l++;
        if (h->a[l].key >= last.key)
            break;
        h->a[i] = h->a[l];
        i = l;
    }
    if (h->n)
        h->a[i] = last;
    return top;
}

#define NONE UINT32_MAX
#define BIAS (1ULL << 20)
#define TICKS ((1ULL << 40) - 1)

typedef struct {
    const SpiderGame *g;
    const int *w; /* the distance's weights */
    const int *w2; /* the other weights (NULL: none), their distance in odist */
    /* Every position ever reached: its first parent and the move from it, its distance,
     * and once it is expanded, where its packed record and its children lie. */
    uint32_t *parent;
    Step *step;
    int16_t *dist;
    int16_t *odist;
    uint8_t *down; /* its face-down cards in all: the second evaluation is dist + down */
    uint32_t *seen; /* the last attempt that reached it */
    uint32_t *rec;  /* offsets: the memory limit keeps both arenas under 4 GB */
    uint32_t *kids;
    size_t n, cap;
    /* The table: open addressing on the 64-bit key, values are entry indexes. */
    uint64_t *keys;
    uint32_t *vals;
    size_t tcap, tn;
    uint8_t *arena; /* packed records of expanded positions */
    size_t arena_n, arena_cap;
    uint32_t *edges; /* per expanded position: its child count, then the children */
    size_t edges_n, edges_cap;
} Search;

/* Bytes the search's tables hold (entries and records in use, the whole hash table). */
static size_t memory_used(const Search *s)
{
    return s->n * (sizeof(uint32_t) * 4 + sizeof(Step) + sizeof(int16_t) * (s->w2 ? 2 : 1) + 1) +
           s->tcap * (sizeof(uint64_t) + sizeof(uint32_t)) + s->arena_n +
           s->edges_n * sizeof(uint32_t);
}

static int table_grow(Search *s)
{
    size_t cap = s->tcap ? s->tcap * 2 : (1u << 16);
    uint64_t *keys = big_calloc(cap, sizeof *keys);
    uint32_t *vals = big_alloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    for (size_t i = 0; i < s->tcap; i++) {
        uint64_t k = s->keys[i];
        if (!k)
            continue;
        size_t j = k & (cap - 1);
        while (keys[j])
            j = (j + 1) & (cap - 1);
        keys[j] = k;
        vals[j] = s->vals[i];
    }
    free(s->keys);
    free(s->vals);
    s->keys = keys;
    s->vals = vals;
    s->tcap = cap;
    return 0;
}

/* The entry of ``key``, added if the table lacks it: 1 added, 0 known, -1 no memory. */
static int add_entry(Search *s, uint64_t key, uint32_t parent, Step st, int dist, int odist,
                     int down, uint32_t *idx)
{
    if (2 * (s->tn + 1) > s->tcap && table_grow(s))
        return -1;
    size_t j = key & (s->tcap - 1);
    while (s->keys[j]) {
        if (s->keys[j] == key) {
            *idx = s->vals[j];
            return 0;
        }
        j = (j + 1) & (s->tcap - 1);
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : (1u << 16);
        if (RESIZE_ARRAY(s->parent, cap) || RESIZE_ARRAY(s->step, cap) ||
            RESIZE_ARRAY(s->dist, cap) || (s->w2 && RESIZE_ARRAY(s->odist, cap)) ||
            RESIZE_ARRAY(s->down, cap) || RESIZE_ARRAY(s->seen, cap) ||
            RESIZE_ARRAY(s->rec, cap) || RESIZE_ARRAY(s->kids, cap))
            return -1;
        s->cap = cap;
    }
    s->keys[j] = key;
    s->vals[j] = (uint32_t)s->n;
    s->tn++;
    s->parent[s->n] = parent;
    s->step[s->n] = st;
    s->dist[s->n] = (int16_t)dist;
    if (s->w2)
        s->odist[s->n] = (int16_t)odist;
    s->down[s->n] = (uint8_t)down;
    s->seen[s->n] = UINT32_MAX;
    s->rec[s->n] = NONE;
    s->kids[s->n] = NONE;
    *idx = (uint32_t)s->n++;
    return 1;
}

static int store(Search *s, uint32_t e, const SPos *p)
{
    int w = s->g->width, ncards = 0;
    for (int j = 0; j < w; j++)
        ncards += p->len[j];
    size_t need = (size_t)(2 * w + 2 + ncards);
    if (GROW_ARRAY(s->arena, s->arena_cap, s->arena_n + need, 1u << 20))
        return -1;
    uint8_t *r = s->arena + s->arena_n;
    memcpy(r, p->len, (size_t)w);
    memcpy(r + w, p->down, (size_t)w);
    r[2 * w] = p->left;
    r[2 * w + 1] = p->done;
    memcpy(r + 2 * w + 2, p->cards, (size_t)ncards);
    s->rec[e] = (uint32_t)s->arena_n;
    s->arena_n += need;
    return 0;
}

static void load(const Search *s, uint32_t at, SPos *p)
{
    int w = s->g->width, ncards = 0;
    const uint8_t *r = s->arena + at;
    memcpy(p->len, r, (size_t)w);
    memcpy(p->down, r + w, (size_t)w);
    p->left = r[2 * w];
    p->done = r[2 * w + 1];
    for (int j = 0; j < w; j++)
        ncards += p->len[j];
    memcpy(p->cards, r + 2 * w + 2, (size_t)ncards);
}

/* The packed position of entry ``e``: its parent's (always expanded, so stored) with the
 * entry's move played; stored, since it is about to be expanded. */
static int position(Search *s, uint32_t e, SPos *p)
{
    if (s->rec[e] != NONE) {
        load(s, s->rec[e], p);
        return 0;
    }
    SPos parent;
    load(s, s->rec[s->parent[e]], &parent);
    sp_play(s->g, &parent, s->step[e], p);
    return store(s, e, p);
}

static int add_edges(Search *s, uint32_t e, const uint32_t *kids, int n)
{
    if (GROW_ARRAY(s->edges, s->edges_cap, s->edges_n + (size_t)n + 1, 1u << 20))
        return -1;
    s->kids[e] = (uint32_t)s->edges_n;
    s->edges[s->edges_n++] = (uint32_t)n;
    memcpy(s->edges + s->edges_n, kids, (size_t)n * sizeof *kids);
    s->edges_n += (size_t)n;
    return 0;
}

static void path_to(const Search *s, uint32_t e, Step last, SearchResult *r)
{
    size_t n = 1;
    for (uint32_t x = e; x != 0; x = s->parent[x])
        n++;
    r->line = malloc(n * sizeof(Step));
    if (!r->line) {
        r->status = SP_NOMEMORY;
        return;
    }
    r->line_n = n;
    size_t k = n;
    r->line[--k] = last;
    for (uint32_t x = e; x != 0; x = s->parent[x])
        r->line[--k] = s->step[x];
}

/* The attempts' sizes: (positions expanded per stage, positions kept per deal), growing
 * without end. Up to (16000, 16) each attempt has four times the positions and twice the
 * kept ones of the last; from there on twice the positions and sqrt(2) times the kept
 * ones (floored; domains/spider.py's attempt() is the reference). */

uint64_t sp_per_stage(uint32_t k)
{
    if (k == 0)
        return 100;
    if (k == 1)
        return 250;
    if (k > 40)
        return UINT64_MAX / 4;
    if (k <= SP_COARSE)
        return 1000ULL << (2 * (k - 2));
    return 16000ULL << (k - SP_COARSE);
}

uint64_t sp_kept_per_deal(uint32_t k)
{
    if (k > 60)
        return 1ULL << 40;
    if (k <= SP_COARSE)
        return 1ULL << k;
    uint32_t j = k - SP_COARSE;
    if (j % 2 == 0)
        return 16ULL << (j / 2);
    return (23170ULL << (j / 2)) >> 10; /* 16 * sqrt(2) = 23170 / 1024 */
}

/* Expands entry ``e`` for the first time: generates its children, adds the new ones to
 * the table and stores the list. Returns 1 on a win (``r`` has the line), -1 without
 * memory, else 0. */
static int expand(Search *s, uint32_t e, int prune, SearchResult *r)
{
    const SpiderGame *g = s->g;
    SPos p, q;
    Step kids[MAXSTEPS];
    uint32_t idx[MAXSTEPS];
    if (position(s, e, &p))
        return -1;
    int dropped = 0;
    int nk = sp_children(g, &p, prune, kids, &dropped);
    if (dropped)
        r->dropped = 1;
    /* Each column's share of the key and of the distance: a move changes two columns,
     * so a child's key and distance are the parent's, updated. */
    const int *w = s->w, *w2 = s->w2;
    int off[MAXW + 1], cost[MAXW], ocost[MAXW], pdown = 0;
    int pdist = w[W_STOCK] * p.left - w[W_DONE] * (p.done / 13);
    int podist = w2 ? w2[W_STOCK] * p.left - w2[W_DONE] * (p.done / 13) : 0;
    uint64_t term[MAXW], phash = sp_mix64(0x2545f4914f6cdd1dULL + p.left);
    sp_offsets(g, &p, off);
    for (int j = 0; j < g->width; j++) {
        term[j] = sp_column_term(p.cards + off[j], p.len[j], p.down[j], p.left ? j : -1);
        cost[j] = column_cost(p.cards + off[j], p.len[j], p.down[j], w);
        phash += term[j];
        pdist += cost[j];
        if (w2) {
            ocost[j] = column_cost(p.cards + off[j], p.len[j], p.down[j], w2);
            podist += ocost[j];
        }
        pdown += p.down[j];
    }
    /* Every child's key, distances and face-down count first, then the table: the
     * table's slots are prefetched, so their cache misses overlap. */
    uint64_t hs[MAXSTEPS];
    int dists[MAXSTEPS], odists[MAXSTEPS], downs[MAXSTEPS], winner = -1;
    for (int x = 0; x < nk && winner < 0; x++) {
        uint64_t h;
        int qdist, qodist = 0, qdown;
        if (kids[x].cards) {
            /* A move changes two columns: only they are read, where they lie (sp_moved). */
            int i = kids[x].src, c = kids[x].dst;
            SpMoved mv = sp_moved(&p, off, kids[x]);
            if (mv.done == g->won) {
                winner = x;
                break;
            }
            int cs1 = column_cost(mv.src, mv.ns, mv.ds, w);
            int cd1 = joined_cost(mv.dst, mv.nd, mv.unit, mv.m, mv.dd, w), cs2 = 0, cd2 = 0;
            if (w2) {
                cs2 = column_cost(mv.src, mv.ns, mv.ds, w2);
                cd2 = joined_cost(mv.dst, mv.nd, mv.unit, mv.m, mv.dd, w2);
            }
            int runs = (mv.done - p.done) / 13;
            h = sp_moved_key(&mv, kids[x], phash, term, p.left);
            qdist = pdist - cost[i] - cost[c] + cs1 + cd1 - w[W_DONE] * runs;
            if (w2)
                qodist = podist - ocost[i] - ocost[c] + cs2 + cd2 - w2[W_DONE] * runs;
            qdown = pdown - p.down[i] - p.down[c] + mv.ds + mv.dd;
        } else {
            sp_play(g, &p, kids[x], &q);
            if (q.done == g->won) {
                winner = x;
                break;
            }
            h = sp_hash(g, &q);
            qdist = sp_distance_by(g, &q, w);
            if (w2)
                qodist = sp_distance_by(g, &q, w2);
            qdown = 0;
            for (int j = 0; j < g->width; j++)
                qdown += q.down[j];
        }
        hs[x] = h;
        dists[x] = qdist;
        odists[x] = qodist;
        downs[x] = qdown;
        __builtin_prefetch(&s->keys[h & (s->tcap - 1)]);
    }
    for (int x = 0; x < (winner < 0 ? nk : winner); x++)
        if (add_entry(s, hs[x], e, kids[x], dists[x], odists[x], downs[x], &idx[x]) < 0)
            return -1;
    if (winner >= 0) {
        r->status = SP_WON;
        path_to(s, e, kids[winner], r);
        return 1;
    }
    return add_edges(s, e, idx, nk);
}

/* The shape of expanded entry ``e``: which cards it has turned up (its face-down counts)
 * and how many are in completed runs, hashed (never 0). A deal keeps the dealing
 * position's shape (but for a run it completes), so a candidate's shape is its parent's. */
static uint64_t shape(const Search *s, uint32_t e)
{
    int w = s->g->width;
    const uint8_t *r = s->arena + s->rec[e];
    uint64_t h = 0x84222325cbf29ce4ULL ^ r[2 * w + 1];
    for (int j = 0; j < w; j++)
        h = (h ^ r[w + j]) * 0x100000001b3ULL;
    h = sp_mix64(h);
    return h ? h : 1;
}

void sp_search(const SpiderGame *g, const SPos *root, const SearchLimits *lim, SearchResult *r)
{
    Search s = {0};
    s.g = g;
    s.w = lim->weights ? lim->weights : sp_weights_v1;
    s.w2 = lim->other;
    memset(r, 0, sizeof *r);
    r->status = SP_UNKNOWN;
    int stages = (root->left + g->width - 1) / g->width + 1;
    Heap open = {0}, nexts = {0};
    uint32_t *seeds = NULL;
    double deadline = lim->seconds > 0 ? now() + lim->seconds : 0;
    /* Offsets are 32-bit: at most 3 GB whatever the caller allows. */
    size_t memory = lim->memory && lim->memory < (3ULL << 30) ? lim->memory : (3ULL << 30);
    uint64_t count = 0, pops = 0;
    uint32_t idx, best = 0; /* the expanded position nearest a win (its line: progress) */
    uint64_t *shapes = NULL; /* the seeds' shapes (open addressing) and how many of each */
    uint32_t *taken = NULL;
    size_t shapes_cap = 0, taken_cap = 0;
    int root_down = 0;
    for (int j = 0; j < g->width; j++)
        root_down += root->down[j];
    if (add_entry(&s, sp_hash(g, root), 0, (Step){0, 0, 0}, sp_distance_by(g, root, s.w),
                  s.w2 ? sp_distance_by(g, root, s.w2) : 0, root_down, &idx) < 0 ||
        store(&s, 0, root)) {
        r->status = SP_NOMEMORY;
        goto done;
    }
    /* Attempt ``a``: its size ``k`` and its evaluation. Past SP_COARSE each size is tried
     * twice, by the distance and then by the distance plus the face-down cards (a
     * portfolio over one table: what one expands, the other walks for free). With other
     * weights, each of those attempts by the weights and then by the other weights
     * (spider.py's joint_evaluation). The seen marks are per attempt. */
    for (uint32_t a = 0;; a++) {
        uint32_t k;
        int second, use_other = 0;
        if (!s.w2 || lim->swap) {
            k = a <= SP_COARSE ? a : SP_COARSE + 1 + (a - SP_COARSE - 1) / 2;
            second = a > SP_COARSE && (a - SP_COARSE - 1) % 2;
            if (s.w2) {
                use_other = second;
                second = 0;
            }
        } else if (a < 2 * (SP_COARSE + 1)) {
            k = a / 2;
            second = 0;
            use_other = a % 2;
        } else {
            uint32_t b = a - 2 * (SP_COARSE + 1);
            k = SP_COARSE + 1 + b / 4;
            second = b % 2;
            use_other = b % 4 >= 2;
        }
        const int *cw = use_other ? s.w2 : s.w;
        /* (The arrays move as the table grows: read through s each time.) */
#define PRIO(x) ((use_other ? s.odist : s.dist)[x] + (second ? cw[W_SECOND] * s.down[x] : 0))
        uint64_t per = sp_per_stage(k), width = sp_kept_per_deal(k), tick = 0;
        size_t nseeds = 1;
        int limited = 0;
        free(seeds);
        seeds = malloc(sizeof *seeds);
        if (!seeds) {
            r->status = SP_NOMEMORY;
            goto done;
        }
        seeds[0] = 0;
        for (int st = 0; st < stages && nseeds; st++) {
            open.n = nexts.n = 0;
            for (size_t x = 0; x < nseeds; x++) {
                uint32_t e = seeds[x];
                s.seen[e] = a;
                if (heap_push(&open, ((uint64_t)(PRIO(e) + (int)BIAS) << 40) | (TICKS - tick++),
                              e)) {
                    r->status = SP_NOMEMORY;
                    goto done;
                }
            }
            uint64_t spent = 0;
            while (open.n && spent < per) {
                if (deadline && (++pops & 255) == 0 && now() > deadline)
                    goto done;
                uint32_t e = heap_pop(&open).idx;
                spent++;
                if (s.kids[e] == NONE) {
                    if (memory_used(&s) > memory) {
                        r->status = SP_NOMEMORY;
                        goto done;
                    }
                    if (lim->nodes && count >= lim->nodes)
                        goto done;
                    count++;
                    if (e && (!best || s.dist[e] < s.dist[best]))
                        best = e;
                    int got = expand(&s, e, lim->prune, r);
                    if (got > 0)
                        goto done;
                    if (got < 0) {
                        r->status = SP_NOMEMORY;
                        goto done;
                    }
                }
                const uint32_t *kids = s.edges + s.kids[e] + 1;
                uint32_t nk = kids[-1];
                for (uint32_t x = 0; x < nk; x++) {
                    uint32_t c = kids[x];
                    uint64_t dist = (uint64_t)(PRIO(c) + (int)BIAS) << 40;
                    int fail;
                    if (s.step[c].cards == 0 && c != 0) { /* a deal: a candidate for the next stage */
                        fail = heap_push(&nexts, dist | tick++, c);
                    } else {
                        if (s.seen[c] == a)
                            continue;
                        s.seen[c] = a;
                        /* Ties: the newest first (it goes deeper). */
                        fail = heap_push(&open, dist | (TICKS - tick++), c);
                    }
                    if (fail) {
                        r->status = SP_NOMEMORY;
                        goto done;
                    }
                }
            }
            if (open.n)
                limited = 1;
            /* The best positions the stage's deals reach start the next stage. */
            nseeds = 0;
            uint32_t *next = malloc((width < nexts.n ? width : nexts.n) * sizeof *next + 1);
            if (!next) {
                r->status = SP_NOMEMORY;
                goto done;
            }
            if (k > SP_COARSE) {
                /* Past (16,000, 16), by distance plus SP_SHAPE times the seeds already kept
                 * of the same shape (spider.py's _keep is the reference). */
                size_t cap = 16;
                while (cap < 2 * width)
                    cap *= 2;
                if (GROW_ARRAY(shapes, shapes_cap, cap, 16) ||
                    GROW_ARRAY(taken, taken_cap, cap, 16)) {
                    free(next);
                    r->status = SP_NOMEMORY;
                    goto done;
                }
                memset(shapes, 0, cap * sizeof *shapes);
                while (nexts.n && nseeds < width) {
                    HeapItem it = heap_pop(&nexts);
                    uint32_t c = it.idx;
                    if (s.seen[c] == a)
                        continue;
                    uint64_t sh = shape(&s, s.parent[c]);
                    size_t j = sh & (cap - 1);
                    while (shapes[j] && shapes[j] != sh)
                        j = (j + 1) & (cap - 1);
                    if (!shapes[j]) {
                        shapes[j] = sh;
                        taken[j] = 0;
                    }
                    int want = PRIO(c) + cw[W_SHAPE] * (int)taken[j];
                    if ((int)(it.key >> 40) - (int)BIAS < want) {
                        /* Its shape gained seeds since it was queued: queued again. */
                        if (heap_push(&nexts, ((uint64_t)(want + (int)BIAS) << 40) | tick++, c)) {
                            free(next);
                            r->status = SP_NOMEMORY;
                            goto done;
                        }
                        continue;
                    }
                    taken[j]++;
                    s.seen[c] = a;
                    next[nseeds++] = c;
                }
            }
            while (nexts.n && nseeds < width) {
                uint32_t c = heap_pop(&nexts).idx;
                if (s.seen[c] != a) {
                    s.seen[c] = a;
                    next[nseeds++] = c;
                }
            }
            while (nexts.n && s.seen[nexts.a[0].idx] == a)
                heap_pop(&nexts);
            if (nexts.n)
                limited = 1; /* some position after a deal was left out */
            free(seeds);
            seeds = next;
        }
        if (!limited) {
            r->status = SP_EXHAUSTED;
            break;
        }
    }
done:
    /* Without a win, the line to the expanded position nearest one (the search's
     * progress; none when only the root was expanded). */
    if (r->status != SP_WON && r->status != SP_NOMEMORY && best)
        path_to(&s, s.parent[best], s.step[best], r);
    r->nodes = count;
    r->positions = s.n;
    r->memory = memory_used(&s);
    free(seeds);
    free(shapes);
    free(taken);
    free(open.a);
    free(nexts.a);
    free(s.parent);
    free(s.step);
    free(s.dist);
    free(s.odist);
    free(s.down);
    free(s.seen);
    free(s.rec);
    free(s.kids);
    free(s.keys);
    free(s.vals);
    free(s.arena);
    free(s.edges);
}
