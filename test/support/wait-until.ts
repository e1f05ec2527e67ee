// For end-to-end tests that watch another process or server: wait for a condition instead of sleeping a guess.

/** Polls `condition` every 50 ms until it holds; fails after `timeoutMs` with what `describe()` gives (or resolves to). */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  describe: () => unknown = () => '',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(await describe())}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
