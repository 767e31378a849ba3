# Packaging targets, included from the main Makefile (`include build/package.mk`).
# Relies on its GO, BIN and the `build` and `frontend` targets. The logic lives
# in scripts/, so each recipe here is one readable line.

BIN_DIR := $(patsubst %/,%,$(dir $(BIN)))
SIDECAR := $(BIN_DIR)/bun
# The screenshot shows the app over sample Codex sessions, never the user's own.
SCREENSHOT_CODEX_HOME ?= internal/testrig/fixtures/codex-home

.PHONY: sidecar package package-windows icons screenshot test-package

## sidecar: the pinned Bun runtime beside the binary (build/bin/bun), run by the app when codex-acp is not on PATH
sidecar: $(SIDECAR)

$(SIDECAR): build/sidecar/package.json build/sidecar/package-lock.json scripts/package-sidecar.sh
	scripts/package-sidecar.sh $(BIN_DIR)

## package: the Debian package build/bin/cdxtheme_<version>_amd64.deb (production binary + sidecar + menu entry + icons)
package: build sidecar
	scripts/package-deb.sh $(BIN) $(BIN_DIR)

## package-windows: build/bin/cdxtheme.exe (icon, version info), cdxtheme.com, bun.exe and the 64-bit per-user NSIS installer when makensis is present; signed with SIGN_PFX/SIGN_PASS
package-windows: frontend
	GO=$(GO) scripts/package-windows.sh

## icons: redraw build/appicon.png and derive the hicolor PNGs and build/windows/icon.ico
icons:
	scripts/make-icons.sh

## screenshot: docs/screenshot.png of the production app under Xvfb (fails if the window stays blank)
screenshot: build build/bin/fakeagent
	BIN=$(BIN) SCREENSHOT_CODEX_HOME=$(SCREENSHOT_CODEX_HOME) SCREENSHOT_SIZE=1440x900 \
	CDXTHEME_AGENT=$(CURDIR)/build/bin/fakeagent FAKE_AGENT_SCENARIO=theme \
	SCREENSHOT_PROMPT="A calm dusk theme: deep indigo background, warm amber accents" \
	scripts/screenshot.sh docs/screenshot.png

## test-package: icons, menu entry, .deb layout and refusals, the macOS .app layout (stand-in binary), the Windows installer (signed with a throwaway certificate, contents), screenshot blank-detection (stand-in programs, ~40 s)
test-package:
	CDXTHEME_REQUIRE_PROGRAMS=1 scripts/package-test.sh
