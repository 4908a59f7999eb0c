/* effect_memo.h - what a bot found options of one decision worth, by the
 * options' effect (carc_option_effect): an option whose effect it weighed
 * already is worth the same, and is not tried again. */
#ifndef CARC_EFFECT_MEMO_H
#define CARC_EFFECT_MEMO_H
#include <stdbool.h>
#include <stdint.h>

/* An open-addressing table of effect keys (never 0) and values; its arrays
 * are the memo's own, kept from decision to decision and freed by
 * effect_memo_free. */
typedef struct effect_memo {
    uint64_t *key;
    double *value;
    unsigned cap;       /* a power of two, or 0 */
    int n;
    int options;        /* the decision's options: the table makes room for them at its first entry */
    bool off;           /* out of memory: every option is tried */
} effect_memo;

/* Empties the memo for a decision of `options` options (allocates nothing). */
void effect_memo_begin(effect_memo *m, int options);
/* The value kept for key, if any (key 0: never). */
bool effect_memo_find(const effect_memo *m, uint64_t key, double *value);
/* Keeps value for key (0: nothing kept). */
void effect_memo_put(effect_memo *m, uint64_t key, double value);
void effect_memo_free(effect_memo *m);

#endif
