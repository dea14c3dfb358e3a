#!/bin/sh
# Prints a kubeconfig for Beekeeper's ServiceAccount on the hub of the current kubectl context, after
# `kubectl apply -k deploy/hub-access` there. Put it in the Secret beekeeper-hubs as <hub>.kubeconfig
# (docs/hub-access.md).
#
#   deploy/hub-access/make-kubeconfig.sh west > west.kubeconfig
#
# The token comes from the Secret beekeeper-token (long-lived; TOKEN_SECRET names another for a rotation), or with
# TOKEN_DURATION set (e.g. 8760h) from `kubectl create token` (expires; the API server may cap the duration).
# The CA is the current context's (inline or a file), else the token Secret's ca.crt; SERVER overrides the API server URL.
# No CA found: it refuses, unless INSECURE_SKIP_TLS_VERIFY=true (a throwaway hub).
set -eu
hub=${1:?usage: make-kubeconfig.sh <hub-name>}
ns=${ACCESS_NAMESPACE:-beekeeper-access}
sa=beekeeper
secret=${TOKEN_SECRET:-beekeeper-token}

if [ -n "${TOKEN_DURATION:-}" ]; then
  token=$(kubectl -n "$ns" create token "$sa" --duration="$TOKEN_DURATION")
else
  token=''
  tries=0
  # The token controller fills the Secret in shortly after it is created.
  while :; do
    token=$(kubectl -n "$ns" get secret "$secret" -o jsonpath='{.data.token}' | base64 -d)
    [ -n "$token" ] && break
    tries=$((tries + 1))
    if [ "$tries" -ge 30 ]; then
      echo "make-kubeconfig: Secret $ns/$secret has no token after 30 s (is it applied?)" >&2
      exit 1
    fi
    sleep 1
  done
fi

server=${SERVER:-$(kubectl config view --minify -o jsonpath='{.clusters[0].cluster.server}')}
# --flatten inlines a CA the context names by file (certificate-authority: /path), as kubeadm and minikube write it;
# without it only certificate-authority-data is seen and such a context would fall through to the checks below.
ca=$(kubectl config view --minify --flatten -o jsonpath='{.clusters[0].cluster.certificate-authority-data}')
if [ -z "$ca" ]; then
  ca=$(kubectl -n "$ns" get secret "$secret" -o jsonpath='{.data.ca\.crt}' 2>/dev/null || true)
fi
if [ -n "$ca" ]; then
  trust="certificate-authority-data: $ca"
elif [ "${INSECURE_SKIP_TLS_VERIFY:-}" = true ]; then
  echo "make-kubeconfig: no CA found; the kubeconfig skips TLS verification, as INSECURE_SKIP_TLS_VERIFY=true asks" >&2
  trust='insecure-skip-tls-verify: true'
else
  # A token sent to a server nobody verified is a token given away: refuse rather than write such a kubeconfig.
  echo "make-kubeconfig: no CA found in the context nor in Secret $ns/$secret; set SERVER and a context with the" >&2
  echo "  hub's CA, or INSECURE_SKIP_TLS_VERIFY=true for a throwaway hub" >&2
  exit 1
fi

cat <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
  - name: $hub
    cluster:
      server: $server
      $trust
users:
  - name: beekeeper
    user:
      token: $token
contexts:
  - name: $hub
    context:
      cluster: $hub
      user: beekeeper
current-context: $hub
KUBECONFIG
