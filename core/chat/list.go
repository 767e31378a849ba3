package chat

import (
	"context"

	"cdxtheme/core/acp"
)

// maxListPages bounds how many session/list pages one refresh reads, so an
// agent that keeps handing out cursors cannot keep us busy forever.
const maxListPages = 50

// ListSessions asks the agent for the sessions it knows (session/list, all
// pages), for the app to merge into what it read from disk. ok is false,
// without an error, when the agent does not offer session/list. The warm
// connection answers when there is one (it stays warm); otherwise an agent
// is started in cwd for the question and stopped after.
func (e *Engine) ListSessions(ctx context.Context, cwd string) (sessions []acp.SessionInfo, ok bool, err error) {
	tctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	l, fresh, err := e.borrow(ctx, tctx, cwd, false)
	if err != nil {
		return nil, false, err
	}
	defer func() {
		if fresh {
			e.stopOwned(l)
		} else {
			e.putWarm(l)
		}
	}()
	if l.init.AgentCapabilities.SessionCapabilities.List == nil {
		return nil, false, nil
	}
	cursor := ""
	for range maxListPages {
		var page acp.ListSessionsResponse
		if err := l.conn.Call(tctx, acp.MethodSessionList, acp.ListSessionsRequest{Cursor: cursor}, &page); err != nil {
			return sessions, true, &Error{Code: CodeRPC, Message: "session/list: " + err.Error(), Agent: l.agentDesc(), Err: err}
		}
		sessions = append(sessions, page.Sessions...)
		if page.NextCursor == "" || page.NextCursor == cursor {
			break
		}
		cursor = page.NextCursor
	}
	return sessions, true, nil
}
