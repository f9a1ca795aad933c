#!/usr/bin/env bash
# Installs the reference store (Debian's etcd-server and etcd-client) when `etcd` is missing.
set -euo pipefail
if command -v etcd >/dev/null 2>&1 && command -v etcdctl >/dev/null 2>&1; then
  exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "install-etcd: etcd is missing and installing it needs root (apt-get install etcd-server etcd-client)" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq etcd-server etcd-client >/dev/null
etcd --version | head -1
