"""The python client (Debian's python3-kubernetes) and batch/v1 Jobs: BatchV1Api create (defaults filled in), read
until the Job completes, patch its labels, delete with Background propagation (its pods go too), and a 422.

Run by test/e2e/jobs.test.mjs with KUBECONFIG and the namespace to use as argv[1]. Prints one JSON line per check;
the assertions live in the node test.
"""
import json
import sys
import time

from kubernetes import client, config
from kubernetes.client.rest import ApiException

ns = sys.argv[1]
config.load_kube_config()
core = client.CoreV1Api()
batch = client.BatchV1Api()


def say(**kv):
    print(json.dumps(kv), flush=True)


def job_body(name, completions=2, backoff_limit=None):
    return client.V1Job(
        metadata=client.V1ObjectMeta(name=name),
        spec=client.V1JobSpec(
            completions=completions,
            backoff_limit=backoff_limit,
            template=client.V1PodTemplateSpec(
                spec=client.V1PodSpec(
                    restart_policy="Never",
                    containers=[client.V1Container(name="work", image="busybox", command=["sh", "-c", "echo ok"])],
                )
            ),
        ),
    )


core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
created = batch.create_namespaced_job(ns, job_body("py-job"))
say(
    check="create",
    name=created.metadata.name,
    completions=created.spec.completions,
    parallelism=created.spec.parallelism,
    backoff_limit=created.spec.backoff_limit,
    completion_mode=created.spec.completion_mode,
    selector_keys=sorted(created.spec.selector.match_labels.keys()),
)

until = time.time() + 60
job = None
while time.time() < until:
    job = batch.read_namespaced_job("py-job", ns)
    if any(c.type == "Complete" and c.status == "True" for c in (job.status.conditions or [])):
        break
    time.sleep(0.25)
say(
    check="read",
    succeeded=job.status.succeeded,
    complete=any(c.type == "Complete" and c.status == "True" for c in (job.status.conditions or [])),
)

patched = batch.patch_namespaced_job("py-job", ns, {"metadata": {"labels": {"team": "batch"}}})
say(
    check="patch",
    labels={k: v for k, v in patched.metadata.labels.items() if k == "team"},
    generation=patched.metadata.generation,
)

status = batch.delete_namespaced_job("py-job", ns, propagation_policy="Background")
gone = False
pods_left = None
until = time.time() + 30
while time.time() < until:
    try:
        batch.read_namespaced_job("py-job", ns)
    except ApiException as e:
        gone = e.status == 404
    pods_left = len(core.list_namespaced_pod(ns, label_selector="job-name=py-job").items)
    if gone and pods_left == 0:
        break
    time.sleep(0.25)
say(check="delete", status=status.status, gone=gone, pods_left=pods_left)

try:
    batch.create_namespaced_job(ns, job_body("bad", backoff_limit=-1))
    say(check="invalid", status=201)
except ApiException as e:
    say(check="invalid", status=e.status, message=json.loads(e.body)["message"])
