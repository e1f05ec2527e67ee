import { useEffect, useMemo, useState } from 'preact/hooks';
import { type Query, queryString } from './api/query';

// Hash routing (`/console#/transfers?status=FAILED`): the server serves one page, and the page's state — which
// list, which filters — is in its address, so it can be bookmarked, shared and gone back to.

export interface Route {
  /** The path's segments: `['transfers', '1001']`. */
  path: string[];
  query: URLSearchParams;
}

function currentRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  return { path: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(query) };
}

export function useRoute(): Route {
  const [hash, setHash] = useState(() => location.hash);
  useEffect(() => {
    const update = () => setHash(location.hash);
    addEventListener('hashchange', update);
    // The address may have changed between the first render and this effect (a link followed at once, before
    // the listener existed): read it again.
    update();
    return () => removeEventListener('hashchange', update);
  }, []);
  return useMemo(() => currentRoute(hash), [hash]);
}

/** `#/transfers/1001?x=1`. */
export function href(path: string, query?: Query): string {
  return `#/${path}${queryString(query)}`;
}

export function navigate(path: string, query?: Query): void {
  location.hash = href(path, query).slice(1);
}
