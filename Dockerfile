# The simulator as a container image, for front-end teams and CI gates
# (docs/containers.md). Nothing is pulled: the image is the static binary
# on an empty base. A release builds it from the released linux binary
# (.ci/release-image, run by .github/workflows/release.yml; docs/releases.md):
#
#   .ci/release-image dist/campusconf_1.2.3_linux_amd64.tar.gz v1.2.3
#
# From a checkout, build the binary first, stamped with the version and
# commit that `campusconf version` and every report name, then the image
# with the same two as labels:
#
#   VERSION=$(git describe --tags --always --dirty) COMMIT=$(git rev-parse HEAD)
#   CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/campusconf/campusconf/internal/version.version=$VERSION -X github.com/campusconf/campusconf/internal/version.commit=$COMMIT" -o campusconf ./cmd/campusconf
#   docker build --build-arg VERSION=$VERSION --build-arg COMMIT=$COMMIT -t campusconf .
#
# .dockerignore sends only that binary to the engine.
FROM scratch

ARG VERSION=unknown
ARG COMMIT=unknown

LABEL org.opencontainers.image.title="campusconf" \
      org.opencontainers.image.description="Campus Learning Platform interface simulator (campusconf serve)" \
      org.opencontainers.image.source="https://github.com/campusconf/campusconf" \
      org.opencontainers.image.version="$VERSION" \
      org.opencontainers.image.revision="$COMMIT"

COPY campusconf /campusconf

# No shell, no passwd file: a numeric user (distroless' "nonroot").
USER 65532:65532
EXPOSE 8080

# GET /healthz answers without credentials; there is no HEALTHCHECK because
# the image has no program to run one with (use the orchestrator's HTTP
# probe, see docs/containers.md).
# The simulator answers localhost, IP addresses and the names listed here
# (421 otherwise, against DNS rebinding): other containers reaching it by
# a service name need it allowed, e.g. docker run -e
# CAMPUSCONF_ALLOWED_HOSTS=campus-api (comma-separated; docs/containers.md).
ENV CAMPUSCONF_ALLOWED_HOSTS=""

ENTRYPOINT ["/campusconf"]
CMD ["serve", "--addr", "0.0.0.0:8080"]
