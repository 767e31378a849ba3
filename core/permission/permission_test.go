package permission

import (
	"context"
	"testing"

	"cdxtheme/core/acp"
)

func TestPolicyChoosesByKind(t *testing.T) {
	codex := []PermissionOption{ // @agentclientprotocol/codex-acp 2.x
		{OptionID: "allow_once", Kind: acp.KindAllowOnce},
		{OptionID: "accept_execpolicy_amendment", Kind: acp.KindAllowAlways},
		{OptionID: "cancel", Kind: acp.KindRejectOnce},
	}
	zed := []PermissionOption{ // @zed-industries/codex-acp 0.16
		{OptionID: "approved-for-session", Kind: acp.KindAllowAlways},
		{OptionID: "approved", Kind: acp.KindAllowOnce},
		{OptionID: "abort", Kind: acp.KindRejectAlways},
	}
	onlyAlways := []PermissionOption{{OptionID: "a", Kind: acp.KindAllowAlways}}
	tests := []struct {
		policy string
		opts   []PermissionOption
		want   string
	}{
		{"allow", codex, "allow_once"},
		{"allow", zed, "approved"},
		{"allow", onlyAlways, "a"},
		{"deny", codex, "cancel"},
		{"deny", zed, "abort"},
		{"deny", onlyAlways, ""},
		{"ask", codex, "cancel"}, // no UI here: refuse rather than allow
	}
	for _, tc := range tests {
		got, err := Policy(tc.policy).Decide(context.Background(), "s", Permission{Options: tc.opts})
		if err != nil || got != tc.want {
			t.Errorf("Policy(%q) over %v = %q, %v; want %q", tc.policy, tc.opts, got, err, tc.want)
		}
	}
}
