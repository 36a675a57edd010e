/* The no-peek player's policy playout in Spider (see player.c). */
#ifndef PASYANS_PLAYER_H
#define PASYANS_PLAYER_H

#include <stdint.h>

#include "spider.h"

int pl_rollout(const SpiderGame *g, const SPos *p, uint64_t seed, int limit);

#endif
