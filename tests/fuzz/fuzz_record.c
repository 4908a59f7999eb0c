/*
 * fuzz_record.c - libFuzzer target: the record parser and the replay (what
 * `carc replay` and `carc play --resume` do with a record from elsewhere):
 * parse, load the record's variant with its option overrides, replay every
 * line, and write the record again as `play --resume` does.
 */
#include "fuzz_common.h"

int fuzz_record(const uint8_t *data, size_t size);

static int record_input(const uint8_t *data, size_t size)
{
    /* The file path, as carc replay reads it (variant paths are relative
     * to the record). */
    const char *path = fuzz_write("game.rec", data, size);
    char err[8192];
    carc_record rec;
    if (carc_record_load(path, &rec, err, sizeof err) < 0) return 0;
    carc_rules *r = carc_record_rules(&rec, err, sizeof err);
    if (r) {
        carc_game *g = NULL;
        fuzz_check_mode();
        int replayed = carc_replay(&rec, r, &g, err, sizeof err);
        fuzz_no_check_failure(g);
        if (replayed == 0) fuzz_self_check(g);
        if (replayed == 0) {
            /* play --resume writes the record back before going on. */
            const char *names[CARC_MAX_PLAYERS], *agents[CARC_MAX_PLAYERS], *opts[32];
            for (int p = 0; p < rec.nplayers; p++) {
                names[p] = rec.names[p];
                agents[p] = rec.agents[p];
            }
            for (int i = 0; i < rec.noptions; i++) opts[i] = rec.options[i];
            carc_record_writer w;
            if (carc_writer_begin(&w, rec.variant, rec.seed, rec.nplayers, names, agents, opts, rec.noptions) < 0)
                abort();
            for (int i = 0; i < rec.nlines; i++)
                if (carc_writer_line(&w, rec.lines[i].text) < 0) abort();
            carc_record again;
            if (carc_record_parse(path, w.buf, w.len, &again, err, sizeof err) < 0) {
                fprintf(stderr, "fuzz: a record written back from a good one does not parse: %s\n", err);
                abort();
            }
            if (again.nlines != rec.nlines || again.nplayers != rec.nplayers || again.seed != rec.seed) abort();
            carc_record_free(&again);
            carc_writer_free(&w);
        }
        carc_game_free(g);
        carc_rules_free(r);
    }
    carc_record_free(&rec);
    return 0;
}

int fuzz_record(const uint8_t *data, size_t size) { return fuzz_bounded("record", record_input, data, size); }

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_record(data, size); }
#endif
