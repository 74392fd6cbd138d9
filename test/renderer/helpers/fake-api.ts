/**
 * A stand-in for `window.firebrand` in store tests: the methods a test gives, and for every other one an invoke
 * that never answers (as a busy main would not yet have) or an event subscription that never fires.
 */
type Methods = Record<string, Record<string, unknown>>;

export function fakeApi(given: Methods): unknown {
  return new Proxy(
    {},
    {
      get: (_, domain: string) =>
        new Proxy(given[domain] ?? {}, {
          get: (methods, name: string) =>
            methods[name] ?? (name.startsWith('on') ? () => () => undefined : () => new Promise(() => undefined)),
        }),
    },
  );
}

/** A promise with its resolve, for an answer a test hands back when it chooses. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
