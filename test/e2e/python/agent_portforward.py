"""The python client's port-forward (portforward.k8s.io channels) to a pod on a real node: an HTTP GET through the
forwarded socket (argv: namespace, pod, port). Prints the response's first line and whether the body arrived."""
import json
import sys

from kubernetes import client, config
from kubernetes.stream import portforward

ns, name, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
config.load_kube_config()
core = client.CoreV1Api()
pf = portforward(core.connect_get_namespaced_pod_portforward, name, ns, ports=str(port))
sock = pf.socket(port)
sock.setblocking(True)
sock.sendall(b"GET /hello.txt HTTP/1.0\r\nHost: pod\r\n\r\n")
data = b""
while True:
    chunk = sock.recv(65536)
    if not chunk:
        break
    data += chunk
sock.close()
print(json.dumps({"status": data.split(b"\r\n", 1)[0].decode(), "body": data.split(b"\r\n\r\n", 1)[-1].decode()}))
