/* Arrays that grow by doubling, shared by the searches (spider.c, engine.c).
 *
 * Plain malloc/realloc/free, not Python's allocator: Spider's search runs without the GIL.
 * An array grown here is freed with free(). */
#ifndef PASYANS_GROW_H
#define PASYANS_GROW_H

#include <stddef.h>
#include <stdlib.h>

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

#endif
