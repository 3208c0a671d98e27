// Timestamps as kube writes them: RFC 3339 in seconds for object times, nanoseconds for log lines.
export const rfc3339 = (d: Date = new Date()) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')

/** Nanosecond RFC 3339 (the CRI log format's and `kubectl logs --timestamps`'): milliseconds padded with zeros. */
export const rfc3339Nano = (d: Date = new Date()) => d.toISOString().replace(/Z$/, '000000Z')
