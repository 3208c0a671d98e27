"""The python client's CustomObjectsApi against a CronTab CRD already served (test/e2e/crds.test.mjs): list, patch,
and watch.Watch().stream() of list_namespaced_custom_object.

argv: namespace, group. Prints one JSON line per check.
"""
import json
import sys
import threading
import time

from kubernetes import client, config, watch

ns, group = sys.argv[1], sys.argv[2]
config.load_kube_config()
api = client.CustomObjectsApi()


def say(**kv):
    print(json.dumps(kv), flush=True)


listed = api.list_namespaced_custom_object(group, "v1", ns, "crontabs")
say(check="list", names=[o["metadata"]["name"] for o in listed["items"]], rv=listed["metadata"]["resourceVersion"])

patched = api.patch_namespaced_custom_object(group, "v1", ns, "crontabs", "my-new-cron-object", {"spec": {"replicas": 2}})
say(check="patch", replicas=patched["spec"]["replicas"])

w = watch.Watch()
seen = []


def writer():
    time.sleep(1)
    api.create_namespaced_custom_object(
        group, "v1", ns, "crontabs",
        {"apiVersion": f"{group}/v1", "kind": "CronTab", "metadata": {"name": "from-python"}, "spec": {"image": "py"}},
    )


threading.Thread(target=writer).start()
for event in w.stream(
    api.list_namespaced_custom_object, group, "v1", ns, "crontabs",
    resource_version=patched["metadata"]["resourceVersion"], timeout_seconds=20,
):
    seen.append([event["type"], event["object"]["metadata"]["name"]])
    if any(name == "from-python" for _, name in seen):
        w.stop()
say(check="watch", events=[e for e in seen if e[1] == "from-python"])
