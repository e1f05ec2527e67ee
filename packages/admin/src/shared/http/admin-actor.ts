import type { IncomingMessage } from 'node:http';
import type { Actor } from '@giro/transfer-module';
import { UnauthorizedException } from '@nestjs/common';

/**
 * Where the admin API puts who made a request, once its key is checked: `request.giroActor`, `{ keyId, name, role }`
 * (never the key). Set by the role guard before the route runs, so interceptors, routes and filters after it (an
 * audit trail) read it there, or with `actorOf(request)`.
 */
export const GIRO_ACTOR_PROPERTY = 'giroActor';

export type AdminRequest = IncomingMessage & { [GIRO_ACTOR_PROPERTY]?: Actor };

/** The actor of an authenticated admin request; undefined before the guard ran, or for any other request. */
export function actorOf(request: IncomingMessage): Actor | undefined {
  return (request as AdminRequest)[GIRO_ACTOR_PROPERTY];
}

/**
 * Who made an authenticated admin request, as giro records it (a key's public id and name). The role guard runs
 * before every admin route, so a route always has one; a request without is refused as unauthenticated.
 */
export function recordedActorOf(request: IncomingMessage): { keyId: string; name: string } {
  const actor = actorOf(request);
  if (actor === undefined) throw new UnauthorizedException('no authenticated caller');
  return { keyId: actor.keyId, name: actor.name };
}
