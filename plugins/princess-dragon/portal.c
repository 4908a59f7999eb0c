/* portal.c - the magic portal (PD-13). After a portal tile, the action
 * decision also offers the kernel's deploys on every OTHER placed tile
 * (api->deploy_elsewhere: `deploy NAME kind@port at x,y` for every
 * deployable follower kind in the player's supply, on features unoccupied and
 * not completed as the board stands after the placement: a cloister the
 * portal tile just completed cannot be taken), never on the dragon's tile
 * (PD-4). Deploys on the portal tile itself are the kernel's usual ones. */
#include "pd.h"

#define api pd_api
#define ID pd_ids_of(ctx)

int pd_portal_offer(carc_ctx *ctx, int player, int placed)
{
    (void)player;
    if (placed < 0 || api->type_has_mark(ctx, api->tile_type(ctx, placed), ID->portal) <= 0) return 0;
    int ntiles = api->tiles(ctx), dragon = pd_dragon_tile(ctx);
    for (int t = 0; t < ntiles; t++)
        if (t != placed && t != dragon && api->deploy_elsewhere(ctx, t) < 0) return -1;
    return 0;
}
