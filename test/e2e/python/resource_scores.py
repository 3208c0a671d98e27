"""The python client (Debian's python3-kubernetes) and kube-scheduler's two resource scores. Of two nodes, one holds a
pod asking for memory only, the other a pod asking for cpu and memory in step with the node's shares. A pod asking for
nothing goes to the first: NodeResourcesFit counts kube's defaults for it (100m, 200 MiB) and the first has more room
left, and BalancedAllocation skips best-effort pods. A pod asking for those same amounts goes to the second:
BalancedAllocation prefers the node whose cpu and memory shares end up close.

Run by test/e2e/scheduling-resource-scores.test.mjs with KUBECONFIG, the namespace as argv[1] and the two nodes as
argv[2] and argv[3]. Prints one JSON line per pod; the assertions live in the node test.
"""
import json
import sys
import time

from kubernetes import client, config

ns, first, second = sys.argv[1], sys.argv[2], sys.argv[3]
config.load_kube_config()
core = client.CoreV1Api()

term = client.V1NodeSelectorTerm(
    match_expressions=[
        client.V1NodeSelectorRequirement(key="kubernetes.io/hostname", operator="In", values=[first, second])
    ]
)
affinity = client.V1Affinity(
    node_affinity=client.V1NodeAffinity(
        required_during_scheduling_ignored_during_execution=client.V1NodeSelector(node_selector_terms=[term])
    )
)
# The two nodes run no kubelet, so they never report Ready.
tolerations = [
    client.V1Toleration(key="node.kubernetes.io/not-ready", operator="Exists"),
    client.V1Toleration(key="node.kubernetes.io/unreachable", operator="Exists"),
]


def place(name, requests):
    resources = client.V1ResourceRequirements(requests=requests) if requests else None
    pod = client.V1Pod(
        metadata=client.V1ObjectMeta(name=name),
        spec=client.V1PodSpec(
            affinity=affinity,
            tolerations=tolerations,
            containers=[client.V1Container(name="c", image="nginx:1.25", resources=resources)],
        ),
    )
    core.create_namespaced_pod(ns, pod)
    end = time.time() + 60
    while True:
        node = core.read_namespaced_pod(name, ns).spec.node_name
        if node:
            return node
        if time.time() > end:
            raise TimeoutError(f"{name} bound")
        time.sleep(0.25)


print(json.dumps({"check": "best-effort", "node": place("best-effort", None)}), flush=True)
print(
    json.dumps({"check": "requesting", "node": place("requesting", {"cpu": "100m", "memory": "200Mi"})}),
    flush=True,
)
