import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiClient } from './api/client';
import type { Me } from './api/types';

/**
 * The key pasted at sign-in is kept in sessionStorage: it lives as long as the tab, is not sent anywhere but in
 * the Authorization header of this origin's API calls, and is gone when the tab closes or on sign-out.
 */
const STORAGE_KEY = 'giro.console.key';

export const storedKey = (): string | null => sessionStorage.getItem(STORAGE_KEY);
export const storeKey = (key: string): void => sessionStorage.setItem(STORAGE_KEY, key);
export const forgetKey = (): void => sessionStorage.removeItem(STORAGE_KEY);

export interface Session {
  api: ApiClient;
  /** Who the key is (`GET /admin/me`): its role decides what the console offers. */
  me: Me;
  signOut(): void;
}

const SessionContext = createContext<Session | null>(null);
export const SessionProvider = SessionContext.Provider;

/** The signed-in session; the pages are rendered only inside one. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession outside a signed-in console');
  return session;
}
