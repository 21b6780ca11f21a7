# A RISC game server: `docker build -t risc . && docker run -p 8765:8765 -v risc-data:/data risc`
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY shared ./shared
COPY server ./server
COPY client ./client
COPY risc ./risc
COPY maps ./maps
RUN pip install ".[postgres]" && useradd --system --create-home risc && mkdir -p /data && chown risc /data

USER risc
VOLUME ["/data"]
EXPOSE 8765

HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8765/healthz', timeout=4).status != 200)"]

# SIGTERM (docker stop) tells every client, closes the connections and exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["risc", "server"]
CMD ["--host", "0.0.0.0", "--port", "8765", "--data-dir", "/data"]
