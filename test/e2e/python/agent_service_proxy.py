"""The python client's service proxy to a pod on a real node (argv: namespace, service id such as `web:80`, path):
connect_get_namespaced_service_proxy_with_path, and the POST variant. Prints both answers as JSON."""
import json
import sys

from kubernetes import client, config

ns, service, path = sys.argv[1], sys.argv[2], sys.argv[3]
config.load_kube_config()
core = client.CoreV1Api()
got = core.connect_get_namespaced_service_proxy_with_path(service, ns, path)
try:
    core.connect_post_namespaced_service_proxy_with_path(service, ns, path)
    posted = None
except client.exceptions.ApiException as e:
    posted = e.status
print(json.dumps({"get": got, "post": posted}))
