// How kube quotes a body it could not read in an error (rest.go summarizeData): its first 30 bytes, as text when it
// is a JSON object (cut UTF-8 written as Go's encoder writes it), as hex otherwise.

/** rest.go summarizeData: the body's first 30 bytes when it is a JSON object, else their hex. */
export function summarize(bytes: Uint8Array): string {
  if (bytes.length === 0) return '<empty>'
  const head = bytes.subarray(0, 30)
  const more = bytes.length > 30 ? ' ...' : ''
  if (bytes[0] !== 0x7b) return [...head].map((b) => b.toString(16).padStart(2, '0')).join('') + more
  return utf8Lossy(head) + more
}

/** Decodes UTF-8 as Go's JSON encoder writes a string: a sequence cut short becomes one U+FFFD per byte. */
function utf8Lossy(bytes: Uint8Array): string {
  let end = bytes.length
  let back = 0
  while (back < 3 && end - back - 1 >= 0 && (bytes[end - back - 1]! & 0xc0) === 0x80) back++
  const lead = bytes[end - back - 1]
  if (lead !== undefined && lead >= 0xc0) {
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2
    if (back + 1 < need) end -= back + 1
  }
  return new TextDecoder().decode(bytes.subarray(0, end)) + '\ufffd'.repeat(bytes.length - end)
}
