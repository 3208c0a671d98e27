"""The python client's list and watch.Watch().stream() as a user who may only list and watch pods in one namespace.

Run by test/e2e/identity-informer.test.mjs with argv: the namespace the user may watch, one it may not, and the
user's kubeconfig (the admin's is KUBECONFIG, for the writes). Prints one JSON line per check.
"""
import json
import sys
import threading
import time

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

ns, other, user_config = sys.argv[1], sys.argv[2], sys.argv[3]
admin = client.CoreV1Api(api_client=config.new_client_from_config())
user = client.CoreV1Api(api_client=config.new_client_from_config(config_file=user_config))


def say(**kv):
    print(json.dumps(kv), flush=True)


def refusal(call):
    """Status code and Status message of a call that must fail."""
    try:
        call()
    except ApiException as e:
        return {"status": e.status, "message": json.loads(e.body)["message"] if e.body else None}
    return {"status": None}


def pod(name):
    return client.V1Pod(
        metadata=client.V1ObjectMeta(name=name),
        spec=client.V1PodSpec(containers=[client.V1Container(name="main", image="nginx:1.25")]),
    )


listed = user.list_namespaced_pod(ns)
say(check="list", names=[p.metadata.name for p in listed.items])


def writer():
    time.sleep(0.5)
    admin.create_namespaced_pod(ns, pod("py-during"))
    admin.delete_namespaced_pod("py-during", ns, grace_period_seconds=0)


w = watch.Watch()
seen = []
t = threading.Thread(target=writer)
t.start()
for event in w.stream(user.list_namespaced_pod, ns, resource_version=listed.metadata.resource_version, timeout_seconds=20):
    seen.append((event["type"], event["object"].metadata.name))
    if event["type"] == "DELETED" and event["object"].metadata.name == "py-during":
        w.stop()
t.join()
say(check="watch", events=seen)

say(check="list-all", **refusal(lambda: user.list_pod_for_all_namespaces()))
say(check="list-other", **refusal(lambda: user.list_namespaced_pod(other)))
say(check="watch-all", **refusal(lambda: next(watch.Watch().stream(user.list_pod_for_all_namespaces, timeout_seconds=5))))
say(check="watch-other", **refusal(lambda: next(watch.Watch().stream(user.list_namespaced_pod, other, timeout_seconds=5))))
