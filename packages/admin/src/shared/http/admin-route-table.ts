import type { Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { AUDITED_ACTION } from './audited.decorator';

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'ALL', 'OPTIONS', 'HEAD'];

/** An admin route as the audit trail names it. */
export interface AdminRoute {
  /** The route's `@Audited` action, else `<METHOD> <route path>` (`POST /admin/keys/:name/revoke`). */
  action: string;
  /** The route's path parameters, decoded as Express gives them to the route. */
  params: Record<string, string>;
}

interface RouteEntry {
  method: string;
  pattern: RegExp;
  names: string[];
  action: string;
}

/**
 * The admin controllers' routes, in the order Express tries them, so that a request refused before it was routed
 * (its body, its rate, no such route) is recorded under the action its route has, with its parameters.
 */
export class AdminRouteTable {
  private readonly entries: RouteEntry[];

  constructor(controllers: readonly Type[]) {
    this.entries = controllers.flatMap(routesOf);
  }

  /** The route `method` and `path` (without its query) reach, or undefined when none does. */
  find(method: string, path: string): AdminRoute | undefined {
    for (const entry of this.entries) {
      if (entry.method !== method && entry.method !== 'ALL') continue;
      const match = entry.pattern.exec(path);
      if (match === null) continue;
      const params = Object.fromEntries(entry.names.map((name, index) => [name, decoded(match[index + 1] as string)]));
      return { action: entry.action, params };
    }
    return undefined;
  }
}

/** `POST /admin/keys/:name/revoke`: the route as declared, for a route without `@Audited`. */
export function declaredRoute(controller: Type, handler: object): string {
  const method = HTTP_METHODS[Reflect.getMetadata(METHOD_METADATA, handler) as number] ?? 'ANY';
  return `${method} ${joinedPath(controller, handler)}`;
}

function routesOf(controller: Type): RouteEntry[] {
  const prototype = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(prototype).flatMap((name) => {
    const handler = prototype[name];
    if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) return [];
    const path = joinedPath(controller, handler);
    const names: string[] = [];
    const source = path
      .split('/')
      .map((segment) => {
        if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(segment.slice(1));
        return '([^/]+)';
      })
      .join('/');
    const action =
      (Reflect.getMetadata(AUDITED_ACTION, handler) as string | undefined) ?? declaredRoute(controller, handler);
    const method = HTTP_METHODS[Reflect.getMetadata(METHOD_METADATA, handler) as number] ?? 'ALL';
    return [{ method, pattern: new RegExp(`^${source}/?$`), names, action }];
  });
}

function joinedPath(controller: Type, handler: object): string {
  const parts = [Reflect.getMetadata(PATH_METADATA, controller), Reflect.getMetadata(PATH_METADATA, handler)]
    .map((part) => String(Array.isArray(part) ? part[0] : (part ?? '')).replace(/^\/+|\/+$/g, ''))
    .filter((part) => part !== '');
  return `/${parts.join('/')}`;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
