/**
 * `target[key]` as an own enumerable property computed by `load` on first read and kept; an
 * assignment replaces it. How bundles and the compiler's caches defer decoding what may never be read.
 */
export function defineLazy<T>(target: object, key: string, load: () => T): void {
  let value: T;
  let loaded = false;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      if (!loaded) (value = load()), (loaded = true);
      return value;
    },
    set: (next: T) => ((value = next), (loaded = true)),
  });
}
