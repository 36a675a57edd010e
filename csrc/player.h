/* The no-peek player's policy playout in Spider (see player.c). */
#ifndef PASYANS_PLAYER_H
#define PASYANS_PLAYER_H

#include <stdint.h>

#include "spider.h"

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

#endif
