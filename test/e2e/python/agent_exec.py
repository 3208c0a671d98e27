"""The python client's exec (v4.channel.k8s.io) against a pod on a real node: stdout, stdin, and the exit code read
from the error channel's Status (argv: namespace, pod). Prints one JSON line per check."""
import json
import sys

from kubernetes import client, config
from kubernetes.stream import stream

ns, name = sys.argv[1], sys.argv[2]
config.load_kube_config()
core = client.CoreV1Api()

out = stream(core.connect_get_namespaced_pod_exec, name, ns, command=["echo", "hi"], stderr=True, stdin=False,
             stdout=True, tty=False)
print(json.dumps({"check": "echo", "stdout": out}), flush=True)

ws = stream(core.connect_get_namespaced_pod_exec, name, ns, command=["sh", "-c", "read line; echo got $line; exit 3"],
            stderr=True, stdin=True, stdout=True, tty=False, _preload_content=False)
ws.write_stdin("ping\n")
ws.run_forever(timeout=20)
print(json.dumps({"check": "stdin", "stdout": ws.read_stdout(), "returncode": ws.returncode}), flush=True)
