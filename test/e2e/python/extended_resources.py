"""The python client (Debian's python3-kubernetes) and extended resources: patch_node_status with a JSON patch adds
`example.com/py-dongle` to a virtual node's capacity (kube's "advertise extended resources" recipe), the kubelet makes
it allocatable, a pod asking for it is placed on that node, and one more waits with the scheduler's FailedScheduling
event. The capacity entry is removed at the end.

Run by test/e2e/scheduling-extended-resources.test.mjs with KUBECONFIG, the namespace to use as argv[1] and the node
as argv[2]. Prints one JSON line per check; the assertions live in the node test.
"""
import json
import sys
import time

from kubernetes import client, config

ns, node = sys.argv[1], sys.argv[2]
config.load_kube_config()
core = client.CoreV1Api()
NAME = "example.com/py-dongle"
PATH = "/status/capacity/example.com~1py-dongle"


def say(**kv):
    print(json.dumps(kv), flush=True)


def wait(what, check, timeout=60):
    end = time.time() + timeout
    while True:
        v = check()
        if v:
            return v
        if time.time() > end:
            raise TimeoutError(what)
        time.sleep(0.25)


def asking(name):
    resources = client.V1ResourceRequirements(limits={NAME: "1"})
    container = client.V1Container(name="c", image="nginx:1.25", resources=resources)
    return client.V1Pod(metadata=client.V1ObjectMeta(name=name), spec=client.V1PodSpec(containers=[container]))


core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
try:
    patched = core.patch_node_status(node, [{"op": "add", "path": PATH, "value": "1"}])
    allocatable = wait("allocatable", lambda: core.read_node(node).status.allocatable.get(NAME))
    say(check="advertised", capacity=patched.status.capacity.get(NAME), allocatable=allocatable)

    core.create_namespaced_pod(ns, asking("first"))
    placed = wait("first bound", lambda: core.read_namespaced_pod("first", ns).spec.node_name)
    core.create_namespaced_pod(ns, asking("second"))

    def failed():
        events = core.list_namespaced_event(ns, field_selector="reason=FailedScheduling,involvedObject.name=second")
        return events.items[0].message if events.items else None

    say(check="scheduled", node=placed, waiting=wait("second FailedScheduling", failed))
finally:
    core.patch_node_status(node, [{"op": "remove", "path": PATH}])
    core.delete_namespace(ns)
