# CDXTheme Theme Builder. `make run` and `make test` do all set-up on a fresh
# Debian/Ubuntu machine (as root, or with sudo available).
SHELL := /bin/bash
GO ?= go
TAGS := webkit2_41
BIN := build/bin/cdxtheme
APT_PACKAGES := libgtk-3-dev libwebkit2gtk-4.1-dev pkg-config chromium xvfb xauth imagemagick xdotool x11-utils
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export GOFLAGS ?= -mod=mod

.PHONY: run test deps apt npm peers frontend build cli dev-binary test-go test-frontend test-e2e faults bench clean

## deps: everything the build and the tests need (apt packages, npm packages, Go modules)
deps: apt npm
	$(GO) mod download

apt:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing: $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

npm: frontend/node_modules/.installed

frontend/node_modules/.installed: frontend/package.json frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund
	touch $@

## peers: the real ACP adapters the integration tests drive (pinned in peers/package-lock.json)
peers: peers/node_modules/.installed

peers/node_modules/.installed: peers/package.json peers/package-lock.json
	cd peers && npm ci --no-audit --no-fund
	touch $@

frontend: npm
	cd frontend && npm run build

## build: the production desktop binary
build: frontend
	$(GO) build -tags desktop,production,$(TAGS) -trimpath -ldflags "-s -w" -o $(BIN) .

## cli: the headless binary (no cgo, no tags), as the CLI contract requires
cli:
	CGO_ENABLED=0 $(GO) build -o build/bin/cdxtheme-cli .

## run: set up everything, build and launch the app
run: deps build
	./$(BIN)

test-go: peers
	CGO_ENABLED=0 $(GO) test -count=1 ./core/... ./app/... ./internal/...

test: deps peers test-go

clean:
	rm -rf build/bin frontend/dist/assets frontend/dist/index.html
