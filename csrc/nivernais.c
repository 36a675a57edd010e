/* Nivernais' search domain, compiled: the packed positions of domains/nivernais.py (moves,
 * forced moves, keys, scores) and its best-first search with capped final passes.
 *
 * domains/nivernais.py stays the reference: tests compare the children here with the
 * engine's along random play-outs, and the whole search with the Python one (same outcome,
 * same count of positions, same line). A position crosses the boundary as the Python
 * tuple (columns, cells, up, down, stock, redeals); inside it is an NPos, and the search
 * stores each position reached as bytes (NV_HEAD header bytes, then the cards).
 *
 * Over 400 lines because the position layout, its moves and the search share NPos and
 * its byte form; they are one unit as the Python module is. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_core_abi.h" /* HIDDEN_BYTE, NV_CELL_STEP, NV_STOCK_STEP */
#include "clock.h"
#include "grow.h"
#include "nivernais.h"
#include "walk.h"

#define NV_COLS 6
#define NV_CELLS 8
#define NV_PER 4
#define NV_LAST 2
#define NV_MAX 104
#define NV_DIG_CAP 12
/* Header bytes of a stored position: redeals, stock size, cells, 6 column lengths, up[4],
 * down[4]. Then the cells, the columns bottom to top, the stock. */
#define NV_HEAD 17
/* The search's dead-position tests (nivernais_search's flags). */
#define NV_TEST_DEAD 1
#define NV_TEST_LOCK 2

typedef struct {
    uint8_t len[NV_COLS];
    uint8_t col[NV_COLS][NV_MAX];
    uint8_t ncell;
    uint8_t cell[NV_CELLS];
    uint8_t up[4], down[4];
    uint8_t nstock;
    uint8_t stock[NV_MAX]; /* stock[nstock - 1] is dealt first */
    uint8_t red;
} NPos;

/* --- Moves ------------------------------------------------------------------------------ */

static int any_empty(const NPos *p)
{
    for (int i = 0; i < NV_COLS; i++)
        if (!p->len[i])
            return 1;
    return 0;
}

/* Deals min(4, stock) cards onto column i (the last stock card at the bottom). */
static void deal_onto(NPos *p, int i)
{
    int n = p->nstock < NV_PER ? p->nstock : NV_PER;
    for (int k = 0; k < n; k++)
        p->col[i][p->len[i]++] = p->stock[p->nstock - 1 - k];
    p->nstock -= n;
}

/* The engine's refill: every empty column, in order, while the stock has cards. */
static void refill(NPos *p)
{
    if (!p->nstock || !any_empty(p))
        return;
    for (int i = 0; i < NV_COLS && p->nstock; i++)
        if (!p->len[i])
            deal_onto(p, i);
}

/* A click on the stock (a deal, or a redeal and its deal): 0, or -1 when not allowed. */
static int stock_click(const NPos *p, NPos *out)
{
    *out = *p;
    if (!p->nstock) {
        if (p->red >= NV_LAST)
            return -1;
        int g = 0;
        uint8_t gathered[NV_MAX];
        for (int i = 0; i < NV_COLS; i++) {
            memcpy(gathered + g, p->col[i], p->len[i]);
            g += p->len[i];
            out->len[i] = 0;
        }
        if (!g)
            return -1;
        for (int i = 0; i < g; i++)
            out->stock[i] = gathered[g - 1 - i];
        out->nstock = (uint8_t)g;
        out->red++;
    }
    for (int k = 0; k < NV_COLS && out->nstock; k++)
        deal_onto(out, k);
    return 0;
}

static void cell_remove(NPos *p, int j)
{
    memmove(p->cell + j, p->cell + j + 1, (size_t)(p->ncell - j - 1));
    p->ncell--;
}

static void cell_insert(NPos *p, uint8_t c)
{
    int j = p->ncell;
    while (j > 0 && p->cell[j - 1] > c) {
        p->cell[j] = p->cell[j - 1];
        j--;
    }
    p->cell[j] = c;
    p->ncell++;
}

/* Every position one move away, in the order of nivernais.steps; returns the count (at
 * most 8 * 2 + 6 * 3 + 1). ``codes`` (or NULL) gets each move's step code
 * (nivernais.step_code: a column's top card i * 3 + to, a cell's card c NV_CELL_STEP + c * 2
 * + to, the stock NV_STOCK_STEP; to: 0 up, 1 down, 2 a cell). */
#define NV_MAXKIDS 40
static int children(const NPos *p, NPos *out, uint8_t *codes)
{
    uint8_t tmp[NV_MAXKIDS];
    uint8_t *code = codes ? codes : tmp;
    int n = 0;
    for (int j = 0; j < p->ncell; j++) {
        uint8_t c = p->cell[j];
        if (j && p->cell[j - 1] == c)
            continue;
        int r = (c >> 2) + 1, s = c & 3;
        if (p->up[s] == r - 1) {
            out[n] = *p;
            cell_remove(&out[n], j);
            out[n].up[s] = (uint8_t)r;
            code[n++] = (uint8_t)(NV_CELL_STEP + c * 2);
        }
        if (p->down[s] == r + 1) {
            out[n] = *p;
            cell_remove(&out[n], j);
            out[n].down[s] = (uint8_t)r;
            code[n++] = (uint8_t)(NV_CELL_STEP + c * 2 + 1);
        }
    }
    int room = p->ncell < NV_CELLS;
    for (int i = 0; i < NV_COLS; i++) {
        if (!p->len[i])
            continue;
        uint8_t c = p->col[i][p->len[i] - 1];
        int r = (c >> 2) + 1, s = c & 3;
        int to_up = p->up[s] == r - 1, to_down = p->down[s] == r + 1;
        if (to_up) {
            out[n] = *p;
            out[n].len[i]--;
            out[n].up[s] = (uint8_t)r;
            code[n++] = (uint8_t)(i * 3);
        }
        if (to_down) {
            out[n] = *p;
            out[n].len[i]--;
            out[n].down[s] = (uint8_t)r;
            code[n++] = (uint8_t)(i * 3 + 1);
        }
        if (room) {
            out[n] = *p;
            out[n].len[i]--;
            cell_insert(&out[n], c);
            code[n++] = (uint8_t)(i * 3 + 2);
        }
    }
    if (stock_click(p, &out[n]) == 0)
        code[n++] = NV_STOCK_STEP;
    for (int k = 0; k < n; k++)
        refill(&out[k]);
    return n;
}

static int placed(const NPos *p, uint8_t c)
{
    int r = (c >> 2) + 1, s = c & 3;
    return r <= p->up[s] || r >= p->down[s];
}

/* nivernais.forced: 1 and *out set, or 0. */
static int forced(const NPos *p, NPos *out)
{
    for (int j = 0; j < p->ncell; j++) {
        uint8_t c = p->cell[j];
        int r = (c >> 2) + 1, s = c & 3;
        int fu = p->up[s] == r - 1, fd = p->down[s] == r + 1;
        if (!(fu || fd))
            continue;
        int twin = (j && p->cell[j - 1] == c) || (j + 1 < p->ncell && p->cell[j + 1] == c);
        if (twin || placed(p, c)) {
            *out = *p;
            cell_remove(out, j);
            if (fu)
                out->up[s] = (uint8_t)r;
            else
                out->down[s] = (uint8_t)r;
            refill(out);
            return 1;
        }
    }
    if (p->red < NV_LAST)
        return 0;
    for (int i = 0; i < NV_COLS; i++) {
        if (!p->len[i] || (p->len[i] == 1 && p->nstock))
            continue;
        uint8_t c = p->col[i][p->len[i] - 1];
        int r = (c >> 2) + 1, s = c & 3;
        int fu = p->up[s] == r - 1, fd = p->down[s] == r + 1;
        if ((fu || fd) && placed(p, c)) {
            *out = *p;
            out->len[i]--;
            if (fu)
                out->up[s] = (uint8_t)r;
            else
                out->down[s] = (uint8_t)r;
            refill(out);
            return 1;
        }
    }
    return 0;
}

/* --- The dead test (nivernais.dead, updown.dead: final pass, one column at a time) ----- */

#define NV_FAR (1 << 20)

/* nivernais._release: the depth of the column to dig to before ``card`` can go up, or -1.
 * row: the shallowest depth of each rank of the card's suit all of whose copies in play
 * lie in the column (NV_FAR when not), or NULL. */
static int release_depth(const NPos *p, uint8_t card, const int *row)
{
    if (!row)
        return -1;
    int r = (card >> 2) + 1, s = card & 3, u = p->up[s], d = p->down[s], worst = -1;
    if (r > u) {
        if (r - u < 2)
            return -1;
        int need = NV_FAR;
        for (int k = u + 1; k < r; k++)
            need = row[k] < need ? row[k] : need;
        if (need == NV_FAR)
            return -1;
        worst = need;
    }
    if (r < d) {
        if (d - r < 2)
            return -1;
        int need = NV_FAR;
        for (int k = r + 1; k < d; k++)
            need = row[k] < need ? row[k] : need;
        if (need == NV_FAR)
            return -1;
        worst = need > worst ? need : worst;
    }
    return worst;
}

static int dead(const NPos *p)
{
    if (p->red < NV_LAST)
        return 0;
    int col_of[52];
    for (int c = 0; c < 52; c++)
        col_of[c] = -2;
    for (int i = 0; i < NV_COLS; i++)
        for (int k = 0; k < p->len[i]; k++) {
            int c = p->col[i][k];
            col_of[c] = col_of[c] == -2 || col_of[c] == i ? i : -1;
        }
    for (int j = 0; j < p->ncell; j++)
        col_of[p->cell[j]] = -1;
    for (int k = 0; k < p->nstock; k++)
        col_of[p->stock[k]] = -1;
    for (int i = 0; i < NV_COLS; i++) {
        int n = p->len[i];
        if (n < 2)
            continue;
        int first[4][15], have[4] = {0, 0, 0, 0}, any = 0;
        for (int k = 0; k < n; k++) {
            int c = p->col[i][k];
            if (col_of[c] != i)
                continue;
            int s = c & 3;
            if (!have[s]) {
                have[s] = 1;
                for (int r = 0; r < 15; r++)
                    first[s][r] = NV_FAR;
            }
            first[s][(c >> 2) + 1] = k;
            any = 1;
        }
        if (!any)
            continue;
        int deepest = NV_FAR;
        for (int s = 0; s < 4; s++)
            for (int r = 0; have[s] && r < 15; r++)
                deepest = first[s][r] < deepest ? first[s][r] : deepest;
        /* updown.cells_overflow: waiting[q], a difference array of the cards in a cell
         * when index q leaves. */
        int waiting[NV_MAX + 1];
        memset(waiting, 0, sizeof(int) * (size_t)(n + 1));
        for (int j = 0; j < p->ncell; j++) {
            uint8_t c = p->cell[j];
            int rel = release_depth(p, c, have[c & 3] ? first[c & 3] : NULL);
            if (rel >= 0)
                waiting[rel + 1]++;
        }
        for (int j = deepest + 1; j < n; j++) {
            uint8_t c = p->col[i][j];
            int rel = release_depth(p, c, have[c & 3] ? first[c & 3] : NULL);
            if (rel >= 0 && rel < j) {
                waiting[rel + 1]++;
                waiting[j + 1]--;
            }
        }
        int running = 0;
        for (int q = 0; q < n; q++) {
            running += waiting[q];
            if (running > NV_CELLS)
                return 1;
        }
    }
    return 0;
}

/* nivernais.locked: the final pass with the eight cells full where no cell card can ever
 * go home (the columns and the stock's chunks of four as piles of their own; each suit's
 * foundations raised as far as free cards take them, a free copy serving both). */
static int locked(const NPos *p)
{
    if (p->red < NV_LAST || p->ncell < NV_CELLS)
        return 0;
    const uint8_t *pile[NV_COLS + NV_MAX / NV_PER + 1];
    int top[NV_COLS + NV_MAX / NV_PER + 1], np = 0, free_[52], reach_up[4], reach_down[4];
    uint8_t chunks[NV_MAX];
    memset(free_, 0, sizeof free_);
    for (int i = 0; i < NV_COLS; i++)
        if (p->len[i]) {
            pile[np] = p->col[i];
            top[np++] = p->len[i] - 1;
        }
    /* The stock's chunks, bottom to top as a deal lays them: chunks[j] = stock[n - 1 - j]. */
    int n = p->nstock;
    for (int j = 0; j < n; j++)
        chunks[j] = p->stock[n - 1 - j];
    for (int j = 0; j < n; j += NV_PER) {
        pile[np] = chunks + j;
        top[np++] = (n - j < NV_PER ? n - j : NV_PER) - 1;
    }
    for (int k = 0; k < np; k++)
        free_[pile[k][top[k]]]++;
    memcpy(reach_up, (int[4]){p->up[0], p->up[1], p->up[2], p->up[3]}, sizeof reach_up);
    memcpy(reach_down, (int[4]){p->down[0], p->down[1], p->down[2], p->down[3]},
           sizeof reach_down);
    for (int moved = 1; moved;) {
        moved = 0;
        for (int s = 0; s < 4; s++) {
            while (reach_up[s] < 13 && free_[reach_up[s] << 2 | s])
                reach_up[s]++;
            while (reach_down[s] > 1 && free_[(reach_down[s] - 2) << 2 | s])
                reach_down[s]--;
        }
        for (int k = 0; k < np; k++)
            while (top[k] >= 0) {
                int c = pile[k][top[k]], r = (c >> 2) + 1, s = c & 3;
                if (!((p->up[s] < r && r <= reach_up[s]) ||
                      (reach_down[s] <= r && r < p->down[s])))
                    break;
                moved = 1;
                if (--top[k] >= 0)
                    free_[pile[k][top[k]]]++;
            }
    }
    for (int j = 0; j < p->ncell; j++) {
        int c = p->cell[j], r = (c >> 2) + 1, s = c & 3;
        if (!(reach_up[s] + 1 < r && r < reach_down[s] - 1))
            return 0;
    }
    return 1;
}

static int on_foundations(const NPos *p)
{
    int n = 56;
    for (int s = 0; s < 4; s++)
        n += p->up[s] - p->down[s];
    return n;
}

static int dig(const NPos *p)
{
    int depth[52], wanted[8], nw = 0;
    for (int c = 0; c < 52; c++)
        depth[c] = -1;
    for (int s = 0; s < 4; s++) {
        if (p->up[s] < 13) {
            int c = p->up[s] << 2 | s;
            if (depth[c] < 0) {
                depth[c] = NV_DIG_CAP;
                wanted[nw++] = c;
            }
        }
        if (p->down[s] > 1) {
            int c = (p->down[s] - 2) << 2 | s;
            if (depth[c] < 0) {
                depth[c] = NV_DIG_CAP;
                wanted[nw++] = c;
            }
        }
    }
    if (!nw)
        return 0;
    for (int j = 0; j < p->ncell; j++)
        if (depth[p->cell[j]] >= 0)
            depth[p->cell[j]] = 0;
    for (int i = 0; i < NV_COLS; i++) {
        int top = p->len[i] - 1;
        int lo = top - NV_DIG_CAP > -1 ? top - NV_DIG_CAP : -1;
        for (int k = top; k > lo; k--) {
            int c = p->col[i][k];
            if (depth[c] >= 0 && top - k < depth[c])
                depth[c] = top - k;
        }
    }
    int sum = 0;
    for (int k = 0; k < nw; k++)
        sum += depth[wanted[k]];
    return sum;
}

static int score(const NPos *p, const int *w)
{
    int v = w[0] * on_foundations(p) + w[1] * (NV_CELLS - p->ncell) - w[2] * p->red;
    if (w[3])
        v -= w[3] * dig(p);
    return v;
}

/* --- Bytes: the stored form and the key ------------------------------------------------ */

static int settled(const NPos *p)
{
    return p->red >= NV_LAST && !p->nstock;
}

/* Writes p's bytes (columns in order ``order``) to out; returns their length. */
static size_t write_bytes(const NPos *p, const int *order, uint8_t *out)
{
    uint8_t *o = out;
    *o++ = p->red;
    *o++ = p->nstock;
    *o++ = p->ncell;
    for (int i = 0; i < NV_COLS; i++)
        *o++ = p->len[order[i]];
    memcpy(o, p->up, 4);
    o += 4;
    memcpy(o, p->down, 4);
    o += 4;
    memcpy(o, p->cell, p->ncell);
    o += p->ncell;
    for (int i = 0; i < NV_COLS; i++) {
        memcpy(o, p->col[order[i]], p->len[order[i]]);
        o += p->len[order[i]];
    }
    memcpy(o, p->stock, p->nstock);
    o += p->nstock;
    return (size_t)(o - out);
}

static const int IDENTITY[NV_COLS] = {0, 1, 2, 3, 4, 5};

static size_t to_bytes(const NPos *p, uint8_t *out)
{
    return write_bytes(p, IDENTITY, out);
}

static int col_less(const NPos *p, int a, int b)
{
    int la = p->len[a], lb = p->len[b];
    int m = la < lb ? la : lb;
    int c = memcmp(p->col[a], p->col[b], (size_t)m);
    return c < 0 || (c == 0 && la < lb);
}

/* The key (nivernais.key): the bytes, with the columns sorted once settled. */
static size_t key_bytes(const NPos *p, uint8_t *out)
{
    if (!settled(p))
        return to_bytes(p, out);
    int order[NV_COLS] = {0, 1, 2, 3, 4, 5};
    for (int i = 1; i < NV_COLS; i++)
        for (int j = i; j > 0 && col_less(p, order[j], order[j - 1]); j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    return write_bytes(p, order, out);
}

static void from_bytes(const uint8_t *b, NPos *p)
{
    p->red = b[0];
    p->nstock = b[1];
    p->ncell = b[2];
    memcpy(p->len, b + 3, NV_COLS);
    memcpy(p->up, b + 9, 4);
    memcpy(p->down, b + 13, 4);
    const uint8_t *o = b + NV_HEAD;
    memcpy(p->cell, o, p->ncell);
    o += p->ncell;
    for (int i = 0; i < NV_COLS; i++) {
        memcpy(p->col[i], o, p->len[i]);
        o += p->len[i];
    }
    memcpy(p->stock, o, p->nstock);
}

/* Two 64-bit hashes of the bytes (two lanes of one pass). */
static void hash_bytes(const uint8_t *b, size_t n, uint64_t *h1, uint64_t *h2)
{
    uint64_t x = 0x9E3779B97F4A7C15ull ^ n, y = 0xD6E8FEB86659FD93ull ^ n, w;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, b + i, 8);
        x = (x ^ w) * 0xFF51AFD7ED558CCDull;
        x ^= x >> 29;
        y = (y ^ w) * 0xC4CEB9FE1A85EC53ull;
        y ^= y >> 31;
    }
    w = 0;
    memcpy(&w, b + i, n - i);
    x = (x ^ w) * 0xFF51AFD7ED558CCDull;
    y = (y ^ w) * 0xC4CEB9FE1A85EC53ull;
    x ^= x >> 32;
    x *= 0xC4CEB9FE1A85EC53ull;
    x ^= x >> 29;
    y ^= y >> 29;
    y *= 0xFF51AFD7ED558CCDull;
    y ^= y >> 32;
    *h1 = x;
    *h2 = y;
}

/* --- Python conversions ---------------------------------------------------------------- */

/* A tuple of cards 0..51 (``hidden``: or HIDDEN_BYTE, a card the player has not seen). */
static int read_cards(PyObject *t, uint8_t *out, int most, const char *what, int hidden)
{
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) > most) {
        PyErr_Format(PyExc_ValueError, "%s: a tuple of at most %d cards", what, most);
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(t, i));
        if ((c < 0 || c > 51) && !(hidden && c == HIDDEN_BYTE)) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a card is an int 0..51");
            return -1;
        }
        out[i] = (uint8_t)c;
    }
    return (int)n;
}

/* A Python position into p (``hidden``: its stock's cards may be HIDDEN_BYTE). */
static int to_npos_as(PyObject *pos, NPos *p, int hidden)
{
    if (!PyTuple_Check(pos) || PyTuple_GET_SIZE(pos) != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "a Nivernais position is (columns, cells, up, down, stock, redeals)");
        return -1;
    }
    PyObject *cols = PyTuple_GET_ITEM(pos, 0);
    if (!PyTuple_Check(cols) || PyTuple_GET_SIZE(cols) != NV_COLS) {
        PyErr_SetString(PyExc_ValueError, "six columns");
        return -1;
    }
    int total = 0, n;
    for (int i = 0; i < NV_COLS; i++) {
        if ((n = read_cards(PyTuple_GET_ITEM(cols, i), p->col[i], NV_MAX, "a column", 0)) < 0)
            return -1;
        p->len[i] = (uint8_t)n;
        total += n;
    }
    if ((n = read_cards(PyTuple_GET_ITEM(pos, 1), p->cell, NV_CELLS, "the cells", 0)) < 0)
        return -1;
    p->ncell = (uint8_t)n;
    for (int j = 1; j < p->ncell; j++)
        if (p->cell[j - 1] > p->cell[j]) {
            PyErr_SetString(PyExc_ValueError, "the cells are sorted");
            return -1;
        }
    total += n;
    if ((n = read_cards(PyTuple_GET_ITEM(pos, 4), p->stock, NV_MAX, "the stock", hidden)) < 0)
        return -1;
    p->nstock = (uint8_t)n;
    total += n;
    for (int f = 0; f < 2; f++) {
        PyObject *t = PyTuple_GET_ITEM(pos, 2 + f);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 4) {
            PyErr_SetString(PyExc_ValueError, "four up and four down foundations");
            return -1;
        }
        for (int s = 0; s < 4; s++) {
            long v = PyLong_AsLong(PyTuple_GET_ITEM(t, s));
            if (f == 0 ? (v < 0 || v > 13) : (v < 1 || v > 14)) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a foundation rank out of range");
                return -1;
            }
            (f == 0 ? p->up : p->down)[s] = (uint8_t)v;
        }
    }
    long red = PyLong_AsLong(PyTuple_GET_ITEM(pos, 5));
    if (red < 0 || red > NV_LAST) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "redeals are 0..2");
        return -1;
    }
    p->red = (uint8_t)red;
    if (total > NV_MAX) {
        PyErr_SetString(PyExc_ValueError, "more than 104 cards");
        return -1;
    }
    return 0;
}

static int to_npos(PyObject *pos, NPos *p)
{
    return to_npos_as(pos, p, 0);
}

static PyObject *cards_tuple(const uint8_t *c, int n)
{
    PyObject *t = PyTuple_New(n);
    if (!t)
        return NULL;
    for (int i = 0; i < n; i++)
        PyTuple_SET_ITEM(t, i, PyLong_FromLong(c[i]));
    return t;
}

static PyObject *from_npos(const NPos *p)
{
    PyObject *cols = PyTuple_New(NV_COLS);
    if (!cols)
        return NULL;
    for (int i = 0; i < NV_COLS; i++)
        PyTuple_SET_ITEM(cols, i, cards_tuple(p->col[i], p->len[i]));
    PyObject *up = Py_BuildValue("(iiii)", p->up[0], p->up[1], p->up[2], p->up[3]);
    PyObject *down = Py_BuildValue("(iiii)", p->down[0], p->down[1], p->down[2], p->down[3]);
    return Py_BuildValue("(NNNNNi)", cols, cards_tuple(p->cell, p->ncell), up, down,
                         cards_tuple(p->stock, p->nstock), p->red);
}

PyObject *nivernais_children(PyObject *self, PyObject *args)
{
    PyObject *pos;
    NPos p, kids[NV_MAXKIDS];
    if (!PyArg_ParseTuple(args, "O", &pos) || to_npos(pos, &p))
        return NULL;
    int n = children(&p, kids, NULL);
    PyObject *out = PyList_New(n);
    for (int k = 0; out && k < n; k++) {
        PyObject *t = from_npos(&kids[k]);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, t);
    }
    return out;
}

PyObject *nivernais_forced(PyObject *self, PyObject *args)
{
    PyObject *pos;
    NPos p, f;
    if (!PyArg_ParseTuple(args, "O", &pos) || to_npos(pos, &p))
        return NULL;
    if (!forced(&p, &f))
        Py_RETURN_NONE;
    return from_npos(&f);
}

static int parse_weights(PyObject *t, int *w)
{
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 4) {
        PyErr_SetString(PyExc_ValueError, "four weights");
        return -1;
    }
    for (int k = 0; k < 4; k++) {
        w[k] = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, k));
        if (PyErr_Occurred())
            return -1;
    }
    return 0;
}

/* A test of one position (dead, locked) as a Python bool. */
static PyObject *position_test(PyObject *args, int (*test)(const NPos *))
{
    PyObject *pos;
    NPos p;
    if (!PyArg_ParseTuple(args, "O", &pos) || to_npos(pos, &p))
        return NULL;
    return PyBool_FromLong(test(&p));
}

PyObject *nivernais_dead(PyObject *self, PyObject *args)
{
    return position_test(args, dead);
}

PyObject *nivernais_locked(PyObject *self, PyObject *args)
{
    return position_test(args, locked);
}

PyObject *nivernais_score(PyObject *self, PyObject *args)
{
    PyObject *pos, *wt;
    NPos p;
    int w[4];
    if (!PyArg_ParseTuple(args, "OO", &pos, &wt) || to_npos(pos, &p) || parse_weights(wt, w))
        return NULL;
    return PyLong_FromLong(score(&p, w));
}

PyObject *nivernais_key(PyObject *self, PyObject *args)
{
    PyObject *pos;
    NPos p;
    uint8_t b[NV_HEAD + NV_MAX];
    if (!PyArg_ParseTuple(args, "O", &pos) || to_npos(pos, &p))
        return NULL;
    return PyBytes_FromStringAndSize((const char *)b, (Py_ssize_t)key_bytes(&p, b));
}

/* --- The search (nivernais.best_first) ------------------------------------------------- */

typedef struct {
    int32_t neg; /* -score */
    uint32_t tick;
    uint32_t node;
    int32_t entry;
} Item;

/* a pops before b: the higher score, then the later push (Python's (-score, -tick)). */
static inline int before(const Item *a, const Item *b)
{
    return a->neg < b->neg || (a->neg == b->neg && a->tick > b->tick);
}

static void sift_up(Item *h, size_t i)
{
    Item x = h[i];
    while (i) {
        size_t up = (i - 1) / 2;
        if (!before(&x, &h[up]))
            break;
        h[i] = h[up];
        i = up;
    }
    h[i] = x;
}

static void sift_down(Item *h, size_t n, size_t i)
{
    Item x = h[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(&h[c + 1], &h[c]))
            c++;
        if (!before(&h[c], &x))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

/* A table slot: the key's first hash, and 32 bits of its second beside node + 1 (b = 0:
 * empty). */
typedef struct {
    uint64_t a, b;
} Slot;

typedef struct {
    uint8_t *arena;
    size_t arena_n, arena_cap;
    uint64_t *off; /* node -> its bytes in the arena */
    int32_t *parent;
    size_t nodes, nodes_cap;
    Slot *slot;
    size_t mask;
    Item *heap, *deferred;
    size_t heap_n, heap_cap, def_n, def_cap;
    uint32_t *spent;
    size_t spent_n, spent_cap;
    uint64_t *ehash; /* entry -> the hash of its key (the memo; ehash_cap >= spent_n) */
    size_t ehash_cap;
    const uint64_t *skip; /* the memo's entries, sorted: not searched again */
    size_t skip_n;
    unsigned long long skipped;
    size_t memory;
} Search;

static size_t used(const Search *s)
{
    return s->arena_cap + s->nodes_cap * 12 + (s->mask + 1) * sizeof(Slot) +
           (s->heap_cap + s->def_cap) * sizeof(Item) + s->spent_cap * 4 + s->ehash_cap * 8;
}

/* A new final pass from the position p: its entry, -2 when the memo holds it (skipped),
 * -3 out of memory. */
static int32_t new_entry(Search *s, const NPos *p)
{
    uint8_t kb[NV_HEAD + NV_MAX];
    uint64_t h1, h2;
    hash_bytes(kb, key_bytes(p, kb), &h1, &h2);
    size_t lo = 0, hi = s->skip_n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->skip[mid] < h1)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->skip_n && s->skip[lo] == h1) {
        s->skipped++;
        return -2;
    }
    if (GROW_ARRAY(s->spent, s->spent_cap, s->spent_n + 1, 64) ||
        GROW_ARRAY(s->ehash, s->ehash_cap, s->spent_n + 1, 64))
        return -3;
    s->ehash[s->spent_n] = h1;
    s->spent[s->spent_n] = 0;
    return (int32_t)s->spent_n++;
}

static int grow_table(Search *s)
{
    size_t n = (s->mask + 1) * 2;
    Slot *t = big_calloc(n, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i <= s->mask; i++) {
        if (!s->slot[i].b)
            continue;
        size_t j = s->slot[i].a & (n - 1);
        while (t[j].b)
            j = (j + 1) & (n - 1);
        t[j] = s->slot[i];
    }
    free(s->slot);
    s->slot = t;
    s->mask = n - 1;
    return 0;
}

/* Adds p unless its key is in the table: its node, -1 when already reached, -2 out of
 * memory. A key is known by 96 bits of its hashes (see docs/solver.md). */
static int64_t add(Search *s, const NPos *p, int32_t parent)
{
    uint8_t kb[NV_HEAD + NV_MAX], ob[NV_HEAD + NV_MAX];
    size_t kn = key_bytes(p, kb);
    uint64_t h1, h2;
    hash_bytes(kb, kn, &h1, &h2);
    uint64_t tag = h2 & ~(uint64_t)0xFFFFFFFF;
    size_t j = h1 & s->mask;
    for (; s->slot[j].b; j = (j + 1) & s->mask)
        if (s->slot[j].a == h1 && (s->slot[j].b & ~(uint64_t)0xFFFFFFFF) == tag)
            return -1;
    const uint8_t *bytes = kb;
    size_t bn = kn;
    if (settled(p)) {
        bn = to_bytes(p, ob);
        bytes = ob;
    }
    size_t had = s->nodes_cap;
    if (s->nodes >= 0xFFFFFFF0u ||
        GROW_ARRAY(s->arena, s->arena_cap, s->arena_n + bn, 1 << 20) ||
        GROW_ARRAY(s->off, s->nodes_cap, s->nodes + 1, 1 << 16))
        return -2;
    if (s->nodes_cap != had && RESIZE_ARRAY(s->parent, s->nodes_cap))
        return -2;
    memcpy(s->arena + s->arena_n, bytes, bn);
    uint32_t node = (uint32_t)s->nodes++;
    s->off[node] = s->arena_n;
    s->arena_n += bn;
    s->parent[node] = parent;
    s->slot[j].a = h1;
    s->slot[j].b = tag | (node + 1);
    if (s->nodes * 2 > s->mask + 1 && grow_table(s))
        return -2;
    return node;
}

static int push(Item **h, size_t *n, size_t *cap, Item it)
{
    if (GROW_ARRAY(*h, *cap, *n + 1, 1 << 12))
        return -1;
    (*h)[*n] = it;
    sift_up(*h, (*n)++);
    return 0;
}

enum { NV_WON, NV_LOST, NV_UNKNOWN, NV_MEMORY };

/* nivernais.best_first in C: the status, the node of the line's end (*end) and the
 * positions expanded (*count). nodes < 0: no limit; deadline: CLOCK_MONOTONIC seconds (as
 * time.perf_counter), infinite for none; cap < 0: no cap. */
static int best_first(Search *s, const NPos *root, long long nodes, double deadline,
                      long long more_nodes, double more_deadline, const int *w, long long cap,
                      int tests, uint32_t *end, unsigned long long *count)
{
    /* Queued positions before the final pass: none left means every final pass is known,
     * and the search may go on to more_nodes / more_deadline (nivernais.best_first). */
    size_t before_final = root->red < NV_LAST;
    *count = 0;
    *end = 0;
    if (add(s, root, -1) < 0)
        return NV_MEMORY;
    if (on_foundations(root) == 104)
        return NV_WON;
    int32_t root_entry = -1;
    if (cap >= 0 && root->red >= NV_LAST) {
        if (GROW_ARRAY(s->spent, s->spent_cap, 1, 64) || GROW_ARRAY(s->ehash, s->ehash_cap, 1, 64))
            return NV_MEMORY;
        s->ehash[0] = 0; /* the root: never in the memo */
        s->spent[s->spent_n++] = 0;
        root_entry = 0;
    }
    int rs = score(root, w);
    if (push(&s->heap, &s->heap_n, &s->heap_cap, (Item){-rs, 0, 0, root_entry}))
        return NV_MEMORY;
    int best_home = on_foundations(root), best_score = rs;
    uint32_t tick = 0;
    NPos pos, kids[NV_MAXKIDS];
    while (s->heap_n || s->def_n) {
        if (!s->heap_n) {
            Item *t = s->heap;
            size_t tc = s->heap_cap;
            s->heap = s->deferred;
            s->heap_cap = s->def_cap;
            s->heap_n = s->def_n;
            s->deferred = t;
            s->def_cap = tc;
            s->def_n = 0;
            for (size_t i = s->heap_n / 2; i-- > 0;)
                sift_down(s->heap, s->heap_n, i);
            cap *= 2;
        }
        if ((nodes >= 0 && (long long)*count >= nodes) ||
            (*count && *count % 8 == 0 && now() > deadline)) {
            if (before_final || (more_nodes == nodes && more_deadline == deadline))
                return NV_UNKNOWN;
            nodes = more_nodes;
            deadline = more_deadline;
            continue;
        }
        Item it = s->heap[0];
        s->heap[0] = s->heap[--s->heap_n];
        if (s->heap_n)
            sift_down(s->heap, s->heap_n, 0);
        if (it.entry >= 0) {
            if (s->spent[it.entry] >= cap) {
                if (push(&s->deferred, &s->def_n, &s->def_cap, it))
                    return NV_MEMORY;
                continue;
            }
            s->spent[it.entry]++;
        }
        ++*count;
        from_bytes(s->arena + s->off[it.node], &pos);
        int final = pos.red >= NV_LAST;
        before_final -= !final;
        int n = (tests & NV_TEST_DEAD) && dead(&pos) ? 0 : forced(&pos, &kids[0]) ? 1 : children(&pos, kids, NULL);
        for (int k = 0; k < n; k++) {
            const NPos *t = &kids[k];
            int64_t node = add(s, t, (int32_t)it.node);
            if (node == -1)
                continue;
            if (node < 0 || used(s) > s->memory)
                return NV_MEMORY;
            if (on_foundations(t) == 104) {
                *end = (uint32_t)node;
                return NV_WON;
            }
            if ((tests & NV_TEST_LOCK) && locked(t))
                continue; /* lost (nivernais.locked): kept in the table, never expanded */
            int32_t e = -1;
            if (cap >= 0 && t->red >= NV_LAST) {
                if (final)
                    e = it.entry;
                else {
                    e = new_entry(s, t);
                    if (e == -3)
                        return NV_MEMORY;
                    if (e == -2)
                        continue; /* searched by an earlier search of the portfolio */
                }
            }
            tick++;
            before_final += t->red < NV_LAST;
            int sc = score(t, w), home = on_foundations(t);
            if (home > best_home || (home == best_home && sc > best_score)) {
                best_home = home;
                best_score = sc;
                *end = (uint32_t)node;
            }
            if (push(&s->heap, &s->heap_n, &s->heap_cap, (Item){-sc, tick, (uint32_t)node, e}))
                return NV_MEMORY;
        }
    }
    return s->skipped ? NV_UNKNOWN : NV_LOST; /* a skipped final pass is not proven lost */
}

/* The memo's new entries (nivernais.best_first's ``memo``): the hashes of the final
 * passes this search explored as far as its cap lets it (the cap reached, or none of
 * their positions left in the queue), as bytes of native uint64. */
static PyObject *explored(const Search *s, long long cap)
{
    uint32_t *queued = calloc(s->spent_n ? s->spent_n : 1, sizeof *queued);
    uint64_t *out = malloc((s->spent_n ? s->spent_n : 1) * sizeof *out);
    if (!queued || !out) {
        free(queued);
        free(out);
        return PyErr_NoMemory();
    }
    for (size_t i = 0; i < s->heap_n; i++)
        if (s->heap[i].entry >= 0)
            queued[s->heap[i].entry]++;
    for (size_t i = 0; i < s->def_n; i++)
        if (s->deferred[i].entry >= 0)
            queued[s->deferred[i].entry]++;
    size_t n = 0;
    for (size_t e = 0; e < s->spent_n; e++)
        if (s->ehash[e] && s->spent[e] && ((long long)s->spent[e] >= cap || !queued[e]))
            out[n++] = s->ehash[e];
    PyObject *b = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)(n * sizeof *out));
    free(queued);
    free(out);
    return b;
}

PyObject *nivernais_search(PyObject *self, PyObject *args)
{
    PyObject *pos, *wt;
    long long nodes, cap, more_nodes;
    int tests;
    double deadline, more_deadline;
    unsigned long long memory;
    Py_buffer skip;
    NPos root;
    int w[4];
    if (!PyArg_ParseTuple(args, "OLdLdOLKiy*", &pos, &nodes, &deadline, &more_nodes,
                          &more_deadline, &wt, &cap, &memory, &tests, &skip))
        return NULL;
    if (skip.len % 8 || to_npos(pos, &root) || parse_weights(wt, w)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "the memo is whole uint64 hashes");
        PyBuffer_Release(&skip);
        return NULL;
    }
    Search s;
    memset(&s, 0, sizeof s);
    s.skip = skip.buf;
    s.skip_n = (size_t)skip.len / 8;
    s.memory = (size_t)memory;
    s.mask = (1 << 16) - 1;
    s.slot = big_calloc(s.mask + 1, sizeof(Slot));
    if (!s.slot) {
        PyBuffer_Release(&skip);
        return PyErr_NoMemory();
    }
    int status;
    uint32_t end;
    unsigned long long count;
    Py_BEGIN_ALLOW_THREADS
    status = best_first(&s, &root, nodes, deadline, more_nodes, more_deadline, w, cap, tests,
                        &end, &count);
    Py_END_ALLOW_THREADS
    PyObject *line = PyList_New(0);
    if (line && s.nodes) {
        for (int64_t k = end; k >= 0; k = s.parent[k]) {
            NPos p;
            from_bytes(s.arena + s.off[k], &p);
            PyObject *t = from_npos(&p);
            if (!t || PyList_Append(line, t)) {
                Py_XDECREF(t);
                Py_CLEAR(line);
                break;
            }
            Py_DECREF(t);
        }
        if (line && PyList_Reverse(line))
            Py_CLEAR(line);
    }
    size_t mem = used(&s);
    PyObject *memo = line && status != NV_WON ? explored(&s, cap) : PyBytes_FromString("");
    PyBuffer_Release(&skip);
    if (!memo)
        Py_CLEAR(line);
    free(s.ehash);
    free(s.arena);
    free(s.off);
    free(s.parent);
    free(s.slot);
    free(s.heap);
    free(s.deferred);
    free(s.spent);
    if (!line) {
        Py_XDECREF(memo);
        return NULL;
    }
    static const char *names[] = {"won", "lost", "unknown", "memory"};
    return Py_BuildValue("(sNKKN)", names[status], line, count, (unsigned long long)mem, memo);
}

/* --- The line player's candidates (hints/lines.py nivernais_lines, issue 34) -----------
 *
 * Breadth-first from a view (its unseen stock cards HIDDEN_BYTE) over the moves that leave
 * every column's cards seen, never to a position of ``avoid`` nor to one walked before, at
 * most ``cap`` positions expanded; a move that shows a hidden card (a deal, or an emptied
 * column refilled) ends a line, one line per position it leaves. Positions are told apart
 * by two 64-bit hashes of their bytes (a set of 128-bit keys, open addressing). */

typedef struct {
    uint64_t *k; /* 2 words a slot; (0, 0): empty */
    size_t cap, n;
} NvSet;

static int nvset_grow(NvSet *t);

/* 1 when (h1, h2) was already there, 0 added, -1 out of memory. */
static int nvset_add(NvSet *t, uint64_t h1, uint64_t h2)
{
    if (!h1 && !h2)
        h1 = 1; /* (0, 0) marks an empty slot */
    if ((t->n + 1) * 2 > t->cap && nvset_grow(t))
        return -1;
    size_t mask = t->cap - 1;
    for (size_t i = h1 & mask;; i = (i + 1) & mask) {
        uint64_t *e = t->k + 2 * i;
        if (!e[0] && !e[1]) {
            e[0] = h1;
            e[1] = h2;
            t->n++;
            return 0;
        }
        if (e[0] == h1 && e[1] == h2)
            return 1;
    }
}

static int nvset_grow(NvSet *t)
{
    NvSet bigger = {calloc(2 * (t->cap ? 2 * t->cap : 1024), sizeof(uint64_t)),
                    t->cap ? 2 * t->cap : 1024, 0};
    if (!bigger.k)
        return -1;
    for (size_t i = 0; i < t->cap; i++)
        if (t->k[2 * i] || t->k[2 * i + 1])
            nvset_add(&bigger, t->k[2 * i], t->k[2 * i + 1]);
    free(t->k);
    *t = bigger;
    return 0;
}

static int nvset_put(NvSet *t, const NPos *p)
{
    uint8_t b[NV_HEAD + NV_MAX];
    uint64_t h1, h2;
    hash_bytes(b, to_bytes(p, b), &h1, &h2);
    return nvset_add(t, h1, h2);
}

static int shows_hidden(const NPos *p)
{
    for (int i = 0; i < NV_COLS; i++)
        if (memchr(p->col[i], HIDDEN_BYTE, p->len[i]))
            return 1;
    return 0;
}

/* nivernais_candidates(view, avoid, cap) -> [(steps, reveal, home), ...] in the order
 * found: lines.nivernais_lines, compiled. */
PyObject *nivernais_candidates(PyObject *self, PyObject *args)
{
    PyObject *view, *avoid, *out = NULL;
    int cap;
    NPos p, kids[NV_MAXKIDS];
    uint8_t codes[NV_MAXKIDS];
    if (!PyArg_ParseTuple(args, "OOi", &view, &avoid, &cap) || to_npos_as(view, &p, 1))
        return NULL;
    PyObject *fast = PySequence_Fast(avoid, "avoid: a sequence of positions");
    if (!fast)
        return NULL;
    NvSet seen = {0}, found = {0};
    WalkStep *walk = NULL;
    WalkLine *lines = NULL;
    uint8_t (*bytes)[NV_HEAD + NV_MAX] = NULL;
    size_t wcap = 0, bcap = 0, lcap = 0, nn = 0, nl = 0;
    int bad = nvset_put(&seen, &p) < 0 || GROW_ARRAY(walk, wcap, 1, 256) ||
              GROW_ARRAY(bytes, bcap, 1, 256);
    for (Py_ssize_t a = 0; !bad && a < PySequence_Fast_GET_SIZE(fast); a++) {
        NPos q;
        bad = to_npos_as(PySequence_Fast_GET_ITEM(fast, a), &q, 1) ? 2 : nvset_put(&seen, &q) < 0;
    }
    if (!bad) {
        walk[0] = (WalkStep){-1, 0};
        to_bytes(&p, bytes[0]);
        nn = 1;
    }
    for (size_t head = 0; !bad && head < nn && head < (size_t)(cap > 0 ? cap : 0); head++) {
        NPos pos;
        from_bytes(bytes[head], &pos);
        int home = on_foundations(&pos);
        int n = children(&pos, kids, codes);
        for (int k = 0; k < n && !bad; k++) {
            if (shows_hidden(&kids[k])) {
                int was = nvset_put(&found, &kids[k]);
                if (was < 0 || (!was && GROW_ARRAY(lines, lcap, nl + 1, 64)))
                    bad = 1;
                else if (!was)
                    lines[nl++] = (WalkLine){(int32_t)head, codes[k], home};
                continue;
            }
            int was = nvset_put(&seen, &kids[k]);
            if (was < 0 || (!was && (GROW_ARRAY(walk, wcap, nn + 1, 256) ||
                                     GROW_ARRAY(bytes, bcap, nn + 1, 256)))) {
                bad = 1;
            } else if (!was) {
                walk[nn] = (WalkStep){(int32_t)head, codes[k]};
                to_bytes(&kids[k], bytes[nn]);
                nn++;
            }
        }
    }
    if (bad == 1)
        PyErr_NoMemory();
    if (!bad)
        out = walk_answer(walk, lines, nl);
    Py_DECREF(fast);
    free(seen.k);
    free(found.k);
    free(walk);
    free(bytes);
    free(lines);
    return out;
}
