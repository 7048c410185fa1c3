/** A bounded wait on several promises (the manager's wait for its servers, MCP_TIMEOUT). */

/** Whether every one of `promises` settled within `timeoutMs`. */
export async function settledWithin(
  promises: ReadonlyArray<Promise<unknown>>,
  timeoutMs: number,
): Promise<'done' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
    timer.unref();
  });
  const outcome = await Promise.race([Promise.allSettled(promises).then(() => 'done' as const), timedOut]);
  clearTimeout(timer);
  return outcome;
}
