# CDXTheme Theme Builder. `make run` and `make test` do all set-up on a fresh
# Debian/Ubuntu machine (as root, or with sudo available).
SHELL := /bin/bash
GO ?= go
TAGS := webkit2_41
BIN := build/bin/cdxtheme
DEV_BIN := build/bin/cdxtheme-dev
# The agent shim beside the app: leads each agent's process group and ends it
# when the app dies (core/agent); the app re-executes itself when it is absent.
SHIM := build/bin/cdxtheme-agent-shim
APT_PACKAGES := build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev chromium xvfb xauth \
	imagemagick xdotool x11-utils dbus-x11 desktop-file-utils \
	neovim bat tmux foot kitty \
	vim emacs-nox fish fzf dconf-cli x11-xserver-utils \
	nsis osslsigncode 7zip
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
GO_SOURCES := $(shell find . -name '*.go' -not -path './frontend/*' -not -path './peers/*' -not -path './e2e/*' 2>/dev/null)
FRONTEND_SOURCES := $(shell find frontend/src frontend/index.html frontend/vite.config.ts -type f 2>/dev/null)
# In make test, test-prep built what the suites share before the lanes
# start (TEST_PREPARED=1): a lane must not rebuild it under the suites of
# another, as it would if a test touched a source file's time.
PREPARED = $(if $(TEST_PREPARED),,$(1))

.PHONY: run test deps apt npm peers frontend build cli dev-binary bindings bindings-check \
	test-go consistency test-agents types test-frontend test-e2e test-window faults audit bench bench-clients clean cross test-windows mutate \
	test-prep test-bins test-peers $(WINDOW_TESTS)

## deps: everything the build and the tests need (apt, npm and Go modules)
deps: apt npm
	$(GO) mod download

apt:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing: $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

npm: frontend/node_modules/.installed e2e/node_modules/.installed

frontend/node_modules/.installed: frontend/package.json frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund
	touch $@

e2e/node_modules/.installed: e2e/package.json e2e/package-lock.json
	cd e2e && npm ci --no-audit --no-fund
	touch $@

## peers: the real ACP adapters the integration tests drive (pinned in peers/package-lock.json)
peers: peers/node_modules/.installed

# Not `npm ci`: qwen-code's optional per-platform packages (clipboard, pty)
# for other OSes are absent from the registry, so the lock cannot list them
# and `npm ci` refuses it as out of sync; `npm install --no-save` installs
# exactly the lock's versions and leaves the lock as it is.
peers/node_modules/.installed: peers/package.json peers/package-lock.json
	cd peers && npm install --no-audit --no-fund --no-save
	touch $@

frontend/dist/index.html: frontend/node_modules/.installed $(FRONTEND_SOURCES)
	cd frontend && npm run build

frontend: frontend/dist/index.html

## types: regenerate frontend/src/lib/gen/events.ts (the event payloads' TS types) from Go
types:
	$(GO) run ./internal/tools/tsgen

## bindings: regenerate frontend/wailsjs from the Go bindings (no Wails CLI needed), and the event types
bindings: types
	$(GO) build -tags bindings,$(TAGS) -o build/bin/cdxtheme-bindings .
	tsoutputtype=interfaces ./build/bin/cdxtheme-bindings
	rm -f build/bin/cdxtheme-bindings

## bindings-check: fails when frontend/wailsjs is not what `make bindings` makes now
bindings-check:
	GO=$(GO) TAGS=$(TAGS) bash scripts/bindings-check.sh

## build: the production desktop binary and its agent shim
build: $(BIN) $(SHIM)

$(SHIM): $(GO_SOURCES) go.mod go.sum
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w" -o $(SHIM) ./internal/ship/agentshim

$(BIN): frontend/dist/index.html $(GO_SOURCES) go.mod go.sum
	$(GO) build -tags desktop,production,$(TAGS) -trimpath -ldflags "-s -w" -o $(BIN) .

## dev-binary: serves the UI and live bindings on a dev server for Playwright
dev-binary: $(DEV_BIN) $(SHIM)

$(DEV_BIN): frontend/dist/index.html $(GO_SOURCES) go.mod go.sum
	$(GO) build -tags dev,$(TAGS) -o $(DEV_BIN) .

## cli: the headless binary (no cgo, no tags), as the CLI contract requires
cli:
	CGO_ENABLED=0 $(GO) build -o build/bin/cdxtheme-cli .

## run: set up everything, build and launch the app
run: deps build
	./$(BIN)

# Every Go package but the fault matrix, which `faults` runs with its own
# summary, and the suites of real agents, which `test-peers` runs.
PEER_SUITES := ./internal/suites/realpeer ./internal/suites/thirdparty
GO_TEST_PKGS = $$($(GO) list ./... | grep -v -e /internal/suites/faults -e /internal/suites/realpeer -e /internal/suites/thirdparty)
GO_TEST_ENV = CDXTHEME_REQUIRE_PEERS=1 CDXTHEME_REQUIRE_PROGRAMS=1 CDXTHEME_VSCE=$(CURDIR)/peers/node_modules/.bin/vsce CGO_ENABLED=0

# The sidecar's Bun installs and runs the adapter in the first-run install tests.
test-go: peers sidecar npm
	$(GO_TEST_ENV) $(GO) test -count=1 -timeout 20m $(GO_TEST_PKGS)

## test-peers: the real ACP adapters (codex-acp) and the third-party agents against the loopback API mocks;
## apart from test-go because they mostly wait on Node processes, so make test runs them beside the compiling lane
test-peers: peers sidecar
	$(GO_TEST_ENV) $(GO) test -count=1 -timeout 20m $(PEER_SUITES)

## consistency: the same source files painted by the preview, VS Code's highlighter, bat and Neovim with
## each export; agreement per pair of programs, failing below issue #39's 98% (test-go also holds each pair at its floor)
consistency: npm
	CONSISTENCY_STRICT=1 CDXTHEME_REQUIRE_PROGRAMS=1 CGO_ENABLED=0 $(GO) test -count=1 -v -run TestConsistency ./internal/suites/consistency/

## faults: the fault matrix; ends with "N passed, N failed" (the signal cases run the production binary)
faults: $(call PREPARED,build)
	CDXTHEME_APP_BIN=$(CURDIR)/$(BIN) CGO_ENABLED=0 $(GO) test -count=1 -timeout 15m -v ./internal/suites/faults/

## test-agents: every cell of the third-party agents' matrix (make test runs the essential ones)
test-agents: peers
	CDXTHEME_AGENT_CELLS=all CDXTHEME_REQUIRE_PEERS=1 CGO_ENABLED=0 $(GO) test -count=1 -timeout 20m -v -run TestAgents ./internal/suites/thirdparty/

test-frontend: npm
	cd frontend && npx svelte-check --tsconfig ./tsconfig.json && npx vitest run

# The programs the e2e and window suites start: built by one `go build`
# (one link each, compiles shared) before any suite runs, so suites running
# side by side never build the same file at once.
GO_TEST_BINS := build/bin/fakeagent build/bin/respmock build/bin/apimock build/bin/npmstub \
	build/bin/navtest build/bin/droptest build/bin/edittest build/bin/designtest build/bin/applytest build/bin/signintest
GO_TEST_BIN_PKGS := ./internal/testrig/fakeagent ./internal/testrig/respmock/cmd/respmock \
	./internal/testrig/apimock/cmd/apimock ./internal/testrig/npmstub/cmd/npmstub \
	./internal/suites/navtest ./internal/suites/droptest ./internal/suites/edittest \
	./internal/suites/designtest ./internal/suites/applytest ./internal/suites/signintest

$(GO_TEST_BINS) &: $(GO_SOURCES) go.mod go.sum
	@mkdir -p build/bin
	$(GO) build -o build/bin/ $(GO_TEST_BIN_PKGS)

# The GTK drag source the drop and navigation window tests drag files from.
build/bin/dragsource: scripts/dragsource.c
	@mkdir -p build/bin
	gcc -O1 -o $@ $< $$(pkg-config --cflags --libs gtk+-3.0)

## test-bins: the fake agent, the API mocks, the npm stub and the window drivers the suites start
test-bins: $(GO_TEST_BINS) build/bin/dragsource

test-e2e: npm peers sidecar $(call PREPARED,dev-binary test-bins)
	cd e2e && node --test --test-concurrency=1 tests/

# The production window under Xvfb, one target a script (each starts the
# app on an X server of its own, so they can run side by side).
WINDOW_TESTS := window-app window-nav window-drop window-edit window-design window-apply window-signin
window-app: $(call PREPARED,build test-bins)
	bash scripts/window-test.sh
window-nav: $(call PREPARED,build test-bins)
	bash scripts/nav-window-test.sh
window-drop: $(call PREPARED,build test-bins)
	bash scripts/drop-window-test.sh
window-edit: $(call PREPARED,build test-bins)
	bash scripts/edit-window-test.sh
window-design: $(call PREPARED,build test-bins)
	bash scripts/design-window-test.sh
window-apply: $(call PREPARED,build test-bins)
	bash scripts/apply-window-test.sh
window-signin: $(call PREPARED,build test-bins)
	bash scripts/signin-window-test.sh

## test-window: the production app in real windows under Xvfb (the six scripts, two at a time)
test-window: build test-bins
	TEST_PREPARED=1 TIMED_LOGS=build/test-logs/window MAKE="$(MAKE)" bash scripts/timed-suites.sh \
		window-app+window-nav+window-drop,window-edit+window-design+window-apply+window-signin

## cross: builds and vets the Windows and macOS binaries; vet type-checks every package's tests for both (fails on any error)
cross:
	GO=$(GO) bash scripts/cross.sh

## test-windows: the core and app packages' Windows test binaries under Wine (installed from apt); pass/fail per package, Wine's own limits apart (not part of test)
test-windows:
	GO=$(GO) bash scripts/test-windows.sh

## test: everything, as CI runs it, then a table of each suite's wall and CPU seconds
# Stages run in order (scripts/timed-suites.sh); in a stage, lanes joined by
# "," run side by side, each a sequence joined by "+". The compile-bound lane
# (cross, test-go, the bindings check) runs beside the suites that mostly
# wait on a window, a browser or an agent, so two cores stay busy; test-prep
# first builds every binary those suites share, so no two build one file.
# test-frontend ends the window lane, the shortest once it is left out (on a
# clean clone: compile 734 s, browser 634, faults 637, window 581 s before
# test-frontend's 200); at the end of the browser lane that lane finished
# last, 100 s after the others.
TEST_SUITES := deps peers,test-prep \
	cross+test-go+bindings-check,test-peers+test-e2e,window-app+window-nav+window-drop+faults,window-edit+window-design+window-apply+window-signin+test-package+test-frontend
test:
	TEST_PREPARED=1 MAKE="$(MAKE)" bash scripts/timed-suites.sh $(TEST_SUITES)

## test-prep: what the suites share, built once: the UI, the app and its shim, the dev binary, the sidecar, test-bins
test-prep: npm
	TEST_PREPARED= $(MAKE) --no-print-directory -j2 sidecar build dev-binary test-bins

## audit: known vulnerabilities (govulncheck, npm audit); says plainly when a database cannot be reached (exit 3)
audit: npm
	GO=$(GO) bash scripts/audit.sh

## bench-clients: the other ACP clients the CLI rows measure (SDK client, acpx, Node 22), pinned in internal/bench/clients
bench-clients: internal/bench/clients/node_modules/.installed

internal/bench/clients/node_modules/.installed: internal/bench/clients/package.json internal/bench/clients/package-lock.json
	# npm install --no-save, not npm ci: acpx's @openclaw/fs-safe lists a
	# native package per platform and the lock holds only the ones the
	# registry serves for linux-x64, which npm 11's ci refuses; install
	# still takes every version from the lock and never rewrites it.
	cd internal/bench/clients && npm install --no-save --no-audit --no-fund
	touch $@

## mutate: sampled mutation test, kill rate per package (not part of make test;
## bounded: 20 mutants a package, 60 s each, 6 min a package), then StrykerJS
## over frontend/src/lib with its unit tests (every mutant, about 45 min), then
## one table of both. STRYKER_CONFIG=stryker.config.json re-runs the
## component tests too (hours). MUTATE_ARGS passes flags, e.g.
## MUTATE_ARGS='-match link.go:252 core/chat'; STRYKER_ARGS too, e.g.
## STRYKER_ARGS='--mutate src/lib/diff.ts' for one file.
STRYKER_CONFIG ?= stryker.unit.json
mutate: deps sidecar
	@mkdir -p build/mutate
	set -o pipefail; CGO_ENABLED=0 go run ./internal/tools/mutate $(MUTATE_ARGS) | tee build/mutate/go.txt
	cd frontend && nice -n 10 npx stryker run $(STRYKER_CONFIG) $(STRYKER_ARGS)
	@echo; node scripts/mutate-summary.mjs build/mutate/go.txt frontend/reports/mutation/mutation.json

## bench: every benchmark side by side; prints one table of ratios, writes bench-results.json
bench: peers build bench-clients build/bin/barewails
	bash scripts/bench.sh

# The floor of the window rows: a bare Wails window, built as the app is.
build/bin/barewails: $(wildcard internal/bench/barewails/*) go.mod go.sum
	$(GO) build -tags desktop,production,$(TAGS) -trimpath -ldflags "-s -w" -o $@ ./internal/bench/barewails

clean:
	rm -rf build/bin frontend/dist/assets frontend/dist/index.html

-include build/package.mk
