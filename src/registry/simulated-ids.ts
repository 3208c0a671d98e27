// The simulated kubelet's image and container IDs: stable, fake digests (the simulation pulls and runs nothing), in
// the forms a real node reports them (`docker.io/library/nginx@sha256:…`, `containerd://…`).

/** A pod container's image ID: the image's repository (docker.io/library/ for a bare name) and a fake digest. */
export const imageID = (image: string) => {
  const name = image.includes('/') || image.includes('.') ? image : `docker.io/library/${image}`
  return `${name.replace(/:[^/:]*$/, '')}@sha256:${simpleDigest(image)}`
}

/** A stable, fake digest for an image reference (the simulation pulls nothing). */
function simpleDigest(s: string): string {
  let h1 = 0x811c9dc5
  let out = ''
  for (let round = 0; round < 8; round++) {
    for (const ch of `${round}:${s}`) h1 = Math.imul(h1 ^ ch.charCodeAt(0), 0x01000193) >>> 0
    out += h1.toString(16).padStart(8, '0')
  }
  return out
}

export const containerID = (podUID: string, name: string) => `containerd://${simpleDigest(`${podUID}/${name}`)}`
