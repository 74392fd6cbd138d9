/** The app's localStorage for store tests under Node (which has none): a fresh one each call, its entries returned. */
export function fakeLocalStorage(): Map<string, string> {
  const storage = new Map<string, string>();
  (globalThis as { localStorage?: unknown }).localStorage = {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => storage.set(k, v),
    removeItem: (k: string) => storage.delete(k),
  };
  return storage;
}
