/**
 * Small polyfills for the oldest browsers hall PCs run (Chrome 80, Firefox 78,
 * Edge 80). esbuild lowers syntax to ES2019 but not library calls: marked (bundled until
 * issue 26 moved rendering to the server) calls `Array.prototype.at` (Chrome 92) and
 * `Object.hasOwn` (Chrome 93); `String.prototype.replaceAll` (Chrome 85) is cheap
 * insurance. The e2e test "old browser built-ins" removes these before the page loads
 * and checks that a question with math still renders.
 * Must be the first import of main.ts.
 */

function define(target: object, name: string, value: unknown): void {
  if (name in target) return;
  Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
}

function at(this: { length: number; [i: number]: unknown }, index: number): unknown {
  const len = this.length >>> 0;
  let i = Math.trunc(Number(index)) || 0;
  if (i < 0) i += len;
  return i < 0 || i >= len ? undefined : this[i];
}

define(Array.prototype, 'at', at);
define(String.prototype, 'at', function (this: string, index: number) {
  return at.call(String(this), index);
});
define(Object, 'hasOwn', function (obj: object, key: PropertyKey) {
  return Object.prototype.hasOwnProperty.call(Object(obj), key);
});
define(String.prototype, 'replaceAll', function (this: string, search: string | RegExp, replacement: string) {
  if (search instanceof RegExp && !search.global) throw new TypeError('replaceAll must be called with a global RegExp');
  const pattern = search instanceof RegExp ? search : new RegExp(String(search).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g');
  return String(this).replace(pattern, replacement);
});

export {};
