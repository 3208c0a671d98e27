// Comparing secrets' digests without leaking where they differ: every byte is read, whatever the first mismatch.

/**
 * True when a and b hold the same bytes. The loop never exits early and folds every difference into one value, so the
 * time taken depends on the length alone (the lengths are public: both are SHA-256 digests where we use it).
 */
export function timingSafeEqual(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!
  return diff === 0
}
