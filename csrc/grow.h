/* Arrays that grow by doubling, and big tables, shared by the searches (spider.c,
 * engine.c, nivernais.c) and the player's walk (player.c).
 *
 * Plain malloc/realloc/free, not Python's allocator: Spider's search runs without the GIL.
 * Everything allocated here is freed with free(). */
#ifndef PASYANS_GROW_H
#define PASYANS_GROW_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Resizes ``*v`` to ``n`` items of ``size`` bytes: 0 done, -1 out of memory (``*v``
 * unchanged). */
static inline int resize_array(void **v, size_t n, size_t size)
{
    void *p = realloc(*v, n * size);
    if (!p)
        return -1;
    *v = p;
    return 0;
}

/* Makes ``*v`` (``*cap`` items of ``size`` bytes) hold at least ``need`` items: doubles
 * ``*cap`` (from ``first`` when it is 0) until it does. 0 done, -1 out of memory (``*v``
 * and ``*cap`` unchanged). */
static inline int grow_array(void **v, size_t *cap, size_t need, size_t size, size_t first)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : first;
    while (c < need)
        c *= 2;
    if (resize_array(v, c, size))
        return -1;
    *cap = c;
    return 0;
}

/* grow_array on an array variable ``arr`` with its capacity ``cap``. */
#define GROW_ARRAY(arr, cap, need, first)                                                  \
    grow_array((void **)&(arr), &(cap), (need), sizeof *(arr), (first))

/* resize_array on an array variable ``arr``. */
#define RESIZE_ARRAY(arr, n) resize_array((void **)&(arr), (n), sizeof *(arr))

/* Large tables on huge pages where the kernel gives them (fewer TLB misses on the random
 * probes of a big table); freed with free(). */
#define HUGE_PAGE ((size_t)2 << 20)

static inline void *big_alloc(size_t bytes)
{
    if (bytes < HUGE_PAGE)
        return malloc(bytes);
    size_t n = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    void *p = aligned_alloc(HUGE_PAGE, n);
#ifdef MADV_HUGEPAGE
    if (p)
        madvise(p, n, MADV_HUGEPAGE);
#endif
    return p;
}

static inline void *big_calloc(size_t n, size_t size)
{
    void *p = big_alloc(n * size);
    if (p)
        memset(p, 0, n * size);
    return p;
}

#endif
