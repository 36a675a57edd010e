/* The no-peek player's policy playout in Spider (see player.c). */
#ifndef PASYANS_PLAYER_H
#define PASYANS_PLAYER_H

#include <stdint.h>

#include "spider.h"

/* The policy's evaluation weights: a face-down card, a column with one, an empty column,
 * a pair in suit and sequence, in sequence of two suits, out of sequence, a completed run. */
typedef struct {
    int down, dirty, empty, insuit, offsuit, brk, run;
} PlWeights;
#define PL_NWEIGHTS 7

/* The weights of this thread's playouts from now on (NULL: the product's, PL_* of
 * csrc/abi.toml); the caller keeps
 * *w alive while they are used. */
void pl_weigh(const PlWeights *w);

/* The policy's playout from p, at most limit moves: its end position (end) and its moves. */
int pl_walk(const SpiderGame *g, const SPos *p, uint64_t seed, int limit, SPos *end);
/* pl_walk's score: 1000 when won, else the cards in completed runs plus twice the cards
 * turned up (of 44). */
int pl_rollout(const SpiderGame *g, const SPos *p, uint64_t seed, int limit);

/* The searching policy's playout (a shallow reveal-free search each step, at most cap
 * positions expanded; bonus: an event's extra score): its end position and its moves. */
int pl_search_walk(const SpiderGame *g, const SPos *p, uint64_t seed, int limit, int cap,
                   int bonus, SPos *end);
/* pl_search_walk's score, as pl_rollout's. */
int pl_search(const SpiderGame *g, const SPos *p, uint64_t seed, int limit, int cap, int bonus);

/* The felt player's policy (generator version 4, kept unchanged): its score as pl_rollout's. */
int pl_felt(const SpiderGame *g, const SPos *p, uint64_t seed, int limit);

/* The candidate lines of pl_candidates: line k is steps[start[k] .. start[k + 1]), its
 * event last (the deal is the step of 0 cards). */
typedef struct {
    Step *steps;
    int *start;
    int n;
} PlLines;

/* The no-peek player's candidate lines of the view root (cards not seen: HIDDEN_BYTE, the
 * stock's too), best first (player.c; Python: candidates_py); avoid: navoid views never
 * entered; at most cap positions expanded, width lines. 0, or -1 when out of memory. */
int pl_candidates(const SpiderGame *g, const SPos *root, const SPos *avoid, int navoid,
                  int cap, int width, PlLines *out);
void pl_lines_free(PlLines *out);

/* The stable shuffle of n cards in place by seed (cards.shuffled). */
void pl_shuffle(int64_t *cards, int n, uint64_t seed);

/* A round of the decision's bandit (pl_round; Python: decide's loop over a round's
 * samples). The view's hidden places: slot_col (a column, or the width: the stock) and
 * slot_row, nslots of them, filled by the unseen cards (cards, nslots) shuffled; base:
 * the view's sample seed (sampling.seed_for). The candidates still alive: before (their
 * views before the event, hidden places HIDDEN_BYTE), event, ids (their indexes among
 * every candidate, for the playout seeds), n of them; won, limit, cap, bonus: the
 * playouts' (cap > 0: the searching policy). */
typedef struct {
    const uint8_t *slot_col, *slot_row;
    const int64_t *cards;
    int nslots;
    uint64_t base;
    const SPos *before;
    const Step *event;
    const int *ids;
    int n, limit, cap, bonus;
} PlRound;

/* The samples start .. start + count - 1 of a round: each candidate's total score
 * (totals) and wins (wins) over them; the samples played (fewer when the deadline came). */
int pl_round(const SpiderGame *view, const PlRound *r, long long start, int count,
             double deadline, long long *totals, int *wins);

#endif
