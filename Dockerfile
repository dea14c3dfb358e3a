# One image, every role: the role is the command (api, worker, scheduler, all-in-one).
#   docker build -t beekeeper .
#   docker run --rm -p 8080:8080 -e BEEKEEPER_HTTP_HOST=0.0.0.0 beekeeper            # all-in-one demo (prints
#                                                                                       export BEEKEEPER_TOKEN=...)
#   docker run ... beekeeper src/main/worker.ts                                        # one role
FROM node:20.20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# tsx runs the TypeScript sources directly (it is a runtime dependency), so dev dependencies are not needed.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:20.20-bookworm-slim
# redis-server lets the all-in-one demo start a private Redis when none is configured.
RUN apt-get update && apt-get install -y --no-install-recommends redis-server tini && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production
# The all-in-one demo writes its hub's kubeconfig there (/app is not writable by the node user).
ENV BEEKEEPER_SIM_KUBECONFIG=/tmp/beekeeper/embedded.kubeconfig
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY src ./src
# Beekeeper's own CRDs: the embedded demo installs them into the simulated hub.
COPY deploy/crds ./deploy/crds
USER node
EXPOSE 8080
# tini forwards SIGTERM so that the graceful shutdown (finish or hand back active jobs) runs.
ENTRYPOINT ["/usr/bin/tini", "--", "node", "--import", "tsx"]
CMD ["src/main/all-in-one.ts"]
