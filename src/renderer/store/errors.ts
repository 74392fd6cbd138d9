/** What a failed call says to the user: a FirebrandError's message is already written for them. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Runs an action for a screen that shows one error line: a failure becomes that line, a success clears it.
 * Resolves true on success.
 */
export async function attemptWith(setError: (error: string | null) => void, action: () => Promise<void>): Promise<boolean> {
  try {
    await action();
    setError(null);
    return true;
  } catch (err) {
    setError(errorMessage(err));
    return false;
  }
}
