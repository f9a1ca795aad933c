"""Watches ConfigMaps through each replica with the Debian python3-kubernetes client.

For each kubeconfig given (one per replica, all checked at once), a Watch().stream of
list_namespaced_config_map runs against that replica as most Python code runs it: without a
resourceVersion, with allow_watch_bookmarks and a timeout_seconds. Once the watch has delivered
the namespace's existing ConfigMap (a synthetic ADDED: proof the watch is running), a ConfigMap is
created, patched and deleted through the next replica; the watch must deliver ADDED, MODIFIED and
DELETED for it as typed V1ConfigMap objects, then a BOOKMARK before the server ends it at the
timeout (kube-apiserver sends one shortly before a watch's deadline).

Usage: watch_stream.py NAMESPACE_PREFIX KUBECONFIG...
Prints one JSON line per replica; exits 0 only if every replica's watch saw what it should.
"""
import json
import sys
import threading

from kubernetes import client, config, watch

WATCH_TIMEOUT_SECONDS = 6
# The test's own ConfigMaps: a namespace also gets kube-root-ca.crt from the controllers.
LABELS = {"orch-test": "python-watch"}
SELECTOR = "orch-test=python-watch"
EXPECTED = [["ADDED", "seed", "seed"], ["ADDED", "probe", "v1"],
            ["MODIFIED", "probe", "v2"], ["DELETED", "probe", "v2"]]


def api(kubeconfig):
    return client.CoreV1Api(config.new_client_from_config(config_file=kubeconfig))


def stream_into(watcher, namespace, result, running):
    """Collects the watch's events into result until the server ends the watch."""
    try:
        for event in watch.Watch().stream(watcher.list_namespaced_config_map, namespace=namespace,
                                          timeout_seconds=WATCH_TIMEOUT_SECONDS,
                                          allow_watch_bookmarks=True, label_selector=SELECTOR):
            if event["type"] == "BOOKMARK":
                result["bookmarks"].append(event["raw_object"]["metadata"]["resourceVersion"])
                continue
            obj = event["object"]
            if not isinstance(obj, client.V1ConfigMap):
                raise TypeError("not a V1ConfigMap: %r" % type(obj))
            result["events"].append([event["type"], obj.metadata.name, (obj.data or {}).get("k")])
            if obj.metadata.name == "seed":
                running.set()
    except Exception as error:  # reported in the result, which fails the run
        result["failure"].append("%s: %s" % (type(error).__name__, error))
    finally:
        running.set()


def check(watcher, writer, namespace, result):
    """One replica's check: watch through `watcher`, write through `writer`."""
    try:
        writer.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=namespace)))
        writer.create_namespaced_config_map(namespace, client.V1ConfigMap(
            metadata=client.V1ObjectMeta(name="seed", labels=LABELS), data={"k": "seed"}))
        running = threading.Event()
        thread = threading.Thread(target=stream_into, args=(watcher, namespace, result, running))
        thread.start()
        if not running.wait(WATCH_TIMEOUT_SECONDS):
            result["failure"].append("the watch delivered nothing")
        if not result["failure"]:
            writer.create_namespaced_config_map(namespace, client.V1ConfigMap(
                metadata=client.V1ObjectMeta(name="probe", labels=LABELS), data={"k": "v1"}))
            writer.patch_namespaced_config_map("probe", namespace, {"data": {"k": "v2"}})
            writer.delete_namespaced_config_map("probe", namespace)
        thread.join(WATCH_TIMEOUT_SECONDS * 2)
        if thread.is_alive():
            result["failure"].append("the watch outlived its timeout_seconds")
        writer.delete_namespace(namespace)
    except Exception as error:  # reported in the result, which fails the run
        result["failure"].append("%s: %s" % (type(error).__name__, error))


def main():
    prefix, kubeconfigs = sys.argv[1], sys.argv[2:]
    apis = [api(path) for path in kubeconfigs]
    results, threads = [], []
    for i, watcher in enumerate(apis):
        written = (i + 1) % len(apis)
        result = {"watched": i + 1, "written": written + 1, "events": [], "bookmarks": [], "failure": []}
        results.append(result)
        threads.append(threading.Thread(target=check, args=(watcher, apis[written], "%s-%d" % (prefix, i + 1), result)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ok = True
    for result in results:
        ok = ok and not result["failure"] and result["events"] == EXPECTED and len(result["bookmarks"]) > 0
        print(json.dumps(result), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
