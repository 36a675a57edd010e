/* Spider's exhaustive loss prover: a depth-first search with Tarjan's strongly connected
 * components over every legal move (no unproven rule), and a table of positions proven
 * lost that outlives one call.
 *
 * When a component of the positions a search reached closes without a win, everything
 * reachable from its positions has been searched (each move leads into the component, to
 * a component closed before, or to a position in the table), so every position in it is
 * lost and goes into the table. A search stopped by its budget keeps what it closed: the
 * next call from the same position, or from an earlier position of the same game (which
 * reaches it), skips those positions. Only a whole search from the root ends in "lost".
 *
 * This is not the staged search of spider.c (the solvable-deal generator's, unchanged):
 * it is the post-game analysis's (src/pasyans/analysis/outcomes.py), which proves the
 * later positions of a game lost first and then the earlier ones, reusing the table.
 *
 * The moves are sp_children's without pruning (its one dropped kind, a unit into a second
 * empty column once the stock is empty, reaches a position the first one reaches with
 * its columns in another order, which the key does not tell apart then). Keys are
 * sp_hash's 64 bits, as in the staged search.
 */
#define _DEFAULT_SOURCE /* clock_gettime (clock.h) */
#include "clock.h"
#include "grow.h"
#include "spider.h"

#include <stdlib.h>
#include <string.h>

/* --- A set of 64-bit keys (open addressing, 0 is the empty slot) ---------------------- */

static int kset_grow(uint64_t **keys, uint32_t **vals, size_t *cap)
{
    size_t nc = *cap ? *cap * 2 : (1u << 16);
    uint64_t *nk = big_calloc(nc, sizeof *nk);
    uint32_t *nv = vals ? big_alloc(nc * sizeof *nv) : NULL;
    if (!nk || (vals && !nv)) {
        free(nk);
        free(nv);
        return -1;
    }
    for (size_t i = 0; i < *cap; i++) {
        uint64_t k = (*keys)[i];
        if (!k)
            continue;
        size_t j = k & (nc - 1);
        while (nk[j])
            j = (j + 1) & (nc - 1);
        nk[j] = k;
        if (vals)
            nv[j] = (*vals)[i];
    }
    free(*keys);
    *keys = nk;
    if (vals) {
        free(*vals);
        *vals = nv;
    }
    *cap = nc;
    return 0;
}

/* The slot of ``key``: where it is, or the empty slot where it would go. */
static inline size_t kset_slot(const uint64_t *keys, size_t cap, uint64_t key)
{
    size_t j = key & (cap - 1);
    while (keys[j] && keys[j] != key)
        j = (j + 1) & (cap - 1);
    return j;
}

int sp_lost_has(const SpLost *L, uint64_t key)
{
    return L->cap && L->keys[kset_slot(L->keys, L->cap, key)] == key;
}

static int lost_add(SpLost *L, uint64_t key)
{
    if (2 * (L->n + 1) > L->cap && kset_grow(&L->keys, NULL, &L->cap))
        return -1;
    size_t j = kset_slot(L->keys, L->cap, key);
    if (!L->keys[j]) {
        L->keys[j] = key;
        L->n++;
    }
    return 0;
}

void sp_lost_free(SpLost *L)
{
    free(L->keys);
    L->keys = NULL;
    L->cap = L->n = 0;
}

/* --- The search ----------------------------------------------------------------------- */

typedef struct {
    SPos pos;
    uint64_t term[MAXW], hash; /* each column's share of the key, and the key */
    Step move;     /* the move that led here */
    uint32_t kids; /* its moves still to try: steps[kids .. kids + nkids), keys in ckeys */
    uint32_t nkids, next;
    int32_t index, low; /* Tarjan's */
} Frame;

typedef struct {
    Frame *frames;
    size_t nframes, fcap;
    Step *steps;
    size_t nsteps, scap;
    uint64_t *ckeys; /* each kept move's position's key (0: it wins), beside steps */
    size_t ccap;
    uint64_t *tarjan; /* open positions' keys, in the order reached */
    size_t nt, tcap;
    uint64_t *keys; /* reached positions: key -> index << 1 | open */
    uint32_t *vals;
    size_t kcap, kn;
} Prover;

static size_t prover_memory(const Prover *P, const SpLost *L)
{
    return P->fcap * sizeof(Frame) + P->scap * sizeof(Step) + P->ccap * sizeof(uint64_t) +
           P->tcap * sizeof(uint64_t) + P->kcap * (sizeof(uint64_t) + sizeof(uint32_t)) +
           L->cap * sizeof(uint64_t);
}

/* The key of the position move ``st`` leads to from frame ``f`` (whose offsets are
 * ``off``), and in ``won`` whether it is won: for a move of cards, from the two columns it
 * changes (sp_play's follow-ups on each, as spider.c's expand), read where they lie. */
static uint64_t child_key(const SpiderGame *g, const Frame *f, const int *off, Step st, int *won)
{
    const SPos *p = &f->pos;
    if (!st.cards) {
        SPos q;
        sp_play(g, p, st, &q);
        *won = q.done == g->won;
        return sp_hash(g, &q);
    }
    SpMoved mv = sp_moved(p, off, st);
    *won = mv.done == g->won;
    return sp_moved_key(&mv, st, f->hash, f->term, p->left);
}

/* Whether ``key`` was reached in this call; if so and its position is still open (in the
 * component being built), it lowers ``low`` (Tarjan's low link) to its index. */
static inline int reached(const Prover *P, uint64_t key, int32_t *low)
{
    size_t j = kset_slot(P->keys, P->kcap, key);
    if (P->keys[j] != key)
        return 0;
    uint32_t v = P->vals[j];
    if ((v & 1u) && (int32_t)(v >> 1) < *low)
        *low = (int32_t)(v >> 1);
    return 1;
}

/* Opens a frame on ``p`` (reached by ``move``) with Tarjan index ``index``: 0, or -1
 * without memory. Every move's position is looked up here, at once: the positions this
 * call reached (an open one lowers the frame's low link) and those in ``L`` are dropped,
 * and only the rest are kept to try (with their keys). The lookups miss the cache, so all
 * the slots are prefetched first and the misses overlap. The search is the one that looks
 * each move up when its turn comes (a position open now stays open until this frame
 * closes, and one closed meanwhile is in both tables: the same positions in the same
 * order), but most moves lead to a position reached before and cost no second lookup.
 * One difference: a move that wins is kept alone (with the key 0), so it is taken before
 * its siblings' subtrees. */
static int open_frame(const SpiderGame *g, Prover *P, const SpLost *L, const SPos *p, Step move,
                      int32_t index, uint64_t key)
{
    Step out[MAXSTEPS];
    uint64_t keys[MAXSTEPS];
    int dropped = 0;
    int n = sp_children(g, p, 0, out, &dropped);
    if (GROW_ARRAY(P->frames, P->fcap, P->nframes + 1, 1024) ||
        GROW_ARRAY(P->steps, P->scap, P->nsteps + (size_t)n, 1u << 16) ||
        GROW_ARRAY(P->ckeys, P->ccap, P->nsteps + (size_t)n, 1u << 16) ||
        GROW_ARRAY(P->tarjan, P->tcap, P->nt + 1, 1024))
        return -1;
    Frame *f = &P->frames[P->nframes++];
    f->pos = *p;
    int off[MAXW + 1];
    sp_offsets(g, p, off);
    f->hash = key;
    for (int j = 0; j < g->width; j++)
        f->term[j] = sp_column_term(p->cards + off[j], p->len[j], p->down[j], p->left ? j : -1);
    f->move = move;
    f->kids = (uint32_t)P->nsteps;
    f->next = 0;
    f->index = f->low = index;
    P->tarjan[P->nt++] = key;
    int winner = -1;
    for (int x = 0; x < n && winner < 0; x++) {
        int won = 0;
        keys[x] = child_key(g, f, off, out[x], &won);
        if (won)
            winner = x;
        __builtin_prefetch(&P->keys[keys[x] & (P->kcap - 1)]);
        __builtin_prefetch(&P->vals[keys[x] & (P->kcap - 1)]);
        if (L->cap)
            __builtin_prefetch(&L->keys[keys[x] & (L->cap - 1)]);
    }
    uint32_t kept = 0;
    Step *steps = P->steps + P->nsteps;
    uint64_t *ckeys = P->ckeys + P->nsteps;
    if (winner >= 0) {
        steps[0] = out[winner];
        ckeys[0] = 0;
        kept = 1;
    } else {
        for (int x = 0; x < n; x++) {
            uint64_t k = keys[x];
            if (reached(P, k, &f->low) || sp_lost_has(L, k))
                continue;
            steps[kept] = out[x];
            ckeys[kept++] = k;
        }
    }
    f->nkids = kept;
    P->nsteps += kept;
    return 0;
}

static int reach_add(Prover *P, uint64_t key, int32_t index)
{
    if (2 * (P->kn + 1) > P->kcap && kset_grow(&P->keys, &P->vals, &P->kcap))
        return -1;
    size_t j = kset_slot(P->keys, P->kcap, key);
    P->keys[j] = key;
    P->vals[j] = (uint32_t)index << 1 | 1u;
    P->kn++;
    return 0;
}

void sp_prove(const SpiderGame *g, const SPos *root, SpLost *L, const SearchLimits *lim,
              SearchResult *r)
{
    Prover P = {0};
    memset(r, 0, sizeof *r);
    r->status = SP_UNKNOWN;
    double deadline = lim->seconds > 0 ? now() + lim->seconds : 0;
    uint64_t count = 0;
    uint64_t rkey = sp_hash(g, root);
    if (sp_lost_has(L, rkey)) {
        r->status = SP_EXHAUSTED;
        goto done;
    }
    if (reach_add(&P, rkey, 0) || open_frame(g, &P, L, root, (Step){0, 0, 0}, 0, rkey)) {
        r->status = SP_NOMEMORY;
        goto done;
    }
    count = 1;
    while (P.nframes) {
        Frame *f = &P.frames[P.nframes - 1];
        int pushed = 0;
        while (f->next < f->nkids) {
            size_t at = f->kids + f->next++;
            Step st = P.steps[at];
            uint64_t key = P.ckeys[at];
            if (!key) {
                r->status = SP_WON;
                r->line = malloc(P.nframes * sizeof(Step));
                if (!r->line) {
                    r->status = SP_NOMEMORY;
                    goto done;
                }
                for (size_t x = 1; x < P.nframes; x++)
                    r->line[x - 1] = P.frames[x].move;
                r->line[P.nframes - 1] = st;
                r->line_n = P.nframes;
                goto done;
            }
            /* New when the frame opened; an earlier move's subtree may have reached it
             * since (what it closed is in this table too, not only in L). */
            if (reached(&P, key, &f->low))
                continue;
            if ((lim->nodes && count >= lim->nodes) ||
                (deadline && (count & 255) == 0 && now() > deadline))
                goto done;
            if (lim->memory && prover_memory(&P, L) > lim->memory) {
                r->status = SP_NOMEMORY;
                goto done;
            }
            SPos q;
            sp_play(g, &f->pos, st, &q);
            if (count >= INT32_MAX / 2 || reach_add(&P, key, (int32_t)count) ||
                open_frame(g, &P, L, &q, st, (int32_t)count, key)) {
                r->status = SP_NOMEMORY;
                goto done;
            }
            count++;
            pushed = 1;
            break;
        }
        if (pushed)
            continue;
        Frame done_ = P.frames[--P.nframes];
        P.nsteps = done_.kids;
        if (done_.low == done_.index) { /* a component closes: all of it is lost */
            for (;;) {
                uint64_t k = P.tarjan[--P.nt];
                size_t j = kset_slot(P.keys, P.kcap, k);
                P.vals[j] &= ~1u;
                if (lost_add(L, k)) {
                    r->status = SP_NOMEMORY;
                    goto done;
                }
                if (P.vals[j] >> 1 == (uint32_t)done_.index)
                    break;
            }
        }
        if (P.nframes && done_.low < P.frames[P.nframes - 1].low)
            P.frames[P.nframes - 1].low = done_.low;
    }
    r->status = SP_EXHAUSTED; /* the root's component closed: the root is lost */
done:
    r->nodes = count;
    r->positions = P.kn;
    r->memory = prover_memory(&P, L);
    free(P.frames);
    free(P.steps);
    free(P.ckeys);
    free(P.tarjan);
    free(P.keys);
    free(P.vals);
}
