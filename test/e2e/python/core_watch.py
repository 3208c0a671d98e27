"""The python client (Debian's python3-kubernetes) against kubeflare: CoreV1Api CRUD and watch.Watch().stream().

Run by test/e2e/python-client.test.mjs with KUBECONFIG and the namespace to use as argv[1]. Prints one JSON line
per check and exits non-zero on the first failure, so the node test shows what went wrong.
"""
import json
import sys
import threading
import time

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

ns = sys.argv[1]
config.load_kube_config()
core = client.CoreV1Api()


def say(**kv):
    print(json.dumps(kv), flush=True)


def pod(name, labels=None):
    return client.V1Pod(
        metadata=client.V1ObjectMeta(name=name, labels=labels or {"app": "py"}),
        spec=client.V1PodSpec(containers=[client.V1Container(name="main", image="nginx:1.25")]),
    )


core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
core.create_namespaced_pod(ns, pod("before"))
listed = core.list_namespaced_pod(ns)
say(check="list", names=[p.metadata.name for p in listed.items], rv=listed.metadata.resource_version)

# The client sends watch=True (Python's str(True)); kube treats any value but false/0 as true.
w = watch.Watch()
seen = []


def writer():
    time.sleep(0.5)
    core.create_namespaced_pod(ns, pod("during"))
    core.patch_namespaced_pod("during", ns, {"metadata": {"labels": {"phase": "two"}}})
    core.delete_namespaced_pod("during", ns, grace_period_seconds=0)


t = threading.Thread(target=writer)
t.start()
for event in w.stream(core.list_namespaced_pod, ns, resource_version=listed.metadata.resource_version, timeout_seconds=20):
    obj = event["object"]
    seen.append((event["type"], obj.metadata.name))
    if event["type"] == "DELETED" and obj.metadata.name == "during":
        w.stop()
t.join()
say(check="watch", events=seen)

# A 404 reaches python as an ApiException carrying kube's Status.
try:
    core.read_namespaced_pod("nobody", ns)
    say(check="404", ok=False)
except ApiException as e:
    body = json.loads(e.body)
    say(check="404", status=e.status, reason=body.get("reason"), message=body.get("message"))

core.delete_namespace(ns)
