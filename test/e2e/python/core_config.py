"""The python client (Debian's python3-kubernetes) and the configuration kinds: CoreV1Api create, read, patch and
delete of a ConfigMap and a Secret (string_data merged into data, base64 on the wire).

Run by test/e2e/config-kinds.test.mjs with KUBECONFIG and the namespace to use as argv[1]. Prints one JSON line per
check; the assertions live in the node test.
"""
import base64
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException

ns = sys.argv[1]
config.load_kube_config()
core = client.CoreV1Api()


def say(**kv):
    print(json.dumps(kv), flush=True)


core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))

cm = core.create_namespaced_config_map(
    ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="settings"), data={"mode": "fast"})
)
read = core.read_namespaced_config_map("settings", ns)
patched = core.patch_namespaced_config_map("settings", ns, {"data": {"mode": "slow", "extra": "1"}})
say(check="configmap", created=cm.data, read=read.data, patched=patched.data)

secret = core.create_namespaced_secret(
    ns,
    client.V1Secret(metadata=client.V1ObjectMeta(name="creds"), string_data={"user": "admin"}, type="Opaque"),
)
read_secret = core.read_namespaced_secret("creds", ns)
patched_secret = core.patch_namespaced_secret(
    "creds", ns, {"data": {"password": base64.b64encode(b"hunter2").decode()}}
)
say(
    check="secret",
    created=secret.data,
    string_data=read_secret.string_data,
    read_user=base64.b64decode(read_secret.data["user"]).decode(),
    patched=sorted(patched_secret.data.keys()),
    type=read_secret.type,
)

core.delete_namespaced_config_map("settings", ns)
core.delete_namespaced_secret("creds", ns)
gone = []
for read_fn, name in ((core.read_namespaced_config_map, "settings"), (core.read_namespaced_secret, "creds")):
    try:
        read_fn(name, ns)
        gone.append(None)
    except ApiException as e:
        gone.append(e.status)
say(check="deleted", statuses=gone)

try:
    core.create_namespaced_secret(
        ns,
        client.V1Secret(metadata=client.V1ObjectMeta(name="tls"), type="kubernetes.io/tls", data={}),
    )
    say(check="invalid", status=None)
except ApiException as e:
    say(check="invalid", status=e.status, message=json.loads(e.body)["message"])

core.delete_namespace(ns)
