// One bind mount of a container: a host path (a pod volume's directory, a file in it for a subPath, or a hostPath)
// seen at `target` inside the container. Both runtimes take these: docker/podman as `--mount type=bind`, the process
// runtime in a private mount namespace of the container's own (shim.py).
export interface Mount {
  source: string
  target: string
  readOnly: boolean
}
