/* pd.h - the princess-dragon plugin's shared declarations: the ids it looks
 * up when a game is set up, its per-game state and the functions of each part:
 *   pd_main.c   entry point, options, state, option texts, the action filter
 *   dragon.c    volcano, dragon-symbol tiles drawn early, the dragon's move
 *   princess.c  the princess removes a knight (PD-11, PD-12)
 *   portal.c    deploys through the magic portal (PD-13)
 * It needs carc API version 2 (follower kinds, deploy_elsewhere). */
#ifndef PD_H
#define PD_H

#include "carc_plugin.h"

/* Option codes of this plugin's options. */
enum { PD_OPT_DRAGON = 1, PD_OPT_PRINCESS };

/* Values of the enum options (index in the values list). */
enum { PD_TIMING_BEFORE = 0, PD_TIMING_AFTER = 1 };
enum { PD_PRINCESS_MAY = 0, PD_PRINCESS_MUST = 1 };
enum { PD_EARLY_SET_ASIDE = 0, PD_EARLY_RESHUFFLE = 1 };
enum { PD_FAIRY_BLOCKS = 0, PD_FAIRY_NO_EAT = 1 };
enum { PD_EATS_FIGURES = 0, PD_EATS_FOLLOWERS = 1 };

#define PD_MAX_VISITED 64

/* Ids of names: the plugin's data in the rules that loaded it (another
 * variant in the same process may number its marks otherwise), looked up
 * once the rules are complete (the fairy's script loads after the plugins). */
typedef struct pd_ids {
    int volcano, dragon_mark, portal;  /* tile marks */
    int princess;                      /* segment mark */
    int dragon_fig;                    /* figure kind */
    int fairy_kind;                    /* figure kind "fairy", -1 without the fairy script */
    int city;                          /* kind */
} pd_ids;

/* Per game (api->state): what changes during a game, and the options. */
typedef struct pd_state {
    int dragon;                 /* the dragon's figure id, -1 before the first volcano */
    int steps;                  /* steps made in the current move */
    int nvisited;
    int visited[PD_MAX_VISITED]; /* tiles of the current move, the start included */
    int putbacks;               /* dragon tiles put back in a row (reshuffle-now) */
    int must_princess;          /* princess=must and a removal is on offer */
    /* The options, read once when the game is set up (they are set after
     * init and do not change during a game). */
    int timing, max_steps, princess_must, early_reshuffle, fairy_no_eat, eats_followers_only;
} pd_state;

extern const carc_api *pd_api;

pd_state *pd_st(carc_ctx *ctx);
const pd_ids *pd_ids_of(carc_ctx *ctx);
/* The tile the dragon stands on, or -1. */
int pd_dragon_tile(carc_ctx *ctx);
/* The tile the fairy stands on, or -1 (no fairy script, or not yet moved). */
int pd_fairy_tile(carc_ctx *ctx);

/* dragon.c */
int pd_dragon_init(carc_ctx *ctx);
int pd_dragon_apply(carc_ctx *ctx, const carc_option *opt, int player);
int pd_dragon_format(carc_ctx *ctx, const carc_option *opt, char *buf, size_t n);

/* princess.c */
int pd_princess_offer(carc_ctx *ctx, int player, int placed);
int pd_princess_apply(carc_ctx *ctx, const carc_option *opt, int player);
int pd_princess_format(carc_ctx *ctx, const carc_option *opt, char *buf, size_t n);

/* portal.c: the kernel's deploys on other tiles after a portal tile */
int pd_portal_offer(carc_ctx *ctx, int player, int placed);

#endif
