/* pasyans.domains._core: the compiled search core (Python bindings).
 *
 * Positions cross the boundary as the Python domain's tuples, so the two can be compared
 * move for move; the search itself runs in C without the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "nivernais.h"
#include "player.h"
#include "spider.h"

/* --- Conversions ---------------------------------------------------------------------- */

static int to_card(PyObject *obj, int hidden, int face_down, uint8_t *out);

/* The stock's cards -> a game; with ``hidden``, cards not seen (HIDDEN) too. */
static int to_game_as(PyObject *stock, int width, int won, SpiderGame *g, int hidden)
{
    PyObject *seq = PySequence_Fast(stock, "the stock must be a sequence of cards");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > MAXSTOCK) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "the stock is too large for the compiled core");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (to_card(PySequence_Fast_GET_ITEM(seq, i), hidden, 1, &g->stock[i])) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    g->width = width;
    g->won = won;
    return 0;
}

/* A card of a position: 0..51, or with ``hidden`` (1: face down only, 2: anywhere) the
 * view's HIDDEN, packed as HIDDEN_BYTE. */
static int to_card(PyObject *obj, int hidden, int face_down, uint8_t *out)
{
    long c = PyLong_AsLong(obj);
    if (c >= 0 && c <= 51) {
        *out = (uint8_t)c;
        return 0;
    }
    if (c == HIDDEN && (hidden == 2 || (hidden == 1 && face_down))) {
        *out = HIDDEN_BYTE;
        return 0;
    }
    if (!PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, hidden ? "a card is an int 0..51 or HIDDEN face down"
                                                 : "a card is an int 0..51");
    return -1;
}

/* (cols, down) -> the columns of an SPos; sets *width. */
static int to_cols(PyObject *cols, PyObject *down, SPos *p, int *width, int hidden)
{
    if (!PyTuple_Check(cols) || !PyTuple_Check(down) ||
        PyTuple_GET_SIZE(cols) != PyTuple_GET_SIZE(down)) {
        PyErr_SetString(PyExc_TypeError, "columns and face-down counts are tuples of one size");
        return -1;
    }
    Py_ssize_t w = PyTuple_GET_SIZE(cols);
    if (w < 1 || w > MAXW) {
        PyErr_SetString(PyExc_ValueError, "a position the compiled core cannot hold");
        return -1;
    }
    int o = 0;
    for (Py_ssize_t j = 0; j < w; j++) {
        PyObject *col = PyTuple_GET_ITEM(cols, j);
        if (!PyTuple_Check(col)) {
            PyErr_SetString(PyExc_TypeError, "a column is a tuple of cards");
            return -1;
        }
        Py_ssize_t n = PyTuple_GET_SIZE(col);
        long d = PyLong_AsLong(PyTuple_GET_ITEM(down, j));
        if (PyErr_Occurred())
            return -1;
        if (o + n > MAXCARDS || n > 255 || d < 0 || (n && d >= n) || (!n && d)) {
            PyErr_SetString(PyExc_ValueError, "a position the compiled core cannot hold");
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++)
            if (to_card(PyTuple_GET_ITEM(col, i), hidden, i < d, &p->cards[o++]))
                return -1;
        p->len[j] = (uint8_t)n;
        p->down[j] = (uint8_t)d;
    }
    *width = (int)w;
    return 0;
}

/* pos = (cols, down, left, done[, ...]) -> SPos; sets *width. */
static int to_pos_as(PyObject *pos, SPos *p, int *width, int hidden)
{
    long left, done;
    if (!PyTuple_Check(pos) || PyTuple_GET_SIZE(pos) < 4) {
        PyErr_SetString(PyExc_TypeError, "a position is (cols, down, left, done, ...)");
        return -1;
    }
    left = PyLong_AsLong(PyTuple_GET_ITEM(pos, 2));
    done = PyLong_AsLong(PyTuple_GET_ITEM(pos, 3));
    if (PyErr_Occurred())
        return -1;
    if (left < 0 || left > MAXSTOCK || done < 0 || done > 255) {
        PyErr_SetString(PyExc_ValueError, "a position the compiled core cannot hold");
        return -1;
    }
    if (to_cols(PyTuple_GET_ITEM(pos, 0), PyTuple_GET_ITEM(pos, 1), p, width, hidden))
        return -1;
    p->left = (uint8_t)left;
    p->done = (uint8_t)done;
    return 0;
}

static PyObject *from_pos(const SpiderGame *g, const SPos *p)
{
    PyObject *cols = PyTuple_New(g->width), *down = PyTuple_New(g->width);
    if (!cols || !down)
        goto fail;
    int o = 0;
    for (int j = 0; j < g->width; j++) {
        PyObject *col = PyTuple_New(p->len[j]);
        if (!col)
            goto fail;
        for (int i = 0; i < p->len[j]; i++)
            PyTuple_SET_ITEM(col, i, PyLong_FromLong(p->cards[o++]));
        PyTuple_SET_ITEM(cols, j, col);
        PyTuple_SET_ITEM(down, j, PyLong_FromLong(p->down[j]));
    }
    return Py_BuildValue("(NNii)", cols, down, (int)p->left, (int)p->done);
fail:
    Py_XDECREF(cols);
    Py_XDECREF(down);
    return NULL;
}

static PyObject *from_steps(const Step *s, size_t n)
{
    PyObject *out = PyList_New((Py_ssize_t)n);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        PyObject *t = Py_BuildValue("(iii)", s[i].cards ? s[i].src : -1,
                                    s[i].cards ? s[i].dst : -1, s[i].cards);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, t);
    }
    return out;
}

static int to_step(PyObject *obj, int width, Step *st)
{
    int i, c, m;
    if (!PyArg_ParseTuple(obj, "iii", &i, &c, &m))
        return -1;
    if (m == 0) {
        *st = (Step){0, 0, 0};
        return 0;
    }
    if (i < 0 || i >= width || c < 0 || c >= width || m < 0 || m > 255) {
        PyErr_SetString(PyExc_ValueError, "not a step of this position");
        return -1;
    }
    *st = (Step){(uint8_t)i, (uint8_t)c, (uint8_t)m};
    return 0;
}

/* Parse (stock, pos) into a game and a position; with ``hidden``, a view (cards not seen:
 * HIDDEN, face down and in the stock). */
static int parse_as(PyObject *stock, PyObject *pos, SpiderGame *g, SPos *p, int hidden)
{
    int width;
    if (to_pos_as(pos, p, &width, hidden) || to_game_as(stock, width, 104, g, hidden))
        return -1;
    if (p->left > PyObject_Length(stock)) {
        PyErr_SetString(PyExc_ValueError, "more cards left than the stock has");
        return -1;
    }
    int table = 0;
    for (int j = 0; j < width; j++)
        table += p->len[j];
    if (table + p->left > MAXCARDS) { /* the deals must fit too */
        PyErr_SetString(PyExc_ValueError, "a position the compiled core cannot hold");
        return -1;
    }
    return 0;
}

static int parse(PyObject *stock, PyObject *pos, SpiderGame *g, SPos *p)
{
    return parse_as(stock, pos, g, p, 0);
}

/* --- Functions ------------------------------------------------------------------------ */

static PyObject *spider_steps(PyObject *self, PyObject *args)
{
    PyObject *stock, *pos;
    SpiderGame g;
    SPos p;
    Step out[MAXSTEPS];
    if (!PyArg_ParseTuple(args, "OO", &stock, &pos) || parse(stock, pos, &g, &p))
        return NULL;
    return from_steps(out, (size_t)sp_steps(&g, &p, out));
}

static PyObject *spider_children(PyObject *self, PyObject *args)
{
    PyObject *stock, *pos;
    int prune, dropped = 0;
    SpiderGame g;
    SPos p;
    Step out[MAXSTEPS];
    if (!PyArg_ParseTuple(args, "OOp", &stock, &pos, &prune) || parse(stock, pos, &g, &p))
        return NULL;
    int n = sp_children(&g, &p, prune, out, &dropped);
    return Py_BuildValue("(NO)", from_steps(out, (size_t)n), dropped ? Py_True : Py_False);
}

static PyObject *spider_play(PyObject *self, PyObject *args)
{
    PyObject *stock, *pos, *step;
    SpiderGame g;
    SPos p, q;
    Step st;
    if (!PyArg_ParseTuple(args, "OOO", &stock, &pos, &step) || parse(stock, pos, &g, &p) ||
        to_step(step, g.width, &st))
        return NULL;
    if (st.cards ? st.cards > p.len[st.src] : !p.left) {
        PyErr_SetString(PyExc_ValueError, "not a step of this position");
        return NULL;
    }
    sp_play(&g, &p, st, &q);
    return from_pos(&g, &q);
}

/* A sequence of n ints, each in lo..hi, into w; -1 with a ValueError or TypeError set. */
static int parse_ints(PyObject *weights, int n, long lo, long hi, int *w)
{
    PyObject *seq = PySequence_Fast(weights, "weights must be a sequence of ints");
    if (!seq)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "weights: %d ints expected", n);
        return -1;
    }
    for (int j = 0; j < n; j++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, j));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < lo || v > hi) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "weights: each in %ld..%ld, not %ld", lo, hi, v);
            return -1;
        }
        w[j] = (int)v;
    }
    Py_DECREF(seq);
    return 0;
}

/* The distance's weights: SP_NWEIGHTS ints in 0..64. */
static int parse_weights(PyObject *weights, int *w)
{
    return parse_ints(weights, SP_NWEIGHTS, 0, 64, w);
}

/* spider_distance(stock, pos, weights=None): the distance by ``weights`` (None: V1's). */
static PyObject *spider_distance(PyObject *self, PyObject *args)
{
    PyObject *stock, *pos, *weights = Py_None;
    SpiderGame g;
    SPos p;
    int w[SP_NWEIGHTS];
    if (!PyArg_ParseTuple(args, "OO|O", &stock, &pos, &weights) || parse(stock, pos, &g, &p))
        return NULL;
    if (weights != Py_None && parse_weights(weights, w))
        return NULL;
    return PyLong_FromLong(sp_distance_by(&g, &p, weights != Py_None ? w : sp_weights_v1));
}

static PyObject *spider_hash(PyObject *self, PyObject *args)
{
    PyObject *stock, *pos;
    SpiderGame g;
    SPos p;
    if (!PyArg_ParseTuple(args, "OO", &stock, &pos) || parse(stock, pos, &g, &p))
        return NULL;
    return PyLong_FromUnsignedLongLong(sp_hash(&g, &p));
}

/* The common part of a search's answer: {status, line, nodes, positions}; frees r->line. */
static PyObject *result_dict(SearchResult *r)
{
    static const char *status[] = CORE_STATUS_NAMES;
    PyObject *line = from_steps(r->line, r->line_n);
    free(r->line);
    r->line = NULL;
    if (!line)
        return NULL;
    return Py_BuildValue("{s:s,s:N,s:K,s:K}", "status", status[r->status], "line", line, "nodes",
                         (unsigned long long)r->nodes, "positions",
                         (unsigned long long)r->positions);
}

/* Sets d[key] = value (a new reference, stolen); on failure drops d and returns NULL. */
static PyObject *with_item(PyObject *d, const char *key, PyObject *value)
{
    if (!d || !value || PyDict_SetItemString(d, key, value) < 0) {
        Py_XDECREF(d);
        Py_XDECREF(value);
        return NULL;
    }
    Py_DECREF(value);
    return d;
}

static PyObject *spider_search(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"stock", "pos",   "won",     "nodes", "seconds",
                            "memory", "prune", "weights", "other", "swap", NULL};
    PyObject *stock, *pos, *weights = Py_None, *other = Py_None;
    int w[SP_NWEIGHTS], w2[SP_NWEIGHTS];
    int won, prune, swap = 0;
    unsigned long long nodes, memory;
    double seconds;
    SpiderGame g;
    SPos p;
    SearchLimits lim = {0};
    SearchResult r;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOiKdKp|OOp", names, &stock, &pos, &won, &nodes,
                                     &seconds, &memory, &prune, &weights, &other, &swap) ||
        parse(stock, pos, &g, &p))
        return NULL;
    if (weights != Py_None && parse_weights(weights, w))
        return NULL;
    if (other != Py_None && parse_weights(other, w2))
        return NULL;
    g.won = won;
    lim.nodes = nodes;
    lim.seconds = seconds;
    lim.memory = (size_t)memory;
    lim.prune = prune;
    lim.weights = weights != Py_None ? w : NULL;
    lim.other = other != Py_None ? w2 : NULL;
    lim.swap = swap;
    Py_BEGIN_ALLOW_THREADS
    sp_search(&g, &p, &lim, &r);
    Py_END_ALLOW_THREADS
    PyObject *d = with_item(result_dict(&r), "memory",
                            PyLong_FromUnsignedLongLong((unsigned long long)r.memory));
    return with_item(d, "dropped", PyBool_FromLong(r.dropped));
}

/* A policy playout's score from (stock, pos, won, seed, limit). */
static PyObject *playout(PyObject *args, int (*policy)(const SpiderGame *, const SPos *,
                                                       uint64_t, int))
{
    PyObject *stock, *pos;
    int won, limit, score;
    unsigned long long seed;
    SpiderGame g;
    SPos p;
    if (!PyArg_ParseTuple(args, "OOiKi", &stock, &pos, &won, &seed, &limit) ||
        parse(stock, pos, &g, &p))
        return NULL;
    g.won = won;
    Py_BEGIN_ALLOW_THREADS
    score = policy(&g, &p, (uint64_t)seed, limit);
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(score);
}

/* spider_rollout(stock, pos, won, seed, limit) -> the felt player's policy playout's score
 * (generator version 4, unchanged) */
static PyObject *spider_rollout(PyObject *self, PyObject *args)
{
    return playout(args, pl_felt);
}

/* The playout policy's evaluation weights: PL_NWEIGHTS ints in -1000..1000, PlWeights'
 * order. */
static int parse_policy_weights(PyObject *weights, PlWeights *w)
{
    int v[PL_NWEIGHTS];
    if (parse_ints(weights, PL_NWEIGHTS, -1000, 1000, v))
        return -1;
    *w = (PlWeights){v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
    return 0;
}

/* spider_playout(stock, pos, won, seed, limit, cap=0, bonus=0, weights=None) -> the
 * no-peek player's playout's score: the greedy policy (pl_rollout) with cap 0, else the
 * searching policy (pl_search, at most cap positions expanded a step, bonus an event's
 * extra score); weights: the evaluation's (None: csrc/abi.toml's PL_*) */
static PyObject *spider_playout(PyObject *self, PyObject *args)
{
    PyObject *stock, *pos, *weights = Py_None;
    int won, limit, score, cap = 0, bonus = 0;
    unsigned long long seed;
    SpiderGame g;
    SPos p;
    PlWeights w;
    if (!PyArg_ParseTuple(args, "OOiKi|iiO", &stock, &pos, &won, &seed, &limit, &cap, &bonus,
                          &weights) ||
        parse(stock, pos, &g, &p))
        return NULL;
    if (weights != Py_None && parse_policy_weights(weights, &w))
        return NULL;
    g.won = won;
    Py_BEGIN_ALLOW_THREADS
    pl_weigh(weights != Py_None ? &w : NULL);
    score = cap > 0 ? pl_search(&g, &p, (uint64_t)seed, limit, cap, bonus)
                    : pl_rollout(&g, &p, (uint64_t)seed, limit);
    pl_weigh(NULL);
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(score);
}

/* spider_candidates(stock, view, avoid, cap, width) -> the no-peek player's candidate
 * lines of a view, best first: [(steps, event), ...] (pl_candidates; Python reference:
 * player.candidates_py). The view's cards not seen are HIDDEN (face down, and the stock's);
 * avoid: views (cols, down) never entered (one the core cannot hold matches no view of
 * the walk, and is left out). */
static PyObject *spider_candidates(PyObject *self, PyObject *args)
{
    PyObject *stock, *pos, *avoid, *it, *item, *out = NULL;
    int cap, width, navoid = 0, size = 0, rc;
    SpiderGame g;
    SPos p, *views = NULL;
    PlLines lines;
    if (!PyArg_ParseTuple(args, "OOOii", &stock, &pos, &avoid, &cap, &width) ||
        parse_as(stock, pos, &g, &p, 1))
        return NULL;
    if (!(it = PyObject_GetIter(avoid)))
        return NULL;
    while ((item = PyIter_Next(it))) {
        int w;
        if (navoid == size) {
            size = size ? 2 * size : 64;
            SPos *more = realloc(views, (size_t)size * sizeof *views);
            if (!more) {
                Py_DECREF(item);
                Py_DECREF(it);
                free(views);
                return PyErr_NoMemory();
            }
            views = more;
        }
        int ok = PyTuple_Check(item) && PyTuple_GET_SIZE(item) >= 2 &&
                 !to_cols(PyTuple_GET_ITEM(item, 0), PyTuple_GET_ITEM(item, 1), &views[navoid],
                          &w, 2) &&
                 w == g.width;
        Py_DECREF(item);
        if (ok)
            navoid++;
        else if (PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_MemoryError))
            PyErr_Clear();
        if (PyErr_Occurred())
            break;
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        free(views);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = pl_candidates(&g, &p, views, navoid, cap, width, &lines);
    Py_END_ALLOW_THREADS
    free(views);
    if (rc)
        return PyErr_NoMemory();
    if (!(out = PyList_New(lines.n)))
        goto done;
    for (int k = 0; k < lines.n; k++) {
        int a = lines.start[k], len = lines.start[k + 1] - a;
        PyObject *steps = from_steps(lines.steps + a, (size_t)(len - 1));
        PyObject *event = from_steps(lines.steps + a + len - 1, 1);
        PyObject *line = steps ? PyList_AsTuple(steps) : NULL, *t = NULL;
        if (line && event)
            t = PyTuple_Pack(2, line, PyList_GET_ITEM(event, 0));
        Py_XDECREF(line);
        Py_XDECREF(steps);
        Py_XDECREF(event);
        if (!t) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, k, t);
    }
done:
    pl_lines_free(&lines);
    return out;
}

/* cards_shuffled(cards, seed, start, count) -> [pl_shuffle(cards, seed + j) for j in
 * start .. start + count - 1], seeds mod 2**64 (cards.shuffled; the sampler's draws). */
static PyObject *cards_shuffled(PyObject *self, PyObject *args)
{
    PyObject *cards, *seq, *out;
    unsigned long long seed;
    long long start;
    int count;
    if (!PyArg_ParseTuple(args, "OKLi", &cards, &seed, &start, &count))
        return NULL;
    if (!(seq = PySequence_Fast(cards, "the cards must be a sequence of ints")))
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int64_t *base = malloc((size_t)(n ? n : 1) * sizeof *base);
    int64_t *work = malloc((size_t)(n ? n : 1) * sizeof *work);
    if (!base || !work || n > INT32_MAX) {
        Py_DECREF(seq);
        free(base);
        free(work);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++)
        base[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    out = PyErr_Occurred() ? NULL : PyList_New(count < 0 ? 0 : count);
    for (int j = 0; out && j < count; j++) {
        memcpy(work, base, (size_t)n * sizeof *work);
        pl_shuffle(work, (int)n, (uint64_t)seed + (uint64_t)start + (uint64_t)j);
        PyObject *one = PyList_New(n);
        for (Py_ssize_t i = 0; one && i < n; i++) {
            PyObject *c = PyLong_FromLongLong(work[i]);
            if (!c)
                Py_CLEAR(one);
            else
                PyList_SET_ITEM(one, i, c);
        }
        if (!one)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, j, one);
    }
    free(base);
    free(work);
    return out;
}

/* A sequence of small ints (0..hi) into out (at most max). */
static int to_bytes(PyObject *obj, uint8_t *out, int max, int hi, int *n)
{
    PyObject *seq = PySequence_Fast(obj, "a sequence of ints");
    if (!seq)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > max) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "too many hidden places for the compiled core");
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v < 0 || v > hi) {
            Py_DECREF(seq);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a hidden place the view does not have");
            return -1;
        }
        out[i] = (uint8_t)v;
    }
    Py_DECREF(seq);
    *n = (int)len;
    return 0;
}

/* The packed place of a column's row in p: its index in p->cards. */
static int place(const SPos *p, int col, int row)
{
    int o = row;
    for (int j = 0; j < col; j++)
        o += p->len[j];
    return o;
}

/* spider_player_round(stock, view, slot_cols, slot_rows, cards, base, befores, events, ids,
 * won, limit, cap, bonus, start, count, deadline) -> (samples played, totals, wins): a
 * round of the no-peek player's bandit (pl_round; Python reference: decide's loop). The
 * view's hidden places (slot_cols[k]: a column, or the width for the stock; slot_rows[k])
 * take the unseen cards; befores: the candidates' views before their events. */
static PyObject *spider_player_round(PyObject *self, PyObject *args)
{
    PyObject *stock, *view, *cols, *rows, *cards, *befores, *events, *ids, *out = NULL;
    unsigned long long base;
    long long start;
    int won, limit, cap, bonus, count, ncols, nrows, n;
    double deadline;
    SpiderGame g;
    SPos root;
    uint8_t slot_col[MAXCARDS + MAXSTOCK], slot_row[MAXCARDS + MAXSTOCK];
    int64_t unseen[MAXCARDS + MAXSTOCK];
    if (!PyArg_ParseTuple(args, "OOOOOKOOOiiiiLid", &stock, &view, &cols, &rows, &cards, &base,
                          &befores, &events, &ids, &won, &limit, &cap, &bonus, &start, &count,
                          &deadline) ||
        parse_as(stock, view, &g, &root, 1) ||
        to_bytes(cols, slot_col, MAXCARDS + MAXSTOCK, g.width, &ncols) ||
        to_bytes(rows, slot_row, MAXCARDS + MAXSTOCK, 255, &nrows))
        return NULL;
    int nstock = (int)PyObject_Length(stock);
    PyObject *seq = PySequence_Fast(cards, "the unseen cards must be a sequence of cards");
    if (!seq)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != ncols || nrows != ncols) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "the unseen cards do not fill the hidden places");
        return NULL;
    }
    for (int k = 0; k < ncols; k++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        int col = slot_col[k], row = slot_row[k];
        int hidden = col == g.width ? row < nstock && g.stock[row] == HIDDEN_BYTE
                                    : row < root.down[col] &&
                                          root.cards[place(&root, col, row)] == HIDDEN_BYTE;
        if (c < 0 || c > 51 || !hidden) {
            Py_DECREF(seq);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a card or a hidden place the view cannot take");
            return NULL;
        }
        unseen[k] = c;
    }
    Py_DECREF(seq);
    PyObject *bs = PySequence_Fast(befores, "the candidates' views are a sequence");
    PyObject *es = bs ? PySequence_Fast(events, "the candidates' events are a sequence") : NULL;
    PyObject *is = es ? PySequence_Fast(ids, "the candidates' indexes are a sequence") : NULL;
    SPos *before = NULL;
    Step *event = NULL;
    int *id = NULL, *wins = NULL;
    long long *totals = NULL;
    if (!is)
        goto done;
    n = (int)PySequence_Fast_GET_SIZE(bs);
    if (PySequence_Fast_GET_SIZE(es) != n || PySequence_Fast_GET_SIZE(is) != n) {
        PyErr_SetString(PyExc_ValueError, "one event and one index a candidate");
        goto done;
    }
    before = malloc((size_t)(n ? n : 1) * sizeof *before);
    event = malloc((size_t)(n ? n : 1) * sizeof *event);
    id = malloc((size_t)(n ? n : 1) * sizeof *id);
    wins = malloc((size_t)(n ? n : 1) * sizeof *wins);
    totals = malloc((size_t)(n ? n : 1) * sizeof *totals);
    if (!before || !event || !id || !wins || !totals) {
        PyErr_NoMemory();
        goto done;
    }
    for (int c = 0; c < n; c++) {
        SPos *b = &before[c];
        int w, table = 0;
        if (to_pos_as(PySequence_Fast_GET_ITEM(bs, c), b, &w, 1) ||
            to_step(PySequence_Fast_GET_ITEM(es, c), g.width, &event[c]))
            goto done;
        id[c] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(is, c));
        if (PyErr_Occurred())
            goto done;
        for (int j = 0; j < w; j++)
            table += b->len[j];
        int ok = w == g.width && b->left <= nstock && table + b->left <= MAXCARDS;
        for (int k = 0; ok && k < ncols; k++) /* the view's hidden places, still hidden */
            ok = slot_col[k] == g.width ||
                 (slot_row[k] < b->down[slot_col[k]] &&
                  b->cards[place(b, slot_col[k], slot_row[k])] == HIDDEN_BYTE);
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "a candidate's view is not of this view");
            goto done;
        }
    }
    PlRound r = {slot_col, slot_row, unseen, ncols, (uint64_t)base, before, event, id,
                 n,        limit,    cap,    bonus};
    int played;
    g.won = won;
    Py_BEGIN_ALLOW_THREADS
    played = pl_round(&g, &r, start, count, deadline, totals, wins);
    Py_END_ALLOW_THREADS
    PyObject *t = PyList_New(n), *v = PyList_New(n);
    for (int c = 0; t && v && c < n; c++) {
        PyObject *a = PyLong_FromLongLong(totals[c]), *b = PyLong_FromLong(wins[c]);
        if (!a || !b) {
            Py_XDECREF(a);
            Py_XDECREF(b);
            Py_CLEAR(t);
            break;
        }
        PyList_SET_ITEM(t, c, a);
        PyList_SET_ITEM(v, c, b);
    }
    if (t && v)
        out = Py_BuildValue("(iNN)", played, t, v);
    else {
        Py_XDECREF(t);
        Py_XDECREF(v);
    }
done:
    Py_XDECREF(bs);
    Py_XDECREF(es);
    Py_XDECREF(is);
    free(before);
    free(event);
    free(id);
    free(wins);
    free(totals);
    return out;
}

/* The table of spider_prove: proven-lost keys and the game they belong to. */
typedef struct {
    SpLost lost;
    int width, nstock;
    uint8_t stock[MAXSTOCK];
} LostTable;

#define LOST_NAME "pasyans.spider_lost"

static void lost_table_free(PyObject *cap)
{
    LostTable *t = PyCapsule_GetPointer(cap, LOST_NAME);
    if (t) {
        sp_lost_free(&t->lost);
        free(t);
    }
}

/* spider_table() -> an empty table of positions proven lost, for spider_prove */
static PyObject *spider_table(PyObject *self, PyObject *args)
{
    LostTable *t = calloc(1, sizeof *t);
    if (!t)
        return PyErr_NoMemory();
    t->width = -1;
    PyObject *cap = PyCapsule_New(t, LOST_NAME, lost_table_free);
    if (!cap)
        free(t);
    return cap;
}

/* spider_prove(stock, pos, won, nodes, seconds, memory, table) -> the exhaustive loss
 * prover's {status, line, nodes, positions, lost}: spiderproof.c. ``table`` (from
 * spider_table) keeps the positions proven lost; it belongs to the first game it is used
 * with: a stock that is not the first cards of that game's (or theirs of it), or another
 * width, is a ValueError. */
static PyObject *spider_prove(PyObject *self, PyObject *args)
{
    PyObject *stock, *pos, *cap;
    int won;
    unsigned long long nodes, memory;
    double seconds;
    SpiderGame g;
    SPos p;
    SearchLimits lim;
    SearchResult r;
    if (!PyArg_ParseTuple(args, "OOiKdKO", &stock, &pos, &won, &nodes, &seconds, &memory, &cap) ||
        parse(stock, pos, &g, &p))
        return NULL;
    LostTable *t = PyCapsule_GetPointer(cap, LOST_NAME);
    if (!t)
        return NULL;
    int nstock = (int)PyObject_Length(stock);
    /* A later position of one game has a shorter stock: the first cards of the same. */
    if (t->width >= 0 && (t->width != g.width ||
                          memcmp(t->stock, g.stock, (size_t)(nstock < t->nstock ? nstock
                                                                                : t->nstock)))) {
        PyErr_SetString(PyExc_ValueError, "this table belongs to another game");
        return NULL;
    }
    t->width = g.width;
    if (nstock > t->nstock) {
        t->nstock = nstock;
        memcpy(t->stock, g.stock, (size_t)nstock);
    }
    g.won = won;
    lim.nodes = nodes;
    lim.seconds = seconds;
    lim.memory = (size_t)memory;
    lim.prune = 0;
    Py_BEGIN_ALLOW_THREADS
    sp_prove(&g, &p, &t->lost, &lim, &r);
    Py_END_ALLOW_THREADS
    return with_item(result_dict(&r), "lost",
                     PyLong_FromUnsignedLongLong((unsigned long long)t->lost.n));
}

/* spider_shortest(stock, pos, steps, deadline) -> the shortest line through the positions
 * of ``steps``' line from ``pos`` to its end (spiderline.c): its steps. ``deadline``:
 * CLOCK_MONOTONIC seconds (time.perf_counter's clock), 0 for none. A step that is not a
 * legal move where it is played is a ValueError. */
static PyObject *spider_shortest(PyObject *self, PyObject *args)
{
    PyObject *stock, *pos, *steps, *seq;
    double deadline;
    SpiderGame g;
    SPos p;
    if (!PyArg_ParseTuple(args, "OOOd", &stock, &pos, &steps, &deadline) ||
        parse(stock, pos, &g, &p))
        return NULL;
    if (!(seq = PySequence_Fast(steps, "steps must be a sequence")))
        return NULL;
    size_t n = (size_t)PySequence_Fast_GET_SIZE(seq);
    Step *line = malloc((n + 1) * sizeof *line), *out = malloc((n + 1) * sizeof *out);
    if (!line || !out) {
        Py_DECREF(seq);
        free(line);
        free(out);
        return PyErr_NoMemory();
    }
    for (size_t i = 0; i < n; i++)
        if (to_step(PySequence_Fast_GET_ITEM(seq, (Py_ssize_t)i), g.width, &line[i])) {
            Py_DECREF(seq);
            free(line);
            free(out);
            return NULL;
        }
    Py_DECREF(seq);
    long k;
    Py_BEGIN_ALLOW_THREADS
    k = sp_shortest(&g, &p, line, n, deadline, out);
    Py_END_ALLOW_THREADS
    PyObject *result = NULL;
    if (k >= 0)
        result = from_steps(out, (size_t)k);
    else if (k == SP_SHORT_NOMEMORY)
        PyErr_NoMemory();
    else
        PyErr_Format(PyExc_ValueError, "step %ld is not a legal move there", SP_SHORT_ILLEGAL - k);
    free(line);
    free(out);
    return result;
}

/* spider_attempt(k) -> (positions per stage, positions kept per deal) of attempt k */
static PyObject *spider_attempt(PyObject *self, PyObject *args)
{
    unsigned int k;
    if (!PyArg_ParseTuple(args, "I", &k))
        return NULL;
    return Py_BuildValue("(KK)", (unsigned long long)sp_per_stage(k),
                         (unsigned long long)sp_kept_per_deal(k));
}

static PyMethodDef methods[] = {CORE_METHODS};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "The solver's compiled search core.", -1, methods,
};

PyMODINIT_FUNC PyInit__core(void)
{
    return PyModule_Create(&module);
}
