// Timestamps in the formats kube writes: RFC 3339 with second precision (metav1.Time) or microseconds (MicroTime).

export const rfc3339 = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')
const rfc3339Micro = (d: Date) => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')
