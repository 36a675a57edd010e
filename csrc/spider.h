/* Spider's packed rules and staged search (see spider.c). */
#ifndef PASYANS_SPIDER_H
#define PASYANS_SPIDER_H

#include <stddef.h>
#include <stdint.h>

/* MAXW, MAXCARDS, MAXSTOCK, the distance's weights (SP_BREAK … SP_STOCK, SP_SHAPE) and
 * the search's status codes are declared once in csrc/abi.toml (generated header). */
#include "_core_abi.h"

#define MAXSTEPS 4096  /* moves from one position: at most MAXW * 13 * MAXW, plus the deal */
#define MAXSTAGES 64

typedef struct {
    uint8_t src, dst, cards; /* column indexes; cards == 0 is the deal */
} Step;

typedef struct {
    uint8_t len[MAXW];
    uint8_t down[MAXW];
    uint8_t left; /* cards still in the stock */
    uint8_t done; /* cards in completed runs */
    uint8_t cards[MAXCARDS];
} SPos;

typedef struct {
    int width;
    int won; /* cards in completed runs when the game is won */
    uint8_t stock[MAXSTOCK];
} SpiderGame;

typedef struct {
    uint64_t nodes;   /* positions expanded at most (0: no limit) */
    double seconds;   /* time at most (0: no limit) */
    size_t memory;    /* bytes at most for the search's tables (0: no limit) */
    int prune;        /* drop moves by the unproven rules */
    const int *weights; /* the distance's weights, SP_NWEIGHTS of them in SpWeight order
                         * (NULL: sp_weights_v1, the SP_* of csrc/abi.toml) */
    const int *other;   /* a second set of weights over the same table (NULL: none): each
                         * attempt size is tried by ``weights``, then by ``other`` */
    int swap;           /* with ``other``: instead, the other weights take the attempts of
                         * the second evaluation (spider.py's swap_evaluation) */
} SearchLimits;

/* The distance's weights, by index (spider.py's Weights is the reference). */
enum {
    W_BREAK, W_OFFSUIT, W_TANGLE, W_DOWN, W_EMPTY, W_STOCK, /* SP_BREAK … SP_STOCK */
    W_DONE,   /* a completed run (a bonus) */
    W_BURIED, /* a column with face-down cards */
    W_SECOND, /* the second evaluation: each face-down card adds this (SP_SECOND) */
    W_SHAPE,  /* SP_SHAPE */
    SP_NWEIGHTS
};
extern const int sp_weights_v1[SP_NWEIGHTS];

typedef struct {
    int status;
    int dropped;       /* an unproven rule dropped a move somewhere */
    uint64_t nodes;    /* positions expanded */
    uint64_t positions; /* positions reached (the table's size) */
    size_t memory;     /* bytes the tables took */
    Step *line;        /* the winning line; without a win, the line to the expanded position
                        * nearest one (malloc'd; none when only the root was expanded) */
    size_t line_n;
} SearchResult;

int sp_steps(const SpiderGame *g, const SPos *p, Step *out);
void sp_offsets(const SpiderGame *g, const SPos *p, int *off); /* each column's first card */
/* A unit moved off its same-suit parent (spider.py's shuffle); off: sp_offsets. */
int sp_shuffle(const SPos *p, const int *off, Step st);
/* A move's place in the depth-first order, higher first (spider.py's order). */
int sp_order(const SPos *p, const int *off, Step st);
void sp_play(const SpiderGame *g, const SPos *p, Step st, SPos *q);
int sp_distance(const SpiderGame *g, const SPos *p);
int sp_distance_by(const SpiderGame *g, const SPos *p, const int *w);
uint64_t sp_hash(const SpiderGame *g, const SPos *p);
int sp_children(const SpiderGame *g, const SPos *p, int prune, Step *out, int *dropped);
int sp_run_length(const uint8_t *col, int n, int down);
/* The column (n cards, down face down) ends in a face-up King-to-Ace run of one suit. */
int sp_complete(const uint8_t *col, int n, int down);
uint64_t sp_per_stage(uint32_t k);
uint64_t sp_kept_per_deal(uint32_t k);
void sp_search(const SpiderGame *g, const SPos *root, const SearchLimits *lim, SearchResult *r);

/* Positions proven lost by sp_prove (their sp_hash keys), kept from call to call: every
 * call with one table must be of one game (one stock, one width). spiderproof.c. */
typedef struct {
    uint64_t *keys;
    size_t cap, n;
} SpLost;

int sp_lost_has(const SpLost *L, uint64_t key);
void sp_lost_free(SpLost *L);
/* The exhaustive loss prover (spiderproof.c): status SP_WON (line), SP_EXHAUSTED (the root
 * is lost), SP_UNKNOWN (budget) or SP_NOMEMORY; lim->prune is not read (it never prunes).
 * ``positions``: the positions it reached. */
void sp_prove(const SpiderGame *g, const SPos *root, SpLost *L, const SearchLimits *lim,
              SearchResult *r);

/* The shortest line from ``root`` to the end of ``line`` (n steps) through the line's
 * positions (spiderline.c; src/pasyans/solver/shorten.py is the reference): its steps into
 * ``out`` (room for n), and its length; SP_SHORT_NOMEMORY, or SP_SHORT_ILLEGAL - i when
 * step i is not a legal move. Past ``deadline`` (CLOCK_MONOTONIC seconds; 0: none) the
 * positions left keep only the line's own move. */
#define SP_SHORT_NOMEMORY (-1)
#define SP_SHORT_ILLEGAL (-2)
long sp_shortest(const SpiderGame *g, const SPos *root, const Step *line, size_t n,
                 double deadline, Step *out);

/* Shared with spiderproof.c (inline: the staged search's hot path). */
/* sp_play's follow-ups on one column changed by a move: a completed run leaves it, then
 * its top card is turned up. */
static inline void sp_settle(uint8_t *col, int *n, int *down, int *done)
{
    if (*n && col[*n - 1] < 4 && sp_complete(col, *n, *down)) {
        *n -= 13;
        *done += 13;
    }
    if (*n && *down >= *n)
        *down = *n - 1;
}

static inline uint64_t sp_mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* A column's share of the key: its cards and face-down count, and its place while the
 * stock still deals by place (once it is empty the key is a multiset of columns). The
 * column is the ``na`` cards at ``a`` with the ``nb`` at ``b`` on top (a unit moved onto
 * it, read where both lie; nb = 0: ``a`` alone). */
static inline uint64_t sp_joined_term(const uint8_t *a, int na, const uint8_t *b, int nb,
                                      int down, int place)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)down << 8) ^ (uint64_t)(na + nb);
    for (int j = 0; j < na; j++)
        h = (h ^ a[j]) * 0x100000001b3ULL + 0x632be59bd9b4e019ULL;
    for (int j = 0; j < nb; j++)
        h = (h ^ b[j]) * 0x100000001b3ULL + 0x632be59bd9b4e019ULL;
    return sp_mix64(h + (uint64_t)(place + 1) * 0xd6e8feb86659fd93ULL);
}

/* sp_joined_term of one column of ``n`` cards. */
static inline uint64_t sp_column_term(const uint8_t *col, int n, int down, int place)
{
    return sp_joined_term(col, n, col, 0, down, place);
}

/* sp_complete of the column ``d`` (n cards, ``down`` face down) with ``u`` (m cards) on
 * top, read where they lie. */
static inline int sp_joined_complete(const uint8_t *d, int n, int down, const uint8_t *u, int m)
{
    if (n + m - down < 13 || u[m - 1] >= 4)
        return 0;
    for (int t = 1; t < 13; t++) { /* the t-th card from the top: the Ace's rank + t */
        int card = t < m ? u[m - 1 - t] : d[n - 1 - (t - m)];
        if (card != u[m - 1] + 4 * t)
            return 0;
    }
    return 1;
}

/* The two columns a move of cards (``st``, from ``p`` with offsets ``off``) changes, after
 * sp_play's follow-ups on each (a completed run leaves, the card under it is turned up),
 * read where they lie: the source is its first ``ns`` cards with ``ds`` face down; the
 * target is its first ``nd`` cards with the ``m`` of ``unit`` on top (m = 0 when a run
 * completes there: a unit is at most 12 cards, so what stays is a prefix), ``dd`` face
 * down. ``done``: the cards in completed runs after the move. */
typedef struct {
    const uint8_t *src, *dst, *unit;
    int ns, ds, nd, dd, m, done;
} SpMoved;

static inline SpMoved sp_moved(const SPos *p, const int *off, Step st)
{
    int i = st.src, c = st.dst;
    SpMoved mv = {p->cards + off[i], p->cards + off[c], NULL, p->len[i] - st.cards,
                  p->down[i],        p->len[c],        p->down[c], st.cards, p->done};
    mv.unit = mv.src + mv.ns;
    if (mv.ns && mv.src[mv.ns - 1] < 4 && sp_complete(mv.src, mv.ns, mv.ds)) {
        mv.ns -= 13;
        mv.done += 13;
    }
    if (mv.ns && mv.ds >= mv.ns)
        mv.ds = mv.ns - 1;
    if (sp_joined_complete(mv.dst, mv.nd, mv.dd, mv.unit, mv.m)) {
        mv.nd += mv.m - 13;
        mv.m = 0;
        mv.done += 13;
        if (mv.nd && mv.dd >= mv.nd)
            mv.dd = mv.nd - 1;
    }
    return mv;
}

/* The key of the position a move of cards leads to (``mv``: sp_moved's), from its
 * position's key ``hash`` and columns' terms ``term`` (sp_column_term's, by place while
 * the stock deals: ``dealing``); never 0 (the tables' empty slot). */
static inline uint64_t sp_moved_key(const SpMoved *mv, Step st, uint64_t hash,
                                    const uint64_t *term, int dealing)
{
    uint64_t h = hash - term[st.src] - term[st.dst] +
                 sp_column_term(mv->src, mv->ns, mv->ds, dealing ? st.src : -1) +
                 sp_joined_term(mv->dst, mv->nd, mv->unit, mv->m, mv->dd, dealing ? st.dst : -1);
    return h ? h : 1;
}

#endif
