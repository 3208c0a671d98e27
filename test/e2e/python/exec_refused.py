"""The python client's exec stream against a pod on a virtual node: the handshake succeeds and the refusal arrives
as a Status on the error channel (argv: namespace, pod). Prints the error channel's JSON."""
import json
import sys

from kubernetes import client, config
from kubernetes.stream import stream

ns, name = sys.argv[1], sys.argv[2]
config.load_kube_config()
core = client.CoreV1Api()
ws = stream(core.connect_get_namespaced_pod_exec, name, ns, command=["echo", "hi"], stderr=True, stdin=False,
            stdout=True, tty=False, _preload_content=False)
ws.run_forever(timeout=10)
print(json.dumps({"check": "exec", "error": json.loads(ws.read_channel(3)), "stdout": ws.read_stdout()}), flush=True)
