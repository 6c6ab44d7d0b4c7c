import type { LedgerDb } from '../db/stores.ts';
import { routeDefiner, type RouteDef as HttpRouteDef } from '../http/route.ts';

/**
 * The features' routes: http's route definitions, whose handlers get the user's ledger database as
 * the session's ledger (server/index.ts opens it for each session). The HTTP layer itself knows the
 * ledger only as something with a change version, and imports nothing from db.
 */
export const defineRoute = routeDefiner<LedgerDb>();

export type RouteDef = HttpRouteDef<unknown, unknown, unknown, LedgerDb>;
