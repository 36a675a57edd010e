/* The searches' clock (spider.c, spiderproof.c, spiderline.c, engine.c, nivernais.c,
 * player.c): monotonic seconds, for deadlines passed in from Python as seconds. A file
 * that includes it before Python.h defines _DEFAULT_SOURCE first (clock_gettime). */
#ifndef PASYANS_CLOCK_H
#define PASYANS_CLOCK_H

#include <time.h>

/* Seconds on CLOCK_MONOTONIC. */
static inline double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#endif
