# syntax=docker/dockerfile:1
# One image for the three idplane programs; the command picks the program:
#   API       node dist/api/src/main.js        (default; port 5000, /health/live, /health/ready, /metrics)
#   operator  node dist/operator/src/main.js   (/healthz and /metrics on 8080)
#   agent     node --max-opt=2 dist/agent/src/main.js   (run by the operator, one pod per organization)
# The Helm chart (helm/idplane, values image.repository/tag) sets these commands; the operator runs agents
# with the image the API puts in each OrgAgent, by default this same image.
# test/integration/image.int.test.ts checks that every command used by the chart and the operator exists.

ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# Compile TypeScript with swc (scripts/build.mjs) into dist/, and build the web console into dist/console.
FROM ${NODE_IMAGE} AS builder
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/ ./scripts/
COPY common/ ./common/
COPY api/ ./api/
COPY agent/ ./agent/
COPY operator/ ./operator/
# The web console: type-checked against the API just compiled, bundled into dist/console (served at /console).
COPY console/ ./console/
RUN node scripts/build.mjs

# Production dependencies only, installed from the same lockfile.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY --from=builder /app/dist ./dist
# The node image's unprivileged user (uid/gid 1000, what the chart and the operator's agent pods run as).
# Only the data directory is writable: embedded-mode PGlite, mails and generated keys; Kubernetes mounts a
# volume there.
RUN mkdir -p /app/data && chown node:node /app/data
# A new PGlite database (an agent's first start, the embedded API) is a copy of this initialised cluster, made once
# here instead of an initdb of 6-12 s of CPU in every pod (common/pglite-template.ts).
ENV PGLITE_TEMPLATE_DIR=/app/pglite-template
RUN node -e "require('./dist/common/pglite-template.js').pgliteTemplate().catch((e) => { console.error(e); process.exit(1) })"
USER 1000:1000
EXPOSE 5000 8080
CMD ["node", "dist/api/src/main.js"]
