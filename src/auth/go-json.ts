// json.Marshal's bytes for the plain maps and structs authentication writes (JWT payloads, discovery bodies): Go's
// escaping of <, >, &, U+2028 and U+2029, and no trailing newline. Field order is the caller's insertion order.
import { encodeBody } from '../registry/wire-json'

/** encodeBody writes json.Encoder.Encode's bytes for a value with no kind: Marshal's plus a newline. */
export const goJson = (value: unknown): string => encodeBody(value).slice(0, -1)
