/* Spider's packed rules and staged search (see spider.c). */
#ifndef PASYANS_SPIDER_H
#define PASYANS_SPIDER_H

#include <stddef.h>
#include <stdint.h>

#define MAXW 16        /* columns */
#define MAXCARDS 128   /* cards on the table */
#define MAXSTOCK 128
#define MAXSTEPS 4096  /* moves from one position: at most MAXW * 13 * MAXW, plus the deal */
#define MAXSTAGES 64

/* The distance's weights (spider.py's BREAK, OFFSUIT, TANGLE, DOWN, EMPTY, STOCK). */
#define SP_BREAK 4
#define SP_OFFSUIT 3
#define SP_TANGLE 1
#define SP_DOWN 1
#define SP_EMPTY 8
#define SP_STOCK 4
/* Choosing the positions kept after a deal (past the (16,000, 16) attempt): each one
 * already kept of the same shape (the same face-down counts and completed runs) adds
 * this to a candidate's distance (spider.py's SHAPE). */
#define SP_SHAPE 4

typedef struct {
    uint8_t src, dst, cards; /* column indexes; cards == 0 is the deal */
} Step;

typedef struct {
    uint8_t len[MAXW];
    uint8_t down[MAXW];
    uint8_t left; /* cards still in the stock */
    uint8_t done; /* cards in completed runs */
    uint8_t cards[MAXCARDS];
} SPos;

typedef struct {
    int width;
    int won; /* cards in completed runs when the game is won */
    uint8_t stock[MAXSTOCK];
} SpiderGame;

typedef struct {
    uint64_t nodes;   /* positions expanded at most (0: no limit) */
    double seconds;   /* time at most (0: no limit) */
    size_t memory;    /* bytes at most for the search's tables (0: no limit) */
    int prune;        /* drop moves by the unproven rules */
} SearchLimits;

enum { SP_UNKNOWN = 0, SP_WON = 1, SP_EXHAUSTED = 2, SP_NOMEMORY = 3 };

typedef struct {
    int status;
    int dropped;       /* an unproven rule dropped a move somewhere */
    uint64_t nodes;    /* positions expanded */
    uint64_t positions; /* positions reached (the table's size) */
    size_t memory;     /* bytes the tables took */
    Step *line;        /* the winning line; without a win, the line to the expanded position
                        * nearest one (malloc'd; none when only the root was expanded) */
    size_t line_n;
} SearchResult;

int sp_steps(const SpiderGame *g, const SPos *p, Step *out);
void sp_play(const SpiderGame *g, const SPos *p, Step st, SPos *q);
int sp_distance(const SpiderGame *g, const SPos *p);
uint64_t sp_hash(const SpiderGame *g, const SPos *p);
int sp_children(const SpiderGame *g, const SPos *p, int prune, Step *out, int *dropped);
int sp_run_length(const uint8_t *col, int n, int down);
uint64_t sp_per_stage(uint32_t k);
uint64_t sp_kept_per_deal(uint32_t k);
void sp_search(const SpiderGame *g, const SPos *root, const SearchLimits *lim, SearchResult *r);

#endif
