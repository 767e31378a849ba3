// Package thirdparty drives the real third-party ACP agents pinned in peers/
// (qwen-code, opencode, gemini-cli, claude-code-acp) through the headless
// CLI, `cdxtheme chat`, each offline against the loopback model API mock of
// internal/testrig/apimock. Nothing on the agent side is faked: a cell that passes
// here works with the program a user installs.
//
// The tests skip when an agent is missing, and fail instead when
// CDXTHEME_REQUIRE_PEERS=1 (make test sets it). The essential cells run in
// make test; CDXTHEME_AGENT_CELLS=all (make test-agents) runs every cell.
package thirdparty
