import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Loads again; settles when this load's answer is shown (or dropped), never rejects (its error is `error`). */
  reload(): Promise<void>;
}

/**
 * Loads `load()` when `deps` change, and again every `refreshMs(data)` milliseconds while that returns a number
 * (live pages: the next fetch is planned once the previous answer arrived, so slow answers never pile up). An
 * answer that arrives after the deps changed is dropped.
 */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: readonly unknown[],
  refreshMs?: (data: T) => number | undefined,
): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const generation = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const run = useCallback(() => {
    const mine = ++generation.current;
    clearTimeout(timer.current);
    setState((previous) => ({ ...previous, loading: true }));
    return load().then(
      (data) => {
        if (mine !== generation.current) return;
        setState({ data, error: undefined, loading: false });
        const wait = refreshMs?.(data);
        if (wait !== undefined) timer.current = setTimeout(run, wait);
      },
      (error: unknown) => {
        if (mine === generation.current) setState((previous) => ({ ...previous, error, loading: false }));
      },
    );
    // The caller's deps decide when to load again (`load` and `refreshMs` are new closures at every render).
  }, deps);

  useEffect(() => {
    void run();
    return () => {
      generation.current++;
      clearTimeout(timer.current);
    };
  }, [run]);

  return { ...state, reload: run };
}
