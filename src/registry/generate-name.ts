// metadata.generateName: apiserver's SimpleNameGenerator (base truncated to 58, then 5 random characters).

/** Names are capped at 63 (the DNS label length) so a generated name fits every kind's rule. */
const MAX_NAME_LENGTH = 63
const RANDOM_LENGTH = 5
/** The longest base kept: 63 - 5. */
export const MAX_GENERATED_NAME_LENGTH = MAX_NAME_LENGTH - RANDOM_LENGTH

/** utilrand's alphabet: vowels are left out so a random suffix cannot spell words. */
export const GENERATED_NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789'

/**
 * Returns `base` (cut to 58 characters) followed by 5 random characters from the alphabet. `random` yields floats in
 * [0, 1) like Math.random; tests pass a fixed sequence, production uses crypto.getRandomValues.
 */
export function generateName(base: string, random: () => number = cryptoRandom): string {
  let name = base.length > MAX_GENERATED_NAME_LENGTH ? base.slice(0, MAX_GENERATED_NAME_LENGTH) : base
  for (let i = 0; i < RANDOM_LENGTH; i++) {
    const n = GENERATED_NAME_ALPHABET.length
    name += GENERATED_NAME_ALPHABET[Math.min(n - 1, Math.floor(random() * n))]
  }
  return name
}

// A uint32 scaled to [0, 1): its bias over 27 buckets is under 1e-8, and the injectable source stays a plain float.
function cryptoRandom(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0] / 2 ** 32
}
