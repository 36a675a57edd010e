/* The line player's walks (engine.c's engine_candidates, nivernais.c's
 * nivernais_candidates): each walked position's step back to where it came from, the lines
 * found, and the Python answer made of them. Both walks are breadth-first from a view;
 * hints/lines.py's _breadth_first is their reference. */
#ifndef PASYANS_WALK_H
#define PASYANS_WALK_H

#include <Python.h>
#include <stdint.h>

typedef struct {
    int32_t parent; /* the walked position it comes from, -1: the view */
    uint32_t code;  /* the move from there */
} WalkStep;

typedef struct {
    int32_t from;  /* the walked position the reveal leaves */
    uint32_t code; /* the reveal */
    int home;      /* cards on the foundations before it */
} WalkLine;

/* The moves from the view to walked position x, as a Python tuple of ints. */
static inline PyObject *walk_steps(const WalkStep *w, int32_t x)
{
    int depth = 0;
    for (int32_t y = x; w[y].parent >= 0; y = w[y].parent)
        depth++;
    PyObject *t = PyTuple_New(depth);
    for (int32_t y = x; t && w[y].parent >= 0; y = w[y].parent)
        PyTuple_SET_ITEM(t, --depth, PyLong_FromUnsignedLong(w[y].code));
    return t;
}

/* [(steps, reveal, home), ...] of the n lines, in their order; NULL with an exception. */
static inline PyObject *walk_answer(const WalkStep *w, const WalkLine *lines, size_t n)
{
    PyObject *out = PyList_New((Py_ssize_t)n);
    for (size_t x = 0; out && x < n; x++) {
        PyObject *t = Py_BuildValue("(Nki)", walk_steps(w, lines[x].from),
                                    (unsigned long)lines[x].code, lines[x].home);
        if (!t) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)x, t);
    }
    return out;
}

#endif
