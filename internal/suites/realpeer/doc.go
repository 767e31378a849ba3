// Package realpeer tests core/chat against the real codex-acp adapters
// (@agentclientprotocol/codex-acp 2.6.0 and @zed-industries/codex-acp
// 0.16.0, installed by `make peers`) driving a real Codex that talks to the
// loopback Responses mock of internal/testrig/respmock. Nothing here is faked on the
// agent side: what passes here works with the programs users run.
//
// The tests skip when the adapters are missing, and fail instead when
// CDXTHEME_REQUIRE_PEERS=1 (make test sets it).
package realpeer
