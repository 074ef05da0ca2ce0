/** Retries `check` (an assertion) until it passes or `timeoutMs` is over, then throws its last failure. */
export async function eventually(check: () => Promise<void>, timeoutMs = 20_000, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}
