/* Foundation games (Spine, Backbone, Backbone classic) as a packed search domain, in C.
 *
 * This mirrors the engine's legal_moves/apply (src/pasyans/engine/core.py) and the
 * search helpers of src/pasyans/solver/knowledge.py (safe foundation moves, duplicate
 * moves, move order, canonical key) for the games solver/packed.py accepts. The Python
 * code is the reference; tests/solver/test_packed.py compares the two along random
 * playouts.
 *
 * A position is a byte string: the redeals made, every pile's length, every pile's
 * face-down count, then the piles' cards one after the other (bottom to top).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "engine.h"

enum { K_STOCK = 0, K_WASTE = 1, K_FOUNDATION = 2, K_COLUMN = 3, K_SPINE = 4, K_TAILBONE = 5 };
enum { E_NONE = 0, E_ANY = 1, E_KINGS = 2 };

#define MAXP 32
#define MAXMOVES 1024
#define CLICK 0xFFFFFFu

typedef struct {
    int np;
    uint8_t kind[MAXP];
    uint8_t locked_by[MAXP]; /* 255: none */
    int runs_move, empty_column, same_suit, builds;
    unsigned feeds_column, feeds_foundation, refuses; /* bit per kind */
    int stock_turn, passes, general_safe, tailbone_first, won;
    int stock, waste;
    int ncols, cols[MAXP], nfound, founds[MAXP], nspines, spines[MAXP];
} FSpec;

typedef struct {
    int redeals;
    uint8_t len[MAXP], down[MAXP];
    int off[MAXP + 1];
    uint8_t cards[256];
} FPos;

static const char *SPEC_NAME = "pasyans.engine_spec";

static int fp_load(const FSpec *s, const uint8_t *b, Py_ssize_t n, FPos *p)
{
    int np = s->np;
    if (n < 1 + 2 * np)
        return -1;
    p->redeals = b[0];
    memcpy(p->len, b + 1, (size_t)np);
    memcpy(p->down, b + 1 + np, (size_t)np);
    int o = 0;
    for (int i = 0; i < np; i++) {
        p->off[i] = o;
        o += p->len[i];
    }
    p->off[np] = o;
    if (o > 256 || n != 1 + 2 * np + o)
        return -1;
    memcpy(p->cards, b + 1 + 2 * np, (size_t)o);
    return 0;
}

static PyObject *fp_bytes(const FSpec *s, const FPos *p)
{
    int np = s->np, total = p->off[np];
    PyObject *out = PyBytes_FromStringAndSize(NULL, 1 + 2 * np + total);
    if (!out)
        return NULL;
    uint8_t *b = (uint8_t *)PyBytes_AS_STRING(out);
    b[0] = (uint8_t)p->redeals;
    memcpy(b + 1, p->len, (size_t)np);
    memcpy(b + 1 + np, p->down, (size_t)np);
    memcpy(b + 1 + 2 * np, p->cards, (size_t)total);
    return out;
}

static inline int top(const FPos *p, int i) { return p->cards[p->off[i] + p->len[i] - 1]; }

/* Every legal move in legal_moves' order: codes (src << 16) | (dst << 8) | cards; CLICK. */
static int fp_moves(const FSpec *s, const FPos *p, uint32_t *out)
{
    int n = 0;
    for (int i = 0; i < s->np; i++) {
        int kind = s->kind[i], len = p->len[i];
        if (kind == K_STOCK || !len)
            continue;
        if (s->locked_by[i] != 255 && p->len[s->locked_by[i]])
            continue;
        int free_ = len - p->down[i];
        if (free_ <= 0)
            continue;
        const uint8_t *pile = p->cards + p->off[i];
        int k = 1;
        if (s->runs_move && kind == K_COLUMN)
            while (k < free_ && pile[len - k - 1] - pile[len - k] == 4)
                k++;
        int card = pile[len - 1];
        if (s->feeds_foundation >> kind & 1)
            for (int x = 0; x < s->nfound; x++) {
                int f = s->founds[x];
                if (p->len[f] ? card - top(p, f) == 4 : (card >> 2) == 0)
                    out[n++] = (uint32_t)(i << 16 | f << 8 | 1);
            }
        if (!(s->feeds_column >> kind & 1))
            continue;
        int whole = kind == K_COLUMN ? len : -1;
        int empty = (s->refuses >> kind & 1) ? E_NONE : s->empty_column;
        for (int m = 1; m <= k; m++) {
            int lowest = pile[len - m];
            for (int x = 0; x < s->ncols; x++) {
                int c = s->cols[x];
                if (c == i)
                    continue;
                if (p->len[c]) {
                    int t = top(p, c);
                    if (s->builds && (s->same_suit ? t - lowest == 4 : (t >> 2) - (lowest >> 2) == 1))
                        out[n++] = (uint32_t)(i << 16 | c << 8 | m);
                } else if (m != whole &&
                           (empty == E_ANY || (empty == E_KINGS && (lowest >> 2) == 12))) {
                    out[n++] = (uint32_t)(i << 16 | c << 8 | m);
                }
            }
        }
    }
    if (s->stock_turn && (p->len[s->stock] || (p->len[s->waste] && p->redeals < s->passes - 1)))
        out[n++] = CLICK;
    return n;
}

static void fp_play(const FSpec *s, const FPos *p, uint32_t code, FPos *q)
{
    int np = s->np;
    *q = *p;
    if (code == CLICK) {
        int st = s->stock, w = s->waste;
        if (p->len[st]) { /* turn: the stock's top card onto the waste */
            uint8_t card = p->cards[p->off[st] + p->len[st] - 1];
            int o = 0;
            for (int j = 0; j < np; j++) {
                int n = p->len[j] - (j == st);
                memcpy(q->cards + o, p->cards + p->off[j], (size_t)n);
                q->off[j] = o;
                o += n;
                if (j == w)
                    q->cards[o++] = card, n++;
                q->len[j] = (uint8_t)n;
            }
            q->off[np] = o;
        } else { /* redeal: the waste, reversed, is the stock */
            int o = 0;
            for (int j = 0; j < np; j++) {
                q->off[j] = o;
                if (j == st) {
                    for (int x = p->len[w] - 1; x >= 0; x--)
                        q->cards[o++] = p->cards[p->off[w] + x];
                    q->len[j] = p->len[w];
                } else if (j == w) {
                    q->len[j] = 0;
                } else {
                    memcpy(q->cards + o, p->cards + p->off[j], p->len[j]);
                    o += p->len[j];
                }
            }
            q->off[np] = o;
            q->redeals = p->redeals + 1;
        }
        return;
    }
    int src = (int)(code >> 16), dst = (int)(code >> 8 & 255), m = (int)(code & 255);
    int o = 0;
    for (int j = 0; j < np; j++) {
        int n = p->len[j] - (j == src ? m : 0);
        memcpy(q->cards + o, p->cards + p->off[j], (size_t)n);
        q->off[j] = o;
        o += n;
        if (j == dst) {
            memcpy(q->cards + o, p->cards + p->off[src] + p->len[src] - m, (size_t)m);
            o += m;
            n += m;
        }
        q->len[j] = (uint8_t)n;
    }
    q->off[np] = o;
}

static int fp_won(const FSpec *s, const FPos *p)
{
    int n = 0;
    for (int x = 0; x < s->nfound; x++)
        n += p->len[s->founds[x]];
    return n == s->won;
}

/* knowledge.priority */
static int priority(const FSpec *s, const FPos *p, uint32_t code)
{
    if (code == CLICK)
        return 0;
    int si = (int)(code >> 16), di = (int)(code >> 8 & 255), m = (int)(code & 255);
    int sk = s->kind[si], dk = s->kind[di], value = 0;
    const uint8_t *src = p->cards + p->off[si];
    int left = p->len[si] - m;
    if (dk == K_FOUNDATION)
        value += 100;
    if (sk == K_FOUNDATION)
        return -50;
    if (sk == K_COLUMN) {
        if (left == 0)
            value += 30;
        else if (p->down[si] >= left)
            value += 40;
        else if (dk == K_COLUMN) {
            int below = src[left - 1], lowest = src[left];
            if (below - lowest == 4)
                value -= 40;
            else if ((below >> 2) - (lowest >> 2) == 1)
                value -= 10;
        }
    } else if (sk == K_SPINE || sk == K_TAILBONE || sk == K_WASTE) {
        value += 20;
        if (sk != K_WASTE && s->tailbone_first)
            value += 60;
    }
    if (dk == K_COLUMN) {
        if (p->len[di]) {
            value += 10;
            if (top(p, di) - src[left] == 4)
                value += 15;
        } else {
            value -= 20;
        }
    }
    return value;
}

static int copies_up(const FSpec *s, const FPos *p, int card)
{
    int n = 0;
    for (int x = 0; x < s->nfound; x++) {
        int f = s->founds[x];
        if (p->len[f] && (top(p, f) & 3) == (card & 3) && top(p, f) >= card)
            n++;
    }
    return n;
}

/* knowledge.guided_children for unguided games (no dead test: see packed.py). */
static int fp_children(const FSpec *s, const FPos *p, uint32_t *out)
{
    uint32_t moves[MAXMOVES];
    int n = fp_moves(s, p, moves);
    for (int x = 0; x < n; x++) { /* a safe foundation move, alone */
        uint32_t code = moves[x];
        if (code == CLICK || s->kind[code >> 8 & 255] != K_FOUNDATION)
            continue;
        int card = top(p, (int)(code >> 16));
        if ((card >> 2) == 0 || (s->general_safe && copies_up(s, p, card - 4) >= 2)) {
            out[0] = code;
            return 1;
        }
    }
    int kept = 0, values[MAXMOVES];
    for (int x = 0; x < n; x++) {
        uint32_t code = moves[x];
        if (code != CLICK) {
            int src = (int)(code >> 16), dst = (int)(code >> 8 & 255), m = (int)(code & 255);
            int dup = 0;
            /* Duplicates: the same unit to an alike column (same cards) or foundation. */
            for (int y = 0; y < x && !dup; y++) {
                uint32_t o = moves[y];
                if (o == CLICK || (int)(o >> 16) != src || (int)(o & 255) != m)
                    continue;
                int od = (int)(o >> 8 & 255);
                if (s->kind[dst] == K_COLUMN && s->kind[od] == K_COLUMN)
                    dup = p->len[od] == p->len[dst] && p->down[od] == p->down[dst] &&
                          !memcmp(p->cards + p->off[od], p->cards + p->off[dst], p->len[dst]);
                else if (s->kind[dst] == K_FOUNDATION && s->kind[od] == K_FOUNDATION)
                    dup = (p->len[od] ? top(p, od) : -1) == (p->len[dst] ? top(p, dst) : -1);
            }
            if (dup)
                continue;
        }
        int v = priority(s, p, code), y = kept;
        while (y > 0 && values[y - 1] < v) {
            values[y] = values[y - 1];
            out[y] = out[y - 1];
            y--;
        }
        values[y] = v;
        out[y] = code;
        kept++;
    }
    return kept;
}

/* The canonical key (knowledge.canonical_key): columns sorted, foundations by their top
 * cards sorted, spine piles sorted; the rest in place. */
static int cmp_piles(const FPos *p, int a, int b)
{
    int la = p->len[a], lb = p->len[b], n = la < lb ? la : lb;
    int c = memcmp(p->cards + p->off[a], p->cards + p->off[b], (size_t)n);
    if (c)
        return c;
    if (la != lb)
        return la - lb;
    return p->down[a] - p->down[b];
}

static void sort_piles(const FPos *p, int *idx, int n)
{
    for (int i = 1; i < n; i++) {
        int v = idx[i], j = i;
        while (j > 0 && cmp_piles(p, idx[j - 1], v) > 0) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = v;
    }
}

static PyObject *fp_key(const FSpec *s, const FPos *p)
{
    uint8_t buf[1024];
    int o = 0, idx[MAXP];
    buf[o++] = (uint8_t)p->redeals;
    memcpy(idx, s->cols, sizeof(int) * (size_t)s->ncols);
    sort_piles(p, idx, s->ncols);
    for (int x = 0; x < s->ncols; x++) {
        int c = idx[x];
        buf[o++] = p->len[c];
        buf[o++] = p->down[c];
        memcpy(buf + o, p->cards + p->off[c], p->len[c]);
        o += p->len[c];
    }
    int tops[MAXP];
    for (int x = 0; x < s->nfound; x++) {
        int f = s->founds[x], t = p->len[f] ? top(p, f) : 255, y = x;
        while (y > 0 && tops[y - 1] > t) {
            tops[y] = tops[y - 1];
            y--;
        }
        tops[y] = t;
    }
    for (int x = 0; x < s->nfound; x++)
        buf[o++] = (uint8_t)tops[x];
    memcpy(idx, s->spines, sizeof(int) * (size_t)s->nspines);
    sort_piles(p, idx, s->nspines);
    for (int x = 0; x < s->nspines; x++) {
        int c = idx[x];
        buf[o++] = p->len[c];
        memcpy(buf + o, p->cards + p->off[c], p->len[c]);
        o += p->len[c];
    }
    for (int i = 0; i < s->np; i++) {
        int k = s->kind[i];
        if (k == K_COLUMN || k == K_FOUNDATION || k == K_SPINE)
            continue;
        buf[o++] = p->len[i];
        buf[o++] = p->down[i];
        memcpy(buf + o, p->cards + p->off[i], p->len[i]);
        o += p->len[i];
    }
    return PyBytes_FromStringAndSize((const char *)buf, o);
}

/* --- Python functions ----------------------------------------------------------------- */

static void spec_free(PyObject *cap)
{
    PyMem_Free(PyCapsule_GetPointer(cap, SPEC_NAME));
}

/* engine_spec(kinds: bytes, locked_by: bytes, flags: tuple[int, ...]) -> capsule */
PyObject *engine_spec(PyObject *self, PyObject *args)
{
    Py_buffer kinds, locked;
    int runs, empty, same_suit, builds, stock_turn, passes, general, tailbone_first, won;
    unsigned feeds_c, feeds_f, refuses;
    if (!PyArg_ParseTuple(args, "y*y*(iiiiIIIiiiii)", &kinds, &locked, &runs, &empty, &same_suit,
                          &builds, &feeds_c, &feeds_f, &refuses, &stock_turn, &passes, &general,
                          &tailbone_first, &won))
        return NULL;
    FSpec *s = PyMem_Calloc(1, sizeof *s);
    if (!s || kinds.len > MAXP || kinds.len != locked.len) {
        PyBuffer_Release(&kinds);
        PyBuffer_Release(&locked);
        PyMem_Free(s);
        return s ? PyErr_Format(PyExc_ValueError, "too many piles") : PyErr_NoMemory();
    }
    s->np = (int)kinds.len;
    s->stock = s->waste = -1;
    for (int i = 0; i < s->np; i++) {
        s->kind[i] = ((uint8_t *)kinds.buf)[i];
        s->locked_by[i] = ((uint8_t *)locked.buf)[i];
        switch (s->kind[i]) {
        case K_STOCK: s->stock = i; break;
        case K_WASTE: s->waste = i; break;
        case K_FOUNDATION: s->founds[s->nfound++] = i; break;
        case K_COLUMN: s->cols[s->ncols++] = i; break;
        case K_SPINE: s->spines[s->nspines++] = i; break;
        default: break;
        }
    }
    PyBuffer_Release(&kinds);
    PyBuffer_Release(&locked);
    s->runs_move = runs;
    s->empty_column = empty;
    s->same_suit = same_suit;
    s->builds = builds;
    s->feeds_column = feeds_c;
    s->feeds_foundation = feeds_f;
    s->refuses = refuses;
    s->stock_turn = stock_turn && s->stock >= 0 && s->waste >= 0;
    s->passes = passes;
    s->general_safe = general;
    s->tailbone_first = tailbone_first;
    s->won = won;
    PyObject *cap = PyCapsule_New(s, SPEC_NAME, spec_free);
    if (!cap)
        PyMem_Free(s);
    return cap;
}

static int parse(PyObject *args, const FSpec **s, FPos *p, PyObject **rest)
{
    PyObject *cap;
    Py_buffer b;
    *rest = NULL;
    if (!PyArg_ParseTuple(args, "Oy*|O", &cap, &b, rest))
        return -1;
    *s = PyCapsule_GetPointer(cap, SPEC_NAME);
    int bad = !*s || fp_load(*s, b.buf, b.len, p);
    PyBuffer_Release(&b);
    if (bad) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "not a packed position of this game");
        return -1;
    }
    return 0;
}

static PyObject *codes(const uint32_t *c, int n)
{
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++)
        PyList_SET_ITEM(out, i, PyLong_FromUnsignedLong(c[i]));
    return out;
}

PyObject *engine_moves(PyObject *self, PyObject *args)
{
    const FSpec *s;
    FPos p;
    PyObject *rest;
    uint32_t out[MAXMOVES];
    if (parse(args, &s, &p, &rest))
        return NULL;
    return codes(out, fp_moves(s, &p, out));
}

PyObject *engine_play(PyObject *self, PyObject *args)
{
    const FSpec *s;
    FPos p, q;
    PyObject *rest;
    if (parse(args, &s, &p, &rest))
        return NULL;
    unsigned long code = rest ? PyLong_AsUnsignedLong(rest) : 0;
    if (PyErr_Occurred())
        return NULL;
    uint32_t moves[MAXMOVES];
    int n = fp_moves(s, &p, moves), ok = 0;
    for (int x = 0; x < n && !ok; x++)
        ok = moves[x] == code;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "not a legal move of this position");
        return NULL;
    }
    fp_play(s, &p, (uint32_t)code, &q);
    return fp_bytes(s, &q);
}

/* engine_children(spec, pos) -> [(code, child, won), ...] in search order */
PyObject *engine_children(PyObject *self, PyObject *args)
{
    const FSpec *s;
    FPos p, q;
    PyObject *rest;
    uint32_t out[MAXMOVES];
    if (parse(args, &s, &p, &rest))
        return NULL;
    int n = fp_children(s, &p, out);
    PyObject *list = PyList_New(n);
    for (int x = 0; list && x < n; x++) {
        fp_play(s, &p, out[x], &q);
        PyObject *t = Py_BuildValue("(kNO)", (unsigned long)out[x], fp_bytes(s, &q),
                                    fp_won(s, &q) ? Py_True : Py_False);
        if (!t) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, x, t);
    }
    return list;
}

PyObject *engine_key(PyObject *self, PyObject *args)
{
    const FSpec *s;
    FPos p;
    PyObject *rest;
    if (parse(args, &s, &p, &rest))
        return NULL;
    return fp_key(s, &p);
}

PyObject *engine_won(PyObject *self, PyObject *args)
{
    const FSpec *s;
    FPos p;
    PyObject *rest;
    if (parse(args, &s, &p, &rest))
        return NULL;
    return PyBool_FromLong(fp_won(s, &p));
}

/* engine_lock(spec, pos) -> bytes: what Backbone classic's dead-spine test reads
 * (solver/spinelock.py): the spine piles in pile order, the tailbone, and the foundations'
 * top cards sorted (255: empty), with 255 between the piles. Positions with the same
 * bytes get the same answer, so the search caches it on them. */
PyObject *engine_lock(PyObject *self, PyObject *args)
{
    const FSpec *s;
    FPos p;
    PyObject *rest;
    if (parse(args, &s, &p, &rest))
        return NULL;
    uint8_t buf[512];
    int o = 0;
    for (int x = 0; x < s->nspines; x++) {
        int c = s->spines[x];
        memcpy(buf + o, p.cards + p.off[c], p.len[c]);
        o += p.len[c];
        buf[o++] = 255;
    }
    for (int i = 0; i < s->np; i++) {
        if (s->kind[i] != K_TAILBONE)
            continue;
        memcpy(buf + o, p.cards + p.off[i], p.len[i]);
        o += p.len[i];
        buf[o++] = 255;
    }
    int tops[MAXP];
    for (int x = 0; x < s->nfound; x++) {
        int f = s->founds[x], t = p.len[f] ? top(&p, f) : 255, y = x;
        while (y > 0 && tops[y - 1] > t) {
            tops[y] = tops[y - 1];
            y--;
        }
        tops[y] = t;
    }
    for (int x = 0; x < s->nfound; x++)
        buf[o++] = (uint8_t)tops[x];
    return PyBytes_FromStringAndSize((const char *)buf, o);
}
