"""The python client (Debian's python3-kubernetes) and PodTopologySpread's ScheduleAnyway score: a pod whose
constraint selects the two pods already on one node, and whose required node affinity allows that node and one other,
is placed on the other (kube weighs the spread score 2, resources 1).

Run by test/e2e/scheduling-pod-affinity.test.mjs with KUBECONFIG, the namespace as argv[1], the crowded node as
argv[2] and the other as argv[3]. Prints one JSON line per check; the assertions live in the node test.
"""
import json
import sys
import time

from kubernetes import client, config

ns, crowded, other = sys.argv[1], sys.argv[2], sys.argv[3]
config.load_kube_config()
core = client.CoreV1Api()
HOSTNAME = "kubernetes.io/hostname"

term = client.V1NodeSelectorTerm(
    match_expressions=[client.V1NodeSelectorRequirement(key=HOSTNAME, operator="In", values=[crowded, other])]
)
affinity = client.V1Affinity(
    node_affinity=client.V1NodeAffinity(
        required_during_scheduling_ignored_during_execution=client.V1NodeSelector(node_selector_terms=[term])
    )
)
spread = client.V1TopologySpreadConstraint(
    max_skew=1,
    topology_key=HOSTNAME,
    when_unsatisfiable="ScheduleAnyway",
    label_selector=client.V1LabelSelector(match_labels={"app": "soft"}),
)
pod = client.V1Pod(
    metadata=client.V1ObjectMeta(name="soft-3", labels={"app": "soft"}),
    spec=client.V1PodSpec(
        affinity=affinity,
        topology_spread_constraints=[spread],
        containers=[client.V1Container(name="c", image="nginx:1.25")],
    ),
)
created = core.create_namespaced_pod(ns, pod)
end = time.time() + 60
while not core.read_namespaced_pod("soft-3", ns).spec.node_name:
    if time.time() > end:
        raise TimeoutError("soft-3 bound")
    time.sleep(0.25)
placed = core.read_namespaced_pod("soft-3", ns)
print(
    json.dumps(
        {
            "check": "placed",
            "node": placed.spec.node_name,
            "when": placed.spec.topology_spread_constraints[0].when_unsatisfiable,
        }
    ),
    flush=True,
)
