# Build stage: a static binary.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/trickchef ./cmd/trickchef

# Final stage: the binary, CA certificates for api.telegram.org, nothing else.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/trickchef /trickchef
ENV DATA_DIR=/data
# /healthz and /metrics: a container's loopback is out of reach of probes
# and Prometheus, so they listen on all of its addresses; publish the port
# only where it is private.
ENV OPS_ADDR=:9090
# 8080: LISTEN_ADDR, the webhook and «Стол», behind an HTTPS proxy.
EXPOSE 8080 9090
VOLUME /data
USER nonroot
ENTRYPOINT ["/trickchef"]
