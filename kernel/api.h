/* api.h - the kernel's side of carc_api. */
#ifndef CARC_API_IMPL_H
#define CARC_API_IMPL_H
#include "carc_plugin.h"
struct carc_game;
extern const carc_api carc_api_v1;
/* Records a plugin's error: stops the game, or fails its init. Returns -1. */
int api_error(carc_ctx *ctx, const char *msg);
#endif
