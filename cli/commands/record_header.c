/* record_header.c - the checks of a record's header before a game starts
 * (record_header.h): a header that would not read back loses the game. */
#include "record_header.h"

#include <stdio.h>
#include <string.h>

static bool has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) return true;
    return false;
}

bool record_header_ok(const char *variant, const char *const *names, int np, const char *const *ov, int nover,
                      char *err, size_t errn)
{
    const char *bad = NULL, *why = NULL;
    for (int p = 0; p < np && !bad; p++) {
        size_t n = strlen(names[p]);
        if (n == 0 || n > 31 || strpbrk(names[p], " \t#") != NULL)
            bad = names[p], why = "a name is one word of 1 to 31 characters, without '#'";
        for (int q = 0; q < p && !bad; q++)
            if (strcmp(names[p], names[q]) == 0) bad = names[p], why = "two players have this name";
        if (!bad && has_control(names[p])) bad = names[p], why = "no control characters";
    }
    for (int i = 0; i < nover && !bad; i++)
        if (strlen(ov[i]) >= 160 || strchr(ov[i], '#') || has_control(ov[i]))
            bad = ov[i], why = "an option is shorter than 160 characters, without '#' or control characters";
    if (!bad && (strchr(variant, '#') || has_control(variant) || strlen(variant) >= 480))
        bad = variant, why = "a variant's name or path is one line without '#'";
    if (bad) snprintf(err, errn, "'%.80s' cannot be saved in a record: %s", bad, why);
    return !bad;
}
