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
VOLUME /data
USER nonroot
ENTRYPOINT ["/trickchef"]
