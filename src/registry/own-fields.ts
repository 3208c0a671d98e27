// Reading and writing an object's fields as own properties only. Any string is a field name ("__proto__" is a valid
// ConfigMap key, "constructor" a valid label): plain assignment would take "__proto__" for the prototype, and a
// plain read or `in` would find Object.prototype's members.

/** `o[k]` when it is an own property, else undefined (an inherited member such as `constructor` is no field). */
export const own = <T>(o: Record<string, T>, k: string): T | undefined => (Object.hasOwn(o, k) ? o[k] : undefined)

/** Sets `o[k]` as an own data property, whatever the key. */
export function setOwn<T>(o: Record<string, T>, k: string, v: T): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true })
  else o[k] = v
}
