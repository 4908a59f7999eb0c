/* effect_memo.c - values of a decision's options by effect (effect_memo.h). */
#include "effect_memo.h"

#include <stdlib.h>
#include <string.h>

void effect_memo_begin(effect_memo *m, int options)
{
    m->options = options;
    if (m->n > 0) memset(m->key, 0, (size_t)m->cap * sizeof *m->key);
    m->n = 0;
}

static unsigned slot_of(uint64_t key, unsigned mask) { return (unsigned)(key ^ key >> 29) & mask; }

bool effect_memo_find(const effect_memo *m, uint64_t key, double *value)
{
    if (!key || m->n == 0) return false;
    for (unsigned i = slot_of(key, m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (m->key[i] == key) {
            *value = m->value[i];
            return true;
        }
        if (m->key[i] == 0) return false;
    }
}

/* Room for the decision's options at half load at most. */
static bool make_room(effect_memo *m)
{
    unsigned want = 16;
    while (want < 2u * (unsigned)m->options + 2u && want < (1u << 30)) want *= 2;
    if (m->cap >= want) return true;
    uint64_t *k = calloc(want, sizeof *k);
    double *v = malloc(want * sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return false;
    }
    free(m->key);
    free(m->value);
    m->key = k;
    m->value = v;
    m->cap = want;
    return true;
}

void effect_memo_put(effect_memo *m, uint64_t key, double value)
{
    if (!key || m->off) return;
    if (m->n == 0 && !make_room(m)) {
        m->off = true;
        return;
    }
    if ((unsigned)m->n + 1 > m->cap / 2) return; /* more than the decision's options: keep what is there */
    unsigned i = slot_of(key, m->cap - 1);
    while (m->key[i] != 0 && m->key[i] != key) i = (i + 1) & (m->cap - 1);
    if (m->key[i] == 0) m->n++;
    m->key[i] = key;
    m->value[i] = value;
}

void effect_memo_free(effect_memo *m)
{
    free(m->key);
    free(m->value);
    memset(m, 0, sizeof *m);
}
