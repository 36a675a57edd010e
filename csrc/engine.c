/* Foundation games (Spine, Backbone, Backbone classic) as a packed search domain, in C.
 *
 * This mirrors the engine's legal_moves/apply (src/pasyans/engine/core.py) and the
 * search helpers of src/pasyans/domains/knowledge.py (safe foundation moves, duplicate
 * moves, move order, canonical key) for the games domains/packed.py accepts. The Python
 * code is the reference; tests/solver/test_packed.py compares the two along random
 * playouts.
 *
 * A position is a byte string: the redeals made, every pile's length, every pile's
 * face-down count, then the piles' cards one after the other (bottom to top). Its layout,
 * the kind and rule numbers and the move codes are declared in csrc/abi.toml and
 * generated into _core_abi.h (and domains/_core_abi.py for Python).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "_core_abi.h" /* K_*, E_*, MAXP, CLICK, NO_LOCK, MOVE_*, POS_*, CoreFlags */
#include "engine.h"
#include "clock.h"
#include "grow.h"
#include "walk.h"

#define MAXMOVES 1024

typedef struct {
    int np;
    uint8_t kind[MAXP];
    uint8_t locked_by[MAXP]; /* NO_LOCK: none */
    int runs_move, empty_column, same_suit, builds;
    unsigned feeds_column, feeds_foundation, refuses; /* bit per kind */
    int stock_turn, passes, general_safe, tailbone_first, won;
    int stock, waste;
    int ncols, cols[MAXP], nfound, founds[MAXP], nspines, spines[MAXP];
    uint32_t colbit[MAXP]; /* a column's bit in fp_moves' masks (1 << its place in cols) */
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
    if (n < POS_CARDS(np))
        return -1;
    p->redeals = b[POS_REDEALS(np)];
    memcpy(p->len, b + POS_LEN(np), (size_t)np);
    memcpy(p->down, b + POS_DOWN(np), (size_t)np);
    int o = 0;
    for (int i = 0; i < np; i++) {
        p->off[i] = o;
        o += p->len[i];
    }
    p->off[np] = o;
    if (o > 256 || n != POS_CARDS(np) + o)
        return -1;
    memcpy(p->cards, b + POS_CARDS(np), (size_t)o);
    return 0;
}

/* A position's bytes (the layout of fp_load) into b, which holds POS_CARDS(np) + off[np]. */
static void store_pos(const FSpec *s, const FPos *p, uint8_t *b)
{
    int np = s->np;
    b[POS_REDEALS(np)] = (uint8_t)p->redeals;
    memcpy(b + POS_LEN(np), p->len, (size_t)np);
    memcpy(b + POS_DOWN(np), p->down, (size_t)np);
    memcpy(b + POS_CARDS(np), p->cards, (size_t)p->off[np]);
}

static PyObject *fp_bytes(const FSpec *s, const FPos *p)
{
    PyObject *out = PyBytes_FromStringAndSize(NULL, POS_CARDS(s->np) + p->off[s->np]);
    if (out)
        store_pos(s, p, (uint8_t *)PyBytes_AS_STRING(out));
    return out;
}

static inline int top(const FPos *p, int i) { return p->cards[p->off[i] + p->len[i] - 1]; }

/* fp_moves' masks, all 0 between calls. Static, not per thread (a thread-local array in a
 * shared library costs a call per access): the engine's functions run with the GIL held
 * and fp_moves calls nothing that could enter it again. */
static uint32_t fmask[64], cmask[64];

/* Every legal move in legal_moves' order: codes MOVE_CODE(src, dst, cards); CLICK.
 * Which foundations and columns take a card is looked up in masks built once per position
 * (bit x: the x-th foundation or column), so the moves come out in the same order as by
 * trying every destination. */

static int fp_moves(const FSpec *s, const FPos *p, uint32_t *out)
{
    uint32_t empty = 0;
    for (int x = 0; x < s->nfound; x++) {
        int f = s->founds[x];
        if (!p->len[f])
            for (int c = 0; c < 4; c++)
                fmask[c] |= 1u << x;
        else if (top(p, f) + 4 < 64)
            fmask[top(p, f) + 4] |= 1u << x;
    }
    if (s->builds)
        for (int x = 0; x < s->ncols; x++) {
            int c = s->cols[x];
            if (!p->len[c]) {
                empty |= 1u << x;
                continue;
            }
            int t = top(p, c);
            if (s->same_suit) {
                if (t >= 4)
                    cmask[t - 4] |= 1u << x;
            } else if (t >= 4) {
                for (int l = (t & ~3) - 4; l < (t & ~3); l++)
                    cmask[l] |= 1u << x;
            }
        }
    else
        for (int x = 0; x < s->ncols; x++)
            if (!p->len[s->cols[x]])
                empty |= 1u << x;
    int n = 0;
    for (int i = 0; i < s->np; i++) {
        int kind = s->kind[i], len = p->len[i];
        if (kind == K_STOCK || !len)
            continue;
        if (s->locked_by[i] != NO_LOCK && p->len[s->locked_by[i]])
            continue;
        int free_ = len - p->down[i];
        if (free_ <= 0)
            continue;
        const uint8_t *pile = p->cards + p->off[i];
        int k = 1;
        if (s->runs_move && kind == K_COLUMN)
            while (k < free_ && pile[len - k - 1] - pile[len - k] == 4)
                k++;
        int card = pile[len - 1] & 63;
        if (s->feeds_foundation >> kind & 1)
            for (uint32_t b = fmask[card]; b; b &= b - 1)
                out[n++] = MOVE_CODE(i, s->founds[__builtin_ctz(b)], 1);
        if (!(s->feeds_column >> kind & 1))
            continue;
        int whole = kind == K_COLUMN ? len : -1;
        int rule = (s->refuses >> kind & 1) ? E_NONE : s->empty_column;
        uint32_t self = s->colbit[i];
        for (int m = 1; m <= k; m++) {
            int lowest = pile[len - m] & 63;
            uint32_t b = cmask[lowest];
            if (m != whole && (rule == E_ANY || (rule == E_KINGS && (lowest >> 2) == 12)))
                b |= empty;
            for (b &= ~self; b; b &= b - 1)
                out[n++] = MOVE_CODE(i, s->cols[__builtin_ctz(b)], m);
        }
    }
    if (s->stock_turn && (p->len[s->stock] || (p->len[s->waste] && p->redeals < s->passes - 1)))
        out[n++] = CLICK;
    for (int x = 0; x < s->nfound; x++) { /* the masks back to 0 */
        int f = s->founds[x];
        if (!p->len[f])
            memset(fmask, 0, 4 * sizeof *fmask);
        else if (top(p, f) + 4 < 64)
            fmask[top(p, f) + 4] = 0;
    }
    for (int x = 0; x < s->ncols && s->builds; x++) {
        int c = s->cols[x];
        if (p->len[c] && top(p, c) >= 4) {
            int t = top(p, c);
            if (s->same_suit)
                cmask[t - 4] = 0;
            else
                memset(cmask + (t & ~3) - 4, 0, 4 * sizeof *cmask);
        }
    }
    return n;
}

static void fp_play(const FSpec *s, const FPos *p, uint32_t code, FPos *q)
{
    int np = s->np, total = p->off[np], src, dst, m;
    q->redeals = p->redeals;
    memcpy(q->len, p->len, (size_t)np);
    memcpy(q->down, p->down, (size_t)np);
    memcpy(q->off, p->off, sizeof(int) * (size_t)(np + 1));
    if (code == CLICK) {
        int st = s->stock, w = s->waste;
        if (!p->len[st]) { /* redeal: the waste, reversed, is the stock */
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
            return;
        }
        src = st; /* turn: the stock's top card onto the waste */
        dst = w;
        m = 1;
    } else {
        src = MOVE_SRC(code);
        dst = MOVE_DST(code);
        m = MOVE_CARDS(code);
    }
    /* The piles lie one after the other: only the cards between the two ends move. */
    int se = p->off[src] + p->len[src], de = p->off[dst] + p->len[dst];
    const uint8_t *pc = p->cards;
    uint8_t *qc = q->cards;
    if (src < dst) {
        memcpy(qc, pc, (size_t)(se - m));
        memcpy(qc + se - m, pc + se, (size_t)(de - se));
        memcpy(qc + de - m, pc + se - m, (size_t)m);
        memcpy(qc + de, pc + de, (size_t)(total - de));
        for (int j = src + 1; j <= dst; j++)
            q->off[j] -= m;
    } else {
        memcpy(qc, pc, (size_t)de);
        memcpy(qc + de, pc + se - m, (size_t)m);
        memcpy(qc + de + m, pc + de, (size_t)(se - m - de));
        memcpy(qc + se, pc + se, (size_t)(total - se));
        for (int j = dst + 1; j <= src; j++)
            q->off[j] += m;
    }
    q->len[src] = (uint8_t)(p->len[src] - m);
    q->len[dst] = (uint8_t)(p->len[dst] + m);
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
    int si = MOVE_SRC(code), di = MOVE_DST(code), m = MOVE_CARDS(code);
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

/* knowledge.guided_children for unguided games (no dead test: see packed.py). ``returning``:
 * the safe foundation move of permanent foundations (both copies of the card one rank
 * lower in its suit home) also where foundation cards may come back to the columns
 * (Backbone; the analysis's searches, ``outcomes.RETURNING_SAFE``). Sound there too:
 * with every card of the suit below the card home, a winning line never needs one of them
 * off the foundations (off them it can hold only cards of that set, and it takes a place
 * or covers a card), and the card itself on a column could hold only them; so dropping
 * those excursions and the card's own moves from any winning line, with the card home
 * from the start, leaves a winning line (its twin takes the other foundation, whose top
 * is then the rank below: the twin is the only other card of its rank). Checked against
 * the searches without it on the simple player's games (tests/analysis/test_returning_safe.py). */
static int fp_children_rule(const FSpec *s, const FPos *p, uint32_t *out, int returning)
{
    uint32_t moves[MAXMOVES];
    int n = fp_moves(s, p, moves);
    for (int x = 0; x < n; x++) { /* a safe foundation move, alone */
        uint32_t code = moves[x];
        if (code == CLICK || s->kind[MOVE_DST(code)] != K_FOUNDATION)
            continue;
        int card = top(p, MOVE_SRC(code));
        if ((card >> 2) == 0 ||
            ((s->general_safe || (returning && s->same_suit && s->builds)) &&
             copies_up(s, p, card - 4) >= 2)) {
            out[0] = code;
            return 1;
        }
    }
    int kept = 0, values[MAXMOVES];
    for (int x = 0; x < n; x++) {
        uint32_t code = moves[x];
        if (code != CLICK) {
            int src = MOVE_SRC(code), dst = MOVE_DST(code), m = MOVE_CARDS(code);
            int dup = 0;
            /* Duplicates: the same unit to an alike column (same cards) or foundation. */
            for (int y = 0; y < x && !dup; y++) {
                uint32_t o = moves[y];
                if (o == CLICK || MOVE_SRC(o) != src || MOVE_CARDS(o) != m)
                    continue;
                int od = MOVE_DST(o);
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

/* The foundations' top cards, sorted (255: an empty foundation), into out: their count. */
static int sorted_tops(const FSpec *s, const FPos *p, uint8_t *out)
{
    for (int x = 0; x < s->nfound; x++) {
        int f = s->founds[x], y = x;
        uint8_t t = p->len[f] ? (uint8_t)top(p, f) : 255;
        while (y > 0 && out[y - 1] > t) {
            out[y] = out[y - 1];
            y--;
        }
        out[y] = t;
    }
    return s->nfound;
}

static int fp_key_into(const FSpec *s, const FPos *p, uint8_t *buf)
{
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
    o += sorted_tops(s, p, buf + o);
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
    return o;
}

static PyObject *fp_key(const FSpec *s, const FPos *p)
{
    uint8_t buf[1024];
    int o = fp_key_into(s, p, buf);
    return PyBytes_FromStringAndSize((const char *)buf, o);
}

/* What Backbone classic's dead-spine test reads (see engine_lock), into buf. */
static int fp_lock(const FSpec *s, const FPos *p, uint8_t *buf)
{
    int o = 0;
    for (int x = 0; x < s->nspines; x++) {
        int c = s->spines[x];
        memcpy(buf + o, p->cards + p->off[c], p->len[c]);
        o += p->len[c];
        buf[o++] = 255;
    }
    for (int i = 0; i < s->np; i++) {
        if (s->kind[i] != K_TAILBONE)
            continue;
        memcpy(buf + o, p->cards + p->off[i], p->len[i]);
        o += p->len[i];
        buf[o++] = 255;
    }
    o += sorted_tops(s, p, buf + o);
    return o;
}

/* --- Backbone classic's dead-spine test (domains/spinelock.py, compiled) --------------------
 *
 * spinelock._dead step for step, on the spine piles, the tailbone and the foundations' top
 * cards; spinelock.py is the reference and tests/solver/test_packed.py compares the two on
 * positions along random playouts and with shuffled spines. Card counts are arrays of 64
 * (a card's next rank, card + 4, may pass 51: it is never there). */

#define SL_CARDS 64
#define SL_MAXPILE 255 /* a pile's length is a byte: every pile fits */

typedef struct {
    int on_found[SL_CARDS]; /* copies of each card on the foundations */
    int tops[4][MAXP];      /* per suit, the ranks (0: empty) on top of its foundations */
    int ntops[4];
    uint8_t never[SL_CARDS]; /* cards no copy of which can ever top a column again */
} SLFacts;

typedef uint8_t SLCount[SL_CARDS];

static int sl_stuck(int card, const uint8_t *under, const uint8_t *held, const SLFacts *f)
{
    int r = (card >> 2) + 1, s = card & 3;
#define SL_BURIED(v) (2 - f->on_found[(v)] <= under[(v)] + held[(v)])
    if (r < 13 && !f->never[card + 4] && !SL_BURIED(card + 4))
        return 0; /* its suit's r + 1 may still top a column */
    for (int n = 0; n < f->ntops[s]; n++) {
        int top_ = f->tops[s][n];
        if (top_ >= r)
            continue;
        int all = 1;
        for (int k = top_ + 1; k < r && all; k++)
            all = !SL_BURIED(((k - 1) << 2) | s);
        if (all)
            return 0; /* this foundation may still reach r - 1 */
    }
#undef SL_BURIED
    return 1;
}

static int sl_no_way(int z, const uint8_t *under_z, const uint8_t *under_x, int x, int t_f, int r,
                     const int *t_g, int ng, const SLFacts *f)
{
    int zr = (z >> 2) + 1, s = z & 3;
#define SL_TAKEN(k) ((t_f < (k) && (k) < r) ? 1 : 0)
    int v = z + 4;
    if (!f->never[v]) {
        int left = 2 - f->on_found[v] - under_z[v] - SL_TAKEN(zr + 1);
        if (v == x)
            left -= 1;
        if (left > 0)
            return 0;
    }
    for (int g = 0; g < ng; g++) {
        int t = t_g[g];
        if (t >= zr)
            continue;
        int ok = 1;
        for (int k = t + 1; k < zr; k++) {
            int card = ((k - 1) << 2) | s;
            int in_play = 2 - f->on_found[card];
            int free_ = in_play - under_x[card], reach = in_play - under_z[card];
            if (reach - SL_TAKEN(k) < 1 || (SL_TAKEN(k) && free_ < 1)) {
                ok = 0;
                break;
            }
        }
        if (ok)
            return 0;
    }
#undef SL_TAKEN
    return 1;
}

/* below: n cards under x, each with the counts of the cards under it. */
static int sl_leaves_nothing(int x, const uint8_t *under_x, const uint8_t *below_card,
                             const uint8_t *const *below_under, int nbelow, const SLFacts *f)
{
    int r = (x >> 2) + 1, s = x & 3;
    if (r < 13 && !f->never[x + 4]) {
        int left = 2 - f->on_found[x + 4];
        if (left > under_x[x + 4])
            return 0; /* x may still go onto a column */
    }
    int zs[2 * SL_MAXPILE], nz = 0;
    for (int j = 0; j < nbelow; j++) {
        int z = below_card[j];
        if ((z & 3) == s && (z >> 2) + 1 < r)
            zs[nz++] = j;
    }
    if (!nz)
        return 0;
    const int *tops = f->tops[s];
    int nt = f->ntops[s];
    for (int n = 0; n < nt; n++) {
        if (tops[n] >= r)
            continue;
        int t_g[MAXP], ng = 0;
        for (int m = 0; m < nt; m++)
            if (m != n)
                t_g[ng++] = tops[m];
        int any = 0;
        for (int y = 0; y < nz && !any; y++)
            any = sl_no_way(below_card[zs[y]], below_under[zs[y]], under_x, x, tops[n], r, t_g, ng,
                            f);
        if (!any)
            return 0; /* x may take this foundation and leave the others a way */
    }
    return 1;
}

/* The fewest cards of the other pile (prefix counts ``other``, n + 1 of them) that keep
 * ``card`` stuck; n + 1 when none do. */
static int sl_first(int card, const uint8_t *under, SLCount *other, int n, const SLFacts *f)
{
    for (int k = 0; k <= n; k++)
        if (sl_stuck(card, under, other[k], f))
            return k;
    return n + 1;
}

/* spinelock._stranded: the relaxed spine game, step for step (the same states in the same
 * order, the same limit). A state is packed into 64 bits: the cards left in spine1, spine2 and
 * the tailbone (a byte each), then per suit its two foundation tops (4 bits each, the lower
 * first); bit 63 marks a used slot of the table of states seen. */
#define SL_STATES 2048       /* spinelock.STRANDED_STATES */
#define SL_SLOTS (2 * SL_STATES)

static uint64_t sl_state(const int *left, const int (*at)[2])
{
    uint64_t k = (uint64_t)left[0] | (uint64_t)left[1] << 8 | (uint64_t)left[2] << 16;
    for (int s = 0; s < 4; s++)
        k |= (uint64_t)at[s][0] << (24 + 8 * s) | (uint64_t)at[s][1] << (28 + 8 * s);
    return k | (uint64_t)1 << 63;
}

static void sl_unstate(uint64_t k, int *left, int (*at)[2])
{
    for (int w = 0; w < 3; w++)
        left[w] = (int)(k >> (8 * w)) & 255;
    for (int s = 0; s < 4; s++) {
        at[s][0] = (int)(k >> (24 + 8 * s)) & 15;
        at[s][1] = (int)(k >> (28 + 8 * s)) & 15;
    }
}

static int sl_stranded(const uint8_t *pa, int na, const uint8_t *pb, int nb, const uint8_t *tail,
                       int nt, SLCount *pre_a, SLCount *pre_b, const SLFacts *f)
{
    for (int s = 0; s < 4; s++)
        if (f->ntops[s] != 2)
            return 0; /* not two foundations a suit */
    if (na > 255 || nb > 255 || nt > 255)
        return 0;
    SLCount pre_t[SL_MAXPILE + 1];
    memset(pre_t[0], 0, SL_CARDS);
    for (int i = 0; i < nt; i++) {
        memcpy(pre_t[i + 1], pre_t[i], SL_CARDS);
        pre_t[i + 1][tail[i] & 63]++;
    }
    const uint8_t *piles[3] = {pa, pb, tail};
    SLCount *pre[3] = {pre_a, pre_b, pre_t};
    uint64_t table[SL_SLOTS];
    memset(table, 0, sizeof table);
    uint64_t stack[2 * SL_STATES + 2];
    int sp = 0, nseen = 0;
    int left[3] = {na, nb, nt}, at[4][2];
    for (int s = 0; s < 4; s++) {
        int lo = f->tops[s][0], hi = f->tops[s][1];
        at[s][0] = lo < hi ? lo : hi;
        at[s][1] = lo < hi ? hi : lo;
    }
    stack[sp++] = sl_state(left, (const int(*)[2])at);
    while (sp) {
        uint64_t k = stack[--sp];
        uint64_t h = (k * 0x9E3779B97F4A7C15ull) >> 52; /* 12 bits: SL_SLOTS */
        while (table[h] && table[h] != k)
            h = (h + 1) & (SL_SLOTS - 1);
        if (table[h])
            continue; /* seen */
        if (nseen >= SL_STATES)
            return 0; /* too many to settle: not proven */
        table[h] = k;
        nseen++;
        sl_unstate(k, left, at);
        int exposed[2], ne = 0;
        if (left[2])
            exposed[ne++] = 2;
        else
            for (int w = 0; w < 2; w++)
                if (left[w])
                    exposed[ne++] = w;
        if (!ne)
            return 0; /* the piles can be emptied */
#define SL_FREE(card)                                                                              \
    (2 - (at[(card) & 3][0] >= ((card) >> 2) + 1) - (at[(card) & 3][1] >= ((card) >> 2) + 1) -     \
     pre[0][left[0]][(card)] - pre[1][left[1]][(card)] - pre[2][left[2]][(card)])
        int onto = -1;
        for (int e = 0; e < ne && onto < 0; e++) {
            int c = piles[exposed[e]][left[exposed[e]] - 1] & 63;
            if (c < 48 && SL_FREE(c + 4) > 0)
                onto = exposed[e];
        }
        if (onto >= 0) {
            left[onto]--;
            stack[sp++] = sl_state(left, (const int(*)[2])at);
            continue;
        }
        for (int e = ne - 1; e >= 0; e--) {
            int w = exposed[e];
            int c = piles[w][left[w] - 1] & 63;
            int r = (c >> 2) + 1, s = c & 3;
            int j = at[s][1] < r ? 1 : at[s][0] < r ? 0 : -1;
            if (j < 0)
                continue;
            int ok = 1;
            for (int q = at[s][j] + 1; q < r && ok; q++)
                ok = SL_FREE(((q - 1) << 2) | s) > 0;
            if (!ok)
                continue;
            int save[2] = {at[s][0], at[s][1]}, other = at[s][1 - j];
            at[s][0] = other < r ? other : r;
            at[s][1] = other < r ? r : other;
            left[w]--;
            stack[sp++] = sl_state(left, (const int(*)[2])at);
            left[w]++;
            at[s][0] = save[0];
            at[s][1] = save[1];
        }
#undef SL_FREE
    }
    return 1;
}

/* 1: dead; 0: not. */
static int sl_dead(const uint8_t *pa, int na, const uint8_t *pb, int nb, const uint8_t *tail,
                   int nt, const int *founds, int nfound)
{
    SLFacts f;
    memset(&f, 0, sizeof f);
    int empty = 0;
    for (int x = 0; x < nfound; x++) {
        int t = founds[x];
        if (t >= 0)
            f.tops[t & 3][f.ntops[t & 3]++] = (t >> 2) + 1;
        else
            empty++;
    }
    for (int s = 0; s < 4; s++)
        while (f.ntops[s] < 2 && empty) {
            f.tops[s][f.ntops[s]++] = 0;
            empty--;
        }
    for (int s = 0; s < 4; s++)
        for (int n = 0; n < f.ntops[s]; n++)
            for (int r = 1; r <= f.tops[s][n]; r++)
                f.on_found[((r - 1) << 2) | s]++;
    int locked[SL_CARDS] = {0};
    for (int i = 0; i < na; i++)
        locked[pa[i] & 63]++;
    for (int i = 0; i < nb; i++)
        locked[pb[i] & 63]++;
    for (int i = 0; i < nt; i++)
        locked[tail[i] & 63]++;
    for (int s = 0; s < 4; s++)
        for (int r = 12; r >= 0; r--) {
            int card = (r << 2) | s;
            if (2 - f.on_found[card] > locked[card])
                continue;
            if (r == 12 || f.never[card + 4])
                f.never[card] = 1;
        }
    SLCount pre_a[SL_MAXPILE + 1], pre_b[SL_MAXPILE + 1];
    memset(pre_a[0], 0, SL_CARDS);
    for (int i = 0; i < na; i++) {
        memcpy(pre_a[i + 1], pre_a[i], SL_CARDS);
        pre_a[i + 1][pa[i] & 63]++;
    }
    memset(pre_b[0], 0, SL_CARDS);
    for (int i = 0; i < nb; i++) {
        memcpy(pre_b[i + 1], pre_b[i], SL_CARDS);
        pre_b[i + 1][pb[i] & 63]++;
    }
    uint8_t below_card[2 * SL_MAXPILE];
    const uint8_t *below_under[2 * SL_MAXPILE];
    for (int c = 0; c < nt; c++) { /* the tailbone lies over both spine piles */
        int card = tail[c] & 63;
        if (sl_stuck(card, pre_a[na], pre_b[nb], &f))
            return 1;
        uint8_t both[SL_CARDS];
        for (int v = 0; v < SL_CARDS; v++)
            both[v] = (uint8_t)(pre_a[na][v] + pre_b[nb][v]);
        int nbelow = 0;
        for (int j = 0; j < na; j++) {
            below_card[nbelow] = pa[j] & 63;
            below_under[nbelow++] = pre_a[j];
        }
        for (int j = 0; j < nb; j++) {
            below_card[nbelow] = pb[j] & 63;
            below_under[nbelow++] = pre_b[j];
        }
        if (sl_leaves_nothing(card, both, below_card, below_under, nbelow, &f))
            return 1;
    }
    for (int side = 0; side < 2; side++) {
        const uint8_t *pile = side ? pb : pa;
        int n = side ? nb : na;
        SLCount *pre = side ? pre_b : pre_a;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                below_card[j] = pile[j] & 63;
                below_under[j] = pre[j];
            }
            if (sl_leaves_nothing(pile[i] & 63, pre[i], below_card, below_under, i, &f))
                return 1;
        }
    }
    int first_a[SL_MAXPILE], first_b[SL_MAXPILE];
    for (int i = 0; i < na; i++)
        if ((first_a[i] = sl_first(pa[i] & 63, pre_a[i], pre_b, nb, &f)) == 0)
            return 1; /* a card waits on cards under itself only */
    for (int j = 0; j < nb; j++)
        if ((first_b[j] = sl_first(pb[j] & 63, pre_b[j], pre_a, na, &f)) == 0)
            return 1;
    for (int i = 0; i < na; i++)
        for (int j = first_a[i] - 1 > 0 ? first_a[i] - 1 : 0; j < nb; j++)
            if (i + 1 >= first_b[j])
                return 1; /* neither can leave first */
    return sl_stranded(pa, na, pb, nb, tail, nt, pre_a, pre_b, &f);
}

/* The dead-spine test on a position of a game with two spine piles and a tailbone: 1 dead,
 * 0 not, -1 another shape (engine_restarts refuses it up front). */
static int fp_dead(const FSpec *s, const FPos *p)
{
    int tail = -1;
    for (int i = 0; i < s->np; i++)
        if (s->kind[i] == K_TAILBONE)
            tail = i;
    if (s->nspines != 2 || tail < 0)
        return -1;
    int founds[MAXP];
    for (int x = 0; x < s->nfound; x++)
        founds[x] = p->len[s->founds[x]] ? top(p, s->founds[x]) : -1;
    int a = s->spines[0], b = s->spines[1];
    return sl_dead(p->cards + p->off[a], p->len[a], p->cards + p->off[b], p->len[b],
                   p->cards + p->off[tail], p->len[tail], founds, s->nfound);
}

/* --- The last pass's column capacity (domains/wastelock.py, compiled) -------------------
 *
 * With no redeal left, a waste card leaves only from the waste's top: the i-th card from the
 * bottom w_i can go home only after a moment T at which it is the waste's top. At T the
 * waste is exactly w_0 .. w_i (the cards above it have left, and a card dealt since lies
 * above it and has left too), the stock, the spine piles and the tailbone hold at most the
 * copies of each card they hold now (nothing goes back to them), and every other card is
 * on a foundation or in a column. A suit's foundations (at most two: a suit has two aces)
 * hold its ranks 1..a and 1..b, a copy each; a chain cannot pass a rank whose copies are
 * all in w_0 .. w_i. So a card c (its copies n(c), w(c) of them in w_0 .. w_i, k(c) on the
 * stock and the spine, f(c) on the foundations) has m(c) copies in the columns with
 * n - w - k - f <= m <= n - w - f. A column in these games is one run down in suit (one
 * card at a time onto the next rank of its suit, or onto an empty column): it holds one
 * rank interval of one suit, a copy each. m column copies of rank q of a suit need at least
 * max(0, m(q) - m(q - 1)) intervals starting at q (the m(q) intervals through q, of which
 * at most m(q - 1) also hold q - 1). If, for every choice of a, b and m per suit, the
 * intervals needed outnumber the columns, T never comes: w_i never leaves, the game is
 * lost. Per suit the least is a dynamic programme over the ranks (state: the chains still
 * going, 0..2, and m(q)). Only for games whose columns build down in suit, with at most
 * two copies of a card, in the last pass, and when every column is such a run now.
 *
 * The cuts. At T the stock is not any subset of what it holds now: its cards are dealt
 * from the top, so it holds the first t cards from the bottom for some t, and each card
 * dealt before T has left the waste too (it lay above w_i). Each spine pile is played from
 * its exposed end, so it holds its first a cards, and the tailbone lies there only while
 * both piles are whole. So for each cut (the tailbone there or not, a and b, t) the copies
 * e(c) still in the stock and the spine at T are exact, and m = n - w - e - f; w_i can
 * never be the top only if the intervals outnumber the columns for every cut. (The count
 * with every such copy free, n - w - k - f <= m <= n - w - f, is the least over more
 * choices, so it is tried first: when it already outnumbers the columns, so does every
 * cut. The cuts are tried from the fullest down, the likeliest to fit.) */

#define WL_INF 1000

static const uint8_t wl_none[64]; /* no copies: wl_suit's e or k when nothing is counted */

/* The fewest column runs suit ``s`` needs at T (above), from the counts: ``e`` copies of
 * each card surely elsewhere (the stock's at its cut), ``k`` maybe. */
static int wl_suit(int s, const uint8_t *n, const uint8_t *w, const uint8_t *e, const uint8_t *k)
{
    int cost[3][3]; /* [chains going][m of the last rank] */
    for (int c = 0; c < 3; c++)
        for (int v = 0; v < 3; v++)
            cost[c][v] = v == 0 ? 0 : WL_INF;
    for (int q = 0; q < 13; q++) {
        int card = (q << 2) | s, free_ = n[card] - w[card] - e[card];
        int next[3][3];
        for (int c = 0; c < 3; c++)
            for (int v = 0; v < 3; v++)
                next[c][v] = WL_INF;
        for (int c = 0; c < 3; c++)
            for (int u = 0; u < 3; u++) {
                if (cost[c][u] >= WL_INF)
                    continue;
                for (int c2 = 0; c2 <= c && c2 <= free_; c2++) { /* chains go on or stop */
                    int hi = free_ - c2, lo = hi - k[card];
                    if (lo < 0)
                        lo = 0;
                    for (int v = lo; v <= hi && v < 3; v++) {
                        int t = cost[c][u] + (v > u ? v - u : 0);
                        if (t < next[c2][v])
                            next[c2][v] = t;
                    }
                }
            }
        memcpy(cost, next, sizeof cost);
    }
    int best = WL_INF;
    for (int c = 0; c < 3; c++)
        for (int v = 0; v < 3; v++)
            if (cost[c][v] < best)
                best = cost[c][v];
    return best;
}

/* Whether the rule applies to ``p`` (above): these rules, the last pass, every column one
 * run down in suit. */
static int wl_applies(const FSpec *s, const FPos *p)
{
    if (!s->stock_turn || !s->builds || !s->same_suit || p->redeals < s->passes - 1)
        return 0;
    for (int x = 0; x < s->ncols; x++) {
        const uint8_t *pile = p->cards + p->off[s->cols[x]];
        for (int j = 1; j < p->len[s->cols[x]]; j++)
            if ((pile[j - 1] & 63) - (pile[j] & 63) != 4)
                return 0;
    }
    return 1;
}

/* wl_suit with no copy maybe elsewhere (k none) depends only on the suit's 13 counts
 * n - w - e (each 0..2, as no card has over two copies). The cuts spell them as one
 * base-3 number per suit (rank q's count is digit q), kept up to date a card at a time:
 * a card of rank q leaving the counts takes 3^q off its suit's number. The answers are
 * kept by that number in a table shared by every search (cost + 1; 0: not yet known),
 * so a cut costs a few additions and reads instead of the programme. Relaxed atomic
 * accesses: two threads may compute one entry, and both store the same byte. */
#define WL_KEYS 1594323 /* 3^13 */

static uint8_t wl_memo[WL_KEYS];

static const uint32_t wl_pow3[13] = {1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683, 59049,
                                     177147, 531441};

static int wl_cost(uint32_t key)
{
    uint8_t v = __atomic_load_n(&wl_memo[key], __ATOMIC_RELAXED);
    if (v)
        return v - 1;
    uint8_t n[64] = {0}; /* the counts as suit 0's */
    for (uint32_t q = 0, k = key; q < 13; q++, k /= 3)
        n[q << 2] = (uint8_t)(k % 3);
    int cost = wl_suit(0, n, wl_none, wl_none, wl_none);
    __atomic_store_n(&wl_memo[key], (uint8_t)(cost + 1), __ATOMIC_RELAXED);
    return cost;
}

/* A card's base-3 number: 3^rank, in its suit's (see wl_cost). */
#define WL_DIGIT(c) (wl_pow3[((c) & 63) >> 2])

#define WL_PILE 63 /* the longest spine pile the cuts take; a longer one: no verdict */

/* What the cuts read of a position, found once for all its waste indices: the stock,
 * the spine piles and the tailbone, and each suit's number for every first a cards of a
 * spine pile (pre), the whole stock and the tailbone. */
typedef struct {
    const uint8_t *pile[2], *stock;
    int len[2], nstock, ntail;
    uint32_t pre[2][WL_PILE + 1][4], stockd[4], taild[4];
} WlCuts;

/* Fills ``c`` from ``p``: 0, or -1 when the cuts do not know the shape (no verdict). */
static int wl_cuts_init(const FSpec *s, const FPos *p, WlCuts *c)
{
    int np = 0;
    /* only what is read: the sums, and the empty prefixes the rows start from */
    memset(c->pile, 0, sizeof c->pile);
    c->stock = NULL;
    c->len[0] = c->len[1] = c->nstock = c->ntail = 0;
    memset(c->stockd, 0, sizeof c->stockd);
    memset(c->taild, 0, sizeof c->taild);
    memset(c->pre[0][0], 0, sizeof c->pre[0][0]);
    memset(c->pre[1][0], 0, sizeof c->pre[1][0]);
    for (int i = 0; i < s->np; i++) {
        const uint8_t *cards = p->cards + p->off[i];
        int len = p->len[i];
        if (s->kind[i] == K_STOCK) {
            c->stock = cards;
            c->nstock = len;
            for (int j = 0; j < len; j++)
                c->stockd[cards[j] & 3] += WL_DIGIT(cards[j]);
        } else if (s->kind[i] == K_TAILBONE) {
            c->ntail = len;
            for (int j = 0; j < len; j++)
                c->taild[cards[j] & 3] += WL_DIGIT(cards[j]);
        } else if (s->kind[i] == K_SPINE) {
            if (np == 2 || len > WL_PILE)
                return -1;
            c->pile[np] = cards;
            c->len[np] = len;
            for (int j = 0; j < len; j++) {
                memcpy(c->pre[np][j + 1], c->pre[np][j], sizeof c->pre[np][j]);
                c->pre[np][j + 1][cards[j] & 3] += WL_DIGIT(cards[j]);
            }
            np++;
        }
    }
    return 0;
}

/* Whether the intervals outnumber the columns at every cut (above), from each suit's
 * number with the waste's w_0 .. w_i taken off (``nw``): the stock's first t cards, the
 * spine piles' first a and b, the tailbone. */
static int wl_every_cut(const FSpec *s, const WlCuts *c, const uint32_t *nw)
{
    int l0 = c->len[0], l1 = c->len[1];
    for (int combo = c->ntail ? -1 : 0; combo < (l0 + 1) * (l1 + 1); combo++) {
        /* -1: the tailbone there, both piles whole; else the piles' first a and b cards */
        int a = combo < 0 ? l0 : l0 - combo / (l1 + 1);
        int b = combo < 0 ? l1 : l1 - combo % (l1 + 1);
        uint32_t key[4];
        int cut[4];
        for (int t = 0; t < 4; t++) {
            key[t] = nw[t] - c->stockd[t] - c->pre[0][a][t] - c->pre[1][b][t] -
                     (combo < 0 ? c->taild[t] : 0);
            cut[t] = wl_cost(key[t]);
        }
        int over = cut[0] + cut[1] + cut[2] + cut[3] > s->ncols;
        for (int t = c->nstock; t > 0 && over; t--) {
            int d = c->stock[t - 1];
            key[d & 3] += WL_DIGIT(d);
            cut[d & 3] = wl_cost(key[d & 3]);
            over = cut[0] + cut[1] + cut[2] + cut[3] > s->ncols;
        }
        if (!over)
            return 0;
    }
    return 1;
}

/* The rule on a position it applies to: the lowest waste index that can never be the
 * waste's top (the position is lost), -1 when none is found or a card has over two copies. */
static int wl_lock(const FSpec *s, const FPos *p)
{
    uint8_t n[64] = {0}, w[64] = {0}, k[64] = {0};
    for (int i = 0; i < s->np; i++) {
        const uint8_t *pile = p->cards + p->off[i];
        int kind = s->kind[i], len = p->len[i];
        for (int j = 0; j < len; j++) {
            int c = pile[j] & 63;
            n[c]++;
            if (kind == K_STOCK || kind == K_SPINE || kind == K_TAILBONE)
                k[c]++;
        }
    }
    uint32_t nw[4] = {0};
    for (int c = 0; c < 64; c++) {
        if (n[c] > 2)
            return -1;
        nw[c & 3] += n[c] * WL_DIGIT(c);
    }
    WlCuts cuts;
    int cut_known = wl_cuts_init(s, p, &cuts) == 0;
    int runs[4];
    for (int t = 0; t < 4; t++)
        runs[t] = wl_suit(t, n, w, wl_none, k);
    const uint8_t *waste = p->cards + p->off[s->waste];
    for (int i = 0; i < p->len[s->waste]; i++) {
        int c = waste[i] & 63;
        w[c]++;
        nw[c & 3] -= WL_DIGIT(c);
        runs[c & 3] = wl_suit(c & 3, n, w, wl_none, k);
        if (runs[0] + runs[1] + runs[2] + runs[3] > s->ncols ||
            (cut_known && wl_every_cut(s, &cuts, nw)))
            return i;
    }
    return -1;
}

/* The rule (above): the lowest waste index that can never be the waste's top (the position
 * is lost), -1 when none is found, -2 when the rule does not apply. */
static int fp_wastelock(const FSpec *s, const FPos *p)
{
    return wl_applies(s, p) ? wl_lock(s, p) : -2;
}

/* What wl_lock reads (the redeals, the stock, the waste, the spine piles and the
 * tailbone, with 255 between them), into buf; its columns' test aside. */
static int fp_wastekey(const FSpec *s, const FPos *p, uint8_t *buf)
{
    int o = 0;
    buf[o++] = (uint8_t)p->redeals;
    for (int i = 0; i < s->np; i++) {
        int kind = s->kind[i];
        if (kind != K_STOCK && kind != K_WASTE && kind != K_SPINE && kind != K_TAILBONE)
            continue;
        memcpy(buf + o, p->cards + p->off[i], p->len[i]);
        o += p->len[i];
        buf[o++] = 255;
    }
    return o;
}

/* --- The position hash ------------------------------------------------------------------
 *
 * The search identifies a position by a 128-bit hash of its canonical key (fp_key_into),
 * kept up to date move by move instead of building and hashing the key. Every pile has a
 * linear hash of its cards, the sum of a random number per (depth in the pile, card); a
 * pile's term mixes that sum with its length, face-down count and a seed (fmix is a
 * bijection). The position's hash is the sum of every pile's term and a term for the
 * redeals made. The canonical key sorts the columns, the spine piles and the foundations'
 * top cards, and a sum does not depend on order: so columns share one seed, spine piles
 * another (without the face-down count, which the key leaves out), a foundation's term is
 * a random number per top card, and every other pile (stock, waste, tailbone) has a seed
 * of its own. Positions with the same canonical key therefore have the same hash, exactly;
 * two lanes of independent numbers make two different keys share a hash with a chance of
 * about 2^-128. A move changes two piles (a redeal the stock, the waste and the redeals),
 * so a child's hash is its parent's with those terms replaced, and a pile's linear hash
 * loses or gains only the cards moved. tests/solver/test_packed.py checks the child's
 * hash against the hash from scratch, and equal keys against equal hashes. */

typedef struct {
    uint64_t a, b;
} H128;

static inline uint64_t fmix(uint64_t z)
{
    z ^= z >> 33;
    z *= 0xFF51AFD7ED558CCDULL;
    z ^= z >> 33;
    z *= 0xC4CEB9FE1A85EC53ULL;
    z ^= z >> 33;
    return z;
}

typedef struct {
    uint64_t s;
} Mix;

static uint64_t mix_next(Mix *m)
{
    uint64_t z = (m->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#define HASH_LEN 0x9E3779B97F4A7C15ULL
#define HASH_DOWN 0xC2B2AE3D27D4EB4FULL

static uint64_t ZCARD[256][64][2]; /* a card (its low 6 bits) at a depth of a pile */
static uint64_t ZTOP[256][2];      /* a foundation's top card (255: empty) */
static uint64_t ZREDEAL[256][2];   /* the redeals made */
static uint64_t ZSEED[MAXP + 2][2]; /* columns, spine piles, then each other pile */
static int zready;

static void zinit(void)
{
    if (zready)
        return;
    Mix m = {0x70A5E7A1C0DEULL};
    for (int d = 0; d < 256; d++)
        for (int c = 0; c < 64; c++)
            for (int l = 0; l < 2; l++)
                ZCARD[d][c][l] = mix_next(&m);
    for (int i = 0; i < 256; i++)
        for (int l = 0; l < 2; l++) {
            ZTOP[i][l] = mix_next(&m);
            ZREDEAL[i][l] = mix_next(&m);
        }
    for (int i = 0; i < MAXP + 2; i++)
        for (int l = 0; l < 2; l++)
            ZSEED[i][l] = mix_next(&m);
    zready = 1;
}

/* Pile i's seed: one for all columns, one for all spine piles, else its own. */
static inline const uint64_t *pile_seed(const FSpec *s, int i)
{
    return s->kind[i] == K_COLUMN ? ZSEED[0] : s->kind[i] == K_SPINE ? ZSEED[1] : ZSEED[2 + i];
}

typedef struct {
    uint64_t lin[MAXP][2]; /* each pile's linear hash */
    H128 h;
} PHash;

static void pile_lin(const FPos *p, int i, uint64_t out[2])
{
    const uint8_t *c = p->cards + p->off[i];
    uint64_t a = 0, b = 0;
    for (int d = 0; d < p->len[i]; d++) {
        a += ZCARD[d][c[d] & 63][0];
        b += ZCARD[d][c[d] & 63][1];
    }
    out[0] = a;
    out[1] = b;
}

/* Pile i's term in the position's hash: its length, face-down count, top card (read for a
 * foundation only; 255: empty) and linear hash. */
static inline void pile_term(const FSpec *s, int i, int len, int down, int top_card,
                             const uint64_t lin[2], uint64_t out[2])
{
    if (s->kind[i] == K_FOUNDATION) {
        out[0] = ZTOP[top_card][0];
        out[1] = ZTOP[top_card][1];
        return;
    }
    const uint64_t *seed = pile_seed(s, i);
    uint64_t extra = (uint64_t)len * HASH_LEN;
    if (s->kind[i] != K_SPINE)
        extra += (uint64_t)down * HASH_DOWN;
    out[0] = fmix(lin[0] + seed[0] + extra);
    out[1] = fmix(lin[1] + seed[1] + extra);
}

static inline int top_or_empty(const FPos *p, int i) { return p->len[i] ? top(p, i) : 255; }

/* The hash of ``p`` from scratch. */
static void ph_init(const FSpec *s, const FPos *p, PHash *ph)
{
    uint64_t a = ZREDEAL[p->redeals & 255][0], b = ZREDEAL[p->redeals & 255][1], t[2];
    for (int i = 0; i < s->np; i++) {
        pile_lin(p, i, ph->lin[i]);
        pile_term(s, i, p->len[i], p->down[i], top_or_empty(p, i), ph->lin[i], t);
        a += t[0];
        b += t[1];
    }
    ph->h = (H128){a, b};
}

/* The piles a move changes, with their new linear hashes. */
typedef struct {
    int pile[2];
    uint64_t lin[2][2];
} Change;

/* The hash of the child of ``p`` (hash ``ph``) by ``code``, from ``p`` alone (the search
 * plays the move only when the child is new); ``c``: what changed. */
static H128 ph_child(const FSpec *s, const FPos *p, const PHash *ph, uint32_t code, Change *c)
{
    uint64_t a = ph->h.a, b = ph->h.b, t[2];
    int src, dst, m;
    if (code == CLICK) {
        src = s->stock;
        dst = s->waste;
        m = 1;
    } else {
        src = MOVE_SRC(code);
        dst = MOVE_DST(code);
        m = MOVE_CARDS(code);
    }
    c->pile[0] = src;
    c->pile[1] = dst;
    int ls = p->len[src], ld = p->len[dst];
    pile_term(s, src, ls, p->down[src], top_or_empty(p, src), ph->lin[src], t);
    a -= t[0];
    b -= t[1];
    pile_term(s, dst, ld, p->down[dst], top_or_empty(p, dst), ph->lin[dst], t);
    a -= t[0];
    b -= t[1];
    int ns, nd, ts, td;
    if (code == CLICK && !ls) { /* a redeal: the waste, reversed, is the stock */
        const uint8_t *w = p->cards + p->off[dst];
        uint64_t x0 = 0, x1 = 0;
        for (int d = 0; d < ld; d++) {
            x0 += ZCARD[d][w[ld - 1 - d] & 63][0];
            x1 += ZCARD[d][w[ld - 1 - d] & 63][1];
        }
        c->lin[0][0] = x0;
        c->lin[0][1] = x1;
        c->lin[1][0] = c->lin[1][1] = 0;
        ns = ld;
        nd = 0;
        ts = ld ? w[0] : 255;
        td = 255;
        int r = p->redeals & 255, r1 = (p->redeals + 1) & 255;
        a += ZREDEAL[r1][0] - ZREDEAL[r][0];
        b += ZREDEAL[r1][1] - ZREDEAL[r][1];
    } else { /* m cards from the top of src onto dst, in order */
        const uint8_t *moved = p->cards + p->off[src] + ls - m;
        int from = ls - m;
        c->lin[0][0] = ph->lin[src][0];
        c->lin[0][1] = ph->lin[src][1];
        c->lin[1][0] = ph->lin[dst][0];
        c->lin[1][1] = ph->lin[dst][1];
        for (int k = 0; k < m; k++) {
            const uint64_t *out = ZCARD[from + k][moved[k] & 63], *in = ZCARD[ld + k][moved[k] & 63];
            c->lin[0][0] -= out[0];
            c->lin[0][1] -= out[1];
            c->lin[1][0] += in[0];
            c->lin[1][1] += in[1];
        }
        ns = from;
        nd = ld + m;
        ts = from ? moved[-1] : 255;
        td = moved[m - 1];
    }
    pile_term(s, src, ns, p->down[src], ts, c->lin[0], t);
    a += t[0];
    b += t[1];
    pile_term(s, dst, nd, p->down[dst], td, c->lin[1], t);
    a += t[0];
    b += t[1];
    return (H128){a, b};
}

/* The child's PHash: the parent's (``np`` piles) with the change. */
static void ph_apply(const PHash *parent, int np, const Change *c, H128 h, PHash *out)
{
    memcpy(out->lin, parent->lin, (size_t)np * sizeof out->lin[0]);
    for (int x = 0; x < 2; x++) {
        out->lin[c->pile[x]][0] = c->lin[x][0];
        out->lin[c->pile[x]][1] = c->lin[x][1];
    }
    out->h = h;
}

static PyObject *h128_long(H128 h)
{
    PyObject *hi = PyLong_FromUnsignedLongLong(h.b), *lo = PyLong_FromUnsignedLongLong(h.a);
    PyObject *sh = PyLong_FromLong(64), *up = hi && sh ? PyNumber_Lshift(hi, sh) : NULL;
    PyObject *out = up && lo ? PyNumber_Or(up, lo) : NULL;
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    Py_XDECREF(sh);
    Py_XDECREF(up);
    return out;
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
    CoreFlags f;
    if (!PyArg_ParseTuple(args, "y*y*" CORE_FLAGS_FORMAT, &kinds, &locked, CORE_FLAGS_ARGS(&f)))
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
        case K_COLUMN: s->colbit[i] = 1u << s->ncols; s->cols[s->ncols++] = i; break;
        case K_SPINE: s->spines[s->nspines++] = i; break;
        default: break;
        }
    }
    PyBuffer_Release(&kinds);
    PyBuffer_Release(&locked);
    s->runs_move = f.runs_move;
    s->empty_column = f.empty_column;
    s->same_suit = f.same_suit;
    s->builds = f.builds;
    s->feeds_column = f.feeds_column;
    s->feeds_foundation = f.feeds_foundation;
    s->refuses = f.refuses;
    s->stock_turn = f.stock_turn && s->stock >= 0 && s->waste >= 0;
    s->passes = f.passes;
    s->general_safe = f.general_safe;
    s->tailbone_first = f.tailbone_first;
    s->won = f.won;
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

/* engine_children(spec, pos[, returning]) -> [(code, child, won), ...] in search order
 * (``returning``: fp_children_rule's) */
PyObject *engine_children(PyObject *self, PyObject *args)
{
    const FSpec *s;
    FPos p, q;
    PyObject *rest;
    uint32_t out[MAXMOVES];
    if (parse(args, &s, &p, &rest))
        return NULL;
    int returning = rest ? PyObject_IsTrue(rest) : 0;
    if (returning < 0)
        return NULL;
    int n = fp_children_rule(s, &p, out, returning);
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
 * (domains/spinelock.py): the spine piles in pile order, the tailbone, and the foundations'
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
    int o = fp_lock(s, &p, buf);
    return PyBytes_FromStringAndSize((const char *)buf, o);
}

/* engine_wastelock(spec, pos) -> int: the last pass's capacity test (fp_wastelock): the
 * lowest waste index that can never be the waste's top (the position is lost), -1 when none
 * is found, -2 when the rule does not apply. */
PyObject *engine_wastelock(PyObject *self, PyObject *args)
{
    const FSpec *s;
    FPos p;
    PyObject *rest;
    if (parse(args, &s, &p, &rest))
        return NULL;
    return PyLong_FromLong(fp_wastelock(s, &p));
}

/* engine_dead(spec, pos) -> bool: Backbone classic's dead-spine test, compiled (fp_dead). */
PyObject *engine_dead(PyObject *self, PyObject *args)
{
    const FSpec *s;
    FPos p;
    PyObject *rest;
    if (parse(args, &s, &p, &rest))
        return NULL;
    int d = fp_dead(s, &p);
    if (d < 0) {
        PyErr_SetString(PyExc_ValueError, "the compiled dead-spine test needs two spine piles "
                                          "and a tailbone");
        return NULL;
    }
    return PyBool_FromLong(d);
}

/* The hash wrappers' arguments (spec, pos): the position and its hash from scratch. */
static int parse_hashed(PyObject *args, const FSpec **s, FPos *p, PHash *ph)
{
    PyObject *rest;
    if (parse(args, s, p, &rest))
        return -1;
    zinit();
    ph_init(*s, p, ph);
    return 0;
}

/* engine_hash(spec, pos) -> int: the search's 128-bit hash of the position, from scratch. */
PyObject *engine_hash(PyObject *self, PyObject *args)
{
    const FSpec *s;
    FPos p;
    PHash ph;
    if (parse_hashed(args, &s, &p, &ph))
        return NULL;
    return h128_long(ph.h);
}

/* engine_child_hashes(spec, pos) -> [int, ...]: the hash of each legal move's child (in
 * engine_moves' order), as the search updates it from the position's. */
PyObject *engine_child_hashes(PyObject *self, PyObject *args)
{
    const FSpec *s;
    FPos p;
    PHash ph;
    uint32_t moves[MAXMOVES];
    if (parse_hashed(args, &s, &p, &ph))
        return NULL;
    int n = fp_moves(s, &p, moves);
    PyObject *list = PyList_New(n);
    for (int x = 0; list && x < n; x++) {
        Change c;
        PyObject *h = h128_long(ph_child(s, &p, &ph, moves[x], &c));
        if (!h) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, x, h);
    }
    return list;
}

/* --- Draws as moves (engine_restarts' ``compress``) -------------------------------------
 *
 * A click on the stock changes the stock, the waste and the redeals only, and a move that
 * neither takes the waste's top card nor clicks reads and changes none of them: the two
 * commute. So any line of moves can be reordered, keeping its end, until every run of
 * clicks is followed at once by a move of the waste's top card (a won game's waste is
 * empty, so every click of a winning line is followed by one). A search whose moves are
 * the other moves and "k clicks, then the waste's top card to one place" (a draw: code
 * MOVE_CODE(waste, dst, 1) with k in its top byte) therefore finds a win wherever there is
 * one, and a position it exhausts is lost; it skips the positions between clicks, and
 * every position that differs from another only by where the stock was stopped without a
 * card of it being played. */

#define DRAWS(code) ((int)((code) >> 24))

/* One click on stock st (sl cards) and waste wa (wl cards): 0 when none is legal. */
static int draw_click(const FSpec *s, uint8_t *st, int *sl, uint8_t *wa, int *wl, int *redeals)
{
    if (*sl) {
        wa[(*wl)++] = st[--*sl];
        return 1;
    }
    if (*wl && *redeals < s->passes - 1) {
        for (int x = *wl - 1; x >= 0; x--)
            st[(*sl)++] = wa[x];
        *wl = 0;
        ++*redeals;
        return 1;
    }
    return 0;
}

/* ``p`` with another stock, waste and redeals. */
static void with_stock(const FSpec *s, const FPos *p, const uint8_t *st, int sl, const uint8_t *wa,
                       int wl, int redeals, FPos *q)
{
    int o = 0;
    q->redeals = redeals;
    memcpy(q->down, p->down, (size_t)s->np);
    for (int j = 0; j < s->np; j++) {
        const uint8_t *src = p->cards + p->off[j];
        int n = p->len[j];
        if (j == s->stock) {
            src = st;
            n = sl;
        } else if (j == s->waste) {
            src = wa;
            n = wl;
        }
        q->off[j] = o;
        memcpy(q->cards + o, src, (size_t)n);
        q->len[j] = (uint8_t)n;
        o += n;
    }
    q->off[s->np] = o;
}

/* The position after ``code``'s clicks (none for another code), then its move. */
static void draw_play(const FSpec *s, const FPos *p, uint32_t code, FPos *q)
{
    int k = DRAWS(code);
    if (!k) {
        fp_play(s, p, code, q);
        return;
    }
    uint8_t st[256], wa[256];
    int sl = p->len[s->stock], wl = p->len[s->waste], rd = p->redeals;
    memcpy(st, p->cards + p->off[s->stock], (size_t)sl);
    memcpy(wa, p->cards + p->off[s->waste], (size_t)wl);
    for (int x = 0; x < k; x++)
        draw_click(s, st, &sl, wa, &wl, &rd);
    FPos t;
    with_stock(s, p, st, sl, wa, wl, rd, &t);
    fp_play(s, &t, code & 0xFFFFFFu, q);
}

/* The hash of draw_play(p, code)'s position from ``p``'s (``ph``) without playing it, for
 * a draw whose clicks stay within the stock (no redeal): the stock's top k cards go onto
 * the waste in turn and the last of them on to the move's place, so only those three
 * piles' terms change. Else (a redeal among the clicks) it plays the draw and hashes the
 * position from scratch. */
static H128 ph_draw(const FSpec *s, const FPos *p, const PHash *ph, uint32_t code)
{
    int k = DRAWS(code), st = s->stock, wa = s->waste, dst = MOVE_DST(code);
    int ls = p->len[st], lw = p->len[wa], ld = p->len[dst];
    if (k > ls || MOVE_SRC(code) != wa || MOVE_CARDS(code) != 1 || dst == st || dst == wa) {
        FPos q;
        PHash qh;
        draw_play(s, p, code, &q);
        ph_init(s, &q, &qh);
        return qh.h;
    }
    const uint8_t *sc = p->cards + p->off[st], *wc = p->cards + p->off[wa];
    uint64_t a = ph->h.a, b = ph->h.b, t[2];
    uint64_t ls_[2] = {ph->lin[st][0], ph->lin[st][1]}, lw_[2] = {ph->lin[wa][0], ph->lin[wa][1]};
    uint64_t ld_[2] = {ph->lin[dst][0], ph->lin[dst][1]};
    const int piles[3] = {st, wa, dst};
    for (int x = 0; x < 3; x++) {
        int i = piles[x];
        pile_term(s, i, p->len[i], p->down[i], top_or_empty(p, i), ph->lin[i], t);
        a -= t[0];
        b -= t[1];
    }
    for (int j = 0; j < k; j++) { /* the stock's top k cards leave it */
        const uint64_t *z = ZCARD[ls - 1 - j][sc[ls - 1 - j] & 63];
        ls_[0] -= z[0];
        ls_[1] -= z[1];
    }
    for (int j = 0; j + 1 < k; j++) { /* all but the last drawn stay on the waste */
        const uint64_t *z = ZCARD[lw + j][sc[ls - 1 - j] & 63];
        lw_[0] += z[0];
        lw_[1] += z[1];
    }
    int card = sc[ls - k];
    const uint64_t *z = ZCARD[ld][card & 63];
    ld_[0] += z[0];
    ld_[1] += z[1];
    int nw = lw + k - 1;
    int wtop = k > 1 ? sc[ls - k + 1] : lw ? wc[lw - 1] : 255;
    pile_term(s, st, ls - k, p->down[st], ls > k ? sc[ls - k - 1] : 255, ls_, t);
    a += t[0];
    b += t[1];
    pile_term(s, wa, nw, p->down[wa], nw ? wtop : 255, lw_, t);
    a += t[0];
    b += t[1];
    pile_term(s, dst, ld + 1, p->down[dst], card, ld_, t);
    a += t[0];
    b += t[1];
    return (H128){a, b};
}

/* The draws of ``p`` (see above) into out, at most ``room``: for each number of clicks
 * after which the waste's top card can go somewhere, its moves from the waste (one per
 * alike destination, as fp_children_rule keeps them). Returns their count. */
static int draw_moves(const FSpec *s, const FPos *p, uint32_t *out, int room)
{
    if (!s->stock_turn || !(s->feeds_column >> K_WASTE & 1 || s->feeds_foundation >> K_WASTE & 1))
        return 0;
    /* takes[c]: a waste card c could go somewhere (a cheap test before the moves). */
    uint8_t takes[64] = {0};
    int empty = 0;
    for (int x = 0; x < s->nfound && (s->feeds_foundation >> K_WASTE & 1); x++) {
        int f = s->founds[x];
        if (!p->len[f])
            memset(takes, 1, 4);
        else if ((top(p, f) & 63) + 4 < 64)
            takes[(top(p, f) & 63) + 4] = 1;
    }
    for (int x = 0; x < s->ncols && (s->feeds_column >> K_WASTE & 1); x++) {
        int c = s->cols[x];
        if (!p->len[c])
            empty = 1;
        else if (s->builds && s->same_suit && (top(p, c) & 63) >= 4)
            takes[(top(p, c) & 63) - 4] = 1;
        else if (s->builds && !s->same_suit)
            empty = 1; /* any suit builds: no cheap test, try every card */
    }
    if (empty && !((s->refuses >> K_WASTE & 1) || s->empty_column == E_NONE))
        memset(takes, 1, sizeof takes);
    uint8_t st[256], wa[256];
    int sl = p->len[s->stock], wl = p->len[s->waste], rd = p->redeals, n = 0;
    memcpy(st, p->cards + p->off[s->stock], (size_t)sl);
    memcpy(wa, p->cards + p->off[s->waste], (size_t)wl);
    uint32_t moves[MAXMOVES];
    for (int k = 1; k < 256 && draw_click(s, st, &sl, wa, &wl, &rd); k++) {
        if (!wl || !takes[wa[wl - 1] & 63])
            continue;
        FPos q;
        with_stock(s, p, st, sl, wa, wl, rd, &q);
        int m = fp_moves(s, &q, moves);
        for (int x = 0; x < m; x++) {
            uint32_t code = moves[x];
            if (code == CLICK || MOVE_SRC(code) != s->waste)
                continue;
            int dst = MOVE_DST(code), dup = 0;
            for (int y = 0; y < x && !dup; y++) { /* fp_children_rule's duplicates */
                uint32_t o = moves[y];
                if (o == CLICK || MOVE_SRC(o) != s->waste)
                    continue;
                int od = MOVE_DST(o);
                if (s->kind[dst] == K_COLUMN && s->kind[od] == K_COLUMN)
                    dup = q.len[od] == q.len[dst] && q.down[od] == q.down[dst] &&
                          !memcmp(q.cards + q.off[od], q.cards + q.off[dst], q.len[dst]);
                else if (s->kind[dst] == K_FOUNDATION && s->kind[od] == K_FOUNDATION)
                    dup = (q.len[od] ? top(&q, od) : -1) == (q.len[dst] ? top(&q, dst) : -1);
            }
            if (!dup && n < room)
                out[n++] = (uint32_t)k << 24 | code;
        }
    }
    return n;
}

/* engine_draw_hashes(spec, pos) -> [(code, hash, hash), ...]: each draw of the position
 * (draw_moves' order), its child's hash as the search updates it (ph_draw) and from
 * scratch (draw_play, then ph_init), for the tests. */
PyObject *engine_draw_hashes(PyObject *self, PyObject *args)
{
    const FSpec *s;
    FPos p;
    PHash ph, qh;
    uint32_t codes[MAXMOVES];
    if (parse_hashed(args, &s, &p, &ph))
        return NULL;
    int n = draw_moves(s, &p, codes, MAXMOVES);
    PyObject *list = PyList_New(n);
    for (int x = 0; list && x < n; x++) {
        FPos q;
        draw_play(s, &p, codes[x], &q);
        ph_init(s, &q, &qh);
        PyObject *a = h128_long(ph_draw(s, &p, &ph, codes[x])), *b = h128_long(qh.h);
        PyObject *t = a && b ? Py_BuildValue("(kOO)", (unsigned long)codes[x], a, b) : NULL;
        Py_XDECREF(a);
        Py_XDECREF(b);
        if (!t) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, x, t);
    }
    return list;
}

/* --- The restarting search, compiled (search._restarting and search._dive) -------------
 *
 * The same search as the Python reference, step for step: a first plain depth-first dive,
 * then dives with budgets from the Luby sequence whose move order is perturbed by seeded
 * draws (SplitMix64, search.SplitMix), all sharing one table of positions proven lost
 * (strongly connected components closed without a win, Tarjan's lowlinks). Positions are
 * identified by the 128-bit hash of their canonical key (knowledge.canonical_key, "The
 * position hash" above); two keys with the same 128 bits would be taken for one position,
 * with a chance of about n * n / 2^129 for n positions (below 1e-25 for ten million).
 * tests/solver/test_packed.py checks that both searches give the same verdict, moves and
 * positions counted. */

/* The positions proven lost: a set of hashes, open addressing on the low bits of h.a
 * (a slot of zeros is empty; the one hash of zeros is stored as {0, 1}). */
typedef struct {
    H128 *s;
    size_t cap, n;
} HSet;

static inline H128 hset_norm(H128 h)
{
    if (!(h.a | h.b))
        h.b = 1;
    return h;
}

static int hset_init(HSet *t, size_t cap)
{
    t->s = big_calloc(cap, sizeof *t->s);
    t->cap = cap;
    t->n = 0;
    return t->s ? 0 : -1;
}

static inline int hset_has(const HSet *t, H128 h)
{
    h = hset_norm(h);
    size_t mask = t->cap - 1, i = (size_t)h.a & mask;
    for (;;) {
        const H128 *x = &t->s[i];
        if (x->a == h.a && x->b == h.b)
            return 1;
        if (!(x->a | x->b))
            return 0;
        i = (i + 1) & mask;
    }
}

static inline void hset_prefetch(const HSet *t, H128 h)
{
    __builtin_prefetch(&t->s[(size_t)h.a & (t->cap - 1)]);
}

/* Adds ``h`` if it is not there: 0 done, -1 out of memory. */
static int hset_add(HSet *t, H128 h)
{
    h = hset_norm(h);
    if (2 * (t->n + 1) > t->cap) { /* at most half full */
        size_t cap = t->cap * 2;
        H128 *s = big_calloc(cap, sizeof *s);
        if (!s)
            return -1;
        for (size_t j = 0; j < t->cap; j++) {
            H128 x = t->s[j];
            if (!(x.a | x.b))
                continue;
            size_t i = (size_t)x.a & (cap - 1);
            while (s[i].a | s[i].b)
                i = (i + 1) & (cap - 1);
            s[i] = x;
        }
        free(t->s);
        t->s = s;
        t->cap = cap;
    }
    size_t mask = t->cap - 1, i = (size_t)h.a & mask;
    for (;;) {
        H128 *x = &t->s[i];
        if (x->a == h.a && x->b == h.b)
            return 0;
        if (!(x->a | x->b)) {
            *x = h;
            t->n++;
            return 0;
        }
        i = (i + 1) & mask;
    }
}

/* A dive's positions: entries (hash, Tarjan index, on the stack) and slots holding an
 * entry's id and the high half of its h.a, so a probe reads an entry only on a match. */
typedef struct {
    H128 h;
    int32_t index;
    int32_t open; /* on Tarjan's stack: reached, its component not yet closed */
} Entry;

typedef struct {
    uint32_t tag; /* h.a >> 32 */
    int32_t id;   /* -1: empty */
} Slot;

typedef struct {
    Slot *slots; /* a power of two long */
    size_t cap;
    Entry *e;
    size_t n, ecap;
} Table;

static int table_init(Table *t, size_t cap)
{
    t->slots = big_alloc(cap * sizeof *t->slots);
    t->e = big_alloc((cap / 2) * sizeof *t->e);
    if (!t->slots || !t->e) {
        free(t->slots);
        free(t->e);
        t->slots = NULL;
        t->e = NULL;
        return -1;
    }
    memset(t->slots, 0xFF, cap * sizeof *t->slots);
    t->cap = cap;
    t->n = 0;
    t->ecap = cap / 2;
    return 0;
}

/* Empties the table, keeping its memory: every used slot back to empty, O(entries). */
static void table_clear(Table *t)
{
    size_t mask = t->cap - 1;
    for (size_t id = 0; id < t->n; id++) {
        size_t i = (size_t)t->e[id].h.a & mask;
        while (t->slots[i].id != (int32_t)id)
            i = (i + 1) & mask;
        t->slots[i].id = -1;
    }
    t->n = 0;
}

static void table_free(Table *t)
{
    free(t->slots);
    free(t->e);
    t->slots = NULL;
    t->e = NULL;
}

static inline int32_t table_find(const Table *t, H128 h)
{
    size_t mask = t->cap - 1, i = (size_t)h.a & mask;
    uint32_t tag = (uint32_t)(h.a >> 32);
    for (;;) {
        Slot x = t->slots[i];
        if (x.id < 0)
            return -1;
        if (x.tag == tag && t->e[x.id].h.a == h.a && t->e[x.id].h.b == h.b)
            return x.id;
        i = (i + 1) & mask;
    }
}

static inline void table_prefetch(const Table *t, H128 h)
{
    __builtin_prefetch(&t->slots[(size_t)h.a & (t->cap - 1)]);
}

/* Adds ``h`` (not in the table); returns its entry id, or -1 when out of memory. */
static int32_t table_add(Table *t, H128 h)
{
    if (t->n + 1 > t->ecap) { /* grow: twice the slots, entries up to half of them */
        size_t cap = t->cap * 2;
        Slot *slots = big_alloc(cap * sizeof *slots);
        Entry *e = big_alloc((cap / 2) * sizeof *e);
        if (!slots || !e) {
            free(slots);
            free(e);
            return -1;
        }
        memcpy(e, t->e, t->n * sizeof *e);
        free(t->e);
        memset(slots, 0xFF, cap * sizeof *slots);
        for (size_t id = 0; id < t->n; id++) {
            size_t i = (size_t)e[id].h.a & (cap - 1);
            while (slots[i].id >= 0)
                i = (i + 1) & (cap - 1);
            slots[i] = (Slot){(uint32_t)(e[id].h.a >> 32), (int32_t)id};
        }
        free(t->slots);
        t->slots = slots;
        t->e = e;
        t->cap = cap;
        t->ecap = cap / 2;
    }
    size_t mask = t->cap - 1, i = (size_t)h.a & mask;
    while (t->slots[i].id >= 0)
        i = (i + 1) & mask;
    int32_t id = (int32_t)t->n++;
    t->slots[i] = (Slot){(uint32_t)(h.a >> 32), id};
    t->e[id].h = h;
    t->e[id].index = 0;
    t->e[id].open = 0;
    return id;
}

static double mix_random(Mix *m) { return (double)(mix_next(m) >> 11) * (1.0 / 9007199254740992.0); }

static int64_t luby(int64_t n)
{
    int k = 1;
    while ((1LL << k) - 1 < n)
        k++;
    for (;;) {
        if (n == (1LL << k) - 1)
            return 1LL << (k - 1);
        n -= (1LL << (k - 1)) - 1;
        k = 1;
        while ((1LL << k) - 1 < n)
            k++;
    }
}

#define DEAD_CACHE (1 << 16) /* slots of the compiled dead-spine test's cache */

typedef struct {
    uint8_t n, dead; /* n: the bytes' length (0: an empty slot) */
    uint8_t b[62];
} DeadEntry;

#define WASTE_CACHE (1 << 15) /* slots of the last pass's capacity test's cache */

typedef struct {
    uint16_t n; /* the bytes' length (0: an empty slot) */
    uint8_t dead;
    uint8_t b[253];
} WasteEntry;

typedef struct {
    FPos pos;
    PHash ph;
    int32_t entry, low;
    uint32_t move; /* the move that led here */
    size_t kids;   /* its children's codes: kids[kids .. kids + nkids) */
    int nkids, next;
    int up; /* cards on the foundations */
} Frame;

typedef struct {
    const FSpec *s;
    FPos root;
    PyObject *dead, *locks; /* the dead-position test (None: none) and its answers */
    Py_ssize_t locks_max;
    DeadEntry *dcache; /* the compiled dead-spine test's answers (dead is True), or NULL */
    double detour, early, deadline; /* deadline < 0: none */
    HSet lost;
    Table idx; /* the current dive's positions */
    Frame *frames;
    size_t nframes, fcap;
    uint32_t *kids;
    size_t nk, kcap;
    H128 *khash; /* the children's hashes, beside kids */
    size_t khcap;
    int32_t *tarjan;
    size_t nt, tcap;
    int best; /* the most cards on the foundations of any position expanded */
    int compress;  /* draws as moves instead of clicks (draw_moves) */
    int returning; /* fp_children_rule's ``returning`` */
    WasteEntry *wcache; /* the last pass's capacity test (fp_wastelock) and its answers, or NULL */
    int64_t wfired;     /* positions it proved lost */
} Search;

/* GROW_ARRAY (grow.h), with Python's MemoryError when out of memory. */
#define GROW(arr, cap, need) (GROW_ARRAY(arr, cap, need, 64) ? (PyErr_NoMemory(), -1) : 0)

/* PackedDomain._dead: 1 dead, 0 not, -1 a Python error. With the compiled test (dead is
 * True) its answers are kept by what it reads (fp_lock's bytes), one per slot of a
 * direct-mapped cache: a slot holds the bytes themselves, so an answer is never taken
 * for another position's. */
static int dead_check(Search *S, const FPos *p)
{
    uint8_t buf[512];
    int o = fp_lock(S->s, p, buf);
    if (S->dcache) {
        if (o > (int)sizeof S->dcache->b)
            return fp_dead(S->s, p);
        uint64_t h = 0x6A09E667F3BCC908ULL ^ (uint64_t)o;
        for (int i = 0; i < o; i++)
            h = (h ^ buf[i]) * 0x100000001B3ULL;
        DeadEntry *e = &S->dcache[fmix(h) & (DEAD_CACHE - 1)];
        if (e->n == o && !memcmp(e->b, buf, (size_t)o))
            return e->dead;
        int d = fp_dead(S->s, p);
        e->n = (uint8_t)o;
        e->dead = (uint8_t)d;
        memcpy(e->b, buf, (size_t)o);
        return d;
    }
    PyObject *key = PyBytes_FromStringAndSize((const char *)buf, o);
    if (!key)
        return -1;
    PyObject *v = PyDict_GetItemWithError(S->locks, key);
    if (v) {
        int r = PyObject_IsTrue(v);
        Py_DECREF(key);
        return r;
    }
    PyObject *pos = PyErr_Occurred() ? NULL : fp_bytes(S->s, p);
    PyObject *r = pos ? PyObject_CallOneArg(S->dead, pos) : NULL;
    Py_XDECREF(pos);
    int t = r ? PyObject_IsTrue(r) : -1;
    Py_XDECREF(r);
    if (t >= 0 && PyDict_Size(S->locks) >= S->locks_max)
        PyDict_Clear(S->locks);
    if (t >= 0 && PyDict_SetItem(S->locks, key, t ? Py_True : Py_False) < 0)
        t = -1;
    Py_DECREF(key);
    return t;
}

/* fp_wastelock as a leaf test: 1 lost, 0 not known. Its answers are kept by what it reads
 * (fp_wastekey's bytes, the bytes themselves in a direct-mapped slot), after wl_applies'
 * test of the columns' shape, which the bytes leave out. */
static int waste_check(Search *S, const FPos *p)
{
    if (!p->len[S->s->waste] || !wl_applies(S->s, p))
        return 0;
    uint8_t buf[1024];
    int o = fp_wastekey(S->s, p, buf);
    if (o > (int)sizeof S->wcache->b)
        return wl_lock(S->s, p) >= 0;
    uint64_t h = 0x6A09E667F3BCC908ULL ^ (uint64_t)o;
    for (int i = 0; i < o; i++)
        h = (h ^ buf[i]) * 0x100000001B3ULL;
    WasteEntry *e = &S->wcache[fmix(h) & (WASTE_CACHE - 1)];
    if (e->n == o && !memcmp(e->b, buf, (size_t)o))
        return e->dead;
    int d = wl_lock(S->s, p) >= 0;
    e->n = (uint16_t)o;
    e->dead = (uint8_t)d;
    memcpy(e->b, buf, (size_t)o);
    return d;
}

/* Opens the frame after the last one, whose position and hash are set (reached by
 * ``move``, entry ``entry`` at ``index``): its children in search order, perturbed by
 * ``rng`` as search._perturbed does. The caller has grown the frames. */
static int open_frame(Search *S, int32_t entry, int32_t index, uint32_t move, Mix *rng)
{
    if (GROW(S->kids, S->kcap, S->nk + 2 * MAXMOVES) ||
        GROW(S->khash, S->khcap, S->nk + 2 * MAXMOVES))
        return -1;
    Frame *f = &S->frames[S->nframes];
    int dead = 0;
    if ((S->dcache || S->dead != Py_None) && (dead = dead_check(S, &f->pos)) < 0)
        return -1;
    if (!dead && S->wcache && (dead = waste_check(S, &f->pos)))
        S->wfired++;
    uint32_t *k = S->kids + S->nk;
    int n = dead ? 0 : fp_children_rule(S->s, &f->pos, k, S->returning);
    if (S->compress)
        for (int x = 0; x < n; x++)
            if (k[x] == CLICK) { /* the click gives way to the draws, in its place */
                uint32_t draws[MAXMOVES];
                int d = draw_moves(S->s, &f->pos, draws, MAXMOVES);
                memmove(k + x + d, k + x + 1, (size_t)(n - x - 1) * sizeof *k);
                memcpy(k + x, draws, (size_t)d * sizeof *k);
                n += d - 1;
                break;
            }
    if (rng) {
        size_t depth = S->nframes;
        double chance = S->early / (double)(depth + 1);
        if (chance < S->detour)
            chance = S->detour;
        if (mix_random(rng) < chance && n > 1) {
            int j = 1 + (int)(mix_next(rng) % (uint64_t)(n - 1));
            uint32_t c = k[j];
            memmove(k + 1, k, (size_t)j * sizeof *k);
            k[0] = c;
        }
    }
    /* The children's hashes now, and their table slots fetched while the search goes on. */
    H128 *kh = S->khash + S->nk;
    for (int x = 0; x < n; x++) {
        Change ch;
        if (DRAWS(k[x])) {
            kh[x] = ph_draw(S->s, &f->pos, &f->ph, k[x]);
#ifdef PH_DRAW_CHECK
            FPos q;
            PHash qh;
            draw_play(S->s, &f->pos, k[x], &q);
            ph_init(S->s, &q, &qh);
            if (qh.h.a != kh[x].a || qh.h.b != kh[x].b)
                abort();
#endif
        } else
            kh[x] = ph_child(S->s, &f->pos, &f->ph, k[x], &ch);
        hset_prefetch(&S->lost, kh[x]);
        table_prefetch(&S->idx, kh[x]);
    }
    int up = 0;
    for (int x = 0; x < S->s->nfound; x++)
        up += f->pos.len[S->s->founds[x]];
    f->up = up;
    if (up > S->best)
        S->best = up;
    f->entry = entry;
    f->low = index;
    f->move = move;
    f->kids = S->nk;
    f->nkids = n;
    f->next = 0;
    S->nk += (size_t)n;
    S->nframes++;
    return 0;
}

enum { D_LOST = 0, D_WON = 1, D_UNKNOWN = 2, D_ERROR = -1 };

/* search._dive: one depth-first dive of at most ``budget`` positions. On a win the line is
 * the frames' moves and then ``*last``. */
static int dive(Search *S, int64_t budget, Mix *rng, int64_t *count_out, uint32_t *last)
{
    *count_out = 0;
    S->nframes = S->nk = S->nt = 0;
    PHash ph;
    ph_init(S->s, &S->root, &ph);
    H128 h = ph.h;
    if (hset_has(&S->lost, h))
        return D_LOST;
    Table *idx = &S->idx; /* kept from dive to dive (no new pages to clear), emptied here */
    table_clear(idx);
    int out = D_LOST;
    int32_t e = table_add(idx, h);
    idx->e[e].open = 1;
    int64_t count = 1;
    if (GROW(S->tarjan, S->tcap, 1) || GROW(S->frames, S->fcap, 1)) {
        out = D_ERROR;
        goto done;
    }
    S->frames[0].pos = S->root;
    S->frames[0].ph = ph;
    if (open_frame(S, e, 0, 0, rng)) {
        out = D_ERROR;
        goto done;
    }
    S->tarjan[S->nt++] = e;
    while (S->nframes) {
        Frame *f = &S->frames[S->nframes - 1];
        int pushed = 0;
        while (f->next < f->nkids) {
            size_t at = f->kids + (size_t)f->next++;
            uint32_t code = S->kids[at];
            int up = f->up;
            if (code != CLICK) {
                int m = MOVE_CARDS(code);
                up += (S->s->kind[MOVE_DST(code)] == K_FOUNDATION ? m : 0) -
                      (S->s->kind[MOVE_SRC(code)] == K_FOUNDATION ? m : 0);
            }
            if (up == S->s->won) {
                *last = code;
                out = D_WON;
                goto done;
            }
            h = S->khash[at];
            if (hset_has(&S->lost, h))
                continue;
            int32_t i = table_find(idx, h);
            if (i >= 0) {
                if (idx->e[i].open && idx->e[i].index < f->low)
                    f->low = idx->e[i].index;
                continue;
            }
            if (count >= budget ||
                (count % 256 == 0 && S->deadline >= 0 && now() > S->deadline)) {
                out = D_UNKNOWN;
                goto done;
            }
            if (count % 4096 == 0 && PyErr_CheckSignals()) {
                out = D_ERROR;
                goto done;
            }
            int32_t ne = table_add(idx, h);
            if (ne < 0 || GROW(S->tarjan, S->tcap, S->nt + 1)) {
                if (!PyErr_Occurred())
                    PyErr_NoMemory();
                out = D_ERROR;
                goto done;
            }
            idx->e[ne].index = (int32_t)count;
            idx->e[ne].open = 1;
            S->tarjan[S->nt++] = ne;
            count++;
            if (GROW(S->frames, S->fcap, S->nframes + 1)) {
                out = D_ERROR;
                goto done;
            }
            f = &S->frames[S->nframes - 1];
            Frame *c = &S->frames[S->nframes];
            if (DRAWS(code)) {
                draw_play(S->s, &f->pos, code, &c->pos);
                ph_init(S->s, &c->pos, &c->ph);
            } else {
                Change ch;
                ph_child(S->s, &f->pos, &f->ph, code, &ch);
                fp_play(S->s, &f->pos, code, &c->pos);
                ph_apply(&f->ph, S->s->np, &ch, h, &c->ph);
            }
            if (open_frame(S, ne, (int32_t)(count - 1), code, rng)) {
                out = D_ERROR;
                goto done;
            }
            pushed = 1;
            break;
        }
        if (pushed)
            continue;
        Frame *g = &S->frames[--S->nframes];
        int32_t low = g->low;
        if (low == idx->e[g->entry].index) { /* a component closes: all of it is lost */
            for (;;) {
                int32_t k = S->tarjan[--S->nt];
                idx->e[k].open = 0;
                if (hset_add(&S->lost, idx->e[k].h) < 0) {
                    PyErr_NoMemory();
                    out = D_ERROR;
                    goto done;
                }
                if (k == g->entry)
                    break;
            }
        }
        S->nk = g->kids;
        if (S->nframes && low < S->frames[S->nframes - 1].low)
            S->frames[S->nframes - 1].low = low;
    }
done:
    *count_out = count;
    return out;
}

/* engine_restarts(spec, root, nodes, deadline, first, unit, detour, early, dead, locks,
 * locks_max[, table, compress, wastelock, returning]) -> (result, codes, used):
 * search._restarting on a packed position (``returning``: fp_children_rule's). ``nodes``
 * < 0: no node budget; ``deadline`` (time.perf_counter's clock) < 0: none; ``dead``: a
 * callable (packed position -> bool) or None, its answers kept in ``locks`` by what it
 * reads (engine_lock), which is emptied when it holds ``locks_max``; or True: the compiled
 * dead-spine test (fp_dead, Backbone classic), ``locks`` unused. */
/* A table of positions proven lost that outlives one engine_restarts call: the game's
 * rules it belongs to (the first call's) and the positions' keys. */
typedef struct {
    HSet lost;
    int has_spec;
    FSpec spec;
} LostTable;

static const char *LOST_NAME = "pasyans.engine_lost";

static void lost_table_free(PyObject *cap)
{
    LostTable *t = PyCapsule_GetPointer(cap, LOST_NAME);
    if (t) {
        free(t->lost.s);
        free(t);
    }
}

/* engine_table() -> an empty table of positions proven lost for engine_restarts' last
 * argument: each dive adds the components it closes, later calls skip them. */
PyObject *engine_table(PyObject *self, PyObject *args)
{
    LostTable *t = calloc(1, sizeof *t);
    if (!t || hset_init(&t->lost, 1024)) {
        free(t);
        return PyErr_NoMemory();
    }
    PyObject *cap = PyCapsule_New(t, LOST_NAME, lost_table_free);
    if (!cap) {
        free(t->lost.s);
        free(t);
    }
    return cap;
}

static PyObject *restarts(PyObject *args, int reach)
{
    PyObject *cap, *dead, *locks, *tcap = Py_None;
    Py_buffer b;
    long long nodes, first, unit;
    double deadline, detour, early;
    Py_ssize_t locks_max;
    int compress = 0, wastelock = 0, returning = 0;
    if (!PyArg_ParseTuple(args, "Oy*LdLLddOO!n|Oppp", &cap, &b, &nodes, &deadline, &first, &unit,
                          &detour, &early, &dead, &PyDict_Type, &locks, &locks_max, &tcap,
                          &compress, &wastelock, &returning))
        return NULL;
    Search S;
    memset(&S, 0, sizeof S);
    S.compress = compress;
    S.returning = returning;
    S.s = PyCapsule_GetPointer(cap, SPEC_NAME);
    int bad = !S.s || fp_load(S.s, b.buf, b.len, &S.root);
    PyBuffer_Release(&b);
    if (bad) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "not a packed position of this game");
        return NULL;
    }
    LostTable *table = NULL;
    if (tcap != Py_None) {
        if (!(table = PyCapsule_GetPointer(tcap, LOST_NAME)))
            return NULL;
        /* The keys depend on the rules only (engine_spec's capsule is made anew for each
         * position): the same rules, field by field. */
        if (table->has_spec && memcmp(&table->spec, S.s, sizeof table->spec)) {
            PyErr_SetString(PyExc_ValueError, "this table belongs to another game");
            return NULL;
        }
    }
    int cdead = dead == Py_True;
    if (first < 1 || unit < 1 || (dead != Py_None && !cdead && !PyCallable_Check(dead))) {
        PyErr_SetString(PyExc_ValueError, "bad search parameters");
        return NULL;
    }
    if (cdead && fp_dead(S.s, &S.root) < 0) {
        PyErr_SetString(PyExc_ValueError, "the compiled dead-spine test needs two spine piles "
                                          "and a tailbone");
        return NULL;
    }
    if (cdead) {
        dead = Py_None;
        if (!(S.dcache = calloc(DEAD_CACHE, sizeof *S.dcache)))
            return PyErr_NoMemory();
    }
    if (wastelock && S.s->stock_turn && S.s->builds && S.s->same_suit &&
        !(S.wcache = calloc(WASTE_CACHE, sizeof *S.wcache))) {
        free(S.dcache);
        return PyErr_NoMemory();
    }
    S.dead = dead;
    S.locks = locks;
    S.locks_max = locks_max;
    S.detour = detour;
    S.early = early;
    S.deadline = deadline;
    zinit();
    if (table)
        S.lost = table->lost; /* handed back below, grown */
    if ((!table && hset_init(&S.lost, 1024)) || table_init(&S.idx, 1024)) {
        if (!table)
            free(S.lost.s);
        free(S.dcache);
        free(S.wcache);
        return PyErr_NoMemory();
    }
    int64_t used = 0, n = 0, count = 0;
    int r;
    uint32_t last = 0;
    for (;;) {
        int64_t share = n == 0 ? first : unit * luby(n);
        int64_t budget = share;
        if (nodes >= 0 && nodes - used < budget)
            budget = nodes - used > 0 ? nodes - used : 0;
        Mix rng = {(uint64_t)n};
        r = dive(&S, budget, n == 0 ? NULL : &rng, &count, &last);
        used += count;
        if (r != D_UNKNOWN)
            break;
        if ((nodes >= 0 && used >= nodes) || (deadline >= 0 && now() > deadline))
            break;
        n++;
    }
    PyObject *result = NULL;
    if (r != D_ERROR) {
        size_t len = r == D_WON ? S.nframes : 0; /* frames 1.. and the last move */
        PyObject *moves = PyList_New((Py_ssize_t)len);
        for (size_t x = 1; moves && x < S.nframes && r == D_WON; x++)
            PyList_SET_ITEM(moves, (Py_ssize_t)(x - 1), PyLong_FromUnsignedLong(S.frames[x].move));
        if (moves && r == D_WON)
            PyList_SET_ITEM(moves, (Py_ssize_t)(len - 1), PyLong_FromUnsignedLong(last));
        const char *word = r == D_WON ? "won" : r == D_LOST ? "lost" : "unknown";
        if (moves && reach) {
            Py_DECREF(moves);
            result = Py_BuildValue("(sLi)", word, (long long)used, r == D_WON ? S.s->won : S.best);
        } else if (moves)
            result = Py_BuildValue("(sNL)", word, moves, (long long)used);
    }
    if (table) {
        table->lost = S.lost;
        if (!table->has_spec) {
            table->spec = *S.s;
            table->has_spec = 1;
        }
    } else {
        free(S.lost.s);
    }
    table_free(&S.idx);
    free(S.frames);
    free(S.kids);
    free(S.tarjan);
    free(S.khash);
    free(S.dcache);
    free(S.wcache);
    return result;
}

PyObject *engine_restarts(PyObject *self, PyObject *args) { return restarts(args, 0); }

/* engine_reach(...) with engine_restarts' arguments -> (result, used, best): the same
 * search, and the most cards on the foundations of any position it expanded (all of them
 * when won): how far it got (hints/playout.py). */
PyObject *engine_reach(PyObject *self, PyObject *args) { return restarts(args, 1); }

/* --- The search felt player (generator version 5; solvable/felt.py is the reference) ----
 *
 * A player who tries lines and takes moves back, reading only what a person sees: a
 * randomised depth-first search over new positions, a foundation move alone when there is
 * one, the other moves in the order drawn from a SplitMix64 stream (felt._search_game,
 * step for step: the same moves in the engine's order, the same draws). Without a stock
 * (Spine, every card face up) one search of at most ``positions`` positions. With a
 * stock (Backbone, its cards face down) the search never takes back a click: from the
 * current position it searches the card moves, at most ``per_click`` positions, for a win;
 * failing that it goes to the best position it saw (most cards home, then most empty
 * columns, then fewest cards on the spine and tailbone) and clicks the stock there, until
 * ``positions`` positions are spent or the stock cannot be clicked. Answers whether it
 * won and the most cards on the foundations of a position it looked at. Positions are
 * told apart by a 128-bit hash of their bytes (a collision, about n * n / 2^129 for n
 * positions, would make it skip a position). */

typedef struct {
    uint8_t *buf;
    size_t len, cap;
    size_t *at;
    size_t n, atcap;
} FStack;

static int fs_push(FStack *st, const FSpec *s, const FPos *p)
{
    int np = s->np, total = p->off[np];
    size_t size = (size_t)(POS_CARDS(np) + total);
    if (grow_array((void **)&st->buf, &st->cap, st->len + size, 1, 4096) ||
        grow_array((void **)&st->at, &st->atcap, st->n + 1, sizeof *st->at, 64))
        return -1;
    uint8_t *b = st->buf + st->len;
    b[POS_REDEALS(np)] = (uint8_t)p->redeals;
    memcpy(b + POS_LEN(np), p->len, (size_t)np);
    memcpy(b + POS_DOWN(np), p->down, (size_t)np);
    memcpy(b + POS_CARDS(np), p->cards, (size_t)total);
    st->at[st->n++] = st->len;
    st->len += size;
    return 0;
}

static void fs_pop(FStack *st, const FSpec *s, FPos *p)
{
    size_t start = st->at[--st->n];
    fp_load(s, st->buf + start, (Py_ssize_t)(st->len - start), p);
    st->len = start;
}

static H128 fp_bytes_hash(const FSpec *s, const FPos *p)
{
    int np = s->np;
    uint64_t a = 0x243F6A8885A308D3ULL ^ (uint64_t)p->redeals, b = 0x13198A2E03707344ULL;
    for (int i = 0; i < np; i++) {
        a = fmix(a ^ ((uint64_t)p->len[i] << 8 | p->down[i] | (uint64_t)i << 16));
        b = fmix(b + ((uint64_t)p->len[i] << 24 | (uint64_t)p->down[i] << 32 | (uint64_t)i));
    }
    for (int j = 0; j < p->off[np]; j++) {
        a = fmix(a ^ ((uint64_t)p->cards[j] | (uint64_t)j << 8));
        b = fmix(b + ((uint64_t)p->cards[j] << 16 | (uint64_t)j));
    }
    H128 h = {a, b};
    return h;
}

/* SplitMix64.below(n): uniform in [0, n) by rejection (cards.py). */
static uint32_t mix_below(Mix *m, uint32_t n)
{
    uint64_t rem = (0 - (uint64_t)n) % n; /* 2^64 mod n */
    for (;;) {
        uint64_t x = mix_next(m);
        if (!rem || x < 0 - rem)
            return (uint32_t)(x % n);
    }
}

static int fp_found(const FSpec *s, const FPos *p)
{
    int n = 0;
    for (int x = 0; x < s->nfound; x++)
        n += p->len[s->founds[x]];
    return n;
}

/* The search's choice of where to click: cards home, then empty columns, then fewest
 * cards on the spine piles and the tailbone (felt._pick_score). */
static long fp_pick_score(const FSpec *s, const FPos *p)
{
    long empty = 0, spine = 0;
    for (int x = 0; x < s->ncols; x++)
        empty += !p->len[s->cols[x]];
    for (int i = 0; i < s->np; i++)
        if (s->kind[i] == K_SPINE || s->kind[i] == K_TAILBONE)
            spine += p->len[i];
    return (long)fp_found(s, p) * 100000 + empty * 1000 - spine;
}

/* One search from ``start`` (the seen set ``seen`` emptied first), at most ``limit``
 * positions, no click; *used counts them, *best the most cards home, *pick the best
 * position by fp_pick_score. 1 won, 0 not, -1 out of memory. */
static int felt_search(const FSpec *s, const FPos *start, Mix *rng, int64_t limit, int clicks,
                       HSet *seen, FStack *st, int64_t *used, int *best, FPos *pick)
{
    static uint32_t moves[MAXMOVES];
    FPos p, q;
    memset(seen->s, 0, seen->cap * sizeof *seen->s);
    seen->n = 0;
    st->n = st->len = 0;
    if (hset_add(seen, fp_bytes_hash(s, start)) || fs_push(st, s, start))
        return -1;
    long pick_score = fp_pick_score(s, start);
    *pick = *start;
    for (int64_t k = 0; k < limit && st->n; k++) {
        fs_pop(st, s, &p);
        ++*used;
        if (fp_won(s, &p)) {
            *best = s->won;
            return 1;
        }
        int f = fp_found(s, &p);
        if (f > *best)
            *best = f;
        if (clicks) {
            long sc = fp_pick_score(s, &p);
            if (sc > pick_score) {
                pick_score = sc;
                *pick = p;
            }
        }
        int n = fp_moves(s, &p, moves), m = 0;
        if (clicks) { /* the card moves only */
            for (int x = 0; x < n; x++)
                if (moves[x] != CLICK)
                    moves[m++] = moves[x];
            n = m;
            m = 0;
        }
        for (int x = 0; x < n; x++)
            if (moves[x] != CLICK && s->kind[MOVE_DST(moves[x])] == K_FOUNDATION)
                m++;
        if (m) { /* a foundation move alone: the m-th drawn of them */
            uint32_t r = mix_below(rng, (uint32_t)m), y = 0;
            for (int x = 0; x < n; x++)
                if (moves[x] != CLICK && s->kind[MOVE_DST(moves[x])] == K_FOUNDATION && y++ == r) {
                    moves[0] = moves[x];
                    break;
                }
            n = 1;
        }
        while (n) { /* drawn at random, pushed so that the first drawn is tried last */
            uint32_t r = mix_below(rng, (uint32_t)n);
            uint32_t code = moves[r];
            memmove(moves + r, moves + r + 1, sizeof *moves * (size_t)(n - 1 - (int)r));
            n--;
            fp_play(s, &p, code, &q);
            H128 h = fp_bytes_hash(s, &q);
            if (hset_has(seen, h))
                continue;
            if (hset_add(seen, h) || fs_push(st, s, &q))
                return -1;
        }
    }
    return 0;
}

/* engine_felt(spec, pos, seed, positions, per_click) -> (won, best): the search felt
 * player's game (above); per_click 0: one search, clicks among its moves (Spine). */
PyObject *engine_felt(PyObject *self, PyObject *args)
{
    PyObject *cap;
    Py_buffer b;
    unsigned long long seed;
    long long positions, per_click;
    if (!PyArg_ParseTuple(args, "Oy*KLL", &cap, &b, &seed, &positions, &per_click))
        return NULL;
    const FSpec *s = PyCapsule_GetPointer(cap, SPEC_NAME);
    FPos p, pick;
    int bad = !s || fp_load(s, b.buf, b.len, &p);
    PyBuffer_Release(&b);
    if (bad || positions < 0 || per_click < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "not a packed position of this game");
        return NULL;
    }
    HSet seen;
    FStack st = {0};
    if (hset_init(&seen, 1024))
        return PyErr_NoMemory();
    Mix rng = {(uint64_t)seed};
    int64_t used = 0;
    int best = fp_found(s, &p), won = 0;
    static uint32_t moves[MAXMOVES];
    if (!per_click)
        won = felt_search(s, &p, &rng, positions, 0, &seen, &st, &used, &best, &pick);
    else
        while (used < positions) {
            int64_t limit = positions - used < per_click ? positions - used : per_click;
            won = felt_search(s, &p, &rng, limit, 1, &seen, &st, &used, &best, &pick);
            if (won)
                break;
            int n = fp_moves(s, &pick, moves), click = 0;
            for (int x = 0; x < n; x++)
                click |= moves[x] == CLICK;
            if (!click)
                break;
            fp_play(s, &pick, CLICK, &p);
        }
    free(seen.s);
    free(st.buf);
    free(st.at);
    if (won < 0)
        return PyErr_NoMemory();
    return Py_BuildValue("(Oi)", won ? Py_True : Py_False, best);
}

/* --- The line player's candidates (hints/lines.py candidates, issue 34) ----------------
 *
 * Breadth-first from a view (its unseen stock cards HIDDEN_BYTE) over the moves that show
 * no hidden card, never to a position of ``avoid`` nor to one walked before, at most
 * ``cap`` positions expanded; a click that turns a hidden card onto the waste ends a line,
 * one line per position it leaves. Positions are told apart by fp_bytes_hash (128 bits);
 * the walk keeps each position's bytes (the same length for all: the cards never change). */

static int shows_hidden_card(const FSpec *s, const FPos *p, uint32_t code)
{
    return code == CLICK && s->stock >= 0 && p->len[s->stock] &&
           top(p, s->stock) == HIDDEN_BYTE;
}

/* engine_candidates(spec, view, avoid, cap) -> [(steps, reveal, home), ...] in the order
 * found (the walk of lines.candidates, compiled). */
PyObject *engine_candidates(PyObject *self, PyObject *args)
{
    PyObject *cap_, *avoid, *out = NULL;
    Py_buffer b;
    int cap;
    const FSpec *s;
    FPos p, q;
    if (!PyArg_ParseTuple(args, "Oy*Oi", &cap_, &b, &avoid, &cap))
        return NULL;
    s = PyCapsule_GetPointer(cap_, SPEC_NAME);
    int bad = !s || fp_load(s, b.buf, b.len, &p);
    Py_ssize_t size = b.len;
    PyBuffer_Release(&b);
    if (bad) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "not a packed position of this game");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(avoid, "avoid: a sequence of packed positions");
    if (!fast)
        return NULL;
    HSet seen = {0}, found = {0};
    WalkStep *walk = NULL;
    WalkLine *lines = NULL;
    uint8_t *bytes = NULL;
    size_t wcap = 0, lcap = 0, bcap = 0, nw = 0, nl = 0;
    bad = hset_init(&seen, 1024) || hset_init(&found, 256) || hset_add(&seen, fp_bytes_hash(s, &p));
    for (Py_ssize_t a = 0; !bad && a < PySequence_Fast_GET_SIZE(fast); a++) {
        Py_buffer x;
        if (PyObject_GetBuffer(PySequence_Fast_GET_ITEM(fast, a), &x, PyBUF_SIMPLE)) {
            bad = 2;
            break;
        }
        int wrong = fp_load(s, x.buf, x.len, &q);
        PyBuffer_Release(&x);
        if (wrong) {
            PyErr_SetString(PyExc_ValueError, "avoid: not a packed position of this game");
            bad = 2;
        } else {
            bad = hset_add(&seen, fp_bytes_hash(s, &q));
        }
    }
    if (!bad && !(GROW_ARRAY(walk, wcap, 1, 256) || GROW_ARRAY(bytes, bcap, (size_t)size, 4096))) {
        walk[0] = (WalkStep){-1, 0};
        store_pos(s, &p, bytes);
        nw = 1;
    } else if (!bad) {
        bad = 1;
    }
    uint32_t moves[MAXMOVES];
    for (size_t head = 0; !bad && head < nw && head < (size_t)(cap > 0 ? cap : 0); head++) {
        FPos pos;
        fp_load(s, bytes + head * (size_t)size, size, &pos);
        int home = fp_found(s, &pos), n = fp_moves(s, &pos, moves);
        for (int k = 0; k < n && !bad; k++) {
            fp_play(s, &pos, moves[k], &q);
            H128 h = fp_bytes_hash(s, &q);
            if (shows_hidden_card(s, &pos, moves[k])) {
                if (hset_has(&found, h))
                    continue;
                if (hset_add(&found, h) || GROW_ARRAY(lines, lcap, nl + 1, 64))
                    bad = 1;
                else
                    lines[nl++] = (WalkLine){(int32_t)head, moves[k], home};
                continue;
            }
            if (hset_has(&seen, h))
                continue;
            if (hset_add(&seen, h) || GROW_ARRAY(walk, wcap, nw + 1, 256) ||
                GROW_ARRAY(bytes, bcap, (nw + 1) * (size_t)size, 4096)) {
                bad = 1;
                break;
            }
            walk[nw] = (WalkStep){(int32_t)head, moves[k]};
            store_pos(s, &q, bytes + nw * (size_t)size);
            nw++;
        }
    }
    if (bad == 1)
        PyErr_NoMemory();
    if (!bad)
        out = walk_answer(walk, lines, nl);
    Py_DECREF(fast);
    free(seen.s);
    free(found.s);
    free(walk);
    free(lines);
    free(bytes);
    return out;
}
