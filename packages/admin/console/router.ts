import { useEffect, useState } from 'preact/hooks';
import { type Query, queryString } from './api/query';

// Hash routing (`/console#/transfers?status=FAILED`): the server serves one page, and the page's state — which
// list, which filters — is in its address, so it can be bookmarked, shared and gone back to.

export interface Route {
  /** The path's segments: `['transfers', '1001']`. */
  path: string[];
  query: URLSearchParams;
}

function currentRoute(): Route {
  const hash = location.hash.replace(/^#\/?/, '');
  const [path = '', query = ''] = hash.split('?', 2);
  return { path: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(query) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}

/** `#/transfers/1001?x=1`. */
export function href(path: string, query?: Query): string {
  return `#/${path}${queryString(query)}`;
}

export function navigate(path: string, query?: Query): void {
  location.hash = href(path, query).slice(1);
}
