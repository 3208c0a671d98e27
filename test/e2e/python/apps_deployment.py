"""The python client (Debian's python3-kubernetes) and apps/v1 Deployments: AppsV1Api create, read, patch (a new
image rolls out), read_namespaced_deployment_scale / patch scale, and delete.

Run by test/e2e/python-apps.test.mjs with KUBECONFIG and the namespace to use as argv[1]. Prints one JSON line per
check; the assertions live in the node test.
"""
import json
import sys
import time

from kubernetes import client, config
from kubernetes.client.rest import ApiException

ns = sys.argv[1]
config.load_kube_config()
core = client.CoreV1Api()
apps = client.AppsV1Api()


def say(**kv):
    print(json.dumps(kv), flush=True)


def wait_rolled_out(name, timeout=30):
    until = time.time() + timeout
    while time.time() < until:
        d = apps.read_namespaced_deployment(name, ns)
        s = d.status
        if (
            (s.observed_generation or 0) >= d.metadata.generation
            and (s.updated_replicas or 0) == d.spec.replicas
            and (s.available_replicas or 0) == d.spec.replicas
            and (s.replicas or 0) == d.spec.replicas
        ):
            return d
        time.sleep(0.2)
    raise RuntimeError(f"{name} did not roll out")


core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
body = client.V1Deployment(
    metadata=client.V1ObjectMeta(name="py-web", labels={"app": "py-web"}),
    spec=client.V1DeploymentSpec(
        replicas=2,
        selector=client.V1LabelSelector(match_labels={"app": "py-web"}),
        template=client.V1PodTemplateSpec(
            metadata=client.V1ObjectMeta(labels={"app": "py-web"}),
            spec=client.V1PodSpec(containers=[client.V1Container(name="web", image="nginx:1.25")]),
        ),
    ),
)
created = apps.create_namespaced_deployment(ns, body)
say(
    check="create",
    name=created.metadata.name,
    generation=created.metadata.generation,
    strategy=created.spec.strategy.type,
    max_surge=created.spec.strategy.rolling_update.max_surge,
    revision_history_limit=created.spec.revision_history_limit,
    progress_deadline_seconds=created.spec.progress_deadline_seconds,
)

d = wait_rolled_out("py-web")
say(
    check="read",
    ready=d.status.ready_replicas,
    available=d.status.available_replicas,
    revision=d.metadata.annotations.get("deployment.kubernetes.io/revision"),
    conditions=sorted((c.type, c.status, c.reason) for c in d.status.conditions),
)

apps.patch_namespaced_deployment("py-web", ns, {"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.26"}]}}}})
d = wait_rolled_out("py-web")
rss = apps.list_namespaced_replica_set(ns, label_selector="app=py-web").items
say(
    check="patch",
    revision=d.metadata.annotations.get("deployment.kubernetes.io/revision"),
    images=sorted((rs.spec.template.spec.containers[0].image, rs.spec.replicas) for rs in rss),
)

scale = apps.read_namespaced_deployment_scale("py-web", ns)
apps.patch_namespaced_deployment_scale("py-web", ns, {"spec": {"replicas": 3}})
d = wait_rolled_out("py-web")
say(check="scale", before=scale.spec.replicas, selector=scale.status.selector, after=d.status.available_replicas)

apps.delete_namespaced_deployment("py-web", ns)
try:
    apps.read_namespaced_deployment("py-web", ns)
    say(check="delete", status=200)
except ApiException as e:
    say(check="delete", status=e.status, reason=json.loads(e.body)["reason"])

try:
    apps.create_namespaced_deployment(ns, client.V1Deployment(metadata=client.V1ObjectMeta(name="bad"), spec=client.V1DeploymentSpec(
        selector=client.V1LabelSelector(match_labels={"app": "a"}),
        template=client.V1PodTemplateSpec(metadata=client.V1ObjectMeta(labels={"app": "b"}), spec=client.V1PodSpec(containers=[client.V1Container(name="c", image="nginx")])),
    )))
    say(check="invalid", status=201)
except ApiException as e:
    say(check="invalid", status=e.status, message=json.loads(e.body)["message"])
