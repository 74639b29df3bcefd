# Lock Lab: the lab server as `npm start` runs it, built at image build time.
FROM node:20-bookworm-slim

ENV DEBIAN_FRONTEND=noninteractive \
    NEXT_TELEMETRY_DISABLED=1

# Debian's redis-server: each lab spawns its own redis-server processes.
RUN apt-get update \
 && apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/*

RUN mkdir /app && chown node:node /app
WORKDIR /app
USER node

# npm packages first, so source edits do not reinstall them.
COPY --chown=node:node package.json package-lock.json ./
COPY --chown=node:node scripts ./scripts
RUN node scripts/locklab.mjs setup

COPY --chown=node:node . .
RUN node scripts/locklab.mjs build

# Inside the container the server must listen on all interfaces to be reachable
# through the published port; the redis-servers stay on the container's loopback.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
EXPOSE 3000

# Same path as `npm start` (set-up and build are already done, so it only
# checks them); it forwards docker stop's SIGTERM to the server, which stops
# its redis-servers before exiting.
CMD ["node", "scripts/locklab.mjs", "start"]
